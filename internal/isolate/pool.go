package isolate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/gds-cli/gds/internal/extract"
)

// Options configure a Pool.
type Options struct {
	// Command is the worker's argv: a program whose main (or TestMain)
	// calls Serve when IsWorker. Empty: this program (os.Executable).
	Command []string
	// Size is the most workers running at once, and so the most
	// extractions at once; more callers wait. Default 4.
	Size int
	// Limits bound each extraction.
	Limits Limits
	// MaxRequests retires a worker after this many requests. Default 200.
	MaxRequests int
}

// Pool runs extractions in worker processes. It is safe for concurrent
// use; the zero value is not usable (use New). Close ends its workers.
type Pool struct {
	o   Options
	sem chan struct{}

	mu     sync.Mutex
	idle   []*worker
	closed bool
}

// New returns a pool; no worker starts before the first Extract.
func New(o Options) *Pool {
	if o.Size <= 0 {
		o.Size = 4
	}
	if o.MaxRequests <= 0 {
		o.MaxRequests = 200
	}
	o.Limits = o.Limits.withDefaults()
	return &Pool{o: o, sem: make(chan struct{}, o.Size)}
}

// ErrClosed is returned by Extract on a closed pool.
var ErrClosed = errors.New("the extraction pool is closed")

// Extract reads r (at most maxBytes; <= 0: extract.DefaultMaxBytes) and
// returns its text, read by a worker process under the pool's limits. It
// has extract.Extract's contract — the same errors for an unsupported
// type, a file too large, a malformed file — and adds
// extract.ErrTooComplex when a limit was reached: the error names it, and
// a wall-time breach also matches context.DeadlineExceeded. When ctx ends
// first, the worker is stopped and ctx's error returned. An error that
// matches none of these (the worker could not be started) is not the
// file's fault.
func (p *Pool) Extract(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (extract.Doc, error) {
	if maxBytes <= 0 {
		maxBytes = extract.DefaultMaxBytes
	}
	data, err := extract.ReadInput(mimeType, r, maxBytes)
	if err != nil {
		return extract.Doc{}, err
	}
	if err := ctx.Err(); err != nil {
		return extract.Doc{}, err
	}
	resp, err := p.do(ctx, request{MimeType: mimeType, MaxBytes: maxBytes, CPU: p.o.Limits.CPU}, data)
	if err != nil {
		return extract.Doc{}, err
	}
	return extract.Doc{Pages: resp.Pages, Truncated: resp.Truncated}, nil
}

// ToPNG converts a TIFF or BMP image to PNG (extract.ToPNG) in a worker
// process, under the pool's limits, with Extract's errors; a PNG over
// MaxPNGBytes is refused as too complex.
func (p *Pool) ToPNG(ctx context.Context, image []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	resp, err := p.do(ctx, request{Op: opPNG, CPU: p.o.Limits.CPU}, image)
	if err != nil {
		return nil, err
	}
	return resp.Image, nil
}

// do runs one request in a worker, waiting for a place in the pool.
func (p *Pool) do(ctx context.Context, req request, data []byte) (response, error) {
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return response{}, ctx.Err()
	}
	defer func() { <-p.sem }()

	w, err := p.get()
	if err != nil {
		return response{}, err
	}
	resp, end, err := w.do(ctx, req, data, p.o.Limits.Wall)
	switch {
	case err != nil && ctx.Err() != nil:
		// The caller gave up (Ctrl-C, its own deadline): w is stopped.
		return response{}, fmt.Errorf("extract: %w", ctx.Err())
	case err != nil:
		b := classify(end, p.o.Limits.Memory)
		reason := b.reason(p.o.Limits, end.detail)
		if b == breachWall {
			return response{}, extract.TooComplex(reason, true)
		}
		return response{}, extract.TooComplex(reason, false)
	}
	w.requests++
	if w.requests >= p.o.MaxRequests || resp.HeapBytes > uint64(p.o.Limits.Memory/4) {
		w.retire()
	} else {
		p.put(w)
	}
	if resp.Err != "" {
		return response{}, errorOf(resp.ErrKind, resp.Err)
	}
	return resp, nil
}

// Close ends the idle workers; a worker busy with a request ends when the
// request does. Extract on a closed pool returns ErrClosed.
func (p *Pool) Close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, w := range idle {
		w.kill()
	}
	return nil
}

func (p *Pool) get() (*worker, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	for len(p.idle) > 0 {
		w := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		if w.alive() {
			p.mu.Unlock()
			return w, nil
		}
		w.kill()
	}
	p.mu.Unlock()
	return p.start()
}

