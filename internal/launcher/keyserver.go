package launcher

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/render/alfred"
)

// The keystroke server keeps the SQLite index open in a long-lived
// process, so that a keystroke — a new front process per key — is a
// connection to a Unix socket instead of opening the index: the front
// still starts, reads its configuration and prints the response, but it
// no longer pays the SQLite driver's open, the schema parse and a cold
// page cache on every key. The front starts the server itself (the
// full CLI's `gds alfred keyserver`) the first time a keystroke finds
// none, answers that keystroke directly, and the server exits after
// KeyServerIdle without a request, when its socket is removed, or when
// its executable changes (an upgrade). Both sides answer through Answer,
// so a served keystroke prints the same bytes as a direct one.

// KeyServerEnv turns the keystroke server off when set to "off", "0" or
// "false": every keystroke opens the index itself.
const KeyServerEnv = "GDS_KEYSTROKE_SERVER"

// KeyServerIdle is how long a keystroke server waits for a request
// before it exits.
const KeyServerIdle = 10 * time.Minute

// keySocketName is the socket's file name in the gds home.
const keySocketName = "keystroke.sock"

// maxSocketPath is the longest socket path every Unix accepts (sun_path
// is 104 bytes on macOS, 108 on Linux, with the terminating NUL).
const maxSocketPath = 103

// KeyServerOff reports whether lookup's environment turns the server off.
func KeyServerOff(lookup func(string) (string, bool)) bool {
	v, _ := lookup(KeyServerEnv)
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "off", "0", "false", "no":
		return true
	}
	return false
}

// KeySocket is the keystroke server's socket for cfg's index: in the
// index's directory (the gds home, mode 0700), or "" when that path is too
// long for a Unix socket (then there is no server).
func KeySocket(cfg *config.Config) string {
	p := filepath.Join(filepath.Dir(cfg.IndexPath()), keySocketName)
	if len(p) > maxSocketPath {
		return ""
	}
	return p
}

// Typing is one keystroke as the front receives it: the typed text and
// the environment it reads (the Alfred workflow's variables).
type Typing struct {
	Query     string    `json:"query"`
	Lang      string    `json:"lang"`
	Folder    string    `json:"folder"`     // --folder, else FolderEnv
	SourceVar string    `json:"source_var"` // the AlfredSourceVar variable
	Home      string    `json:"home"`       // $HOME (Google Drive for desktop mirrors)
	Now       time.Time `json:"now"`
}

func (t Typing) lookup(key string) (string, bool) {
	switch key {
	case AlfredSourceVar:
		return t.SourceVar, t.SourceVar != ""
	case "HOME":
		return t.Home, t.Home != ""
	}
	return "", false
}

// Answer writes the Script Filter response to one keystroke (Alfred, with
// the index open reads; RespondAlfred's error items). The front and the
// keystroke server both answer through it.
func Answer(ctx context.Context, stdout, stderr io.Writer, cfg *config.Config, open func(context.Context) (Index, error), t Typing) error {
	return RespondAlfred(stdout, stderr, cfg, t.Lang, func() (alfred.Output, error) {
		sources, err := AlfredSources(t.lookup)
		if err != nil {
			return alfred.Output{}, err
		}
		return Alfred(ctx, open, Request{Query: t.Query, Lang: t.Lang, Now: t.Now, Limit: AlfredLimit,
			Home: t.Home, Sources: sources, Folder: t.Folder})
	})
}

// keyRequest is one line a front sends the server.
type keyRequest struct {
	Build  string `json:"build"` // BuildInfo.Key of the front
	Index  string `json:"index"` // the index file the front would open
	Typing Typing `json:"typing"`
}

// keyResponse is the server's one-line answer: the bytes the front prints,
// or why it will not answer (then the front answers itself).
type keyResponse struct {
	Stdout  []byte `json:"stdout,omitempty"`
	Stderr  []byte `json:"stderr,omitempty"`
	Refused string `json:"refused,omitempty"` // "build" or "index"
}

// Key identifies a build for the keystroke server: the front and the
// server must be the same release to print the same bytes.
func (b BuildInfo) Key() string { return b.Version + " " + b.Commit + " " + b.Date }

