package openai_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gds-cli/gds/internal/ai/ratelimit"
)

func httpServer(t *testing.T, h http.Handler) string {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}

func ratelimitConfig(maxRPM int) ratelimit.Config { return ratelimit.Config{MaxRPM: maxRPM} }
