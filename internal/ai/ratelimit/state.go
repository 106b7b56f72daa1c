package ratelimit

import (
	"errors"
	"math"
	"time"
)

// ErrQuota is the error of a call made while the account's quota is
// known to be exhausted (a 429 insufficient_quota within Config.QuotaHold).
var ErrQuota = errors.New("quota exhausted")

// Config tunes a Lane. Zero fields take the defaults.
type Config struct {
	// MaxRPM caps the requests per minute below the account's limit
	// (GDS_AI_MAX_RPM, --max-rpm: a key shared with other programs); 0:
	// the limit the headers give.
	MaxRPM int
	// Initial is the concurrency window before any response (default 4,
	// the old fixed fan-out); a server without rate-limit headers keeps it.
	Initial int
	// Max bounds the window (default 256).
	Max int
	// Headroom is the share of a known limit the pacer spends (default 0.95).
	Headroom float64
	// Burst is how much of the rate the pacer's buckets hold (default
	// 250 ms: at 600 RPM, 2.5 requests may go back to back).
	Burst time.Duration
	// QuotaHold is how long calls fail at once after insufficient_quota
	// (default 1 minute).
	QuotaHold time.Duration
	// DefaultWait is the pause after a 429 that gave no wait (default 1 s).
	DefaultWait time.Duration
}

// Defaults of Config.
const (
	DefaultInitial   = 4
	DefaultMax       = 256
	DefaultHeadroom  = 0.95
	DefaultBurst     = 250 * time.Millisecond
	DefaultQuotaHold = time.Minute
	DefaultWaitOn429 = time.Second
	minFactor        = 0.3
	factorDecrease   = 0.9
	factorRecover    = 0.002
)

func (c Config) withDefaults() Config {
	if c.Initial <= 0 {
		c.Initial = DefaultInitial
	}
	if c.Max <= 0 {
		c.Max = DefaultMax
	}
	c.Initial = min(c.Initial, c.Max)
	if c.Headroom <= 0 || c.Headroom > 1 {
		c.Headroom = DefaultHeadroom
	}
	if c.Burst <= 0 {
		c.Burst = DefaultBurst
	}
	if c.QuotaHold <= 0 {
		c.QuotaHold = DefaultQuotaHold
	}
	if c.DefaultWait <= 0 {
		c.DefaultWait = DefaultWaitOn429
	}
	return c
}

// bucket is a token bucket: Level refills at Rate per second up to Cap.
// Level may go below zero (a request larger than the bucket is let
// through when the bucket is full, and the debt is paid back first).
type bucket struct {
	Rate, Cap, Level float64
	Last             time.Time
}

func (b *bucket) refill(now time.Time) {
	if !b.Last.IsZero() && now.After(b.Last) {
		b.Level = math.Min(b.Cap, b.Level+b.Rate*now.Sub(b.Last).Seconds())
	}
	if now.After(b.Last) || b.Last.IsZero() {
		b.Last = now
	}
}

// need is how long until the bucket holds n (capped at Cap); 0 when it
// does.
func (b *bucket) need(n float64) time.Duration {
	n = math.Min(n, b.Cap)
	if b.Level >= n || b.Rate <= 0 {
		return 0
	}
	return time.Duration(math.Ceil((n - b.Level) / b.Rate * float64(time.Second)))
}

// setRate changes the rate and capacity, keeping the level within it.
func (b *bucket) setRate(rate, capacity float64, now time.Time) {
	if b.Last.IsZero() {
		b.Level, b.Last = capacity, now
	}
	b.refill(now)
	b.Rate, b.Cap = rate, capacity
	b.Level = math.Min(b.Level, capacity)
}

// State is one lane's scheduling state. Its methods are pure: the time is
// a parameter.
type State struct {
	// RPM and TPM are the limits learned from the headers (0: unknown).
	RPM, TPM int
	// Window is the concurrency window (AIMD); InFlight the calls admitted
	// and not finished.
	Window   float64
	InFlight int
	// Threshold ends slow start: it is set to the window halved by a 429
	// (0: still in slow start).
	Threshold float64
	// Factor scales the pacer (1; × 0.9 per 429, +0.002 per success).
	Factor float64
	// PauseUntil: no call starts before it (a 429's wait).
	PauseUntil time.Time
	// QuotaUntil: every call fails with ErrQuota before it.
	QuotaUntil time.Time
	// Counters: calls admitted, 429 rate limits, quota refusals.
	Sent, Limited, Quota int64
	// Latency is the calls' mean duration (an exponential average), for
	// the window slow start aims at.
	Latency time.Duration

	req, tok bucket
}

// NewState is the state before any call.
func NewState(c Config) State {
	c = c.withDefaults()
	return State{Window: float64(c.Initial), Factor: 1}
}

// EffectiveRPM is the request rate the pacer aims at per minute before
// headroom: the learned limit capped by MaxRPM (0: no pacing).
func (s *State) EffectiveRPM(c Config) int {
	switch {
	case s.RPM > 0 && c.MaxRPM > 0:
		return min(s.RPM, c.MaxRPM)
	case s.RPM > 0:
		return s.RPM
	}
	return max(c.MaxRPM, 0)
}

// pace sets the buckets' rates from the limits and the factor.
func (s *State) pace(c Config, now time.Time) {
	if rpm := s.EffectiveRPM(c); rpm > 0 {
		r := float64(rpm) / 60 * c.Headroom * s.Factor
		s.req.setRate(r, math.Max(1, r*c.Burst.Seconds()), now)
	} else {
		s.req = bucket{}
	}
	if s.TPM > 0 {
		r := float64(s.TPM) / 60 * c.Headroom * s.Factor
		s.tok.setRate(r, math.Max(1, r*c.Burst.Seconds()), now)
	} else {
		s.tok = bucket{}
	}
}

