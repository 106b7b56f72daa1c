package drive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/api/googleapi"

	"github.com/gds-cli/gds/internal/auth"
)

func apiErr(code int, reason string, header http.Header) error {
	e := &googleapi.Error{Code: code, Message: "m", Header: header}
	if reason != "" {
		e.Errors = []googleapi.ErrorItem{{Reason: reason, Message: "m"}}
	}
	return fmt.Errorf("files.list: %w", e)
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func TestShouldRetry(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	ra := func(v string) http.Header { return http.Header{"Retry-After": []string{v}} }
	tests := []struct {
		name  string
		err   error
		retry bool
		wait  time.Duration
	}{
		{"429", apiErr(429, "", nil), true, 0},
		{"429 retry-after seconds", apiErr(429, "rateLimitExceeded", ra("7")), true, 7 * time.Second},
		{"429 retry-after date", apiErr(429, "", ra(now.Add(90*time.Second).Format(http.TimeFormat))), true, 90 * time.Second},
		{"429 retry-after past date", apiErr(429, "", ra(now.Add(-time.Minute).Format(http.TimeFormat))), true, 0},
		{"429 retry-after garbage", apiErr(429, "", ra("soon")), true, 0},
		{"403 user rate limit", apiErr(403, "userRateLimitExceeded", nil), true, 0},
		{"403 rate limit with retry-after", apiErr(403, "rateLimitExceeded", ra("3")), true, 3 * time.Second},
		{"403 no permission", apiErr(403, "insufficientFilePermissions", nil), false, 0},
		{"403 export too large", apiErr(403, "exportSizeLimitExceeded", nil), false, 0},
		{"403 not downloadable", apiErr(403, "fileNotDownloadable", nil), false, 0},
		{"403 daily limit", apiErr(403, "dailyLimitExceeded", nil), false, 0},
		{"403 without reason", apiErr(403, "", nil), false, 0},
		{"400 invalid query", apiErr(400, "invalid", nil), false, 0},
		{"401", apiErr(401, "authError", nil), false, 0},
		{"404", apiErr(404, "notFound", nil), false, 0},
		{"408", apiErr(408, "", nil), true, 0},
		{"500", apiErr(500, "backendError", nil), true, 0},
		{"502", apiErr(502, "", nil), true, 0},
		{"503 retry-after", apiErr(503, "", ra("2")), true, 2 * time.Second},
		{"unexpected EOF", fmt.Errorf("decode: %w", io.ErrUnexpectedEOF), true, 0},
		{"EOF in url.Error", &url.Error{Op: "Get", URL: "http://x", Err: io.EOF}, true, 0},
		{"revoked sign-in in url.Error", &url.Error{Op: "Get", URL: "http://x", Err: fmt.Errorf("token: %w", auth.ErrReauthRequired)}, false, 0},
		{"no OAuth client in url.Error", &url.Error{Op: "Get", URL: "http://x", Err: fmt.Errorf("token: %w", auth.ErrNoClient)}, false, 0},
		{"reset", &url.Error{Op: "Get", URL: "http://x", Err: syscall.ECONNRESET}, true, 0},
		{"net timeout", fmt.Errorf("read: %w", timeoutErr{}), true, 0},
		{"client timeout", &url.Error{Op: "Get", URL: "http://x", Err: context.DeadlineExceeded}, true, 0},
		{"transient", fmt.Errorf("download: %w", errTransient), true, 0},
		{"canceled", &url.Error{Op: "Get", URL: "http://x", Err: context.Canceled}, false, 0},
		{"plain error", errors.New("bad field"), false, 0},
		{"text-only transport error", errors.New("http2: server closed connection"), true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			retry, wait := shouldRetry(tt.err, clock)
			if retry != tt.retry || wait != tt.wait {
				t.Errorf("shouldRetry = %v, %v; want %v, %v", retry, wait, tt.retry, tt.wait)
			}
		})
	}
}

func TestBackoffFullJitter(t *testing.T) {
	p := RetryPolicy{Base: time.Second, Cap: 32 * time.Second}.withDefaults()
	p.Rand = func() float64 { return 0.999999 } // the ceiling
	wantCeil := []time.Duration{1, 2, 4, 8, 16, 32, 32, 32}
	for n, c := range wantCeil {
		got := p.backoff(n)
		if got > c*time.Second || got < c*time.Second-time.Millisecond {
			t.Errorf("backoff(%d) at max jitter = %v, want just under %v", n, got, c*time.Second)
		}
	}
	if got := p.backoff(200); got > 32*time.Second || got < 31*time.Second {
		t.Errorf("backoff(200) = %v, want capped at 32s", got)
	}
	p.Rand = func() float64 { return 0 }
	if got := p.backoff(5); got != 0 {
		t.Errorf("backoff at zero jitter = %v, want 0 (full jitter)", got)
	}
	p.Rand = func() float64 { return 0.5 }
	if got := p.wait(0, 10*time.Second); got != 10*time.Second {
		t.Errorf("wait with Retry-After 10s = %v", got)
	}
	if got := p.wait(0, time.Hour); got != p.MaxRetryAfter {
		t.Errorf("wait with Retry-After 1h = %v, want clamp %v", got, p.MaxRetryAfter)
	}
	if got := p.wait(3, 0); got != 4*time.Second {
		t.Errorf("wait(3) at half jitter = %v, want 4s", got)
	}
}

