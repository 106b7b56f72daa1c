package server

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strings"
	"sync/atomic"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

type langKey struct{}

type limitKey struct{}

func jsonEncode(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }

// acceptLanguage picks Japanese when the client's first language is
// Japanese, else English.
func acceptLanguage(h string) string {
	for _, part := range strings.Split(h, ",") {
		tag, _, _ := strings.Cut(part, ";")
		tag = strings.ToLower(strings.TrimSpace(tag))
		if tag == "" || tag == "*" {
			continue
		}
		if tag == "ja" || strings.HasPrefix(tag, "ja-") {
			return i18n.Ja
		}
		return i18n.En
	}
	return i18n.En
}

// withLocale puts the request's language into its context.
func withLocale(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), langKey{}, acceptLanguage(r.Header.Get("Accept-Language")))
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// withRecover turns a panic into a 500 problem without its text or stack,
// which go to the server's log only.
func withRecover(log io.Writer, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			fmt.Fprintf(log, "gds serve: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
			writeProblem(w, &Problem{Problem: apperr.HTTPProblem(apperr.L(apperr.Internal, "serve.internal"), langOf(r.Context()))})
		}()
		next.ServeHTTP(w, r)
	})
}

// withToken requires "Authorization: Bearer TOKEN" on every /api/ request
// when token is set (compared in constant time).
func withToken(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") && r.Method != http.MethodOptions {
			got := []byte(r.Header.Get("Authorization"))
			if subtle.ConstantTimeCompare(got, want) != 1 {
				p := httpProblem(apperr.L(apperr.Usage, "serve.unauthorized"), langOf(r.Context()))
				p.Status, p.Title = http.StatusUnauthorized, http.StatusText(http.StatusUnauthorized)
				w.Header().Set("WWW-Authenticate", `Bearer realm="gds"`)
				writeProblem(w, &Problem{Problem: p})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// withCORS allows one origin (none when origin is ""): its requests get
// the CORS headers, and its preflight requests are answered here.
func withCORS(origin string, next http.Handler) http.Handler {
	if origin == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Origin")
		if r.Header.Get("Origin") == origin {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
				h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept-Language")
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// limitState records that a request body went over its limit, so the
// error huma reports for it becomes a 413.
type limitState struct{ hit atomic.Bool }

func bodyTooLarge(ctx context.Context) bool {
	s, ok := ctx.Value(limitKey{}).(*limitState)
	return ok && s.hit.Load()
}

type limitedBody struct {
	io.ReadCloser
	st *limitState
}

func (b limitedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		b.st.hit.Store(true)
	}
	return n, err
}

// withBodyLimit caps request bodies: limitFor(r) bytes (uploads get more
// than JSON requests). A declared length over the limit is refused at
// once with 413.
func withBodyLimit(limitFor func(*http.Request) int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit := limitFor(r)
		if r.ContentLength > limit {
			writeProblem(w, hugeProblem(langOf(r.Context())))
			return
		}
		st := &limitState{}
		r.Body = limitedBody{ReadCloser: http.MaxBytesReader(w, r.Body, limit), st: st}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), limitKey{}, st)))
	})
}

// withSecurityHeaders sets headers every response carries.
func withSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// withJSONDefault reads the body of the JSON endpoints as JSON when the
// client sent no media type or a form's (curl -d), so plain curl works.
func withJSONDefault(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path != uploadPath {
			ct := r.Header.Get("Content-Type")
			if ct == "" || strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
				r.Header.Set("Content-Type", "application/json")
			}
		}
		next.ServeHTTP(w, r)
	})
}
