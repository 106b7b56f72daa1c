package schedule

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Runner runs an external command and returns its combined output. A
// command that ran and failed returns a *CommandError.
type Runner interface {
	Run(ctx context.Context, name string, args ...string) (string, error)
}

// ExecRunner runs commands with os/exec.
type ExecRunner struct{}

// Run implements Runner.
func (ExecRunner) Run(ctx context.Context, name string, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	if err != nil {
		ce := &CommandError{Command: name + " " + strings.Join(args, " "), Output: strings.TrimSpace(string(out)), ExitCode: -1, Err: err}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ce.ExitCode = ee.ExitCode()
		}
		return string(out), ce
	}
	return string(out), nil
}

// CommandError is a command that failed: its command line, output and exit
// code (-1 when it did not start).
type CommandError struct {
	Command  string
	Output   string
	ExitCode int
	Err      error
}

func (e *CommandError) Error() string {
	if e.Output != "" {
		return fmt.Sprintf("%s: %v: %s", e.Command, e.Err, e.Output)
	}
	return fmt.Sprintf("%s: %v", e.Command, e.Err)
}

func (e *CommandError) Unwrap() error { return e.Err }

// commandOutput returns the output (and error text) of a failed command for
// loose matching.
func commandOutput(out string, err error) string {
	var ce *CommandError
	if errors.As(err, &ce) {
		return out + "\n" + ce.Output + "\n" + ce.Err.Error()
	}
	if err != nil {
		return out + "\n" + err.Error()
	}
	return out
}
