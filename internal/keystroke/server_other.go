//go:build !unix

package keystroke

import (
	"errors"
	"net"
)

var errNoKeyServer = errors.New("the keystroke server needs a Unix system")

func lockKeySocket(string) (func(), error) { return nil, errNoKeyServer }

func listenUnix(string) (net.Listener, error) { return nil, errNoKeyServer }
