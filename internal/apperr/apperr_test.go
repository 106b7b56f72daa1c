package apperr_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/api/googleapi"

	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/schedule"
	"github.com/gds-cli/gds/internal/store"
)

// Each domain package's errors land in the kind the front ends expect,
// also when wrapped.
func TestClassifyDomainErrors(t *testing.T) {
	rateLimited := &googleapi.Error{Code: http.StatusTooManyRequests}
	quota := &googleapi.Error{Code: http.StatusForbidden, Errors: []googleapi.ErrorItem{{Reason: "userRateLimitExceeded"}}}
	server := &googleapi.Error{Code: http.StatusServiceUnavailable}
	cases := []struct {
		name string
		err  error
		kind *apperr.Kind
		exit int
		http int
	}{
		{"nil-ish internal", errors.New("boom"), apperr.Internal, 1, 500},
		{"cancelled", fmt.Errorf("search: %w", context.Canceled), apperr.Interrupted, 130, 499},
		{"config", fmt.Errorf("load: %w", &config.Error{Var: "X"}), apperr.Config, 3, 500},
		{"no oauth client", auth.ErrNoClient, apperr.Config, 3, 500},
		{"not signed in", fmt.Errorf("drive: %w", auth.ErrNotLoggedIn), apperr.Auth, 6, 503},
		{"auth.Error", &auth.Error{Kind: auth.ErrReauthRequired, Key: "auth.reauth"}, apperr.Auth, 6, 503},
		{"embedding mismatch", fmt.Errorf("upsert: %w", store.ErrEmbeddingMismatch), apperr.Index, 5, 409},
		{"schema too new", store.ErrSchemaTooNew, apperr.Index, 5, 409},
		{"damaged index", fmt.Errorf("open: %w", &store.DamagedError{Backend: "sqlite", Location: "/h/index.db", Err: errors.New("file is not a database")}), apperr.Index, 5, 409},
		{"not found", fmt.Errorf("get: %w", store.ErrNotFound), apperr.NotFound, 1, 404},
		{"crawl running", &schedule.BusyError{Path: "p", PID: 7}, apperr.Busy, 75, 409},
		{"drive 429 gave up", &drive.RetryError{Op: "search", Attempts: 8, Err: rateLimited}, apperr.RateLimited, 1, 429},
		{"drive quota gave up", fmt.Errorf("x: %w", &drive.RetryError{Op: "search", Attempts: 8, Err: quota}), apperr.RateLimited, 1, 429},
		{"drive 503 gave up", &drive.RetryError{Op: "search", Attempts: 8, Err: server}, apperr.Unavailable, 1, 503},
		{"openai rate limit", &openai.Error{Op: "chat", Kind: openai.ErrRateLimited}, apperr.RateLimited, 1, 429},
		{"openai connection", &openai.Error{Op: "chat", Kind: openai.ErrConnection}, apperr.Unavailable, 1, 503},
		{"no index", apperr.L(apperr.NoIndex, "search.empty_index"), apperr.NoIndex, 1, 409},
		{"usage", apperr.New(apperr.Usage, "bad"), apperr.Usage, 2, 400},
		{"time limit", fmt.Errorf("download a.pdf: %w", context.DeadlineExceeded), apperr.Unavailable, 1, 503},
		{"time limit in a URL error", fmt.Errorf("download: %w", &url.Error{Op: "Get", URL: "https://x/", Err: context.DeadlineExceeded}), apperr.Unavailable, 1, 503},
		{"cancelled over a time limit", errors.Join(context.DeadlineExceeded, context.Canceled), apperr.Interrupted, 130, 499},
		{"time limit of a marked kind", apperr.Mark(fmt.Errorf("parse: %w", context.DeadlineExceeded), apperr.TooComplex), apperr.TooComplex, 1, 422},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := apperr.Classify(tc.err)
			if c.Kind != tc.kind || c.Exit != tc.exit || c.HTTPStatus != tc.http {
				t.Errorf("Classify = %s exit %d http %d, want %s exit %d http %d", c.Kind.Code(), c.Exit, c.HTTPStatus, tc.kind.Code(), tc.exit, tc.http)
			}
		})
	}
}

