//go:build !unix

package launcher

import (
	"errors"
	"net"
)

var errNoKeyServer = errors.New("the keystroke server needs a Unix system")

func lockKeySocket(string) (func(), error) { return nil, errNoKeyServer }

// StartKeyServer does nothing where there is no keystroke server.
func StartKeyServer(string, []string) error { return errNoKeyServer }

func listenUnix(string) (net.Listener, error) { return nil, errNoKeyServer }
