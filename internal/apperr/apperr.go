// Package apperr classifies gds's failures once for every front end.
//
// Each failure has a Kind, a sentinel error matched with errors.Is. Domain
// packages mark their own sentinels and error types with a Kind (Mark, or
// an Is method returning true for the kind's sentinel); front ends never
// look at error text. One table (Classify) maps each Kind to what every
// front end needs: the process exit code, the machine-readable code of the
// --json and Alfred error documents, an HTTP status with a
// problem+json body, the MCP error form, and the hint the CLI prints.
//
// The package imports only the standard library, internal/i18n and
// internal/redact, so every package may depend on it.
package apperr

import (
	"context"
	"errors"
	"strings"

	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/redact"
)

// Kind is a class of failure. The zero value is not a kind; the Kind
// values below are sentinel errors, so errors.Is(err, apperr.NoIndex)
// asks "is this a no-index failure".
type Kind struct{ code string }

func (k *Kind) Error() string { return k.code }

// Code is the kind's stable machine-readable name ("no_index", ...).
func (k *Kind) Code() string { return k.code }

// The kinds of failure. Internal is the default for anything unmarked.
var (
	// Usage: bad command-line usage or bad input from the caller.
	Usage = &Kind{"usage"}
	// Config: the configuration is invalid or incomplete.
	Config = &Kind{"config"}
	// NotImplemented: the command or feature is not built in this release.
	NotImplemented = &Kind{"not_implemented"}
	// Index: the index needs attention (embedding mismatch, schema too new
	// or too old for a read-only open).
	Index = &Kind{"index"}
	// NoIndex: there is nothing indexed yet to search.
	NoIndex = &Kind{"no_index"}
	// Auth: not signed in to Google, or the sign-in must be renewed.
	Auth = &Kind{"auth"}
	// NotFound: the requested document or file does not exist.
	NotFound = &Kind{"not_found"}
	// TooLarge: an input (an uploaded file) is over its size limit.
	TooLarge = &Kind{"too_large"}
	// TooComplex: an input (an uploaded file) could not be read within the
	// limits on time, memory and work that keep a hostile file contained.
	TooComplex = &Kind{"too_complex"}
	// RateLimited: a service refused for quota or rate and retries ran out.
	RateLimited = &Kind{"rate_limited"}
	// Unavailable: a service (Drive, the database, the AI provider) could
	// not be reached or kept failing, or a step ran out of its time limit
	// (context.DeadlineExceeded not marked otherwise: a file's download
	// in a crawl).
	Unavailable = &Kind{"unavailable"}
	// Busy: another process holds a lock (a crawl is running).
	Busy = &Kind{"busy"}
	// Interrupted: the user interrupted gds (Ctrl-C, SIGTERM) or the
	// caller cancelled the request.
	Interrupted = &Kind{"interrupted"}
	// Internal: anything else.
	Internal = &Kind{"error"}
)

// marked is an error that matches both itself and a kind.
type marked struct {
	err  error
	kind *Kind
}

func (m *marked) Error() string   { return m.err.Error() }
func (m *marked) Unwrap() []error { return []error{m.err, m.kind} }

// Mark returns err marked with kind: its text is err's, and errors.Is
// matches err's chain and kind. Mark(nil, k) is nil.
func Mark(err error, kind *Kind) error {
	if err == nil {
		return nil
	}
	return &marked{err: err, kind: kind}
}

// New returns an error with text msg marked with kind.
func New(kind *Kind, msg string) error { return Mark(errors.New(msg), kind) }

// Localized is an error whose text depends on the user's language. The
// message is built when it is shown, in the language of whoever reads it
// (a terminal, an HTTP client, an MCP client).
type Localized struct {
	Kind *Kind
	Key  i18n.Key
	Args []any
	Err  error // cause, may be nil
}

// L returns a Localized error of kind with the message key and arguments.
func L(kind *Kind, key i18n.Key, args ...any) *Localized {
	return &Localized{Kind: kind, Key: key, Args: args}
}

// Wrap sets the cause of e (matched by errors.Is/As) and returns e.
func (e *Localized) Wrap(cause error) *Localized { e.Err = cause; return e }

func (e *Localized) Error() string { return e.Message(i18n.En) }

// Message is the text in lang.
func (e *Localized) Message(lang string) string { return i18n.T(lang, e.Key, e.Args...) }

