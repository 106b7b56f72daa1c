//go:build unix

package launcher

import "syscall"

// execCore replaces the process with the full CLI: same process ID, so the
// signals, the terminal (job control, raw mode) and the exit code are the
// full CLI's with nothing in between.
func execCore(path string, argv, env []string) error { return syscall.Exec(path, argv, env) }
