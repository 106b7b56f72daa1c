package openaitest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/ai/ratelimit"
)

// fakeClock is a settable clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// send posts body to path and returns the status, headers and error body.
func send(t *testing.T, srv *openaitest.Server, path string, body any) (int, http.Header, apiErr) {
	t.Helper()
	b, _ := json.Marshal(body)
	res, err := srv.Client().Post(strings.TrimSuffix(srv.URL, "/v1")+path, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var e apiErr
	if res.StatusCode != 200 {
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatalf("error body %q: %v", raw, err)
		}
	}
	return res.StatusCode, res.Header, e
}

func plainChat(model, text string) map[string]any {
	return map[string]any{"model": model, "messages": []map[string]any{{"role": "user", "content": text}}}
}

func TestRateLimitHeadersAndRefusal(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)}
	srv := openaitest.NewServer(t, openaitest.WithClock(clk.now),
		openaitest.WithRateLimits(openaitest.RateLimit{RPM: 600, TPM: 100000}, openaitest.RateLimit{RPM: 120}))
	// 600 RPM, enforced per second: 10 requests, then 429 with the wait.
	for i := range 10 {
		st, h, _ := send(t, srv, openaitest.PathChat, plainChat("gpt-4o-mini", "hello there"))
		if st != 200 {
			t.Fatalf("request %d: %d", i, st)
		}
		if got := h.Get("x-ratelimit-limit-requests"); got != "600" {
			t.Errorf("limit-requests = %q", got)
		}
		if got := h.Get("x-ratelimit-remaining-requests"); got != strconv.Itoa(599-i) {
			t.Errorf("request %d: remaining-requests = %q, want %d", i, got, 599-i)
		}
		if got := h.Get("x-ratelimit-limit-tokens"); got != "100000" {
			t.Errorf("limit-tokens = %q", got)
		}
		if d, ok := ratelimit.ParseReset(h.Get("x-ratelimit-reset-requests")); !ok || d != time.Duration(i+1)*100*time.Millisecond {
			t.Errorf("request %d: reset-requests = %q", i, h.Get("x-ratelimit-reset-requests"))
		}
		if h.Get("x-ratelimit-remaining-tokens") == "" || h.Get("x-ratelimit-reset-tokens") == "" {
			t.Errorf("token headers missing: %v", h)
		}
	}
	st, h, e := send(t, srv, openaitest.PathChat, plainChat("gpt-4o-mini", "one more"))
	if st != 429 || e.Error.Code == nil || *e.Error.Code != "rate_limit_exceeded" || e.Error.Type != "requests" {
		t.Fatalf("11th request in a second: %d %+v", st, e)
	}
	for _, s := range []string{"Rate limit reached for gpt-4o-mini", "requests per min (RPM): Limit 600, Used 10, Requested 1", "Please try again in 100ms"} {
		if !strings.Contains(e.Error.Message, s) {
			t.Errorf("message %q lacks %q", e.Error.Message, s)
		}
	}
	if h.Get("retry-after-ms") != "100" || h.Get("Retry-After") != "1" || h.Get("x-ratelimit-remaining-requests") != "590" {
		t.Errorf("429 headers = %v", h)
	}
	// Embeddings are limited separately.
	if st, h, _ := send(t, srv, openaitest.PathEmbeddings, map[string]any{"model": "text-embedding-3-small", "input": []string{"a", "b"}}); st != 200 ||
		h.Get("x-ratelimit-limit-requests") != "120" || h.Get("x-ratelimit-remaining-requests") != "119" || h.Get("x-ratelimit-limit-tokens") != "" {
		t.Errorf("embeddings: %d %v", st, h)
	}
	// Another chat model has its own bucket.
	if st, _, _ := send(t, srv, openaitest.PathChat, plainChat("gpt-4.1-mini", "x")); st != 200 {
		t.Errorf("another model: %d", st)
	}
	clk.add(100 * time.Millisecond)
	if st, _, _ := send(t, srv, openaitest.PathChat, plainChat("gpt-4o-mini", "after the wait")); st != 200 {
		t.Errorf("after the wait: %d", st)
	}
	var ok, refused int
	for _, r := range srv.RequestsTo(openaitest.PathChat) {
		switch r.Status {
		case 200:
			ok++
		case 429:
			refused++
		}
		if r.Tokens <= 0 {
			t.Errorf("request counted %d tokens", r.Tokens)
		}
	}
	if ok != 12 || refused != 1 {
		t.Errorf("%d served, %d refused; want 12, 1", ok, refused)
	}
}

