package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/search"
)

// Problem is an error response: apperr's RFC 9457 problem+json body, plus
// huma's validation details when the request did not match the schema.
type Problem struct {
	apperr.Problem
	Errors []*huma.ErrorDetail `json:"errors,omitempty"`
	// ClosestFolders are, for a folder the index does not hold (404), the
	// indexed folders nearest to it, as the folder field takes them.
	ClosestFolders []string `json:"closest_folders,omitempty"`
}

func (p *Problem) Error() string  { return p.Detail }
func (p *Problem) GetStatus() int { return p.Status }

// ContentType makes huma send the body as application/problem+json.
func (p *Problem) ContentType(string) string { return apperr.ProblemContentType }

// problem is the HTTP form of err in the request's language, safe to send:
// an unclassified error (apperr.Internal with no message of its own) is
// logged and answered with a generic message, since its text is whatever a
// library said (file paths, SQL, addresses); every other message has the
// machine's paths replaced (the gds home by "<gds home>", the user's home
// by "~", ...) and is capped in length.
func (s *Server) problem(ctx context.Context, err error) *Problem {
	var p *Problem
	if errors.As(err, &p) {
		return p
	}
	var fe *search.FolderError
	errors.As(err, &fe)
	err = s.httpWording(ctx, err)
	var m apperr.Messager
	if apperr.KindOf(err) == apperr.Internal && !errors.As(err, &m) {
		fmt.Fprintf(s.opts.Log, "gds serve: %v\n", err)
		err = apperr.L(apperr.Internal, "serve.internal").Wrap(err)
	}
	pr := httpProblem(err, langOf(ctx))
	pr.Detail = shorten(s.paths.redact(pr.Detail), maxDetail)
	pr.Hint = shorten(s.paths.redact(pr.Hint), maxDetail)
	out := &Problem{Problem: pr}
	if fe != nil {
		for _, c := range fe.Closest {
			out.ClosestFolders = append(out.ClosestFolders, s.paths.redact(c))
		}
	}
	return out
}

// folderNotFound is a folder field the index holds no folder for: the
// resolver's error (the closest folders, the indexed ones in its hint),
// answered 404 — the resource named does not exist — where the CLI's flag
// is a usage error.
type folderNotFound struct{ *search.FolderError }

func (e folderNotFound) Unwrap() error { return apperr.NotFound }

// httpWording is err in the API's terms where the application's message
// speaks of CLI commands and flags: an empty index is filled by an upload;
// the agent's folder is the request's folder field.
func (s *Server) httpWording(ctx context.Context, err error) error {
	var fe *search.FolderError
	switch {
	case errors.As(err, &fe):
		return folderNotFound{fe}
	case errors.Is(err, apperr.NoIndex):
		return apperr.L(apperr.NoIndex, "serve.http_empty_index").Wrap(err)
	case errors.Is(err, app.ErrNoFolder):
		var names []string
		if folders, ferr := s.d.Folders(ctx); ferr == nil {
			for _, f := range folders {
				if !strings.Contains(f.Path, "/") && !slices.Contains(names, strconv.Quote(f.Path)) && len(names) < search.MaxClosestFolders {
					names = append(names, strconv.Quote(f.Path))
				}
			}
		}
		return apperr.L(apperr.Usage, "serve.agent_no_folder", strings.Join(names, ", ")).Wrap(err)
	}
	return err
}

// Bounds of what an error body repeats from the request.
const (
	// maxDetail caps a problem's detail (and hint), in bytes.
	maxDetail = 1024
	// maxShownValue caps a value of the request quoted in a message or in
	// a validation error (a field's value, a Host header), in bytes.
	maxShownValue = 64
	// maxLocation caps a validation error's location ("body.query").
	maxLocation = 64
)

// shorten is s cut to at most max bytes on a rune boundary, with "…" and
// the full length when cut.
func shorten(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:cut], len(s))
}

