package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/termsafe"
)

// usageError marks bad command-line usage.
type usageError struct{ err error }

func (e usageError) Error() string        { return e.err.Error() }
func (e usageError) Unwrap() error        { return e.err }
func (e usageError) Is(target error) bool { return target == apperr.Usage }

// errInterrupted wraps the error of a run cancelled by a signal.
type errInterrupted struct{ cause error }

func (e errInterrupted) Error() string        { return "interrupted: " + e.cause.Error() }
func (e errInterrupted) Unwrap() error        { return e.cause }
func (e errInterrupted) Is(target error) bool { return target == apperr.Interrupted }

// actionError marks an error returned by a command's Action. Any other
// error from the command tree comes from the flag parser, so it is a usage
// error (see run), without looking at its text.
type actionError struct{ err error }

func (e actionError) Error() string { return e.err.Error() }
func (e actionError) Unwrap() error { return e.err }

// exitCode maps an error to the process exit code (apperr's table).
func exitCode(err error) int {
	if err == nil {
		return apperr.ExitOK
	}
	if errors.Is(err, context.Canceled) {
		return apperr.ExitInterrupted
	}
	return apperr.Classify(err).Exit
}

// printError prints the one-line error and a hint, in the user's language.
func printError(d *app.Deps, err error) {
	r := apperr.Describe(err, d.Lang)
	// An error may quote a file's name: shown safe for a terminal.
	fmt.Fprintln(d.Stderr, d.T(i18n.ErrorPrefix)+termsafe.String(r.Message))
	if r.Hint != "" {
		fmt.Fprintln(d.Stderr, d.T(i18n.HintPrefix)+termsafe.String(r.Hint))
	}
}
