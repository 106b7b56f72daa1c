package openaitest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/ai/ratelimit"
)

// RateLimit is the documented limit of one model: requests and tokens per
// minute (0: not limited).
type RateLimit struct {
	RPM, TPM int
}

// DefaultEnforcementPeriod is the period over which the server enforces
// its limits (WithEnforcementPeriod).
const DefaultEnforcementPeriod = time.Second

// WithRateLimits makes the server enforce OpenAI's rate limits per model:
// chat for each chat model, embeddings for each embedding model, counted
// separately. Every chat and embeddings response then carries the
// x-ratelimit-* headers, and a request over a limit is answered at once
// with 429 rate_limit_exceeded, retry-after-ms and Retry-After.
//
// As OpenAI documents, a limit per minute is enforced over shorter
// periods: a request needs room both in the minute's bucket (RPM requests,
// refilled continuously; the headers report it) and in a bucket of the
// enforcement period's share of the limit (RPM/60 a second by default), so
// a client can neither burst a minute's requests at once nor exceed the
// rate in any window. Tokens are counted as prompt (estimated with
// ratelimit.EstimateTokens) plus max_tokens, as OpenAI counts them against
// TPM; a request over the whole TPM is refused as too large.
func WithRateLimits(chat, embeddings RateLimit) Option {
	return func(h *Handler) { h.chatLimit, h.embLimit = chat, embeddings }
}

// WithEnforcementPeriod sets the period over which limits are enforced
// (default 1 s): the short bucket holds RPM × d / 1 min requests (at
// least 1) and TPM × d / 1 min tokens.
func WithEnforcementPeriod(d time.Duration) Option {
	return func(h *Handler) { h.period = d }
}

// WithQuotaExhausted answers every chat and embeddings request with 429
// insufficient_quota, as OpenAI does when the account has no credit left.
func WithQuotaExhausted() Option {
	return func(h *Handler) { h.quotaOut = true }
}

// SetQuotaExhausted switches insufficient_quota answers on or off (a test
// can run out of quota in the middle of a crawl).
func (h *Handler) SetQuotaExhausted(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.quotaOut = on
}

// WithLatencyRange delays every request by a duration drawn uniformly from
// [base-jitter, base+jitter] (a fixed seed: the same run draws the same
// delays). Requests refused for rate or quota are answered at once.
func WithLatencyRange(base, jitter time.Duration) Option {
	return func(h *Handler) { h.latency, h.jitter = base, jitter }
}

// ParseLatency reads a latency as "1s", "1s±300ms" or "1s+-300ms".
func ParseLatency(s string) (base, jitter time.Duration, err error) {
	b, j, found := strings.Cut(s, "±")
	if !found {
		b, j, found = strings.Cut(s, "+-")
	}
	if base, err = time.ParseDuration(strings.TrimSpace(b)); err != nil || base < 0 {
		return 0, 0, fmt.Errorf("latency %q: want a duration such as 1s or 1s±300ms", s)
	}
	if found {
		if jitter, err = time.ParseDuration(strings.TrimSpace(j)); err != nil || jitter < 0 || jitter > base {
			return 0, 0, fmt.Errorf("latency %q: the spread must be a duration no larger than the base", s)
		}
	}
	return base, jitter, nil
}

