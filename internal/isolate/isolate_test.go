package isolate

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/extract"
)

// The test binary is its own worker: TestMain runs the worker loop when
// the pool starts it. The worker's argv names a behaviour: "real" runs
// extract.Extract; the others stand for a parser gone wrong, so the real
// watchdog, protocol and kills are what the tests exercise.
func TestMain(m *testing.M) {
	if IsWorker() {
		mode := ""
		if len(os.Args) > 1 {
			mode = os.Args[len(os.Args)-1]
		}
		os.Exit(testWorker(mode))
	}
	os.Exit(m.Run())
}

var sink [][]byte

func testWorker(mode string) int {
	fn := extract.Extract
	switch mode {
	case "memory": // keeps every allocation: the heap only grows
		fn = func(context.Context, string, io.Reader, int64) (extract.Doc, error) {
			for {
				b := make([]byte, 8<<20)
				for i := range b {
					b[i] = byte(i)
				}
				sink = append(sink, b)
			}
		}
	case "cpu": // a loop that never ends and allocates nothing
		fn = func(context.Context, string, io.Reader, int64) (extract.Doc, error) {
			x := 0
			for {
				x++
				if x < 0 {
					return extract.Doc{}, nil
				}
			}
		}
	case "sleep": // blocked for ever, using no processor time
		fn = func(context.Context, string, io.Reader, int64) (extract.Doc, error) {
			select {}
		}
	case "crash": // a fault no recover sees: a panic on another goroutine
		fn = func(context.Context, string, io.Reader, int64) (extract.Doc, error) {
			go func() { panic("parser bug") }()
			select {}
		}
	case "garbage": // answers with a frame far over its limit
		r := os.Stdin
		if _, _, err := readRequest(r, maxRequestData); err != nil {
			return exitProtocol
		}
		os.Stdout.Write([]byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
		select {}
	}
	return ServeWith(os.Stdin, os.Stdout, fn)
}

func testPool(t *testing.T, mode string, l Limits) *Pool {
	t.Helper()
	p := New(Options{Command: []string{os.Args[0], mode}, Size: 2, Limits: l})
	t.Cleanup(func() { p.Close() })
	return p
}

func realdoc(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "realdocs", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A worker reads every real document exactly as extract.Extract does in
// process: same text, same pages, same errors.
func TestWorkerMatchesInProcess(t *testing.T) {
	p := testPool(t, "real", Limits{})
	entries, err := os.ReadDir(filepath.Join("..", "..", "testdata", "realdocs"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Name() == "MANIFEST.tsv" {
			continue
		}
		data := realdoc(t, e.Name())
		mt := extract.MimeTypeByName(e.Name())
		want, werr := extract.Extract(context.Background(), mt, bytes.NewReader(data), 0)
		got, gerr := p.Extract(context.Background(), mt, bytes.NewReader(data), 0)
		if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Errorf("%s: error %v in a worker, %v in process", e.Name(), gerr, werr)
			continue
		}
		if got.Text() != want.Text() || len(got.Pages) != len(want.Pages) {
			t.Errorf("%s: a worker read %d pages, %d chars; in process %d pages, %d chars",
				e.Name(), len(got.Pages), len(got.Text()), len(want.Pages), len(want.Text()))
		}
		n++
	}
	if n < 20 {
		t.Fatalf("only %d real documents read", n)
	}
}

// Errors keep their kind across the process boundary.
func TestWorkerErrorsKeepTheirKind(t *testing.T) {
	p := testPool(t, "real", Limits{})
	ctx := context.Background()
	cases := []struct {
		name, mime string
		data       []byte
		max        int64
		want       error
	}{
		{"image as PDF", "application/pdf", realdocPNG(), 0, extract.ErrUnsupported},
		{"truncated PDF", "application/pdf", []byte("%PDF-1.4\n1 0 obj <<"), 0, extract.ErrMalformed},
		{"too large", "text/plain", bytes.Repeat([]byte("a"), 101), 100, extract.ErrTooLarge},
		{"video", "video/mp4", []byte("x"), 0, extract.ErrUnsupported},
	}
	for _, c := range cases {
		_, err := p.Extract(ctx, c.mime, bytes.NewReader(c.data), c.max)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
		if errors.Is(err, extract.ErrTooComplex) {
			t.Errorf("%s: %v is not a breach", c.name, err)
		}
	}
}

func realdocPNG() []byte {
	return append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)
}

// A worker past a limit is stopped and reaped, the error names the limit,
// and the pool's next request gets a new worker.
func TestBreaches(t *testing.T) {
	cases := []struct {
		mode     string
		limits   Limits
		reason   string
		deadline bool
	}{
		{"memory", Limits{Memory: 256 << 20, Wall: 2 * time.Minute}, "memory", false},
		{"cpu", Limits{CPU: time.Second, Wall: 2 * time.Minute}, "processor time", false},
		{"sleep", Limits{Wall: time.Second}, "longer than 1s", true},
		{"crash", Limits{Wall: 2 * time.Minute}, "stopped unexpectedly (exit status 2)", false},
		{"garbage", Limits{Wall: 2 * time.Minute}, "output was over its limit", false},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			p := testPool(t, c.mode, c.limits)
			w, err := p.get()
			if err != nil {
				t.Fatal(err)
			}
			pid := w.cmd.Process.Pid
			p.put(w)
			_, err = p.Extract(context.Background(), "text/plain", strings.NewReader("hello"), 0)
			if !errors.Is(err, extract.ErrTooComplex) || !errors.Is(err, extract.ErrMalformed) {
				t.Fatalf("got %v, want ErrTooComplex", err)
			}
			if !strings.Contains(err.Error(), c.reason) {
				t.Errorf("%q does not name the limit (%q)", err, c.reason)
			}
			if got := errors.Is(err, context.DeadlineExceeded); got != c.deadline {
				t.Errorf("matches DeadlineExceeded: %v, want %v", got, c.deadline)
			}
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("worker %d still exists after the breach (kill 0: %v)", pid, err)
			}
			if len(p.idle) != 0 {
				t.Errorf("%d idle workers after a breach, want 0", len(p.idle))
			}
		})
	}
}

