package launcher

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/gdshome"
)

// The keystroke server (internal/keystroke, run as the full CLI's hidden
// `gds alfred keyserver`) keeps the SQLite index open in a long-lived
// process and answers keystrokes on a Unix socket in the gds home. The
// front asks it first; when none answers, the front hands the keystroke
// to the full CLI (with StartServerEnv set when no server was there),
// which answers it from the index and starts the server for the keys
// that follow. This file is the front's side: the socket, the request it
// sends and the answer it reads.

// KeyServerEnv turns the keystroke server off when set to "off", "0",
// "false" or "no": every keystroke is answered by the full CLI.
const KeyServerEnv = "GDS_KEYSTROKE_SERVER"

// StartServerEnv is set ("1") by the front on a keystroke it hands to the
// full CLI because no keystroke server listens: the full CLI answers it
// and then starts one. Nothing else sets it, so a `gds alfred filter` run
// any other way never leaves a process behind.
const StartServerEnv = "GDS_KEYSTROKE_START"

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

// KeySocket is the keystroke server's socket: in the gds home the
// environment names (gdshome.FromEnv: GDS_HOME, else the OS default; mode
// 0700), or "" when there is none or the path is too long for a Unix socket
// (then there is no server). The front reads no configuration, so the
// socket's place depends on the environment alone; the server checks that
// a front's configuration — which it loads from the front's environment
// and directory — names its index.
func KeySocket(lookup func(string) (string, bool), workDir, homeDir string) string {
	home := gdshome.FromEnv(lookup, workDir, homeDir, runtime.GOOS)
	if home == "" {
		return ""
	}
	p := filepath.Join(home, keySocketName)
	if len(p) > maxSocketPath {
		return ""
	}
	return p
}

// OSKeySocket is KeySocket in this process's environment and directory.
func OSKeySocket() string {
	wd, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	return KeySocket(os.LookupEnv, wd, home)
}

// Typing is one keystroke as the front receives it: the typed text and
// the environment it reads (the Alfred workflow's variables).
type Typing struct {
	Query     string
	Lang      string
	Folder    string // --folder, else FolderEnv
	SourceVar string // the AlfredSourceVar variable
	Home      string // $HOME (Google Drive for desktop mirrors)
	Now       time.Time
}

// Lookup reads the keystroke's environment as os.LookupEnv would read the
// front's: AlfredSourceVar and HOME.
func (t Typing) Lookup(key string) (string, bool) {
	switch key {
	case AlfredSourceVar:
		return t.SourceVar, t.SourceVar != ""
	case "HOME":
		return t.Home, t.Home != ""
	}
	return "", false
}

// KeyRequest is the one request a front sends the server: a keystroke
// (Typing), or with Run a whole command line the server runs in its
// process (a Served route).
type KeyRequest struct {
	Build string // BuildInfo.Key of the front
	// Environ and Dir are the front's environment and working directory:
	// the server reads the front's configuration from them (its index must
	// be the server's), and runs a Served command line only when they are
	// the environment it runs in.
	Environ []string
	Dir     string
	Typing  Typing
	Run     []string // the command line without the program name
}

// KeyResponse is the server's one answer: the bytes the front prints,
// or why it will not answer (then the front hands the keystroke over).
type KeyResponse struct {
	Stdout  []byte
	Stderr  []byte
	Refused string // "build", "config", "index", "postgres", or for Run "env"
	Exit    int    // Run's exit code
}

// Key identifies a build for the keystroke server: the front and the
// server must be the same release to print the same bytes.
func (b BuildInfo) Key() string { return b.Version + " " + b.Commit + " " + b.Date }

// The front and the server exchange one request and one response, each a
// frame: keyMagic, then the fields in a fixed order, each a uvarint length
// and its bytes (a number as its decimal text). Both ends are one build
// (the server refuses another), so the frame needs no version of its own;
// it is read and written without reflection, so that a front pays for no
// more code than it runs.
const keyMagic = "gdsk1\n"

// maxKeyField bounds a field of a frame read (a Served command's output
// is the largest).
const maxKeyField = 256 << 20

// frameWriter appends a frame's fields.
type frameWriter struct{ b []byte }

