package drive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"google.golang.org/api/googleapi"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/auth"
)

// RetryPolicy decides how often and how long a Drive call is retried:
// exponential backoff with full jitter (a random wait in [0, min(Cap,
// Base·2^n))), a server's Retry-After honoured, at most MaxAttempts tries.
type RetryPolicy struct {
	MaxAttempts   int           // tries per call, including the first; <= 0: 8
	Base          time.Duration // first backoff ceiling; <= 0: 1 s
	Cap           time.Duration // largest backoff ceiling; <= 0: 32 s
	MaxRetryAfter time.Duration // longest Retry-After honoured; <= 0: 2 min
	// CallTimeout bounds one try of a metadata call (files.list,
	// files.get): a connection that stops answering is abandoned and the
	// call retried instead of hanging the crawl or the search. Downloads
	// are bounded by the crawl's per-file limits instead. <= 0: 1 min.
	CallTimeout time.Duration
	// GiveUpAfter, when > 0, is the interactive form of the policy: a wait
	// longer than this (a long Retry-After), or one that would end after
	// the context's deadline, ends the call at once instead of being
	// waited out. The crawl leaves it 0 and waits.
	GiveUpAfter time.Duration

	// Sleep waits d or until ctx ends (nil: a real timer). Tests inject an
	// instant sleeper.
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand returns a number in [0, 1) (nil: math/rand/v2).
	Rand func() float64
	// Now is the clock for HTTP-date Retry-After values (nil: time.Now).
	Now func() time.Time
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 8
	}
	if p.Base <= 0 {
		p.Base = time.Second
	}
	if p.Cap <= 0 {
		p.Cap = 32 * time.Second
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = 2 * time.Minute
	}
	if p.CallTimeout <= 0 {
		p.CallTimeout = time.Minute
	}
	if p.Sleep == nil {
		p.Sleep = sleepCtx
	}
	if p.Rand == nil {
		p.Rand = rand.Float64
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	return p
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// backoff is the full-jitter wait before retry number n (0-based).
func (p RetryPolicy) backoff(n int) time.Duration {
	ceil := p.Cap
	if n < 30 {
		if c := p.Base << n; c > 0 && c < p.Cap {
			ceil = c
		}
	}
	return time.Duration(p.Rand() * float64(ceil))
}

// wait is how long to wait before retry n after err: the server's
// Retry-After when given (at most MaxRetryAfter), else the jittered backoff.
func (p RetryPolicy) wait(n int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return min(retryAfter, p.MaxRetryAfter)
	}
	return p.backoff(n)
}

// RetryError is returned when a call still fails after every try.
type RetryError struct {
	Op       string // what was attempted, e.g. "list folder contents"
	Attempts int
	Err      error // the last error
}

func (e *RetryError) Error() string {
	return fmt.Sprintf("%s: gave up after %d tries: %v", e.Op, e.Attempts, e.Err)
}

func (e *RetryError) Unwrap() error { return e.Err }

// Is classifies a call that kept failing: rate limited when the last try
// was refused for rate or quota, else unavailable (5xx, timeouts, dropped
// connections).
func (e *RetryError) Is(target error) bool {
	switch target {
	case apperr.RateLimited:
		return isRateLimit(e.Err)
	case apperr.Unavailable:
		return true
	}
	return false
}

// do runs fn until it succeeds, fails for good, ctx ends, or the tries run
// out. op names the call in errors. A final error is wrapped as "op: err".
func (p RetryPolicy) do(ctx context.Context, op string, fn func(ctx context.Context) error) error {
	p = p.withDefaults()
	for n := 0; ; n++ {
		err := fn(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", op, ctx.Err())
		}
		retry, after := shouldRetry(err, p.Now)
		if !retry {
			return fmt.Errorf("%s: %w", op, err)
		}
		if n+1 >= p.MaxAttempts {
			return &RetryError{Op: op, Attempts: n + 1, Err: err}
		}
		w := p.wait(n, after)
		if p.gaveUp(ctx, w, after) {
			return &RetryError{Op: op, Attempts: n + 1, Err: err}
		}
		if serr := p.Sleep(ctx, w); serr != nil {
			return fmt.Errorf("%s: %w", op, serr)
		}
	}
}

// gaveUp reports whether an interactive policy stops instead of waiting w
// (the server asked for after) before the next try.
func (p RetryPolicy) gaveUp(ctx context.Context, w, after time.Duration) bool {
	if p.GiveUpAfter <= 0 {
		return false
	}
	if after > p.GiveUpAfter || w > p.GiveUpAfter {
		return true
	}
	if dl, ok := ctx.Deadline(); ok && p.Now().Add(w).After(dl) {
		return true
	}
	return false
}

