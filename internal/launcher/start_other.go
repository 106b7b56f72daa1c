//go:build !unix

package launcher

import "errors"

// StartKeyServer does nothing where there is no keystroke server (it needs
// a Unix socket).
func StartKeyServer(string, []string) error {
	return errors.New("the keystroke server needs a Unix system")
}
