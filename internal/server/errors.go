package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// Problem is an error response: apperr's RFC 9457 problem+json body, plus
// huma's validation details when the request did not match the schema.
type Problem struct {
	apperr.Problem
	Errors []*huma.ErrorDetail `json:"errors,omitempty"`
}

func (p *Problem) Error() string  { return p.Detail }
func (p *Problem) GetStatus() int { return p.Status }

// ContentType makes huma send the body as application/problem+json.
func (p *Problem) ContentType(string) string { return apperr.ProblemContentType }

// problemOf is the HTTP form of err in the request's language.
func problemOf(ctx context.Context, err error) *Problem {
	var p *Problem
	if errors.As(err, &p) {
		return p
	}
	return &Problem{Problem: httpProblem(err, langOf(ctx))}
}

// httpProblem is apperr's problem without the CLI's usage hint (--help
// means nothing to an HTTP client).
func httpProblem(err error, lang string) apperr.Problem {
	p := apperr.HTTPProblem(err, lang)
	if errors.Is(err, apperr.Usage) || errors.Is(err, apperr.TooLarge) {
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
	lang := langOf(ctx)
	if ctx != nil && bodyTooLarge(ctx) {
		return hugeProblem(lang)
	}
	var details []*huma.ErrorDetail
	parts := []string{msg}
	for _, e := range errs {
		if e == nil {
			continue
		}
		var d huma.ErrorDetailer
		if errors.As(e, &d) {
			det := d.ErrorDetail()
			details = append(details, det)
			parts = append(parts, det.Error())
			continue
		}
		details = append(details, &huma.ErrorDetail{Message: e.Error()})
		parts = append(parts, e.Error())
	}
	if msg == "" {
		msg = http.StatusText(status)
		parts[0] = msg
	}
	p := httpProblem(apperr.New(kindOfStatus(status), strings.Join(parts, ": ")), lang)
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
			return newHumaError(nil, status, msg, errs...)
		}
		huma.NewErrorWithContext = func(hctx huma.Context, status int, msg string, errs ...error) huma.StatusError {
			var ctx context.Context
			if hctx != nil {
				ctx = hctx.Context()
			}
			return newHumaError(ctx, status, msg, errs...)
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
