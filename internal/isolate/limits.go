package isolate

import (
	"fmt"
	"syscall"
	"time"
)

// Limits bound one extraction. The zero value of a field means its
// default.
type Limits struct {
	// Wall is the longest one file may take, start to end; the parent
	// kills the worker past it. Default 25 s.
	Wall time.Duration
	// CPU is the processor time one file may use; the worker's watchdog
	// ends the worker past it. Default 20 s.
	CPU time.Duration
	// Memory is the most a worker may hold resident; the watchdog ends it
	// past this, Go's collector aims below it, and on Linux RLIMIT_DATA
	// refuses allocations well past it. Default 1 GiB.
	Memory int64
}

// Default limits.
const (
	DefaultWall   = 25 * time.Second
	DefaultCPU    = 20 * time.Second
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
	return l
}

// breach is a limit a worker went past, as the parent learns it.
type breach int

const (
	breachNone    breach = iota
	breachWall           // the parent killed the worker at Limits.Wall
	breachCPU            // the watchdog ended the worker (exitCPU)
	breachMemory         // the watchdog ended the worker (exitMemory), or Linux refused memory
	breachCrashed        // the worker ended for a reason of its own
	breachOutput         // the worker's answer was over its size limit or garbled
)

// reason is the text that follows "too complex to read safely: ".
func (b breach) reason(l Limits, detail string) string {
	switch b {
	case breachWall:
		return fmt.Sprintf("took longer than %s to read", l.Wall)
	case breachCPU:
		return fmt.Sprintf("needed more than %s of processor time", l.CPU)
	case breachMemory:
		return fmt.Sprintf("needed more than %s of memory", formatBytes(l.Memory))
	case breachOutput:
		return "the reader's output was over its limit (" + detail + ")"
	}
	return "the reader stopped unexpectedly (" + detail + ")"
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Worker exit statuses (besides 0, a clean end of input).
const (
	exitMemory   = 70
	exitCPU      = 71
	exitOrphan   = 72
	exitProtocol = 73
	exitSetup    = 74
)

// ending is how a worker's request ended, as the parent saw it.
type ending struct {
	killedAtWall bool           // the parent killed it at Limits.Wall
	exited       bool           // the process has ended
	exitCode     int            // its exit status; -1 when a signal ended it
	signal       syscall.Signal // the signal that ended it, if one did
	peakRSS      int64          // its peak resident size, bytes (0: unknown)
	detail       string         // what went wrong, for the message
}

// classify is the parent's pure decision of which limit a failed request
// went past, given the worker's memory limit.
func classify(e ending, memory int64) breach {
	switch {
	case e.killedAtWall:
		return breachWall
	case !e.exited:
		// The worker runs on but answered garbage or too much.
		return breachOutput
	case e.exitCode == exitMemory:
		return breachMemory
	case e.exitCode == exitCPU || e.signal == syscall.SIGXCPU:
		return breachCPU
	case e.signal == syscall.SIGKILL:
		// Killed by someone else: on Linux, most often the kernel's OOM
		// killer.
		return breachMemory
	case e.peakRSS > 0 && e.peakRSS >= memory/2:
		// Go's runtime ends the process when an allocation fails
		// (RLIMIT_DATA on Linux); a worker that had grown to half its
		// limit and then died ran out of memory.
		return breachMemory
	}
	return breachCrashed
}