// A marked sentinel still matches itself and keeps its text.
func TestMarkKeepsIdentityAndText(t *testing.T) {
	base := errors.New("the thing")
	m := apperr.Mark(base, apperr.NotFound)
	w := fmt.Errorf("outer: %w", m)
	if !errors.Is(w, base) || !errors.Is(w, m) || !errors.Is(w, apperr.NotFound) || errors.Is(w, apperr.Usage) {
		t.Fatal("Mark lost identity or matched another kind")
	}
	if w.Error() != "outer: the thing" {
		t.Errorf("text %q", w.Error())
	}
	if apperr.Mark(nil, apperr.NotFound) != nil {
		t.Error("Mark(nil) != nil")
	}
}

// Messages follow the reader's language; hints come from the table or
// the error itself.
func TestDescribeLocalized(t *testing.T) {
	err := fmt.Errorf("open: %w", apperr.L(apperr.NoIndex, "search.empty_index"))
	en, ja := apperr.Describe(err, i18n.En), apperr.Describe(err, i18n.Ja)
	if en.Code != "no_index" || en.Message != i18n.T(i18n.En, "search.empty_index") || ja.Message != i18n.T(i18n.Ja, "search.empty_index") {
		t.Errorf("en %+v ja %+v", en, ja)
	}
	if en.Hint == "" || en.Hint == ja.Hint {
		t.Errorf("hints en %q ja %q", en.Hint, ja.Hint)
	}
	intr := apperr.Describe(fmt.Errorf("x: %w", context.Canceled), i18n.Ja)
	if intr.Message != i18n.T(i18n.Ja, i18n.Interrupted) || intr.Hint != "" {
		t.Errorf("interrupted %+v", intr)
	}
	if got := apperr.Hint(hintless{}, i18n.En); got != "" {
		t.Errorf("Hinter ignored: %q", got)
	}
	if got := apperr.Message(errors.New("a\nb "), i18n.En); got != "a b" {
		t.Errorf("multi-line message %q", got)
	}
}

type hintless struct{}

func (hintless) Error() string      { return "x" }
func (hintless) Hint(string) string { return "" }

func TestHTTPAndMCPForms(t *testing.T) {
	p := apperr.HTTPProblem(apperr.New(apperr.Usage, "top_k must be 1-20"), i18n.En)
	if p.Status != 400 || p.Detail != "top_k must be 1-20" || p.Code != "usage" || !strings.HasSuffix(p.Type, "#usage") {
		t.Errorf("problem %+v", p)
	}
	if m := apperr.MCP(apperr.New(apperr.Usage, "bad"), i18n.En); !m.Protocol || m.Code != apperr.MCPCodeInvalidParams {
		t.Errorf("usage MCP %+v", m)
	}
	m := apperr.MCP(store.ErrNotFound, i18n.En)
	if m.Protocol || !strings.Contains(m.Text, "not found") {
		t.Errorf("not-found MCP %+v", m)
	}
}

// docs/ERRORS.md documents every kind of the table (the problem+json
// "type" links point at its anchors).
func TestErrorsDocListsEveryKind(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ERRORS.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range apperr.Classes() {
		row := fmt.Sprintf("| `%s` | %d | %d |", c.Kind.Code(), c.Exit, c.HTTPStatus)
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/ERRORS.md has no row starting %q", row)
		}
	}
}

// Every front end's error text goes through Message: a URL an error quotes
// (a transport error, a driver's message) keeps no credentials.
func TestMessageMasksURLCredentials(t *testing.T) {
	err := apperr.Mark(errors.New(`Post "http://tok3nSECRET@127.0.0.1:1/v1/chat": refused; dsn host=db password=pwSECRET`), apperr.Unavailable)
	for _, got := range []string{apperr.Message(err, i18n.En), apperr.Describe(err, i18n.Ja).Message, apperr.HTTPProblem(err, i18n.En).Detail} {
		if strings.Contains(got, "SECRET") || !strings.Contains(got, "http://****@127.0.0.1:1/v1/chat") {
			t.Errorf("message %q", got)
		}
	}
}
