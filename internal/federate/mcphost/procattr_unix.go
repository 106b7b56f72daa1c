//go:build unix

package mcphost

import (
	"os/exec"
	"syscall"
)

// detach puts a server in its own process group, so that the terminal's
// Ctrl-C (SIGINT to the foreground group) cancels gds's question without
// killing the servers the REPL keeps running.
func detach(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}