func (p *Pool) put(w *worker) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		w.kill()
		return
	}
	p.idle = append(p.idle, w)
	p.mu.Unlock()
}

// worker is the parent's end of one worker process.
type worker struct {
	cmd      *exec.Cmd
	in       *os.File // the worker's stdin, our end
	out      *os.File // the worker's stdout, our end
	bw       *bufio.Writer
	br       *bufio.Reader
	exited   chan struct{} // closed once the process is reaped
	state    *os.ProcessState
	requests int
}

// start starts a worker process.
func (p *Pool) start() (*worker, error) {
	argv := p.o.Command
	if len(argv) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("start the file reader process: %w", err)
		}
		argv = []string{exe}
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start the file reader process: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("start the file reader process: %w", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	// Nothing of the user's environment: no keys, no tokens, no config.
	cmd.Env = []string{WorkerEnv + "=1", memoryEnv + "=" + strconv.FormatInt(p.o.Limits.Memory, 10)}
	cmd.Dir = os.TempDir()
	cmd.Stdin, cmd.Stdout = inR, outW
	// Its own process group: the terminal's Ctrl-C goes to gds, which
	// stops its workers itself (a worker killed by the terminal would
	// look like a file it could not read).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("start the file reader process %s: %w", argv[0], err)
	}
	w := &worker{cmd: cmd, in: inW, out: outR, exited: make(chan struct{}),
		bw: bufio.NewWriterSize(inW, 64<<10), br: bufio.NewReaderSize(outR, 64<<10)}
	go func() {
		_ = cmd.Wait()
		w.state = cmd.ProcessState
		close(w.exited)
	}()
	return w, nil
}

func (w *worker) alive() bool {
	select {
	case <-w.exited:
		return false
	default:
		return true
	}
}

// kill ends the worker's process and waits until it is reaped.
// (os.Process.Kill knows when the process was reaped, so a reused pid is
// never signalled.)
func (w *worker) kill() {
	_ = w.cmd.Process.Kill()
	<-w.exited
	w.in.Close()
	w.out.Close()
}

// retire lets an idle worker end by closing its input; it exits at once.
func (w *worker) retire() {
	w.in.Close()
	go func() {
		select {
		case <-w.exited:
		case <-time.After(5 * time.Second):
			_ = w.cmd.Process.Kill()
			<-w.exited
		}
		w.out.Close()
	}()
}

// exitGrace is how long the parent waits for a worker whose answer broke
// off to end by itself (the watchdog's exit) before it kills it.
const exitGrace = 2 * time.Second

// do sends one request and waits for its answer, the wall-time limit or
// ctx. On any error the worker has been stopped and reaped, and end says
// how it ended.
func (w *worker) do(ctx context.Context, req request, data []byte, wall time.Duration) (response, ending, error) {
	type result struct {
		resp response
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		var res result
		if res.err = writeRequest(w.bw, req, data); res.err == nil {
			var b []byte
			limit := int64(maxResponseBytes)
			if req.Op == opPNG {
				limit = maxPNGResponseBytes
			}
			if b, res.err = readFrame(w.br, limit); res.err == nil {
				res.err = decode(b, &res.resp)
			}
		}
		ch <- res
	}()
	timer := time.NewTimer(wall)
	defer timer.Stop()
	select {
	case res := <-ch:
		if res.err == nil {
			return res.resp, ending{}, nil
		}
		end := ending{detail: res.err.Error()}
		select {
		case <-w.exited:
		case <-time.After(exitGrace):
		}
		exited := !w.alive()
		w.kill()
		if exited {
			end = w.ending()
		}
		return response{}, end, res.err
	case <-timer.C:
		w.kill()
		<-ch
		return response{}, ending{killedAtWall: true, exited: true}, errors.New("wall-time limit")
	case <-ctx.Done():
		w.kill()
		<-ch
		return response{}, ending{exited: true}, ctx.Err()
	}
}

// ending describes a reaped worker's end.
func (w *worker) ending() ending {
	e := ending{exited: true, exitCode: w.state.ExitCode()}
	if ws, ok := w.state.Sys().(syscall.WaitStatus); ok {
		if ws.Signaled() {
			e.signal = ws.Signal()
			e.detail = ws.Signal().String()
		}
	}
	if ru, ok := w.state.SysUsage().(*syscall.Rusage); ok {
		e.peakRSS = maxRSSBytes(ru)
	}
	if e.detail == "" {
		e.detail = "exit status " + strconv.Itoa(e.exitCode)
	}
	return e
}
