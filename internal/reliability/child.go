package reliability

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// GDS describes how to start the gds binary for one crawl setup.
type GDS struct {
	Bin  string   // path of the gds binary
	Args []string // e.g. crawl --source local:DIR
	Env  []string // added to a cleaned copy of the environment (see cleanEnv)
	Dir  string   // working directory (no ./.env there)
}

// cleanEnv is os.Environ without the variables that configure gds, so the
// caller's settings cannot leak into a run.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "GDS_"), strings.HasPrefix(k, "OPENAI_"), strings.HasPrefix(k, "GOOGLE_"),
			strings.HasPrefix(k, "LC_"), k == "LANG", k == "DATABASE_URL", k == "SUPABASE_DB_URL",
			k == "SEARCH_MAX_LOOP_COUNT", k == "SUMMARY_MAX_LENGTH":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "LANG=C")
}

// Stop says when to signal a child. The child gets Signal once its crawl
// reports AfterEvents finished files (progress lines on stderr), plus Delay;
// with AfterEvents < 0 it gets it Delay after the start, whatever it is
// doing (opening or migrating the index, listing).
type Stop struct {
	AfterEvents int
	Delay       time.Duration
	Signal      os.Signal
}

// Outcome is how one child run ended.
type Outcome struct {
	Signaled  bool // the harness sent the signal before the child exited
	ExitCode  int  // -1 when the child died of a signal
	Events    int  // file progress lines seen
	PeakRSSKB int64
	Wall      time.Duration
	Stderr    string // the last lines of stderr
}

var (
	progressLine = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d`)
	beginLine    = regexp.MustCompile(`^\S+ (Full scan|Incremental crawl):`)
)

// Run starts g, signals it as stop says (a nil stop lets it finish), waits
// for it and reports how it ended. An error means the child could not be
// run at all; a crawl failure is an Outcome with a non-zero ExitCode.
func Run(ctx context.Context, g GDS, stop *Stop) (Outcome, error) {
	var out Outcome
	cmd := exec.CommandContext(ctx, g.Bin, g.Args...)
	cmd.Env = append(cleanEnv(), g.Env...)
	cmd.Dir = g.Dir
	cmd.Stdout = io.Discard
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return out, fmt.Errorf("gds stderr: %w", err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return out, fmt.Errorf("start gds: %w", err)
	}
	var (
		mu       sync.Mutex
		signaled bool
		tail     []string
	)
	signal := func() {
		mu.Lock()
		defer mu.Unlock()
		if !signaled {
			signaled = cmd.Process.Signal(stop.Signal) == nil
		}
	}
	if stop != nil && stop.AfterEvents < 0 {
		t := time.AfterFunc(stop.Delay, signal)
		defer t.Stop()
	}
	sc := bufio.NewScanner(stderr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	events := 0
	for sc.Scan() {
		line := sc.Text()
		if len(tail) == 20 {
			tail = tail[1:]
		}
		tail = append(tail, line)
		if !progressLine.MatchString(line) || beginLine.MatchString(line) {
			if stop != nil && stop.AfterEvents == 0 && beginLine.MatchString(line) {
				time.AfterFunc(stop.Delay, signal)
			}
			continue
		}
		events++
		if stop != nil && stop.AfterEvents > 0 && events == stop.AfterEvents {
			time.AfterFunc(stop.Delay, signal)
		}
	}
	_, _ = io.Copy(io.Discard, stderr)
	err = cmd.Wait()
	out.Wall = time.Since(start)
	mu.Lock()
	out.Signaled = signaled
	signaled = true // no signal after Wait: the PID may be reused
	mu.Unlock()
	out.Events = events
	out.Stderr = strings.Join(tail, "\n")
	out.PeakRSSKB = peakRSSKB(cmd.ProcessState)
	out.ExitCode = cmd.ProcessState.ExitCode()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return out, fmt.Errorf("wait for gds: %w", err)
	}
	return out, nil
}

// peakRSSKB reads the child's maximum resident set size from rusage (KiB on
// Linux, bytes on macOS).
func peakRSSKB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}