// Unwrap returns the cause and the kind.
func (e *Localized) Unwrap() []error {
	out := make([]error, 0, 2)
	if e.Err != nil {
		out = append(out, e.Err)
	}
	if e.Kind != nil {
		out = append(out, e.Kind)
	}
	return out
}

// Messager is implemented by errors that can say themselves in a language
// (config.Error, auth.Error, drive.FolderError, Localized, ...).
type Messager interface {
	error
	Message(lang string) string
}

// Hinter is implemented by errors that carry their own hint, overriding
// the kind's; an empty hint means "print none".
type Hinter interface {
	error
	Hint(lang string) string
}

// Class is everything a front end needs to report one kind of failure.
type Class struct {
	Kind *Kind
	// Exit is the process exit code (docs/configuration.md "Exit codes").
	Exit int
	// HTTPStatus is the status of an HTTP API error response.
	HTTPStatus int
	// MCPInvalidParams: an MCP tool reports this failure as a JSON-RPC
	// protocol error -32602 (invalid params); otherwise as a tool result
	// with isError set, so the model can read it and recover.
	MCPInvalidParams bool
	// HintKey is the hint printed after the message ("" for none).
	HintKey i18n.Key
	// MessageKey, when set, replaces the error's own text.
	MessageKey i18n.Key
}

// Exit codes of gds; part of the CLI contract (scripts, Alfred, launchd).
const (
	ExitOK             = 0
	ExitError          = 1   // any other failure
	ExitUsage          = 2   // bad flags or arguments
	ExitConfig         = 3   // invalid configuration
	ExitNotImplemented = 4   // reserved: a command that is not built yet
	ExitIndex          = 5   // the index needs attention
	ExitAuth           = 6   // not signed in to Google, or the sign-in expired
	ExitBusy           = 75  // another crawl holds the lock (EX_TEMPFAIL)
	ExitInterrupted    = 130 // SIGINT / SIGTERM
)

// JSON-RPC error code for invalid params (MCP uses JSON-RPC 2.0).
const MCPCodeInvalidParams = -32602

// classes is the one table. Order matters: the first kind an error
// matches wins (an interrupted search that also failed to reach Drive is
// interrupted).
var classes = []Class{
	{Kind: Interrupted, Exit: ExitInterrupted, HTTPStatus: 499, MessageKey: i18n.Interrupted},
	{Kind: Config, Exit: ExitConfig, HTTPStatus: 500, HintKey: i18n.HintConfig},
	{Kind: NotImplemented, Exit: ExitNotImplemented, HTTPStatus: 501, HintKey: i18n.HintNotImplemented},
	{Kind: TooComplex, Exit: ExitError, HTTPStatus: 422, HintKey: ""}, // before Usage: the file's limit, not the request's form
	{Kind: Usage, Exit: ExitUsage, HTTPStatus: 400, MCPInvalidParams: true, HintKey: i18n.HintUsage},
	{Kind: Index, Exit: ExitIndex, HTTPStatus: 409, HintKey: "cli.hint_index"},
	{Kind: NoIndex, Exit: ExitError, HTTPStatus: 409, HintKey: i18n.HintGeneric},
	{Kind: Auth, Exit: ExitAuth, HTTPStatus: 503, HintKey: "cli.hint_auth"},
	{Kind: Busy, Exit: ExitBusy, HTTPStatus: 409, HintKey: "crawl.locked_hint"},
	{Kind: NotFound, Exit: ExitError, HTTPStatus: 404, HintKey: ""},
	{Kind: TooLarge, Exit: ExitError, HTTPStatus: 413, MCPInvalidParams: true, HintKey: ""},
	{Kind: RateLimited, Exit: ExitError, HTTPStatus: 429, HintKey: "cli.hint_rate_limited"},
	{Kind: Unavailable, Exit: ExitError, HTTPStatus: 503, HintKey: "cli.hint_unavailable"},
}

var internalClass = Class{Kind: Internal, Exit: ExitError, HTTPStatus: 500, HintKey: i18n.HintGeneric}

// Classes returns the table (a copy), Internal last.
func Classes() []Class { return append(append([]Class(nil), classes...), internalClass) }

