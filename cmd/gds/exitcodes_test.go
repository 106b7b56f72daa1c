package main

import (
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render"
)

// Exit codes of gds (the table is apperr's; these names keep the tests
// readable). They are part of the CLI contract and documented in docs/configuration.md.
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

// notImplementedError is the error of a command a later release builds
// (none is left in this build; exit code 4 stays reserved for them).
type notImplementedError struct{ command string }

func (e notImplementedError) Error() string { return e.Message(i18n.En) }
func (e notImplementedError) Message(lang string) string {
	return i18n.T(lang, i18n.NotImplemented, e.command)
}
func (e notImplementedError) Is(target error) bool { return target == apperr.NotImplemented }

// The config document under its old name, for tests written before it
// moved to render.
type configShowJSON = render.ConfigShowDoc
