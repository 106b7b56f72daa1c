package openai

import (
	"net/http"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/ratelimit"
)

func TestRetryPlan(t *testing.T) {
	rl := ratelimit.Unknown(429)
	rl.Code, rl.RetryAfter = ratelimit.CodeRateLimit, 300*time.Millisecond
	quota := ratelimit.Unknown(429)
	quota.Code = ratelimit.CodeQuota
	srvErr := ratelimit.Unknown(503)
	srvWait := srvErr
	srvWait.RetryAfter = 2 * time.Second
	cases := []struct {
		name             string
		o                outcome
		failures, limits int
		retries          int
		retry, rateLimit bool
		minWait, maxWait time.Duration
	}{
		{"rate limit: sent again after the lane's pause", outcome{status: 429, obs: rl}, 0, 0, 3, true, true, 0, 0},
		{"rate limit does not spend the failure budget", outcome{status: 429, obs: rl}, 3, 5, 3, true, true, 0, 0},
		{"rate limits have their own budget", outcome{status: 429, obs: rl}, 0, DefaultRateRetries, 3, false, false, 0, 0},
		{"insufficient_quota is never retried", outcome{status: 429, obs: quota}, 0, 0, 3, false, false, 0, 0},
		{"retries off", outcome{status: 429, obs: rl}, 0, 0, 0, false, false, 0, 0},
		{"5xx with backoff", outcome{status: 503, obs: srvErr}, 0, 0, 3, true, false, 375 * time.Millisecond, 500 * time.Millisecond},
		{"5xx backoff doubles", outcome{status: 500, obs: ratelimit.Unknown(500)}, 2, 0, 3, true, false, 1500 * time.Millisecond, 2 * time.Second},
		{"5xx honours Retry-After", outcome{status: 503, obs: srvWait}, 0, 0, 3, true, false, 2 * time.Second, 2 * time.Second},
		{"5xx budget spent", outcome{status: 502, obs: ratelimit.Unknown(502)}, 3, 0, 3, false, false, 0, 0},
		{"connection failure", outcome{obs: ratelimit.Unknown(0)}, 0, 0, 3, true, false, 375 * time.Millisecond, 500 * time.Millisecond},
		{"attempt timed out: not retried", outcome{timedOut: true, obs: ratelimit.Unknown(0)}, 0, 0, 3, false, false, 0, 0},
		{"caller gave up", outcome{callerDone: true, status: 503, obs: srvErr}, 0, 0, 3, false, false, 0, 0},
		{"400 is final", outcome{status: 400, obs: ratelimit.Unknown(400)}, 0, 0, 3, false, false, 0, 0},
		{"x-should-retry: false wins", outcome{status: 503, should: "false", obs: srvErr}, 0, 0, 3, false, false, 0, 0},
		{"x-should-retry: true on a 400", outcome{status: 400, should: "true", obs: ratelimit.Unknown(400)}, 0, 0, 3, true, false, 375 * time.Millisecond, 500 * time.Millisecond},
		{"408 and 409 are retried", outcome{status: http.StatusConflict, obs: ratelimit.Unknown(409)}, 0, 0, 3, true, false, 375 * time.Millisecond, 500 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := retryPlan(c.o, c.failures, c.limits, c.retries)
			if p.retry != c.retry || p.rateLimited != c.rateLimit || p.wait < c.minWait || p.wait > c.maxWait {
				t.Errorf("plan = %+v; want retry %v, rate-limited %v, wait in [%s, %s]", p, c.retry, c.rateLimit, c.minWait, c.maxWait)
			}
		})
	}
}
