//go:build unix

package launcher

import (
	"fmt"
	"os"
	"syscall"
)

// StartKeyServer starts `core alfred keyserver` (the full CLI's keystroke
// server, internal/keystroke) in the background, in its own session with
// no standard streams, and does not wait for it: the keystroke that starts
// it is answered without it.
func StartKeyServer(core string, env []string) error {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer null.Close()
	p, err := os.StartProcess(core, []string{core, "alfred", "keyserver"}, &os.ProcAttr{
		Env:   env,
		Files: []*os.File{null, null, null},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		return fmt.Errorf("start the keystroke server: %w", err)
	}
	return p.Release()
}
