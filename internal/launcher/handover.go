package launcher

import (
	"fmt"
	"os"
)

// HandOver runs the full CLI found by CorePath with args (args[0] keeps the
// name the user typed, so help and messages say "gds") and the process's
// environment. On success it does not return. The error is a *CoreError
// when the full CLI is missing, else the exec failure.
func HandOver(args []string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the gds executable: %w", err)
	}
	core, err := CorePath(exe, os.Getenv)
	if err != nil {
		return err
	}
	if err := execCore(core, args, os.Environ()); err != nil {
		return fmt.Errorf("run %s: %w", core, err)
	}
	return nil
}
