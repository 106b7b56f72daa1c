//go:build !unix

package launcher

import (
	"io"
	"net"
	"time"
)

// dialKeyServer connects to the keystroke server's socket; timeout bounds
// the whole exchange. (The server runs on Unix systems only; elsewhere
// there is none to connect to.)
func dialKeyServer(socket string, timeout time.Duration) (io.ReadWriteCloser, error) {
	conn, err := net.DialTimeout("unix", socket, timeout)
	if err != nil {
		return nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(timeout))
	return conn, nil
}
