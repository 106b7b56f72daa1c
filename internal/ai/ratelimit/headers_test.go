package ratelimit

import (
	"net/http"
	"testing"
	"time"
)

func TestParseHeaders(t *testing.T) {
	h := http.Header{}
	h.Set("x-ratelimit-limit-requests", "500")
	h.Set("x-ratelimit-remaining-requests", "499")
	h.Set("x-ratelimit-reset-requests", "120ms")
	h.Set("x-ratelimit-limit-tokens", "200000")
	h.Set("x-ratelimit-remaining-tokens", "199000")
	h.Set("x-ratelimit-reset-tokens", "6m0s")
	h.Set("retry-after-ms", "250")
	o := ParseHeaders(429, h.Get, CodeRateLimit)
	want := Observation{Status: 429, LimitRequests: 500, RemainingRequests: 499, ResetRequests: 120 * time.Millisecond,
		LimitTokens: 200000, RemainingTokens: 199000, ResetTokens: 6 * time.Minute, RetryAfter: 250 * time.Millisecond, Code: CodeRateLimit}
	if o != want {
		t.Errorf("ParseHeaders = %+v\nwant %+v", o, want)
	}
	if !o.RateLimited() || o.QuotaExhausted() || !o.HasHeaders() {
		t.Errorf("classification of %+v", o)
	}
	if o := ParseHeaders(200, http.Header{"X-Ratelimit-Limit-Requests": {"x"}}.Get, ""); o.HasHeaders() {
		t.Errorf("unreadable count read as %+v", o)
	}
	if o := ParseHeaders(429, nil, CodeQuota); !o.QuotaExhausted() || o.RateLimited() {
		t.Errorf("quota 429 = %+v", o)
	}
}

func TestResetFormats(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"12ms", 12 * time.Millisecond, true},
		{"1s", time.Second, true},
		{"17.28s", 17280 * time.Millisecond, true},
		{"6m0s", 6 * time.Minute, true},
		{"1h2m3s", time.Hour + 2*time.Minute + 3*time.Second, true},
		{"2.5", 2500 * time.Millisecond, true},
		{"", 0, false},
		{"soon", 0, false},
		{"-1s", 0, false},
	} {
		got, ok := ParseReset(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseReset(%q) = %s, %v; want %s, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		in   time.Duration
		want string
	}{
		{12 * time.Millisecond, "12ms"},
		{11500 * time.Microsecond, "12ms"},
		{time.Second, "1s"},
		{17283 * time.Millisecond, "17.28s"},
		{6 * time.Minute, "6m0s"},
		{0, "0s"},
	} {
		if got := FormatReset(c.in); got != c.want {
			t.Errorf("FormatReset(%s) = %q, want %q", c.in, got, c.want)
		}
		if c.in > 0 {
			if back, ok := ParseReset(FormatReset(c.in)); !ok || back < c.in-10*time.Millisecond || back > c.in+10*time.Millisecond {
				t.Errorf("round trip of %s = %s", c.in, back)
			}
		}
	}
}

func TestRetryAfter(t *testing.T) {
	for _, c := range []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After-Ms": {"150"}, "Retry-After": {"1"}}, 150 * time.Millisecond},
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second},
		{http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{http.Header{"Retry-After": {"3600"}}, MaxRetryAfter},
		{http.Header{"Retry-After-Ms": {"nope"}}, 0},
		{http.Header{}, 0},
		{http.Header{"Retry-After": {"Wed, 25 Nov 2026 12:00:03 GMT"}}, 3 * time.Second},
	} {
		if got := RetryAfter(c.h.Get, time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)); got != c.want {
			t.Errorf("RetryAfter(%v) = %s, want %s", c.h, got, c.want)
		}
	}
}

func TestEstimateTokens(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abcd", 1},
		{"hello world", 3},
		{"設計書", 3},
		{"設計書 v2", 3 + 1},
	} {
		if got := EstimateTokens(c.in); got != c.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}
