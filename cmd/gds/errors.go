package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// Exit codes of gds (the table is apperr's; these names keep the CLI
// readable). They are part of the CLI contract and documented in the README.
const (
	exitOK             = apperr.ExitOK
	exitError          = apperr.ExitError
	exitUsage          = apperr.ExitUsage
	exitConfig         = apperr.ExitConfig
	exitNotImplemented = apperr.ExitNotImplemented
	exitIndex          = apperr.ExitIndex
	exitAuth           = apperr.ExitAuth
	exitBusy           = apperr.ExitBusy
	exitInterrupted    = apperr.ExitInterrupted
)

// usageError marks bad command-line usage.
type usageError struct{ err error }

func (e usageError) Error() string              { return e.err.Error() }
func (e usageError) Unwrap() error              { return e.err }
func (e usageError) Is(target error) bool       { return target == apperr.Usage }
func usageErrorf(format string, a ...any) error { return usageError{err: fmt.Errorf(format, a...)} }

// notImplementedError is the error of a command a later release builds
// (none is left in this build; exit code 4 stays reserved for them).
type notImplementedError struct{ command string }

func (e notImplementedError) Error() string { return e.Message(i18n.En) }
func (e notImplementedError) Message(lang string) string {
	return i18n.T(lang, i18n.NotImplemented, e.command)
}
func (e notImplementedError) Is(target error) bool { return target == apperr.NotImplemented }

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
		return exitOK
	}
	if errors.Is(err, context.Canceled) {
		return exitInterrupted
	}
	return apperr.Classify(err).Exit
}

// printError prints the one-line error and a hint, in the user's language.
func printError(d *app.Deps, err error) {
	r := apperr.Describe(err, d.Lang)
	fmt.Fprintln(d.Stderr, d.T(i18n.ErrorPrefix)+r.Message)
	if r.Hint != "" {
		fmt.Fprintln(d.Stderr, d.T(i18n.HintPrefix)+r.Hint)
	}
}