// shownValue is what a validation error shows of a value the client sent:
// the value itself when short, else a prefix of its JSON (so control
// characters are escaped) — never the whole of a large body.
func shownValue(v any) any {
	switch v := v.(type) {
	case nil, bool, int, int64, float64:
		return v
	case string:
		if len(v) <= maxShownValue {
			return v
		}
		return shorten(v, maxShownValue)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	if len(b) <= maxShownValue {
		return v
	}
	return shorten(string(b), maxShownValue)
}

// httpProblem is apperr's problem without the CLI's hints for usage and
// an empty index (--help and gds doctor mean nothing to an HTTP client).
func httpProblem(err error, lang string) apperr.Problem {
	p := apperr.HTTPProblem(err, lang)
	if errors.Is(err, apperr.Usage) || errors.Is(err, apperr.TooLarge) || errors.Is(err, apperr.NoIndex) {
		p.Hint = ""
	}
	return p
}

// kindOfStatus is the apperr kind of an error huma raises itself (a body
// that does not parse or validate, a missing route parameter, ...).
func kindOfStatus(status int) *apperr.Kind {
	switch {
	case status == http.StatusNotFound:
		return apperr.NotFound
	case status == http.StatusServiceUnavailable:
		return apperr.Unavailable
	case status >= 400 && status < 500:
		return apperr.Usage
	}
	return apperr.Internal
}

// hugeProblem is the 413 of a request body over its limit.
func hugeProblem(lang string) *Problem {
	p := httpProblem(apperr.L(apperr.Usage, "serve.too_large"), lang)
	p.Status, p.Title = http.StatusRequestEntityTooLarge, http.StatusText(http.StatusRequestEntityTooLarge)
	return &Problem{Problem: p}
}

// newHumaError turns the errors huma raises (validation: 422, bad JSON:
// 400, a body over the limit: 413) into apperr problems, so every error
// body of the API has one shape.
func newHumaError(ctx context.Context, status int, msg string, errs ...error) huma.StatusError {
	if bodyTooLarge(ctx) {
		return hugeProblem(langOf(ctx))
	}
	return humaProblem(langOf(ctx), status, msg, errs...)
}

// humaProblem is the apperr problem, in lang, of an error huma raises.
func humaProblem(lang string, status int, msg string, errs ...error) huma.StatusError {
	var details []*huma.ErrorDetail
	parts := []string{msg}
	jsonErr := ""
	for _, e := range errs {
		if e == nil {
			continue
		}
		if status >= 500 {
			continue // an internal error's text is not the client's business
		}
		det := &huma.ErrorDetail{Message: e.Error()}
		var d huma.ErrorDetailer
		if errors.As(e, &d) {
			det = d.ErrorDetail()
		}
		// A body that is not JSON: say where, not what the decoder said.
		if body, ok := det.Value.(string); ok && status == http.StatusBadRequest && det.Location == "body" {
			if pos, bad := jsonSyntax([]byte(body)); bad {
				det.Message = pos.message(lang)
				jsonErr = det.Message
			}
		}
		// The client's value is quoted once, shortened, in errors[]; the
		// detail names the field only (huma's text would repeat the value).
		det = &huma.ErrorDetail{Message: shorten(det.Message, maxShownValue*4), Location: shorten(det.Location, maxLocation), Value: shownValue(det.Value)}
		details = append(details, det)
		if det.Location != "" {
			parts = append(parts, det.Message+" ("+det.Location+")")
		} else {
			parts = append(parts, det.Message)
		}
	}
	if msg == "" {
		msg = http.StatusText(status)
		parts[0] = msg
	}
	if jsonErr != "" {
		parts = []string{jsonErr} // the one thing to fix, without huma's "validation failed"
	}
	p := httpProblem(apperr.New(kindOfStatus(status), shorten(strings.Join(parts, ": "), maxDetail)), lang)
	p.Status, p.Title = status, http.StatusText(status)
	return &Problem{Problem: p, Errors: details}
}

var installOnce sync.Once

// installErrors routes huma's own errors through apperr (huma keeps its
// error constructor in package variables; every API of the process shares
// them, and ours are the only ones).
func installErrors() {
	installOnce.Do(func() {
		huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
			return humaProblem(i18n.En, status, msg, errs...) // no request, so no language of its own
		}
		huma.NewErrorWithContext = func(hctx huma.Context, status int, msg string, errs ...error) huma.StatusError {
			if hctx == nil {
				return humaProblem(i18n.En, status, msg, errs...)
			}
			return newHumaError(hctx.Context(), status, msg, errs...)
		}
	})
}

// writeProblem writes p as the response.
func writeProblem(w http.ResponseWriter, p *Problem) {
	w.Header().Set("Content-Type", apperr.ProblemContentType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(p.Status)
	_ = jsonEncode(w, p)
}

// langOf is the request's language (set by the locale middleware).
func langOf(ctx context.Context) string {
	if ctx == nil {
		return i18n.En
	}
	if l, ok := ctx.Value(langKey{}).(string); ok {
		return l
	}
	return i18n.En
}

// jsonPos is where a request body stops being JSON.
type jsonPos struct {
	Offset int  // 1-based byte offset of the offending byte (len+1 at the end)
	Line   int  // 1-based
	Column int  // 1-based, in characters
	EOF    bool // the body ends inside a value
	Char   rune // the offending character (when not EOF)
}

// jsonSyntax reports whether body is not JSON, and where: the byte, line
// and column of the first character the decoder refused, or the end of a
// body that stops inside a value.
func jsonSyntax(body []byte) (jsonPos, bool) {
	var v any
	var se *json.SyntaxError
	if err := json.Unmarshal(body, &v); !errors.As(err, &se) {
		return jsonPos{}, false
	}
	off := int(se.Offset) // bytes read, the offending one included
	// A body cut short fails at its end; so does one whose last byte is
	// wrong. With a NUL appended, only the first fails past the end.
	var se2 *json.SyntaxError
	err2 := json.Unmarshal(append(append([]byte{}, body...), 0), &v)
	eof := errors.As(err2, &se2) && int(se2.Offset) > len(body)
	p := jsonPos{EOF: eof}
	at := off - 1
	if eof || at < 0 {
		at = len(body)
	}
	at = min(at, len(body))
	for at > 0 && at < len(body) && !utf8.RuneStart(body[at]) {
		at--
	}
	p.Offset = at + 1
	head := body[:at]
	p.Line = 1 + strings.Count(string(head), "\n")
	p.Column = 1 + utf8.RuneCount(head[strings.LastIndexByte(string(head), '\n')+1:])
	if !eof {
		p.Char, _ = utf8.DecodeRune(body[at:])
	}
	return p, true
}

// message says in lang where the body stops being JSON.
func (p jsonPos) message(lang string) string {
	what := i18n.T(lang, "serve.bad_json.eof")
	if !p.EOF {
		what = i18n.T(lang, "serve.bad_json.char", string(p.Char))
	}
	return i18n.T(lang, "serve.bad_json", p.Line, p.Column, p.Offset, what)
}