// After a breach the same pool reads the next file with a new worker.
func TestPoolRecoversAfterBreach(t *testing.T) {
	// The "crash" worker kills itself on every request, so use a pool
	// whose worker command changes: first a sleeper, then a real worker.
	p := testPool(t, "sleep", Limits{Wall: time.Second})
	if _, err := p.Extract(context.Background(), "text/plain", strings.NewReader("x"), 0); !errors.Is(err, extract.ErrTooComplex) {
		t.Fatalf("got %v", err)
	}
	p.o.Command = []string{os.Args[0], "real"}
	doc, err := p.Extract(context.Background(), "text/plain", strings.NewReader("after the breach"), 0)
	if err != nil || doc.Text() != "after the breach" {
		t.Fatalf("got %q, %v", doc.Text(), err)
	}
}

// A caller that gives up stops its worker: the error is the context's,
// not the file's, and no process is left.
func TestCancelStopsTheWorker(t *testing.T) {
	p := testPool(t, "sleep", Limits{Wall: time.Hour})
	w, err := p.get()
	if err != nil {
		t.Fatal(err)
	}
	pid := w.cmd.Process.Pid
	p.put(w)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	_, err = p.Extract(ctx, "text/plain", strings.NewReader("x"), 0)
	if !errors.Is(err, context.Canceled) || errors.Is(err, extract.ErrTooComplex) {
		t.Fatalf("got %v, want context.Canceled only", err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("worker %d still exists after the cancel (kill 0: %v)", pid, err)
	}
}

// Many callers share Size workers; each gets its own file's text.
func TestConcurrentCallers(t *testing.T) {
	p := testPool(t, "real", Limits{})
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := strings.Repeat("word ", i+1) + "end"
			doc, err := p.Extract(context.Background(), "text/plain", strings.NewReader(want), 0)
			if err != nil || doc.Text() != want {
				errs <- errors.Join(err, errors.New("got "+doc.Text()))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(p.idle) > 2 {
		t.Errorf("%d idle workers, want at most Size=2", len(p.idle))
	}
}

// A closed pool refuses work and leaves no worker behind.
func TestClose(t *testing.T) {
	p := testPool(t, "real", Limits{})
	if _, err := p.Extract(context.Background(), "text/plain", strings.NewReader("x"), 0); err != nil {
		t.Fatal(err)
	}
	pid := p.idle[0].cmd.Process.Pid
	p.Close()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("worker %d still exists after Close", pid)
	}
	if _, err := p.Extract(context.Background(), "text/plain", strings.NewReader("x"), 0); !errors.Is(err, ErrClosed) {
		t.Errorf("got %v, want ErrClosed", err)
	}
}

func TestClassify(t *testing.T) {
	const mem = 1 << 30
	cases := []struct {
		name string
		e    ending
		want breach
	}{
		{"killed at wall", ending{killedAtWall: true, exited: true}, breachWall},
		{"watchdog memory", ending{exited: true, exitCode: exitMemory}, breachMemory},
		{"watchdog cpu", ending{exited: true, exitCode: exitCPU}, breachCPU},
		{"SIGXCPU", ending{exited: true, exitCode: -1, signal: syscall.SIGXCPU}, breachCPU},
		{"OOM killer", ending{exited: true, exitCode: -1, signal: syscall.SIGKILL}, breachMemory},
		{"runtime OOM after growing", ending{exited: true, exitCode: 2, peakRSS: mem * 3 / 4}, breachMemory},
		{"crash while small", ending{exited: true, exitCode: 2, peakRSS: 20 << 20}, breachCrashed},
		{"crash, rss unknown", ending{exited: true, exitCode: 2}, breachCrashed},
		{"garbled answer, still running", ending{detail: "frame larger than its limit"}, breachOutput},
	}
	for _, c := range cases {
		if got := classify(c.e, mem); got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, got, c.want)
		}
	}
}

