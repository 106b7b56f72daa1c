package keystroke

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/render/alfred"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// The keystroke server keeps the SQLite index open in a long-lived
// process, so that a keystroke — a new front process per key — is a
// connection to a Unix socket (launcher.KeySocket) instead of opening the
// index: the front starts, reads its configuration and prints the
// response, but it links no SQLite and pays no open, schema parse or cold
// page cache per key. When no server answers, the front hands the
// keystroke to the full CLI, which answers it through Alfred and starts
// the server (app.Deps.StartKeyServer → launcher.StartKeyServer). The
// server opens the index as soon as it listens and exits after Idle without a
// request, when its socket is removed, or when its executable changes (an
// upgrade). Both answer through Answer, so a served keystroke prints the
// same bytes as the full CLI's.

// Idle is how long a keystroke server waits for a request before it
// exits.
const Idle = 10 * time.Minute

// Answer writes the Script Filter response to one keystroke (Alfred, with
// the index open reads; RespondAlfred's error items). The front and the
// keystroke server both answer through it.
func Answer(ctx context.Context, stdout, stderr io.Writer, cfg *config.Config, open func(context.Context) (Index, error), t launcher.Typing) error {
	return RespondTyping(stdout, stderr, cfg, t, func(sources []string) (alfred.Output, error) {
		return Alfred(ctx, open, Request{Query: t.Query, Lang: t.Lang, Now: t.Now, Limit: AlfredLimit,
			Home: t.Home, Sources: sources, Folder: t.Folder})
	})
}

// ServerOptions configure Serve.
type ServerOptions struct {
	Socket string
	Config *config.Config
	Build  launcher.BuildInfo
	// Idle is how long the server waits for a request before it exits
	// (the package's Idle when zero).
	Idle time.Duration
	// Check is how often it checks that its socket and executable are
	// still the ones it started with (1 s when zero).
	Check time.Duration
	// Executable is the server's own binary, watched for an upgrade (""
	// watches nothing).
	Executable string
	// Run runs a Served command line (without the program name) as the
	// full CLI would, writing to stdout and stderr, and returns its exit
	// code; nil refuses every one. Env is the server's
	// launcher.ServedEnvKey: a command line from a front in another
	// environment is refused (and handed to the full CLI by the front).
	// Served command lines run one at a time.
	Run func(ctx context.Context, args []string, stdout, stderr io.Writer) int
	Env string
	// Migrate updates an index an older gds made (store.ErrSchemaOld on
	// the read-only open): nil opens it read-write — applying the
	// migrations and their data pass — and closes it. Keystrokes are
	// answered with Updating meanwhile.
	Migrate func(ctx context.Context) error
}

// ErrServerRunning is Serve's error when another server already holds
// the socket's lock.
var ErrServerRunning = errors.New("a keystroke server is already running for this index")

// Serve runs the keystroke server until ctx ends, it has been idle for
// opts.Idle, its socket file is removed or replaced, or its executable
// changes. One server per socket: a second one gets ErrServerRunning.
// The index is opened read-only on the first request and kept open; it is
// opened again when the index file is replaced.
func Serve(ctx context.Context, opts ServerOptions) error {
	if opts.Socket == "" {
		return errors.New("keystroke server: no socket path (the gds home's path is too long for a Unix socket)")
	}
	idle, check := opts.Idle, opts.Check
	if idle <= 0 {
		idle = Idle
	}
	if check <= 0 {
		check = time.Second
	}
	unlock, err := lockKeySocket(opts.Socket + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	_ = os.Remove(opts.Socket) // a socket left by a server that was killed
	ln, err := listenUnix(opts.Socket)
	if err != nil {
		return fmt.Errorf("keystroke server: listen on %s: %w", opts.Socket, err)
	}
	sockInfo, err := os.Stat(opts.Socket)
	if err != nil {
		ln.Close()
		return fmt.Errorf("keystroke server: %w", err)
	}
	var exeInfo os.FileInfo
	if opts.Executable != "" {
		exeInfo, _ = os.Stat(opts.Executable)
	}
	s := &keyServer{cfg: opts.Config, build: opts.Build.Key(), run: opts.Run, env: opts.Env, migrate: opts.Migrate}
	if s.migrate == nil {
		s.migrate = func(ctx context.Context) error {
			st, err := sqlite.Open(ctx, opts.Config.IndexPath(), sqlite.Options{})
			if err != nil {
				return err
			}
			return st.Close()
		}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.ctx = ctx
	defer s.updates.Wait() // after cancel (deferred below): an update stops at its next batch
	// Open the index now, while the user is still typing (a failure is
	// reported to the first keystroke, which opens it again).
	opened := make(chan struct{})
	go func() {
		defer close(opened)
		_, _ = s.open(ctx)
	}()
	defer func() {
		cancel()
		<-opened
		s.close()
	}()
	activity := make(chan struct{}, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the watchdog: idle time, socket, executable
		defer wg.Done()
		defer ln.Close()
		last := time.Now()
		tick := time.NewTicker(check)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-activity:
				last = time.Now()
			case <-tick.C:
				if time.Since(last) >= idle || !sameFile(opts.Socket, sockInfo) ||
					exeInfo != nil && !sameFileTime(opts.Executable, exeInfo) {
					cancel()
					return
				}
			}
		}
	}()
	for {
		conn, err := ln.Accept()
		if err != nil {
			break // closed by the watchdog
		}
		select {
		case activity <- struct{}{}:
		default:
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s.handle(ctx, conn) {
				cancel() // a front of another build or index: this server is out of date
			}
		}()
	}
	cancel()
	wg.Wait()
	// Remove the socket only if it is still ours (a newer server may have
	// replaced it).
	if sameFile(opts.Socket, sockInfo) {
		_ = os.Remove(opts.Socket)
	}
	return nil
}

