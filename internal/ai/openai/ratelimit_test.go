package openai_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// run calls f n times with c calls at once and returns the errors.
func fanOut(n, c int, f func(i int) error) []error {
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	sem := make(chan struct{}, c)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := f(i); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errs
}

// TestPacedToTheEmulatorsLimit sends more calls at once than the limit
// allows: every call succeeds, almost none is refused, and the lane
// learned the limit from the headers.
func TestPacedToTheEmulatorsLimit(t *testing.T) {
	srv, p := newPair(t, openai.Config{}, openaitest.WithRateLimits(
		openaitest.RateLimit{RPM: 3000, TPM: 10_000_000}, openaitest.RateLimit{RPM: 1200}))
	errs := fanOut(80, 40, func(i int) error {
		if i%4 == 0 {
			_, err := p.Embed(context.Background(), []string{"alpha", "beta"})
			return err
		}
		_, err := ai.Summarize(context.Background(), p, ai.DocInput{Name: "n", Text: "some text to summarise", MaxLength: 50})
		return err
	})
	if len(errs) > 0 {
		t.Fatalf("%d calls failed, first: %v", len(errs), errs[0])
	}
	limited := 0
	for _, r := range srv.Requests() {
		if r.Status == http.StatusTooManyRequests {
			limited++
		}
	}
	if total := len(srv.Requests()); limited*20 > total {
		t.Errorf("%d of %d requests refused (over 5 %%)", limited, total)
	}
	chat, emb := p.Scheduler().Chat().Stats(), p.Scheduler().Embeddings().Stats()
	if chat.RPM != 3000 || chat.TPM != 10_000_000 || emb.RPM != 1200 || chat.Model != openai.DefaultChatModel || emb.Model != openai.DefaultEmbeddingModel {
		t.Errorf("learned limits: chat %+v, embeddings %+v", chat, emb)
	}
	if chat.Sent < 60 || emb.Sent < 20 || chat.InFlight != 0 || emb.InFlight != 0 {
		t.Errorf("counts: chat %+v, embeddings %+v", chat, emb)
	}
}

// TestRateLimitStormIsRetriedBeyondMaxRetries: a 429 is the account's
// pace, not a failure; it does not spend MaxRetries.
func TestRateLimitStormIsRetriedBeyondMaxRetries(t *testing.T) {
	srv, p := newPair(t, openai.Config{MaxRetries: 1})
	srv.Enqueue(openaitest.Repeat(openaitest.RateLimited(5*time.Millisecond), 4)...)
	if _, err := p.Embed(context.Background(), []string{"a"}); err != nil {
		t.Fatalf("after four 429s: %v", err)
	}
	if n := len(srv.Requests()); n != 5 {
		t.Errorf("%d requests, want 4 refused and 1 served", n)
	}
	if st := p.Scheduler().Embeddings().Stats(); st.Limited != 4 {
		t.Errorf("stats = %+v", st)
	}
}

func TestQuotaExhaustedStopsAtOnce(t *testing.T) {
	srv, p := newPair(t, openai.Config{}, openaitest.WithQuotaExhausted())
	_, err := ai.Summarize(context.Background(), p, ai.DocInput{Name: "n", Text: "t"})
	if !errors.Is(err, ai.ErrQuotaExhausted) || !errors.Is(err, apperr.RateLimited) {
		t.Fatalf("err = %v, want ai.ErrQuotaExhausted", err)
	}
	if e := asError(t, err); e.Attempts != 1 || e.Status != 429 {
		t.Errorf("attempts %d, status %d; want 1, 429 (never retried)", e.Attempts, e.Status)
	}
	if h := apperr.Classify(err); h.Kind != apperr.RateLimited {
		t.Errorf("class = %+v", h)
	}
	var hinter apperr.Hinter
	if !errors.As(err, &hinter) || !strings.Contains(hinter.Hint(i18n.En), "insufficient_quota") {
		t.Errorf("hint of %v does not name insufficient_quota", err)
	}
	// The next calls fail without a request.
	_, err = ai.Summarize(context.Background(), p, ai.DocInput{Name: "n", Text: "t"})
	_, err2 := p.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, ai.ErrQuotaExhausted) {
		t.Errorf("second chat call: %v", err)
	}
	if !errors.Is(err2, ai.ErrQuotaExhausted) {
		t.Errorf("embeddings after the chat model's quota: %v", err2)
	}
	if n := len(srv.RequestsTo(openaitest.PathChat)); n != 1 {
		t.Errorf("%d chat requests; the quota must stop the second before it is sent", n)
	}
}

// concurrency counts the requests a handler serves at once.
type concurrency struct {
	h         http.Handler
	now, peak atomic.Int32
}

func (c *concurrency) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := c.now.Add(1)
	defer c.now.Add(-1)
	for p := c.peak.Load(); n > p; p = c.peak.Load() {
		if c.peak.CompareAndSwap(p, n) {
			break
		}
	}
	c.h.ServeHTTP(w, r)
}

// TestWindowGrowsWithRoomAndStaysWithoutHeaders: the same fan-out against
// a server that sends rate-limit headers with room (the window grows past
// its start) and one that sends none (the window, and the calls in flight
// at the server, stay at the start: a local model is not flooded).
func TestWindowGrowsWithRoomAndStaysWithoutHeaders(t *testing.T) {
	for _, withHeaders := range []bool{true, false} {
		opts := []openaitest.Option{openaitest.WithLatency(20 * time.Millisecond)}
		if withHeaders {
			opts = append(opts, openaitest.WithRateLimits(openaitest.RateLimit{RPM: 600_000}, openaitest.RateLimit{}))
		}
		c := &concurrency{h: openaitest.NewHandler(opts...)}
		srv := httpServer(t, c)
		p, err := openai.New(openai.Config{BaseURL: srv + "/v1"})
		if err != nil {
			t.Fatal(err)
		}
		if errs := fanOut(120, 40, func(int) error {
			_, err := ai.Summarize(context.Background(), p, ai.DocInput{Name: "n", Text: "t"})
			return err
		}); len(errs) > 0 {
			t.Fatal(errs[0])
		}
		st := p.Scheduler().Chat().Stats()
		switch {
		case withHeaders && st.Window <= 4:
			t.Errorf("with room in the headers the window stayed at %d", st.Window)
		case !withHeaders && (st.Window != 4 || c.peak.Load() > 4):
			t.Errorf("without headers: window %d, %d requests at once at the server; want 4 and at most 4", st.Window, c.peak.Load())
		}
	}
}

func TestMaxRPMPacesAServerWithoutHeaders(t *testing.T) {
	srv, p := newPair(t, openai.Config{RateLimits: ratelimitConfig(600)})
	start := time.Now()
	if errs := fanOut(8, 8, func(int) error { _, err := p.Embed(context.Background(), []string{"a"}); return err }); len(errs) > 0 {
		t.Fatal(errs[0])
	}
	r := srv.Requests()
	// 600 RPM × 0.95 is 9.5 a second with a bucket of 2.4: the eighth
	// request cannot start before ~0.55 s after the first. (A lower bound:
	// a slow machine only makes it later.)
	if gap := r[len(r)-1].Time.Sub(r[0].Time); gap < 500*time.Millisecond {
		t.Errorf("8 requests within %s at --max-rpm 600 (started %s ago)", gap, time.Since(start))
	}
	if st := p.Scheduler().Embeddings().Stats(); st.RPM != 600 {
		t.Errorf("stats = %+v", st)
	}
}