// TestRateLimitNeverExceeded floods the server and checks that in no
// window did it serve more than the enforced bucket allows.
func TestRateLimitNeverExceeded(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)}
	srv := openaitest.NewServer(t, openaitest.WithClock(clk.now), openaitest.WithRateLimits(openaitest.RateLimit{RPM: 300}, openaitest.RateLimit{}))
	for range 200 { // 10 s in steps of 50 ms, four requests each: 80/s asked, 5/s allowed
		for range 4 {
			send(t, srv, openaitest.PathChat, plainChat("gpt-4o-mini", "x"))
		}
		clk.add(50 * time.Millisecond)
	}
	var served []time.Time
	for _, r := range srv.Requests() {
		if r.Status == 200 {
			served = append(served, r.Time)
		}
	}
	// Bucket of 5 (one second of 300 RPM) plus 5 per second.
	for i := range served {
		n := 0
		for j := i; j < len(served) && served[j].Sub(served[i]) < time.Second; j++ {
			n++
		}
		if n > 10 {
			t.Fatalf("%d requests served within 1 s from %s", n, served[i])
		}
	}
	if len(served) < 50 || len(served) > 55 {
		t.Errorf("served %d in 10 s at 300 RPM, want about 55", len(served))
	}
}

func TestTokenLimits(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)}
	srv := openaitest.NewServer(t, openaitest.WithClock(clk.now),
		openaitest.WithRateLimits(openaitest.RateLimit{RPM: 10000, TPM: 6000}, openaitest.RateLimit{}))
	big := plainChat("gpt-4o-mini", strings.Repeat("abcd", 7000))
	st, _, e := send(t, srv, openaitest.PathChat, big)
	if st != 429 || e.Error.Type != "tokens" || !strings.Contains(e.Error.Message, "Request too large") {
		t.Errorf("over the whole TPM: %d %+v", st, e)
	}
	// 100 tokens a second; a request of ~60 goes, the next waits.
	body := plainChat("gpt-4o-mini", strings.Repeat("abcd", 50))
	body["max_tokens"] = 6
	if st, _, _ := send(t, srv, openaitest.PathChat, body); st != 200 {
		t.Fatalf("first: %d", st)
	}
	st, h, e := send(t, srv, openaitest.PathChat, body)
	if st != 429 || e.Error.Type != "tokens" || !strings.Contains(e.Error.Message, "tokens per min (TPM): Limit 6000") || h.Get("retry-after-ms") == "" {
		t.Errorf("second within the second: %d %+v %v", st, e, h)
	}
	if r := srv.RequestsTo(openaitest.PathChat); r[1].Tokens != 50+4+6 {
		t.Errorf("counted %d tokens, want 60", r[1].Tokens)
	}
}

func TestQuotaExhausted(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithQuotaExhausted())
	st, h, e := send(t, srv, openaitest.PathEmbeddings, map[string]any{"model": "text-embedding-3-small", "input": "a"})
	if st != 429 || e.Error.Code == nil || *e.Error.Code != "insufficient_quota" || e.Error.Type != "insufficient_quota" ||
		!strings.Contains(e.Error.Message, "You exceeded your current quota") || h.Get("retry-after-ms") != "" {
		t.Errorf("quota: %d %+v %v", st, e, h)
	}
	srv.SetQuotaExhausted(false)
	if st, _, _ := send(t, srv, openaitest.PathChat, plainChat("gpt-4o-mini", "x")); st != 200 {
		t.Errorf("after SetQuotaExhausted(false): %d", st)
	}
}

func TestParseLatency(t *testing.T) {
	for _, c := range []struct {
		in           string
		base, jitter time.Duration
		ok           bool
	}{
		{"1s", time.Second, 0, true},
		{"1s±300ms", time.Second, 300 * time.Millisecond, true},
		{"1s+-300ms", time.Second, 300 * time.Millisecond, true},
		{"0", 0, 0, true},
		{"1s±2s", 0, 0, false},
		{"fast", 0, 0, false},
	} {
		b, j, err := openaitest.ParseLatency(c.in)
		if (err == nil) != c.ok || b != c.base || j != c.jitter {
			t.Errorf("ParseLatency(%q) = %s, %s, %v", c.in, b, j, err)
		}
	}
}