// keyServer answers keystrokes over one kept-open index.
type keyServer struct {
	cfg   *config.Config
	build string
	run   func(ctx context.Context, args []string, stdout, stderr io.Writer) int
	env   string
	runMu sync.Mutex // one Served command line at a time

	cfgMu   sync.Mutex
	lastCfg *frontCfg // the configuration of the last front, under cfgMu

	mu   sync.Mutex
	ix   Index
	info os.FileInfo // the index file ix was opened from

	// Updating an index an older gds made (ServerOptions.Migrate), under
	// mu: running while updating; updateErr is a failed update's error
	// (then keystrokes get the read-only open's error, which says to run
	// `gds db migrate`, and the update is not tried again).
	migrate   func(ctx context.Context) error
	ctx       context.Context // the server's: an update outlives its keystroke
	updates   sync.WaitGroup
	updating  bool
	updateErr error

	// The index's full text held in memory (sqlite.Resident), under mu:
	// loaded in the background once the index is open, dropped when the
	// index changes and loaded again at the next keystroke after
	// residentRetry; keystrokes meanwhile search the index itself.
	resident     *sqlite.Resident
	residentFrom Index // the open index it was loaded from
	loading      bool
	nextLoad     time.Time
	maxResident  int          // ResidentMaxInstances unless a test sets it
	fromMemory   atomic.Int64 // keyword searches answered from the resident full text
}

// ResidentMaxInstances bounds the full text the keystroke server holds in
// memory, in token instances (~8 bytes each; the 10,000 paragraph-sized
// files of the benchmark hold 2.2 million): a larger index is searched in
// SQLite alone.
const ResidentMaxInstances = 8 << 20

// residentRetry is how long after a failed load, or after the index
// changed, the server waits before loading the full text again (a crawl
// changes the index many times in a row).
const residentRetry = 30 * time.Second

// handle answers one connection; stale reports a front of another build
// or configuration (the server then exits, and the next keystroke starts
// a current one).
func (s *keyServer) handle(ctx context.Context, conn net.Conn) (stale bool) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	req, err := launcher.ReadKeyRequest(conn)
	if err != nil {
		return false
	}
	var resp launcher.KeyResponse
	if req.Build != s.build {
		resp.Refused, stale = "build", true
		_ = launcher.WriteKeyResponse(conn, resp)
		return stale
	}
	cfg, err := s.frontConfig(req.Environ, req.Dir)
	switch {
	case err != nil:
		resp.Refused = "config" // the full CLI reports it
	case cfg.UsesPostgres():
		resp.Refused = "postgres" // the full CLI answers from Postgres
	case cfg.IndexPath() != s.cfg.IndexPath():
		resp.Refused, stale = "index", true // the configuration changed since the server started
	case req.Run != nil:
		if act, _ := launcher.Route(append([]string{"gds"}, req.Run...)); act != launcher.Served || s.run == nil || ServedEnvKey(req.Environ, req.Dir) != s.env {
			resp.Refused = "env"
			break
		}
		out, errb, code, ok := s.served(ctx, conn, req.Run)
		if !ok {
			resp.Refused = "error"
			break
		}
		resp.Stdout, resp.Stderr, resp.Exit = out, errb, code
	default:
		// The front's clock (an instant) in the local zone, as the front
		// reads it (the server inherited the front's TZ), so a period across
		// a daylight-saving change has the same bounds.
		req.Typing.Now = req.Typing.Now.In(time.Local)
		var out, errb bytes.Buffer
		if err := Answer(ctx, &out, &errb, cfg, s.open, req.Typing); err != nil {
			return false
		}
		resp.Stdout, resp.Stderr = out.Bytes(), errb.Bytes()
	}
	_ = launcher.WriteKeyResponse(conn, resp)
	return stale
}

