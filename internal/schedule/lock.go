package schedule

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// LockFileName is the crawl lock in the gds home.
const LockFileName = "crawl.lock"

// ErrCrawlRunning is returned by AcquireCrawlLock when another crawl holds
// the lock (a *BusyError wraps it).
var ErrCrawlRunning = apperr.Mark(errors.New("another gds crawl is running"), apperr.Busy)

// BusyError says which lock is held and by which process (PID 0 when the
// holder did not record it).
type BusyError struct {
	Path string
	PID  int
}

func (e *BusyError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("%v (pid %d, lock %s)", ErrCrawlRunning, e.PID, e.Path)
	}
	return fmt.Sprintf("%v (lock %s)", ErrCrawlRunning, e.Path)
}

func (e *BusyError) Unwrap() error { return ErrCrawlRunning }

// Message says which process holds the lock, in lang.
func (e *BusyError) Message(lang string) string { return i18n.T(lang, "crawl.locked", e.PID, e.Path) }

// Lock is a held crawl lock. The operating system releases it when the
// process dies, so a killed crawl never leaves a stale lock.
type Lock struct {
	f    *os.File
	path string
}

// AcquireCrawlLock takes the crawl lock in dir (created with mode 0700)
// without waiting. When another process (or another Lock in this process)
// holds it, it returns a *BusyError wrapping ErrCrawlRunning.
func AcquireCrawlLock(dir string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	path := filepath.Join(dir, LockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the crawl lock %s: %w", path, err)
	}
	busy, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if busy {
		data, _ := os.ReadFile(path)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		f.Close()
		return nil, &BusyError{Path: path, PID: pid}
	}
	// Record the holder for the message a second crawl prints.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f, path: path}, nil
}

// Path is the lock file.
func (l *Lock) Path() string { return l.path }

// Release gives the lock up. The file stays (removing it would race with a
// process that just opened it).
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	_ = l.f.Truncate(0)
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	if err != nil {
		return fmt.Errorf("release the crawl lock %s: %w", l.path, err)
	}
	return nil
}
