//go:build unix

package keystroke

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
)

// listenUnix listens on a Unix socket only its owner may connect to: the
// socket is created with mode 0600 (the umask is set around the call; the
// server has no other goroutine creating files then).
func listenUnix(path string) (net.Listener, error) {
	old := syscall.Umask(0o177)
	defer syscall.Umask(old)
	return net.Listen("unix", path)
}

// lockKeySocket takes the server's lock file (an exclusive flock, held
// until unlock): one keystroke server per socket.
func lockKeySocket(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("keystroke server: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrServerRunning
		}
		return nil, fmt.Errorf("keystroke server: lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
