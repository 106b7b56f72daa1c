package isolate

import "syscall"

// residentBytes is what Go's runtime has mapped and not returned: the
// resident size of a pure-Go process. (The task's own resident size needs
// task_info, a Mach call the cgo-free build cannot make.)
func residentBytes() int64 { return goMappedBytes() }

// limitData does nothing on macOS: it does not enforce RLIMIT_DATA or
// RLIMIT_AS on mmap'd memory, so the watchdog and Go's memory limit are
// the guards there.
func limitData(int64) error { return nil }

// maxRSSBytes is a reaped child's peak resident size (macOS reports bytes).
func maxRSSBytes(ru *syscall.Rusage) int64 { return ru.Maxrss }