// errCallTimeout marks a try abandoned after CallTimeout.
var errCallTimeout = errors.New("no answer")

// doMeta is do for a metadata call: each try gets CallTimeout, and a try
// that runs out of it (while ctx is still live) is retried as transient.
func (p RetryPolicy) doMeta(ctx context.Context, op string, fn func(ctx context.Context) error) error {
	p = p.withDefaults()
	return p.do(ctx, op, func(ctx context.Context) error {
		tctx, cancel := context.WithTimeoutCause(ctx, p.CallTimeout, errCallTimeout)
		defer cancel()
		err := fn(tctx)
		if err != nil && ctx.Err() == nil && errors.Is(context.Cause(tctx), errCallTimeout) {
			return fmt.Errorf("%w within %s (%w)", errCallTimeout, p.CallTimeout, errTransient)
		}
		return err
	})
}

// Drive error reasons that mean "slow down and try again".
var retryReasons = map[string]bool{
	"userRateLimitExceeded": true,
	"rateLimitExceeded":     true,
	"backendError":          true,
	"internalError":         true,
}

// errTransient marks errors gds itself detects as worth retrying (a body
// shorter than announced, a checksum mismatch).
var errTransient = errors.New("transient transfer error")

// shouldRetry classifies an error of a Drive call: whether trying again may
// succeed, and the wait the server asked for (Retry-After; 0 when none).
// Rate limits (429; 403 userRateLimitExceeded/rateLimitExceeded), 408,
// 5xx, network errors, timeouts and truncated bodies are retried; other
// 4xx (not found, no permission, export too large, bad request) are final,
// as is the caller's own cancellation and a sign-in that needs the user
// (NeedsSignIn).
func shouldRetry(err error, now func() time.Time) (bool, time.Duration) {
	if err == nil || errors.Is(err, context.Canceled) || NeedsSignIn(err) {
		return false, 0
	}
	var gerr *googleapi.Error
	if errors.As(err, &gerr) {
		after := retryAfter(gerr.Header, now)
		switch {
		case gerr.Code == http.StatusTooManyRequests, gerr.Code == http.StatusRequestTimeout, gerr.Code >= 500:
			return true, after
		case gerr.Code == http.StatusForbidden:
			for _, e := range gerr.Errors {
				if retryReasons[e.Reason] {
					return true, after
				}
			}
			return false, 0
		default:
			return false, 0
		}
	}
	switch {
	case errors.Is(err, errTransient),
		errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, io.EOF), // connection closed before a response
		errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.EPIPE),
		errors.Is(err, context.DeadlineExceeded): // a per-request timeout; the caller's own deadline is checked by do
		return true, 0
	}
	var nerr net.Error
	if errors.As(err, &nerr) && nerr.Timeout() {
		return true, 0
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		// Transport failures (connection dropped, reset, DNS hiccup).
		return true, 0
	}
	// The HTTP client reports some transport failures only as text.
	msg := err.Error()
	for _, s := range []string{"connection reset", "broken pipe", "server closed", "unexpected EOF", "transport connection broken"} {
		if strings.Contains(msg, s) {
			return true, 0
		}
	}
	return false, 0
}

// NeedsSignIn reports whether err comes from the OAuth token source and only
// the user can fix it (`gds auth login`): the refresh token was revoked or
// expired, no token is stored, the OAuth client is wrong, or the Keychain
// refused. The HTTP client reports these inside a *url.Error, like a
// dropped connection, but retrying cannot help and no other file can
// succeed either.
func NeedsSignIn(err error) bool {
	return errors.Is(err, auth.ErrReauthRequired) || errors.Is(err, auth.ErrNotLoggedIn) ||
		errors.Is(err, auth.ErrNoClient) || errors.Is(err, auth.ErrKeychain)
}

// retryAfter parses a Retry-After header: seconds or an HTTP date.
func retryAfter(h http.Header, now func() time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now()); d > 0 {
			return d
		}
	}
	return 0
}

// isRateLimit reports whether err is Drive refusing for rate or quota:
// 429, or 403 with a rate-limit reason.
func isRateLimit(err error) bool {
	var gerr *googleapi.Error
	if !errors.As(err, &gerr) {
		return false
	}
	if gerr.Code == http.StatusTooManyRequests {
		return true
	}
	if gerr.Code == http.StatusForbidden {
		for _, e := range gerr.Errors {
			if e.Reason == "userRateLimitExceeded" || e.Reason == "rateLimitExceeded" {
				return true
			}
		}
	}
	return false
}
