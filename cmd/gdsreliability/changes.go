package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/reliability"
)

// runChanges is the full form of the incremental-crawl crash harness
// (reliability.RunChangesCrash): a first crawl, the corpus changed, then
// the incremental crawl (Drive changes feed, local listing) killed at
// planned points. Each combination gets its own corpus (it is changed).
func runChanges(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("changes", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bin := fs.String("gds", "", "the gds binary (go build -o gds ./cmd/gds)")
	sigName := fs.String("signal", "kill", "kill (SIGKILL, crash) or term (SIGTERM, graceful stop)")
	files := fs.Int("files", 1000, "corpus files before the changes")
	stops := fs.Int("stops", 20, "signals during the incremental crawl")
	sources := fs.String("sources", "local,drive", "comma-separated: local, drive (the Drive API emulator)")
	stores := fs.String("stores", "sqlite,postgres", "comma-separated: sqlite, postgres")
	pgURL := fs.String("pg-url", os.Getenv("GDS_TEST_DATABASE_URL"), "Postgres URL for the postgres store")
	seed := fs.Uint64("seed", 1, "seed of the corpus, the changes and the stop plan")
	conc := fs.Int("concurrency", 4, "gds crawl --concurrency")
	asJSON := fs.Bool("json", false, "print JSON")
	verbose := fs.Bool("v", false, "log every gds run")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *bin == "" {
		return usageError{errors.New("-gds is required")}
	}
	sig := os.Signal(syscall.SIGKILL)
	switch *sigName {
	case "kill":
	case "term":
		sig = syscall.SIGTERM
	default:
		return usageError{fmt.Errorf("-signal %q: want kill or term", *sigName)}
	}
	tmp, err := os.MkdirTemp("", "gdsreliability-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	type row struct {
		Source string `json:"source"`
		Store  string `json:"store"`
		reliability.ChangesReport
		Error string `json:"error,omitempty"`
	}
	var rows []row
	failed := false
	for _, src := range strings.Split(*sources, ",") {
		for _, st := range strings.Split(*stores, ",") {
			src, st := strings.TrimSpace(src), strings.TrimSpace(st)
			home, err := reliability.TempHome(tmp, "home-"+src+"-"+st)
			if err != nil {
				return err
			}
			corpus, err := reliability.WriteCorpus(filepath.Join(tmp, "corpus-"+src+"-"+st), *files, *seed)
			if err != nil {
				return err
			}
			fmt.Fprintf(stderr, "changes: %s source, %s store, %d files, %d × %s...\n", src, st, *files, *stops, *sigName)
			setup := reliability.Setup{Bin: *bin, Home: home, Source: src, Store: st, PostgresURL: *pgURL, Concurrency: *conc}
			cfg := reliability.ChangesConfig{Corpus: corpus, Kind: src, Stops: *stops, Signal: sig, Seed: *seed}
			if src == reliability.SourceDrive {
				fx, err := driveemu.FromDir(corpus.Dir)
				if err != nil {
					return err
				}
				setup.Drive, cfg.Emu, cfg.PathPrefix = fx, fx.Emu, filepath.Base(corpus.Dir)+"/"
			}
			g, open, _, cleanup, err := reliability.Prepare(ctx, corpus, setup)
			if err != nil {
				return usageError{err}
			}
			cfg.GDS, cfg.Index = g, open
			if *verbose {
				cfg.Logf = func(format string, a ...any) { fmt.Fprintf(stderr, "  "+format+"\n", a...) }
			}
			rep, err := reliability.RunChangesCrash(ctx, cfg)
			cleanup()
			r := row{Source: src, Store: st, ChangesReport: rep}
			if err != nil {
				r.Error, failed = err.Error(), true
				fmt.Fprintf(stderr, "  FAILED: %v\n", err)
			}
			rows = append(rows, r)
		}
	}
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(rows); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "%-6s %-9s %-7s %6s %-28s %6s %5s %7s %7s %10s %11s %9s %12s  %s\n", "source", "store", "signal", "files",
			"changes (mod/mov/ren/del/add)", "stops", "runs", "reruns", "checks", "files lost", "wrong paths", "seconds", "peak RSS MB", "result")
		for _, r := range rows {
			res := "ok"
			if r.Error != "" {
				res = "FAILED: " + r.Error
			}
			m := r.Mutation
			fmt.Fprintf(stdout, "%-6s %-9s %-7s %6d %-28s %6d %5d %7d %7d %10d %11d %9.1f %12.0f  %s\n", r.Source, r.Store, r.Signal,
				r.Files, fmt.Sprintf("%d/%d/%d/%d/%d", m.Modified, m.Moved, m.Renamed, m.Deleted, m.Added), r.Stops, r.Runs,
				r.RerunsToFinish, r.Checks, r.FilesLost, r.WrongPaths, r.Seconds, r.PeakRSSMB, res)
		}
	}
	if failed {
		return errors.New("an invariant failed (see above)")
	}
	return nil
}
