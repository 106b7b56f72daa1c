//go:build unix

package launcher

import (
	"io"
	"os"
	"syscall"
	"time"
)

// dialKeyServer connects to the keystroke server's socket with a blocking
// file descriptor: the front then waits for the answer in read(2) instead
// of Go's network poller, which starts threads a one-request process pays
// for. timeout bounds each read and write (SO_RCVTIMEO, SO_SNDTIMEO).
func dialKeyServer(socket string, timeout time.Duration) (io.ReadWriteCloser, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, err
	}
	tv := syscall.NsecToTimeval(timeout.Nanoseconds())
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: socket}); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), socket), nil
}
