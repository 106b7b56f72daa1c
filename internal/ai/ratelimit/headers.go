package ratelimit

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Response header names (OpenAI's).
const (
	HeaderLimitRequests     = "x-ratelimit-limit-requests"
	HeaderLimitTokens       = "x-ratelimit-limit-tokens"
	HeaderRemainingRequests = "x-ratelimit-remaining-requests"
	HeaderRemainingTokens   = "x-ratelimit-remaining-tokens"
	HeaderResetRequests     = "x-ratelimit-reset-requests"
	HeaderResetTokens       = "x-ratelimit-reset-tokens"
	HeaderRetryAfterMS      = "retry-after-ms"
	HeaderRetryAfter        = "Retry-After"
)

// Error codes of a 429 body (error.code).
const (
	CodeRateLimit = "rate_limit_exceeded"
	CodeQuota     = "insufficient_quota"
)

// Observation is what one response said about the limits. Counts are -1
// when the header is absent or unreadable.
type Observation struct {
	Status                           int // HTTP status; 0: no response (a transport failure)
	LimitRequests, RemainingRequests int
	LimitTokens, RemainingTokens     int
	ResetRequests, ResetTokens       time.Duration
	RetryAfter                       time.Duration // 0: none given
	Code                             string        // error.code of a 429 body (CodeRateLimit, CodeQuota)
}

// Unknown is the Observation of a response without rate-limit headers.
func Unknown(status int) Observation {
	return Observation{Status: status, LimitRequests: -1, RemainingRequests: -1, LimitTokens: -1, RemainingTokens: -1}
}

// HasHeaders reports whether the response carried any rate-limit count.
func (o Observation) HasHeaders() bool {
	return o.LimitRequests >= 0 || o.RemainingRequests >= 0 || o.LimitTokens >= 0 || o.RemainingTokens >= 0
}

// StatusTooManyRequests is HTTP 429 (this package does no HTTP).
const StatusTooManyRequests = 429

// RateLimited is a 429 that is a rate limit (not insufficient_quota).
func (o Observation) RateLimited() bool {
	return o.Status == StatusTooManyRequests && o.Code != CodeQuota
}

// QuotaExhausted is a 429 insufficient_quota.
func (o Observation) QuotaExhausted() bool {
	return o.Status == StatusTooManyRequests && o.Code == CodeQuota
}

// Header reads one response header by name (http.Header.Get).
type Header func(name string) string

// ParseHeaders reads the rate-limit headers of a response with status
// (code is the 429 body's error.code, "" otherwise); h may be nil.
func ParseHeaders(status int, h Header, code string) Observation {
	o := Unknown(status)
	o.Code = code
	if h == nil {
		return o
	}
	o.LimitRequests = count(h(HeaderLimitRequests))
	o.RemainingRequests = count(h(HeaderRemainingRequests))
	o.LimitTokens = count(h(HeaderLimitTokens))
	o.RemainingTokens = count(h(HeaderRemainingTokens))
	o.ResetRequests, _ = ParseReset(h(HeaderResetRequests))
	o.ResetTokens, _ = ParseReset(h(HeaderResetTokens))
	o.RetryAfter = RetryAfter(h, time.Now())
	return o
}

func count(s string) int {
	s = strings.TrimSpace(s)
	if s == "" {
		return -1
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// ParseReset reads a reset duration as OpenAI writes it ("12ms", "1s",
// "17.28s", "6m0s", "1h2m3s"; a bare number is seconds).
func ParseReset(s string) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return d, true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 0 && f < 1e6 {
		return time.Duration(f * float64(time.Second)), true
	}
	return 0, false
}

// FormatReset writes d as OpenAI does: milliseconds below a second
// ("12ms"), else Go's form to the hundredth of a second ("17.28s", "6m0s").
func FormatReset(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	if d < time.Second {
		return strconv.FormatInt(int64(math.Ceil(float64(d)/float64(time.Millisecond))), 10) + "ms"
	}
	return d.Round(10 * time.Millisecond).String()
}

// MaxRetryAfter bounds a server-given wait.
const MaxRetryAfter = 2 * time.Minute

// RetryAfter is the wait a response asks for: retry-after-ms, else
// Retry-After in seconds (or an HTTP date, counted from now); 0 when
// absent or unreadable.
func RetryAfter(h Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h(HeaderRetryAfterMS)); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && !math.IsInf(f, 0) {
			return min(time.Duration(f*float64(time.Millisecond)), MaxRetryAfter)
		}
	}
	if v := strings.TrimSpace(h(HeaderRetryAfter)); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && !math.IsInf(f, 0) {
			return min(time.Duration(f*float64(time.Second)), MaxRetryAfter)
		}
		if t, err := time.Parse(time.RFC1123, v); err == nil {
			return min(max(t.Sub(now), 0), MaxRetryAfter)
		}
	}
	return 0
}

// EstimateTokens estimates the model tokens of text without a tokenizer:
// about four bytes of ASCII per token, one token per other character
// (kana, kanji, accented letters). The emulator counts with it too; a
// real server's count differs a little, which the pacer's headroom and its
// slow-down on a 429 absorb.
func EstimateTokens(text string) int {
	ascii, other := 0, 0
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			ascii++
			i++
			continue
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		other++
		i += n
	}
	return (ascii+3)/4 + other
}