// Decision is the answer of Admit.
type Decision struct {
	// OK: the call may start now (the state counted it).
	OK bool
	// Wait: try again after this long; 0 with !OK means "when a call
	// finishes" (the window is full).
	Wait time.Duration
	// Err is ErrQuota when the quota is exhausted.
	Err error
}

// Admit decides whether a call costing about cost tokens starts at now,
// and counts it when it does.
func (s *State) Admit(c Config, cost int, now time.Time) Decision {
	c = c.withDefaults()
	if now.Before(s.QuotaUntil) {
		return Decision{Err: ErrQuota}
	}
	if now.Before(s.PauseUntil) {
		return Decision{Wait: s.PauseUntil.Sub(now)}
	}
	if s.InFlight >= max(1, int(s.Window)) {
		return Decision{}
	}
	if s.req.Rate == 0 && s.EffectiveRPM(c) > 0 {
		s.pace(c, now) // MaxRPM before any header
	}
	var wait time.Duration
	if s.req.Rate > 0 {
		s.req.refill(now)
		wait = s.req.need(1)
	}
	if s.tok.Rate > 0 && cost > 0 {
		s.tok.refill(now)
		wait = max(wait, s.tok.need(float64(cost)))
	}
	if wait > 0 {
		return Decision{Wait: wait}
	}
	if s.req.Rate > 0 {
		s.req.Level--
	}
	if s.tok.Rate > 0 {
		s.tok.Level -= float64(cost)
	}
	s.InFlight++
	s.Sent++
	return Decision{OK: true}
}

// Finish records the outcome of an admitted call that took took: the
// headers in, the window (and the pace) out.
func (s *State) Finish(c Config, o Observation, took time.Duration, now time.Time) {
	c = c.withDefaults()
	full := s.InFlight >= int(s.Window)
	if s.InFlight > 0 {
		s.InFlight--
	}
	if took > 0 && o.Status >= 200 && o.Status < 300 {
		if s.Latency == 0 {
			s.Latency = took
		} else {
			s.Latency += (took - s.Latency) / 5
		}
	}
	s.Observe(c, o, now, full)
}

// target is the window slow start may jump to: the calls in flight that
// keep the pacer busy (Little's law: rate × latency), a quarter more for
// the spread of latencies; 0 when the rate or the latency is unknown.
func (s *State) target(c Config) float64 {
	rpm := s.EffectiveRPM(c)
	if rpm <= 0 || s.Latency <= 0 {
		return 0
	}
	return math.Ceil(float64(rpm)/60*c.Headroom*s.Latency.Seconds()*1.25) + 1
}

// Observe applies what a response said. full reports whether the window
// was in full use when the call finished (only then can more concurrency
// help).
func (s *State) Observe(c Config, o Observation, now time.Time, full bool) {
	c = c.withDefaults()
	if o.LimitRequests > 0 {
		s.RPM = o.LimitRequests
	}
	if o.LimitTokens > 0 {
		s.TPM = o.LimitTokens
	}
	switch {
	case o.QuotaExhausted():
		s.Quota++
		s.QuotaUntil = now.Add(c.QuotaHold)
	case o.RateLimited():
		s.Limited++
		s.Threshold = math.Max(1, math.Floor(s.Window/2))
		s.Window = s.Threshold
		s.Factor = math.Max(minFactor, s.Factor*factorDecrease)
		wait := o.RetryAfter
		if wait <= 0 {
			wait = c.DefaultWait
		}
		if until := now.Add(wait); until.After(s.PauseUntil) {
			s.PauseUntil = until
		}
		// The buckets start empty after the pause: what the server
		// counted is spent.
		s.pace(c, now)
		s.req.Level, s.tok.Level = 0, 0
		return
	case o.Status >= 200 && o.Status < 300:
		s.Factor = math.Min(1, s.Factor+factorRecover)
		if full && s.room(o) {
			switch {
			case s.Threshold == 0:
				// Slow start: one more per success, or at once to what
				// the known rate and latency need.
				s.Window = math.Max(s.Window+1, s.target(c))
			case s.Window < s.Threshold:
				s.Window++
			default:
				s.Window += 1 / s.Window
			}
			s.Window = math.Min(s.Window, float64(c.Max))
		}
		if o.RemainingRequests == 0 && s.RPM > 0 {
			// The minute's requests are spent: wait for one to come back.
			until := now.Add(time.Duration(float64(time.Minute) / float64(s.RPM)))
			if until.After(s.PauseUntil) {
				s.PauseUntil = until
			}
		}
	}
	s.pace(c, now)
}

// room reports whether the headers show room for more calls in flight: a
// server without headers shows none (its window stays).
func (s *State) room(o Observation) bool {
	if !o.HasHeaders() {
		return false
	}
	if o.RemainingRequests >= 0 && float64(o.RemainingRequests) <= s.Window {
		return false
	}
	if o.RemainingTokens >= 0 && o.LimitTokens > 0 && o.RemainingTokens < o.LimitTokens/10 {
		return false
	}
	return true
}

// Concurrency is how many calls are worth having in flight or waiting
// now: the window, plus a quarter for the calls queued at the pacer.
func (s *State) Concurrency() int {
	w := max(1, int(s.Window))
	return w + max(1, w/4)
}