// frontConfig is the configuration a front reads in its environment and
// working directory — what the full CLI it would hand over to reads —
// loaded again only when they or the .env files it may read changed
// (one front's keystrokes repeat them).
func (s *keyServer) frontConfig(environ []string, dir string) (*config.Config, error) {
	key := ServedEnvKey(environ, dir)
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	if c := s.lastCfg; c != nil && c.key == key && c.stamps == envFileStamps(dir, c.home) {
		return c.cfg, c.err
	}
	vars := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	home, _ := lookup("HOME")
	cfg, err := config.Load(config.LoadOptions{LookupEnv: lookup, WorkDir: dir, HomeDir: home})
	c := &frontCfg{key: key, cfg: cfg, err: err}
	if cfg != nil {
		c.home = cfg.Home
	}
	c.stamps = envFileStamps(dir, c.home)
	s.lastCfg = c
	return cfg, err
}

// frontCfg is a front's configuration as last loaded.
type frontCfg struct {
	key    string // ServedEnvKey of the environment and directory
	home   string // the gds home it found
	stamps string // envFileStamps when loaded
	cfg    *config.Config
	err    error
}

// envFileStamps describes the .env files of dir and home as they are now
// (size and modification time, or absent).
func envFileStamps(dir, home string) string {
	var b strings.Builder
	for _, d := range []string{dir, home} {
		if d == "" {
			b.WriteString("-;")
			continue
		}
		fi, err := os.Stat(filepath.Join(d, config.EnvFileName))
		if err != nil {
			b.WriteString("none;")
			continue
		}
		fmt.Fprintf(&b, "%d %d;", fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String()
}

// served runs a Served command line: cancelled when the front goes away
// (its end of conn closes), with no deadline of its own — a search may
// call a model. ok is false when it panicked (the front then hands the
// command to the full CLI, which reports it).
func (s *keyServer) served(ctx context.Context, conn net.Conn, args []string) (stdout, stderr []byte, code int, ok bool) {
	_ = conn.SetDeadline(time.Time{})
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		var b [1]byte
		_, _ = conn.Read(b[:]) // the front sends nothing more: EOF when it is gone
		cancel()
	}()
	s.runMu.Lock()
	defer s.runMu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			ok = false
		}
	}()
	var out, errb bytes.Buffer
	code = s.run(ctx, args, &out, &errb)
	return out.Bytes(), errb.Bytes(), code, true
}

// open returns the kept-open index, opening it (again) when it is not
// open yet or the index file was replaced since. Its Close keeps it open.
func (s *keyServer) open(ctx context.Context) (Index, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fi, err := os.Stat(s.cfg.IndexPath())
	if s.ix != nil && (err != nil || !os.SameFile(fi, s.info)) {
		s.ix.Close()
		s.ix, s.info = nil, nil
		s.resident, s.residentFrom, s.nextLoad = nil, nil, time.Time{}
	}
	if s.ix == nil {
		if s.updating {
			return nil, ErrUpdating
		}
		ix, err := OpenIndex(ctx, s.cfg)
		if errors.Is(err, store.ErrSchemaOld) && s.updateErr == nil {
			s.updating = true
			s.updates.Add(1)
			go s.update()
			return nil, fmt.Errorf("%w: %w", ErrUpdating, err)
		}
		if err != nil {
			return nil, err
		}
		s.ix, s.info = ix, fi
	}
	s.loadResident()
	return &keptIndex{Index: s.ix, s: s}, nil
}

// loadResident starts loading the open index's full text into memory when
// it is not held, not being loaded, and not refused until later. Under mu.
func (s *keyServer) loadResident() {
	st, ok := s.ix.(*sqlite.Store)
	if !ok || s.loading || s.resident != nil && s.residentFrom == s.ix || time.Now().Before(s.nextLoad) {
		return
	}
	s.resident, s.residentFrom, s.loading = nil, nil, true
	limit := s.maxResident
	if limit <= 0 {
		limit = ResidentMaxInstances
	}
	ix := s.ix
	s.updates.Add(1)
	go func() {
		defer s.updates.Done()
		r, err := st.LoadResident(s.ctx, limit)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.loading = false
		switch {
		case err != nil && errors.Is(err, sqlite.ErrResidentTooLarge):
			s.nextLoad = time.Now().Add(Idle) // not while this server lives, unless the index is replaced
		case err != nil:
			s.nextLoad = time.Now().Add(residentRetry)
		case s.ix == ix: // still the open index
			s.resident, s.residentFrom = r, ix
		}
	}()
}