func TestVerdict(t *testing.T) {
	cases := []struct {
		rss, mem      int64
		cpu, cpuLimit time.Duration
		want          int
	}{
		{100, 200, time.Second, 2 * time.Second, 0},
		{201, 200, time.Second, 2 * time.Second, exitMemory},
		{100, 200, 3 * time.Second, 2 * time.Second, exitCPU},
		{300, 200, 3 * time.Second, 2 * time.Second, exitMemory},
		{200, 200, 2 * time.Second, 2 * time.Second, 0},
	}
	for _, c := range cases {
		if got := verdict(c.rss, c.mem, c.cpu, c.cpuLimit); got != c.want {
			t.Errorf("verdict(%d, %d, %s, %s) = %d, want %d", c.rss, c.mem, c.cpu, c.cpuLimit, got, c.want)
		}
	}
}

func TestFrameLimits(t *testing.T) {
	var b bytes.Buffer
	if err := writeFrame(&b, make([]byte, 100)); err != nil {
		t.Fatal(err)
	}
	if _, err := readFrame(bytes.NewReader(b.Bytes()), 99); !errors.Is(err, errFrameTooLarge) {
		t.Errorf("got %v, want errFrameTooLarge", err)
	}
	if _, err := readFrame(bytes.NewReader(b.Bytes()[:50]), 100); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("got %v, want io.ErrUnexpectedEOF", err)
	}
	if _, err := readFrame(bytes.NewReader(nil), 100); !errors.Is(err, io.EOF) {
		t.Errorf("got %v, want io.EOF", err)
	}
}