// Classify returns the class of err. A nil error has the zero Class.
// The caller's cancellation (context.Canceled) is Interrupted before any
// kind; a time limit passed (context.DeadlineExceeded) is Unavailable
// when no kind marks the error (a reader over its limit is TooComplex).
func Classify(err error) Class {
	if err == nil {
		return Class{Exit: ExitOK}
	}
	if errors.Is(err, context.Canceled) {
		return classes[0]
	}
	for _, c := range classes {
		if errors.Is(err, c.Kind) {
			return c
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return classOf(Unavailable)
	}
	return internalClass
}

// classOf is kind's row of the table.
func classOf(kind *Kind) Class {
	for _, c := range classes {
		if c.Kind == kind {
			return c
		}
	}
	return internalClass
}

// KindOf returns the kind of err (Internal when unmarked, nil for nil).
func KindOf(err error) *Kind {
	if err == nil {
		return nil
	}
	return Classify(err).Kind
}

// Message is the one-line text of err in lang: the class's fixed message,
// else the error's own localized message, else its text; newlines become
// spaces, and the credentials of URLs are masked (redact.URLs).
func Message(err error, lang string) string {
	c := Classify(err)
	var msg string
	var m Messager
	switch {
	case c.MessageKey != "":
		msg = i18n.T(lang, c.MessageKey)
	case errors.As(err, &m):
		msg = m.Message(lang)
	default:
		msg = err.Error()
	}
	// Whatever an error quotes, a URL's credentials are not shown.
	return redact.URLs(strings.ReplaceAll(strings.TrimSpace(msg), "\n", " "))
}

// Hint is what to do next about err, in lang ("" for none).
func Hint(err error, lang string) string {
	var h Hinter
	if errors.As(err, &h) {
		return redact.URLs(h.Hint(lang))
	}
	c := Classify(err)
	if c.HintKey == "" {
		return ""
	}
	return i18n.T(lang, c.HintKey)
}

// Report is a failure as every front end shows it.
type Report struct {
	Code    string // the kind's code
	Message string
	Hint    string
	Exit    int
	Status  int // HTTP status
}

// Describe reports err in lang.
func Describe(err error, lang string) Report {
	c := Classify(err)
	return Report{Code: c.Kind.Code(), Message: Message(err, lang), Hint: Hint(err, lang), Exit: c.Exit, Status: c.HTTPStatus}
}

// Problem is an RFC 9457 problem+json body. Detail is the message, so a
// client reading the seed's {"detail": ...} shape gets the text.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Code   string `json:"code"`
	Hint   string `json:"hint,omitempty"`
}

// ProblemContentType is the media type of a Problem body.
const ProblemContentType = "application/problem+json"

// HTTPProblem is the HTTP form of err in lang.
func HTTPProblem(err error, lang string) Problem {
	r := Describe(err, lang)
	return Problem{
		Type:   "https://github.com/gds-cli/gds/blob/main/docs/ERRORS.md#" + r.Code,
		Title:  statusTitle(r.Status),
		Status: r.Status,
		Detail: r.Message,
		Code:   r.Code,
		Hint:   r.Hint,
	}
}

func statusTitle(status int) string {
	switch status {
	case 400:
		return "Bad Request"
	case 404:
		return "Not Found"
	case 413:
		return "Content Too Large"
	case 421:
		return "Misdirected Request"
	case 422:
		return "Unprocessable Entity"
	case 409:
		return "Conflict"
	case 429:
		return "Too Many Requests"
	case 499:
		return "Client Closed Request"
	case 501:
		return "Not Implemented"
	case 503:
		return "Service Unavailable"
	}
	return "Internal Server Error"
}

// MCPError is the MCP form of err: either a JSON-RPC protocol error
// (Protocol true, with Code) or a tool result with isError and Text.
type MCPError struct {
	Protocol bool
	Code     int    // JSON-RPC code when Protocol
	Text     string // message and hint, for the tool result or the error
}

// MCP is the MCP form of err in lang.
func MCP(err error, lang string) MCPError {
	c := Classify(err)
	r := Describe(err, lang)
	text := r.Message
	if r.Hint != "" {
		text += " (" + r.Hint + ")"
	}
	if c.MCPInvalidParams {
		return MCPError{Protocol: true, Code: MCPCodeInvalidParams, Text: text}
	}
	return MCPError{Text: text}
}
