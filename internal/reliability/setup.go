package reliability

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/driveemu"
)

// Store kinds.
const (
	StoreSQLite   = "sqlite"
	StorePostgres = "postgres"
)

// Setup says which source and store one harness run uses.
type Setup struct {
	Bin    string // the gds binary
	Home   string // an empty folder: GDS_HOME and the working directory
	Source string // SourceLocal or SourceDrive
	Store  string // StoreSQLite or StorePostgres
	// PostgresURL is the server for StorePostgres; every run gets a fresh
	// schema (GDS_DB_SCHEMA), dropped by the cleanup.
	PostgresURL string
	Concurrency int // gds crawl --concurrency; 0 means 4
	// Drive, when set, is the emulator fixture served for SourceDrive
	// instead of driveemu.FromDir(corpus.Dir) (a test that changes the
	// Drive between crawls builds it itself).
	Drive *driveemu.Fixture
}

// Prepare returns how to run gds over corpus with setup s and how to open
// the index it writes. For SourceDrive it serves the corpus through the
// Drive API emulator on loopback until cleanup is called.
func Prepare(ctx context.Context, corpus *Corpus, s Setup) (g GDS, open Opener, files []Expect, cleanup func(), err error) {
	var cleanups []func()
	cleanup = func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}
	defer func() {
		if err != nil {
			cleanup()
		}
	}()
	conc := s.Concurrency
	if conc <= 0 {
		conc = 4
	}
	g = GDS{Bin: s.Bin, Dir: s.Home, Args: []string{"crawl", "--concurrency", strconv.Itoa(conc)},
		Env: []string{"GDS_HOME=" + s.Home, "GDS_AI_PROVIDER=offline"}}
	if files, err = corpus.Expect(ctx, s.Source); err != nil {
		return
	}
	switch s.Source {
	case SourceLocal:
		g.Args = append(g.Args, "--source", "local:"+corpus.Dir)
	case SourceDrive:
		fx := s.Drive
		if fx == nil {
			var ferr error
			if fx, ferr = driveemu.FromDir(corpus.Dir); ferr != nil {
				err = ferr
				return
			}
		}
		url, stop, serr := ServeEmulator(fx.Emu)
		if serr != nil {
			err = serr
			return
		}
		cleanups = append(cleanups, stop)
		g.Env = append(g.Env, "GDS_SOURCE=drive", "GDS_DRIVE_ENDPOINT="+url,
			"GOOGLE_DRIVE_TARGET_FOLDER_IDS="+strings.Join(fx.Targets, ","))
	default:
		err = fmt.Errorf("unknown source %q", s.Source)
		return
	}
	switch s.Store {
	case StoreSQLite:
		open = SQLiteIndex(filepath.Join(s.Home, "index.db"))
	case StorePostgres:
		if s.PostgresURL == "" {
			err = errors.New("the postgres store needs a database URL (GDS_TEST_DATABASE_URL)")
			return
		}
		schema := NewSchemaName("gds_rel_")
		g.Env = append(g.Env, "DATABASE_URL="+s.PostgresURL, "GDS_DB_SCHEMA="+schema)
		open = PostgresIndex(s.PostgresURL, schema)
		url := s.PostgresURL
		cleanups = append(cleanups, func() { _ = DropSchema(context.WithoutCancel(ctx), url, schema) })
	default:
		err = fmt.Errorf("unknown store %q", s.Store)
	}
	return
}

// ServeEmulator serves emu on a loopback port and returns its base URL (the
// GDS_DRIVE_ENDPOINT value) and a function that stops it.
func ServeEmulator(emu *driveemu.Emulator) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("listen for the Drive emulator: %w", err)
	}
	srv := &http.Server{Handler: emu, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}

// TempHome makes an empty folder for GDS_HOME under dir.
func TempHome(dir, name string) (string, error) {
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(p, 0o700); err != nil {
		return "", fmt.Errorf("gds home: %w", err)
	}
	return p, nil
}
