package ocr

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gds-cli/gds/internal/extract"
)

// Limits bound one run of an OCR tool (tesseract on one image, pdftoppm on
// one PDF), as package isolate bounds a parser: the zero value of a field
// means its default.
type Limits struct {
	// Wall is the longest one run may take; the tool's process group is
	// killed past it. Default 60 s.
	Wall time.Duration
	// CPU is the processor time one run may use (RLIMIT_CPU: the kernel
	// ends the tool past it). Default 60 s.
	CPU time.Duration
	// Memory is the address space the tool may map (RLIMIT_AS, where the
	// system enforces it: Linux; macOS accepts the limit but does not
	// enforce it on mmap'd memory, and the wall limit is the guard there).
	// Default 1 GiB.
	Memory int64
	// Output is the most the tool may write on stdout; past it the tool
	// is killed. Default extract.MaxTextBytes.
	Output int64
}

// Default limits.
const (
	DefaultWall   = 60 * time.Second
	DefaultCPU    = 60 * time.Second
	DefaultMemory = 1 << 30
)

func (l Limits) withDefaults() Limits {
	if l.Wall <= 0 {
		l.Wall = DefaultWall
	}
	if l.CPU <= 0 {
		l.CPU = DefaultCPU
	}
	if l.Memory <= 0 {
		l.Memory = DefaultMemory
	}
	if l.Output <= 0 {
		l.Output = extract.MaxTextBytes
	}
	return l
}

// limitScript sets the limits in a shell that then becomes the tool
// (exec): the limits hold for the tool and anything it starts. "$0" is the
// tool, "$@" its arguments. A memory limit the system refuses to set is
// left unset (the wall limit still holds).
func limitScript(l Limits) string {
	cpu := int64(l.CPU / time.Second)
	if cpu < 1 {
		cpu = 1
	}
	return fmt.Sprintf(`ulimit -t %d || exit 126; ulimit -v %d 2>/dev/null; exec "$0" "$@"`, cpu, l.Memory>>10)
}

// ending is how a tool's run ended, as the parent saw it.
type ending struct {
	killedAtWall bool
	overOutput   bool
	exitCode     int
	signal       syscall.Signal
	stderr       string
}

// judge is the pure decision of what a finished run means: nil for a
// clean exit, a breach for a limit, else a malformed input (the tool could
// not read it) named by the tool's own first line of complaint.
func judge(tool string, e ending, l Limits) error {
	switch {
	case e.killedAtWall:
		return extract.TooComplex(fmt.Sprintf("%s took longer than %s", tool, l.Wall), true)
	case e.overOutput:
		return extract.TooComplex(fmt.Sprintf("%s wrote more than %d bytes", tool, l.Output), false)
	case e.signal == syscall.SIGXCPU:
		return extract.TooComplex(fmt.Sprintf("%s needed more than %s of processor time", tool, l.CPU), false)
	case e.signal == syscall.SIGKILL:
		// Not killed by gds (that is killedAtWall): the kernel's hard
		// processor limit or its out-of-memory killer.
		return extract.TooComplex(fmt.Sprintf("%s was killed by the system (over its processor or memory limit)", tool), false)
	case e.signal == syscall.SIGSEGV || e.signal == syscall.SIGABRT || e.signal == syscall.SIGBUS:
		// An allocation refused under RLIMIT_AS ends most C++ programs
		// with std::bad_alloc (abort) or a crash.
		return extract.TooComplex(fmt.Sprintf("%s stopped (%s), most likely over its %d MiB memory limit", tool, e.signal, l.Memory>>20), false)
	case e.signal != 0:
		return fmt.Errorf("%w: %s stopped (%s)", extract.ErrMalformed, tool, e.signal)
	case e.exitCode != 0:
		msg := firstLine(e.stderr)
		if msg == "" {
			msg = "exit status " + strconv.Itoa(e.exitCode)
		}
		return fmt.Errorf("%w: %s could not read it: %s", extract.ErrMalformed, tool, msg)
	}
	return nil
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > 200 {
				l = l[:200]
			}
			return l
		}
	}
	return ""
}

// run runs path with args under l: its own process group, a shell that
// sets the rlimits and then execs it, an environment with nothing of the
// user's but PATH, HOME and TESSDATA_PREFIX (no keys, no tokens), stdin
// from in, stdout bounded by l.Output. dir is its working directory ("":
// the temporary directory).
func run(ctx context.Context, l Limits, path string, args []string, in []byte, dir string) ([]byte, error) {
	l = l.withDefaults()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tool := baseName(path)
	argv := append([]string{"-c", limitScript(l), path}, args...)
	cmd := exec.Command("/bin/sh", argv...)
	cmd.Env = childEnv(os.LookupEnv)
	cmd.Dir = dir
	if dir == "" {
		cmd.Dir = os.TempDir()
	}
	cmd.Stdin = bytes.NewReader(in)
	out := &capped{max: l.Output}
	var stderr capped
	stderr.max = 8 << 10
	cmd.Stdout, cmd.Stderr = out, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", tool, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(l.Wall)
	defer timer.Stop()
	ticker := time.NewTicker(50 * time.Millisecond)
	defer ticker.Stop()
	var e ending
	var werr error
wait:
	for {
		select {
		case werr = <-done:
			break wait
		case <-timer.C:
			e.killedAtWall = true
			killGroup(cmd)
		case <-ticker.C:
			if out.over() && !e.overOutput {
				e.overOutput = true
				killGroup(cmd)
			}
		case <-ctx.Done():
			killGroup(cmd)
			<-done //nolint:errcheck // killed: the context's error is the one to report
			return nil, fmt.Errorf("%s: %w", tool, ctx.Err())
		}
	}
	if out.over() {
		e.overOutput = true
	}
	e.stderr = stderr.buf.String()
	var xe *exec.ExitError
	switch {
	case errors.As(werr, &xe):
		e.exitCode = xe.ExitCode()
		if ws, ok := xe.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			e.signal = ws.Signal()
		}
		if e.exitCode == 126 || e.exitCode == 127 {
			return nil, fmt.Errorf("run %s: %s", tool, firstLine(e.stderr))
		}
	case werr != nil && !e.killedAtWall && !e.overOutput:
		return nil, fmt.Errorf("run %s: %w", tool, werr)
	}
	if err := judge(tool, e, l); err != nil {
		return nil, err
	}
	return out.buf.Bytes(), nil
}

// killGroup kills the tool and anything it started.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// childEnv is the tool's environment: what it needs to find itself and
// its data, one thread for OpenMP (gds runs several files at once), and
// nothing else of the user's.
func childEnv(lookup func(string) (string, bool)) []string {
	env := []string{"OMP_THREAD_LIMIT=1", "LC_ALL=C"}
	for _, k := range []string{"PATH", "HOME", "TESSDATA_PREFIX", "TMPDIR"} {
		if v, ok := lookup(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// capped keeps at most max bytes and remembers that more came. Its buffer
// is read only after the process was reaped.
type capped struct {
	buf  bytes.Buffer
	max  int64
	more atomic.Bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - int64(c.buf.Len())
	if int64(len(p)) > room {
		c.buf.Write(p[:max(room, 0)])
		c.more.Store(true)
		return len(p), nil
	}
	return c.buf.Write(p)
}

func (c *capped) over() bool { return c.more.Load() }

var _ io.Writer = (*capped)(nil)
