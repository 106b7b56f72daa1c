package config

import (
	"strconv"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// Error is a configuration error: one variable (or .env file), the bad
// value as it may be shown (secrets masked) and the fix. Match it with
// errors.As; Message gives the text in the user's language.
type Error struct {
	Var         string   // the variable, "" for a .env file error
	File        string   // the .env file, for read and parse errors
	Line        int      // the 1-based line of File a parse error is on, 0 if unknown
	Value       string   // the offending value, safe to show
	Problem     i18n.Key // what is wrong
	ProblemArgs []any
	Fix         i18n.Key // what to do
	FixArgs     []any
	Err         error // the underlying error, if any
	// errShown: Problem already says what Err says (in the user's
	// language), so Message leaves Err out.
	errShown bool
}

// Error returns the English message.
func (e *Error) Error() string { return e.Message(i18n.En) }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is makes every configuration error match apperr.Config.
func (e *Error) Is(target error) bool { return target == apperr.Config }

// Message renders the error in lang: "VAR=value: problem; fix".
func (e *Error) Message(lang string) string {
	subject := e.Var
	switch {
	case e.File != "" && e.Line > 0:
		subject = e.File + ":" + strconv.Itoa(e.Line)
	case e.File != "":
		subject = e.File
	case e.Value != "":
		subject = e.Var + "=" + quote(e.Value)
	}
	msg := subject + ": " + i18n.T(lang, e.Problem, e.ProblemArgs...)
	if e.Err != nil && !e.errShown {
		msg += " (" + e.Err.Error() + ")"
	}
	if e.Fix != "" {
		msg += i18n.T(lang, "config.fix_sep") + i18n.T(lang, e.Fix, e.FixArgs...)
	}
	return msg
}

func quote(s string) string { return "\"" + s + "\"" }
