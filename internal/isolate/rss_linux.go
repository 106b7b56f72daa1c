package isolate

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

var pageSize = int64(os.Getpagesize())

// residentBytes is the process's resident size, from /proc/self/statm
// (its second field, in pages); the Go runtime's own figure when /proc
// cannot be read.
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err == nil {
		f := bytes.Fields(b)
		if len(f) >= 2 {
			if n, err := strconv.ParseInt(string(f[1]), 10, 64); err == nil {
				return n * pageSize
			}
		}
	}
	return goMappedBytes()
}

// limitData sets RLIMIT_DATA well past the memory limit: Linux counts Go's
// heap mappings in it, so an allocation far over the limit fails at once,
// before the watchdog's next look. The margin leaves room for the
// runtime's own reservations.
func limitData(memory int64) error {
	lim := uint64(memory) + 1<<30
	return unix.Setrlimit(unix.RLIMIT_DATA, &unix.Rlimit{Cur: lim, Max: lim})
}

// maxRSSBytes is a reaped child's peak resident size (Linux reports KiB).
func maxRSSBytes(ru *syscall.Rusage) int64 { return ru.Maxrss << 10 }