// heldResident returns the resident index of the open index, or nil.
func (s *keyServer) heldResident() *sqlite.Resident {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.residentFrom != s.ix {
		return nil
	}
	return s.resident
}

// dropResident forgets r after the index changed; the full text is loaded
// again after residentRetry.
func (s *keyServer) dropResident(r *sqlite.Resident) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.resident == r {
		s.resident, s.residentFrom = nil, nil
		s.nextLoad = time.Now().Add(residentRetry)
	}
}

// update applies the migrations of an index an older gds made, in the
// background: the keystrokes meanwhile are answered with Updating, the
// first one after it opens the index again.
func (s *keyServer) update() {
	defer s.updates.Done()
	err := s.migrate(s.ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.updating, s.updateErr = false, err
}

func (s *keyServer) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ix != nil {
		s.ix.Close()
		s.ix = nil
	}
	s.resident, s.residentFrom = nil, nil
}

// keptIndex is the server's index as one keystroke sees it: closing it
// leaves it open for the next, and its keyword searches — and the files
// they find — are answered from the full text in memory when the server
// holds it.
type keptIndex struct {
	Index
	s *keyServer
	// current is the resident index that answered a keyword search of this
	// keystroke, so found the index unchanged.
	current *sqlite.Resident
}

func (*keptIndex) Close() error { return nil }

// HasTerms answers whether any file holds each term (search.TermChecker)
// from the resident full text when the server holds it, else from the
// index on disk.
func (k *keptIndex) HasTerms(ctx context.Context, terms []string) (map[string]bool, bool, error) {
	if r := k.s.heldResident(); r != nil {
		has, ok, err := r.HasTerms(ctx, terms)
		if errors.Is(err, sqlite.ErrResidentStale) {
			k.s.dropResident(r)
		} else if ok || err != nil {
			return has, ok, err
		}
	}
	if tc, ok := k.Index.(search.TermChecker); ok {
		return tc.HasTerms(ctx, terms) // the index on disk: a first match per word
	}
	return nil, false, nil
}

// InMemory reports whether the server holds the full text in memory now
// (search.MemoryIndex: the keystroke then also corrects typos).
func (k *keptIndex) InMemory() bool { return k.s.heldResident() != nil }

// KeywordSearch answers from the resident full text — the store's own
// answer, computed in memory — and from the index when it is not held,
// declines the query or finds the index changed (then it is dropped).
func (k *keptIndex) KeywordSearch(ctx context.Context, q store.KeywordQuery) (store.KeywordResult, error) {
	if r := k.s.heldResident(); r != nil {
		res, ok, err := r.KeywordSearch(ctx, q)
		if ok && err == nil {
			k.s.fromMemory.Add(1)
			k.current = r
			return res, nil
		}
		if errors.Is(err, sqlite.ErrResidentStale) {
			k.s.dropResident(r)
		}
	}
	return k.Index.KeywordSearch(ctx, q)
}

// SyncStates reads the sync states through the resident index when the
// server holds it (read again only after a commit), else from the index.
func (k *keptIndex) SyncStates(ctx context.Context) ([]store.SyncState, error) {
	if r := k.s.heldResident(); r != nil {
		return r.SyncStates(ctx)
	}
	return k.Index.SyncStates(ctx)
}

// GetFiles returns the files a keyword search of this keystroke found in
// memory from the same snapshot (without embeddings, which a keystroke
// never shows), else from the index.
func (k *keptIndex) GetFiles(ctx context.Context, ids []string) ([]store.File, error) {
	if k.current != nil {
		if files, ok := k.current.Files(ids); ok {
			return files, nil
		}
	}
	return k.Index.GetFiles(ctx, ids)
}

// sameFile reports whether path is still the file was describes.
func sameFile(path string, was os.FileInfo) bool {
	fi, err := os.Stat(path)
	return err == nil && os.SameFile(fi, was)
}

// sameFileTime reports whether path is still the file was describes, with
// the same size and modification time (an upgrade rewrites or replaces it).
func sameFileTime(path string, was os.FileInfo) bool {
	fi, err := os.Stat(path)
	return err == nil && os.SameFile(fi, was) && fi.Size() == was.Size() && fi.ModTime().Equal(was.ModTime())
}