// AskKeyServer sends one keystroke to the server at socket and returns
// what to print. ok is false — and the caller answers itself — when no
// server listens there, it refuses (another build or index), or it does
// not answer within timeout; running reports whether a server was there
// at all (so the caller does not start another).
func AskKeyServer(socket string, build BuildInfo, index string, t Typing, timeout time.Duration) (stdout, stderr []byte, ok, running bool) {
	if socket == "" {
		return nil, nil, false, false
	}
	conn, err := net.DialTimeout("unix", socket, timeout)
	if err != nil {
		return nil, nil, false, false
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(timeout))
	line, err := json.Marshal(keyRequest{Build: build.Key(), Index: index, Typing: t})
	if err != nil {
		return nil, nil, false, true
	}
	if _, err := conn.Write(append(line, '\n')); err != nil {
		return nil, nil, false, true
	}
	var resp keyResponse
	if err := json.NewDecoder(bufio.NewReader(conn)).Decode(&resp); err != nil || resp.Refused != "" || len(resp.Stdout) == 0 {
		return nil, nil, false, true
	}
	return resp.Stdout, resp.Stderr, true, true
}

// KeyServerOptions configure ServeKeys.
type KeyServerOptions struct {
	Socket string
	Config *config.Config
	Build  BuildInfo
	// Idle is how long the server waits for a request before it exits
	// (KeyServerIdle when zero).
	Idle time.Duration
	// Check is how often it checks that its socket and executable are
	// still the ones it started with (1 s when zero).
	Check time.Duration
	// Executable is the server's own binary, watched for an upgrade (""
	// watches nothing).
	Executable string
}

// ErrKeyServerRunning is ServeKeys's error when another server already
// holds the socket's lock.
var ErrKeyServerRunning = errors.New("a keystroke server is already running for this index")

// ServeKeys runs the keystroke server until ctx ends, it has been idle for
// opts.Idle, its socket file is removed or replaced, or its executable
// changes. One server per socket: a second one gets ErrKeyServerRunning.
// The index is opened read-only on the first request and kept open; it is
// opened again when the index file is replaced.
func ServeKeys(ctx context.Context, opts KeyServerOptions) error {
	if opts.Socket == "" {
		return errors.New("keystroke server: no socket path (the gds home's path is too long for a Unix socket)")
	}
	idle, check := opts.Idle, opts.Check
	if idle <= 0 {
		idle = KeyServerIdle
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
	s := &keyServer{cfg: opts.Config, build: opts.Build.Key()}
	defer s.close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
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

	mu   sync.Mutex
	ix   Index
	info os.FileInfo // the index file ix was opened from
}

// handle answers one connection; stale reports a front of another build
// or configuration (the server then exits, and the next keystroke starts
// a current one).
func (s *keyServer) handle(ctx context.Context, conn net.Conn) (stale bool) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	var req keyRequest
	if err := json.NewDecoder(bufio.NewReader(conn)).Decode(&req); err != nil {
		return false
	}
	var resp keyResponse
	switch {
	case req.Build != s.build:
		resp.Refused, stale = "build", true
	case req.Index != s.cfg.IndexPath():
		resp.Refused, stale = "index", true // the configuration changed since the server started
	default:
		// The front's clock in the local zone, as the front reads it (JSON
		// keeps only the offset; the server inherited the front's TZ), so a
		// period across a daylight-saving change has the same bounds.
		req.Typing.Now = req.Typing.Now.In(time.Local)
		var out, errb bytes.Buffer
		if err := Answer(ctx, &out, &errb, s.cfg, s.open, req.Typing); err != nil {
			return false
		}
		resp.Stdout, resp.Stderr = out.Bytes(), errb.Bytes()
	}
	line, err := json.Marshal(resp)
	if err == nil {
		_, _ = conn.Write(append(line, '\n'))
	}
	return stale
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
	}
	if s.ix == nil {
		ix, err := OpenIndex(ctx, s.cfg)
		if err != nil {
			return nil, err
		}
		s.ix, s.info = ix, fi
	}
	return keptIndex{s.ix}, nil
}

func (s *keyServer) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ix != nil {
		s.ix.Close()
		s.ix = nil
	}
}

// keptIndex is the server's index as Alfred sees it: closing it after a
// keystroke leaves it open for the next.
type keptIndex struct{ Index }

func (keptIndex) Close() error { return nil }

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
