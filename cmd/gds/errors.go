package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/doctor"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/schedule"
	"github.com/gds-cli/gds/internal/store"
)

// Exit codes of gds. They are part of the CLI contract (scripts, Alfred,
// launchd) and documented in the README.
const (
	exitOK             = 0
	exitError          = 1   // any other failure
	exitUsage          = 2   // bad flags or arguments
	exitConfig         = 3   // invalid configuration
	exitNotImplemented = 4   // the command is not built yet in this release
	exitIndex          = 5   // the index needs attention (embedding mismatch, schema too new)
	exitAuth           = 6   // not signed in to Google, or the sign-in expired: gds auth login
	exitBusy           = 75  // another crawl holds the lock (EX_TEMPFAIL: try again later)
	exitInterrupted    = 130 // SIGINT / SIGTERM
)

// usageError marks bad command-line usage.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// notImplementedError is returned by commands a later release builds.
type notImplementedError struct{ command string }

func (e notImplementedError) Error() string {
	return i18n.T(i18n.En, i18n.NotImplemented, e.command)
}

// errNotImplemented returns the not-implemented error for cmd.
func errNotImplemented(cmd *cli.Command) error { return notImplementedError{command: cmd.FullName()} }

// errInterrupted wraps the error of a run cancelled by a signal.
type errInterrupted struct{ cause error }

func (e errInterrupted) Error() string { return "interrupted: " + e.cause.Error() }
func (e errInterrupted) Unwrap() error { return e.cause }

// exitCode maps an error to the process exit code. This is the only place
// that decides exit codes.
func exitCode(err error) int {
	var (
		ue  usageError
		ni  notImplementedError
		ce  *config.Error
		ir  errInterrupted
		cec cli.ExitCoder
	)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ir), errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &ce):
		return exitConfig
	case errors.As(err, &ni):
		return exitNotImplemented
	case errors.As(err, &ue):
		return exitUsage
	case errors.Is(err, store.ErrEmbeddingMismatch), errors.Is(err, store.ErrSchemaTooNew):
		return exitIndex
	case errors.Is(err, auth.ErrNoClient):
		return exitConfig
	case errors.Is(err, auth.ErrNotLoggedIn), errors.Is(err, auth.ErrReauthRequired), errors.Is(err, auth.ErrLoginFailed), errors.Is(err, auth.ErrKeychain):
		return exitAuth
	case errors.Is(err, schedule.ErrCrawlRunning):
		return exitBusy
	case errors.As(err, &cec):
		// cli's own errors (unknown help topic, missing required flag).
		return exitUsage
	case isFlagError(err):
		return exitUsage
	default:
		return exitError
	}
}

// isFlagError recognises flag parsing errors that cli returns without
// calling OnUsageError.
func isFlagError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"flag provided but not defined", "invalid value", "flag needs an argument", "Required flag", "Required flags", "cannot be set along with"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// printError prints the one-line error and a hint, in the user's language.
func printError(d *app.Deps, err error) {
	var (
		ce   *config.Error
		ni   notImplementedError
		ae   *auth.Error
		busy *schedule.BusyError
		msg  string
	)
	switch {
	case errors.As(err, &ce):
		msg = ce.Message(d.Lang)
	case errors.As(err, &ni):
		msg = d.T(i18n.NotImplemented, ni.command)
	case errors.As(err, &ae):
		// One message instead of the chain of causes.
		msg = ae.Message(d.Lang)
	case errors.As(err, &busy):
		msg = d.T("crawl.locked", busy.PID, busy.Path)
	case exitCode(err) == exitInterrupted:
		msg = d.T(i18n.Interrupted)
	default:
		msg = err.Error()
	}
	msg = strings.ReplaceAll(strings.TrimSpace(msg), "\n", " ")
	fmt.Fprintln(d.Stderr, d.T(i18n.ErrorPrefix)+msg)
	if hint := hintFor(d, err); hint != "" {
		fmt.Fprintln(d.Stderr, d.T(i18n.HintPrefix)+hint)
	}
}

func hintFor(d *app.Deps, err error) string {
	if errors.Is(err, doctor.ErrUnhealthy) {
		return "" // the report above already gives a fix per problem
	}
	switch exitCode(err) {
	case exitConfig:
		return d.T(i18n.HintConfig)
	case exitNotImplemented:
		return d.T(i18n.HintNotImplemented)
	case exitUsage:
		return d.T(i18n.HintUsage)
	case exitInterrupted:
		return ""
	case exitIndex:
		return d.T("cli.hint_index")
	case exitAuth:
		return d.T("cli.hint_auth")
	case exitBusy:
		return d.T("crawl.locked_hint")
	default:
		return d.T(i18n.HintGeneric)
	}
}
