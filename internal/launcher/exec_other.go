//go:build !unix

package launcher

import (
	"errors"
	"os"
	"os/exec"
)

// execCore runs the full CLI as a child where exec(2) does not exist, with
// the same streams, and exits with its exit code.
func execCore(path string, argv, env []string) error {
	cmd := exec.Command(path, argv[1:]...)
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		os.Exit(ee.ExitCode())
	}
	if err != nil {
		return err
	}
	os.Exit(0)
	return nil
}