// delay is the latency of one request.
func (h *Handler) delay() time.Duration {
	if h.jitter <= 0 {
		return h.latency
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.rng == nil {
		h.rng = rand.New(rand.NewPCG(1, 2))
	}
	return h.latency - h.jitter + time.Duration(h.rng.Int64N(int64(2*h.jitter)+1))
}

// WithClock sets the clock that times requests and refills the rate-limit
// buckets (tests; default time.Now).
func WithClock(now func() time.Time) Option { return func(h *Handler) { h.clock = now } }

// bucket is a token bucket refilled continuously.
type bucket struct {
	cap, rate, level float64
	last             time.Time
}

func newBucket(capacity, rate float64, now time.Time) *bucket {
	return &bucket{cap: capacity, rate: rate, level: capacity, last: now}
}

func (b *bucket) refill(now time.Time) {
	if now.After(b.last) {
		b.level = math.Min(b.cap, b.level+b.rate*now.Sub(b.last).Seconds())
		b.last = now
	}
}

// wait is how long until the bucket holds n (at most its capacity).
func (b *bucket) wait(n float64) time.Duration {
	n = math.Min(n, b.cap)
	if b.level >= n {
		return 0
	}
	return time.Duration(math.Ceil((n - b.level) / b.rate * float64(time.Second)))
}

// reset is how long until the bucket is full again.
func (b *bucket) reset() time.Duration {
	if b.level >= b.cap {
		return 0
	}
	return time.Duration((b.cap - b.level) / b.rate * float64(time.Second))
}

// modelLimiter enforces one model's limits.
type modelLimiter struct {
	limit            RateLimit
	reqMin, reqShort *bucket
	tokMin, tokShort *bucket
}

func newModelLimiter(l RateLimit, period time.Duration, now time.Time) *modelLimiter {
	m := &modelLimiter{limit: l}
	share := period.Seconds() / 60
	if l.RPM > 0 {
		r := float64(l.RPM) / 60
		m.reqMin = newBucket(float64(l.RPM), r, now)
		m.reqShort = newBucket(math.Max(1, float64(l.RPM)*share), r, now)
	}
	if l.TPM > 0 {
		r := float64(l.TPM) / 60
		m.tokMin = newBucket(float64(l.TPM), r, now)
		m.tokShort = newBucket(math.Max(1, float64(l.TPM)*share), r, now)
	}
	return m
}

// verdict is the rate-limit answer to one request.
type verdict struct {
	refused bool
	wait    time.Duration
	typ     string // "requests" or "tokens"
	message string
	header  http.Header
}

// admit counts a request of cost tokens at now, or refuses it.
func (m *modelLimiter) admit(model string, cost int, now time.Time) verdict {
	for _, b := range []*bucket{m.reqMin, m.reqShort, m.tokMin, m.tokShort} {
		if b != nil {
			b.refill(now)
		}
	}
	var v verdict
	switch {
	case m.tokMin != nil && cost > m.limit.TPM:
		v = verdict{refused: true, typ: "tokens", message: fmt.Sprintf(
			"Request too large for %s in organization org-emulator on tokens per min (TPM): Limit %d, Requested %d. The input or output tokens must be reduced in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.",
			model, m.limit.TPM, cost)}
	case m.reqMin != nil && (m.reqMin.wait(1) > 0 || m.reqShort.wait(1) > 0):
		v = verdict{refused: true, typ: "requests", wait: max(m.reqMin.wait(1), m.reqShort.wait(1))}
		v.message = fmt.Sprintf("Rate limit reached for %s in organization org-emulator on requests per min (RPM): Limit %d, Used %d, Requested 1. Please try again in %s. Visit https://platform.openai.com/account/rate-limits to learn more.",
			model, m.limit.RPM, m.limit.RPM-int(math.Floor(m.reqMin.level)), ratelimit.FormatReset(v.wait))
	case m.tokMin != nil && (m.tokMin.wait(float64(cost)) > 0 || m.tokShort.wait(float64(cost)) > 0):
		v = verdict{refused: true, typ: "tokens", wait: max(m.tokMin.wait(float64(cost)), m.tokShort.wait(float64(cost)))}
		v.message = fmt.Sprintf("Rate limit reached for %s in organization org-emulator on tokens per min (TPM): Limit %d, Used %d, Requested %d. Please try again in %s. Visit https://platform.openai.com/account/rate-limits to learn more.",
			model, m.limit.TPM, m.limit.TPM-int(math.Floor(m.tokMin.level)), cost, ratelimit.FormatReset(v.wait))
	default:
		if m.reqMin != nil {
			m.reqMin.level--
			m.reqShort.level--
		}
		if m.tokMin != nil {
			m.tokMin.level -= float64(cost)
			m.tokShort.level -= float64(cost)
		}
	}
	v.header = http.Header{}
	if m.reqMin != nil {
		v.header.Set(ratelimit.HeaderLimitRequests, strconv.Itoa(m.limit.RPM))
		v.header.Set(ratelimit.HeaderRemainingRequests, strconv.Itoa(max(0, int(math.Floor(m.reqMin.level)))))
		v.header.Set(ratelimit.HeaderResetRequests, ratelimit.FormatReset(m.reqMin.reset()))
	}
	if m.tokMin != nil {
		v.header.Set(ratelimit.HeaderLimitTokens, strconv.Itoa(m.limit.TPM))
		v.header.Set(ratelimit.HeaderRemainingTokens, strconv.Itoa(max(0, int(math.Floor(m.tokMin.level)))))
		v.header.Set(ratelimit.HeaderResetTokens, ratelimit.FormatReset(m.tokMin.reset()))
	}
	if v.refused && v.wait > 0 {
		v.header.Set(ratelimit.HeaderRetryAfterMS, strconv.FormatInt(int64(math.Ceil(float64(v.wait)/float64(time.Millisecond))), 10))
		v.header.Set(ratelimit.HeaderRetryAfter, strconv.FormatInt(int64(math.Ceil(v.wait.Seconds())), 10))
	}
	return v
}

// limiterFor returns the limiter of model on path (nil when not limited).
// h.mu held.
func (h *Handler) limiterFor(path, model string, now time.Time) *modelLimiter {
	l := h.chatLimit
	if path == PathEmbeddings {
		l = h.embLimit
	}
	if l.RPM <= 0 && l.TPM <= 0 {
		return nil
	}
	key := path + "\x00" + model
	m, ok := h.limiters[key]
	if !ok {
		period := h.period
		if period <= 0 {
			period = DefaultEnforcementPeriod
		}
		if h.limiters == nil {
			h.limiters = map[string]*modelLimiter{}
		}
		m = newModelLimiter(l, period, now)
		h.limiters[key] = m
	}
	return m
}

// rateCheck decides a chat or embeddings request's fate against the quota
// and the limits at now; it returns the headers to send and whether the
// request was refused (then answered here).
func (x *exchange) rateCheck(model string, cost int, now time.Time) bool {
	h := x.h
	h.mu.Lock()
	quota := h.quotaOut
	m := h.limiterFor(x.r.URL.Path, model, now)
	var v verdict
	if m != nil && !quota {
		v = m.admit(model, cost, now)
	}
	if x.idx >= 0 && x.idx < len(h.requests) {
		h.requests[x.idx].Tokens = cost
	}
	h.mu.Unlock()
	if quota {
		x.apiError(http.StatusTooManyRequests, ratelimit.CodeQuota, ratelimit.CodeQuota,
			"You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.", "")
		return true
	}
	for k, vs := range v.header {
		x.w.Header()[k] = vs
	}
	if v.refused {
		x.apiError(http.StatusTooManyRequests, v.typ, ratelimit.CodeRateLimit, v.message, "")
		return true
	}
	return false
}

// chatTokens is what a chat request counts against TPM: its messages'
// estimated tokens plus the completion tokens it allows.
func chatTokens(c *chatRequest) int {
	n := 0
	for _, m := range c.recordedMessages() {
		n += ratelimit.EstimateTokens(m.Content) + 4 // OpenAI's per-message overhead
	}
	if imgs, err := c.lastUserImages(); err == nil {
		n += len(imgs) * imageTokens
	}
	switch {
	case c.MaxCompletionTokens != nil:
		n += *c.MaxCompletionTokens
	case c.MaxTokens != nil:
		n += *c.MaxTokens
	}
	return n
}

// embeddingTokens is what an embeddings request counts against TPM.
func embeddingTokens(e *embeddingRequest) int {
	n := 0
	for _, t := range e.texts {
		n += ratelimit.EstimateTokens(t)
	}
	return n
}