// recorder is an instant sleeper that records the waits.
type recorder struct{ waits []time.Duration }

func (r *recorder) sleep(ctx context.Context, d time.Duration) error {
	r.waits = append(r.waits, d)
	return ctx.Err()
}

func TestRetryDo(t *testing.T) {
	ctx := context.Background()
	rateLimited := apiErr(429, "", http.Header{"Retry-After": []string{"5"}})
	tests := []struct {
		name      string
		errs      []error // returned by successive calls; nil after the list
		max       int
		wantCalls int
		wantWaits []time.Duration
		wantErr   string // substring; "" = success
		wantRetry bool   // error is a *RetryError
	}{
		{"success first", nil, 3, 1, nil, "", false},
		{"storm then success", []error{rateLimited, apiErr(503, "", nil), io.ErrUnexpectedEOF}, 5, 4,
			[]time.Duration{5 * time.Second, 1 * time.Second, 2 * time.Second}, "", false},
		{"final error not retried", []error{apiErr(404, "notFound", nil)}, 5, 1, nil, "get folder: files.list: googleapi: Error 404", false},
		{"gives up", []error{rateLimited, rateLimited, rateLimited, rateLimited}, 3, 3,
			[]time.Duration{5 * time.Second, 5 * time.Second}, "get folder: gave up after 3 tries", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			p := RetryPolicy{MaxAttempts: tt.max, Base: time.Second, Sleep: rec.sleep, Rand: func() float64 { return 0.5 }}
			calls := 0
			err := p.do(ctx, "get folder", func(context.Context) error {
				calls++
				if calls <= len(tt.errs) {
					return tt.errs[calls-1]
				}
				return nil
			})
			if calls != tt.wantCalls {
				t.Errorf("calls = %d, want %d", calls, tt.wantCalls)
			}
			if fmt.Sprint(rec.waits) != fmt.Sprint(tt.wantWaits) {
				t.Errorf("waits = %v, want %v", rec.waits, tt.wantWaits)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("err = %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
			var re *RetryError
			if errors.As(err, &re) != tt.wantRetry {
				t.Errorf("RetryError = %v, want %v", errors.As(err, &re), tt.wantRetry)
			}
		})
	}
}

func TestRetryDoStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	p := RetryPolicy{Sleep: func(ctx context.Context, d time.Duration) error { cancel(); return ctx.Err() }}
	err := p.do(ctx, "list", func(context.Context) error { calls++; return apiErr(503, "", nil) })
	if !errors.Is(err, context.Canceled) || calls != 1 {
		t.Errorf("err = %v after %d calls, want canceled after 1", err, calls)
	}
}

// TestRetryGiveUpAfter: the interactive policy does not wait out a long
// Retry-After, nor a wait that would end after the context's deadline; the
// crawl's policy (GiveUpAfter 0) waits.
func TestRetryGiveUpAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	long := apiErr(429, "", http.Header{"Retry-After": []string{"30"}})
	short := apiErr(503, "", nil)
	tests := []struct {
		name      string
		giveUp    time.Duration
		deadline  time.Duration // 0: none
		err       error
		wantCalls int
		wantWaits int
	}{
		{"crawl waits a long Retry-After", 0, 0, long, 3, 2},
		{"interactive gives up on a long Retry-After", time.Second, 0, long, 1, 0},
		{"interactive retries a short backoff", time.Second, 0, short, 3, 2},
		{"interactive gives up when the wait passes the deadline", 2 * time.Hour, time.Minute, short, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			rec := &recorder{}
			p := RetryPolicy{MaxAttempts: 3, Base: time.Second, Cap: time.Second, GiveUpAfter: tt.giveUp,
				Sleep: rec.sleep, Rand: func() float64 { return 0.5 }, Now: func() time.Time { return now }}
			if tt.deadline > 0 {
				// A real deadline a minute away and a one-hour backoff: the
				// wait would end after it whatever the machine's speed.
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.deadline)
				defer cancel()
				p.Base, p.Cap, p.Now = time.Hour, time.Hour, time.Now
			}
			calls := 0
			err := p.do(ctx, "full-text search", func(context.Context) error { calls++; return tt.err })
			var re *RetryError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want a RetryError", err)
			}
			if calls != tt.wantCalls || len(rec.waits) != tt.wantWaits {
				t.Errorf("calls = %d, waits = %v; want %d calls, %d waits", calls, rec.waits, tt.wantCalls, tt.wantWaits)
			}
		})
	}
}