func (w *frameWriter) str(s string) {
	w.b = binary.AppendUvarint(w.b, uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *frameWriter) bytes(p []byte) {
	w.b = binary.AppendUvarint(w.b, uint64(len(p)))
	w.b = append(w.b, p...)
}

// frameReader reads a frame's fields; the first error sticks.
type frameReader struct {
	r   *bufio.Reader
	err error
}

func (r *frameReader) bytes() []byte {
	if r.err != nil {
		return nil
	}
	n, err := binary.ReadUvarint(r.r)
	if err == nil && n > maxKeyField {
		err = fmt.Errorf("a field of %d bytes", n)
	}
	if err != nil {
		r.err = err
		return nil
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r.r, p); err != nil {
		r.err = err
		return nil
	}
	return p
}

func (r *frameReader) str() string { return string(r.bytes()) }

func (r *frameReader) int() int {
	s := r.str()
	if r.err != nil {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		r.err = err
	}
	return n
}

func newFrameReader(r io.Reader) (*frameReader, error) {
	br := bufio.NewReader(r)
	magic := make([]byte, len(keyMagic))
	if _, err := io.ReadFull(br, magic); err != nil {
		return nil, err
	}
	if string(magic) != keyMagic {
		return nil, errors.New("not a gds keystroke frame")
	}
	return &frameReader{r: br}, nil
}

// encode is req as a frame.
// encode is req as a frame, in one allocation (a front pays for each heap
// page it touches). The time is sent as an instant (Unix nanoseconds): the
// server reads it in its own zone, the front's (inherited), so the front
// never loads the zone database.
func (req KeyRequest) encode() []byte {
	t := req.Typing
	fields := []string{req.Build, req.Dir, t.Query, t.Lang, t.Folder, t.SourceVar, t.Home, strconv.FormatInt(t.Now.UnixNano(), 10)}
	size := len(keyMagic) + 2*(binary.MaxVarintLen64+20)
	for _, list := range [][]string{fields, req.Environ, req.Run} {
		for _, s := range list {
			size += binary.MaxVarintLen64 + len(s)
		}
	}
	w := frameWriter{b: make([]byte, 0, size)}
	w.b = append(w.b, keyMagic...)
	for _, s := range fields {
		w.str(s)
	}
	for _, list := range [][]string{req.Environ, req.Run} {
		w.str(strconv.Itoa(len(list)))
		for _, a := range list {
			w.str(a)
		}
	}
	return w.b
}

// ReadKeyRequest reads one request (the server's side).
func ReadKeyRequest(r io.Reader) (KeyRequest, error) {
	fr, err := newFrameReader(r)
	if err != nil {
		return KeyRequest{}, fmt.Errorf("read a keystroke request: %w", err)
	}
	var req KeyRequest
	t := &req.Typing
	for _, p := range []*string{&req.Build, &req.Dir, &t.Query, &t.Lang, &t.Folder, &t.SourceVar, &t.Home} {
		*p = fr.str()
	}
	now := fr.str()
	for _, list := range []*[]string{&req.Environ, &req.Run} {
		n := fr.int()
		if fr.err == nil && (n < 0 || n > 1<<16) {
			fr.err = fmt.Errorf("a list of %d strings", n)
		}
		for i := 0; i < n && fr.err == nil; i++ {
			*list = append(*list, fr.str())
		}
	}
	if fr.err == nil {
		var ns int64
		if ns, fr.err = strconv.ParseInt(now, 10, 64); fr.err == nil {
			t.Now = time.Unix(0, ns)
		}
	}
	if fr.err != nil {
		return KeyRequest{}, fmt.Errorf("read a keystroke request: %w", fr.err)
	}
	return req, nil
}

// WriteKeyResponse writes one response (the server's side).
func WriteKeyResponse(w io.Writer, resp KeyResponse) error {
	f := frameWriter{b: []byte(keyMagic)}
	f.bytes(resp.Stdout)
	f.bytes(resp.Stderr)
	f.str(resp.Refused)
	f.str(strconv.Itoa(resp.Exit))
	_, err := w.Write(f.b)
	return err
}

// readKeyResponse reads one response (the front's side).
func readKeyResponse(r io.Reader) (KeyResponse, error) {
	fr, err := newFrameReader(r)
	if err != nil {
		return KeyResponse{}, err
	}
	resp := KeyResponse{Stdout: fr.bytes(), Stderr: fr.bytes(), Refused: fr.str(), Exit: fr.int()}
	if fr.err != nil {
		return KeyResponse{}, fr.err
	}
	return resp, nil
}

// AskKeyServer sends one keystroke to the server at socket and returns
// what to print. ok is false — and the caller hands the keystroke over —
// when no server listens there, it refuses (another build or index), or it
// does not answer in time (timeout bounds each read and write); running
// reports whether a server was there at all (so that no second one is
// started).
func AskKeyServer(socket string, build BuildInfo, environ []string, dir string, t Typing, timeout time.Duration) (stdout, stderr []byte, ok, running bool) {
	if socket == "" {
		return nil, nil, false, false
	}
	conn, err := dialKeyServer(socket, timeout)
	if err != nil {
		return nil, nil, false, false
	}
	defer conn.Close()
	resp, err := exchange(conn, KeyRequest{Build: build.Key(), Environ: environ, Dir: dir, Typing: t})
	if err != nil || resp.Refused != "" || len(resp.Stdout) == 0 {
		return nil, nil, false, true
	}
	return resp.Stdout, resp.Stderr, true, true
}

// AskServed asks the server at socket to run args (a Served command line
// without the program name) in the environment environ and directory dir, and
// returns its output and exit code. ok is false — the caller hands the
// command over — when no server listens, it refuses (another build, index
// or environment), or it does not answer in time (timeout bounds each read
// and write).
func AskServed(socket string, build BuildInfo, environ []string, dir string, args []string, timeout time.Duration) (resp KeyResponse, ok bool) {
	if socket == "" {
		return KeyResponse{}, false
	}
	conn, err := dialKeyServer(socket, timeout)
	if err != nil {
		return KeyResponse{}, false
	}
	defer conn.Close()
	resp, err = exchange(conn, KeyRequest{Build: build.Key(), Environ: environ, Dir: dir, Run: args})
	if err != nil || resp.Refused != "" {
		return KeyResponse{}, false
	}
	return resp, true
}

// exchange writes req and reads the response on conn.
func exchange(conn io.ReadWriter, req KeyRequest) (KeyResponse, error) {
	if _, err := conn.Write(req.encode()); err != nil {
		return KeyResponse{}, err
	}
	return readKeyResponse(conn)
}
