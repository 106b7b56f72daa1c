package ratelimit

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// ok is a 200 with OpenAI's headers for a limit of rpm with remaining left.
func ok(rpm, remaining int) Observation {
	return Observation{Status: 200, LimitRequests: rpm, RemainingRequests: remaining, LimitTokens: 1_000_000, RemainingTokens: 999_000}
}

func limited(wait time.Duration) Observation {
	o := Unknown(StatusTooManyRequests)
	o.Code, o.RetryAfter = CodeRateLimit, wait
	return o
}

// TestWindowFromHeaders is the scheduler's table: a sequence of responses
// in, the concurrency window out.
func TestWindowFromHeaders(t *testing.T) {
	type step struct {
		o    Observation
		full bool // the window was in full use when the call finished
	}
	rep := func(n int, s step) []step {
		out := make([]step, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	cases := []struct {
		name  string
		cfg   Config
		steps []step
		want  int // window after
		rpm   int // effective RPM after
	}{
		{"start", Config{}, nil, 4, 0},
		{"no headers: the window stays", Config{}, rep(10, step{Unknown(200), true}), 4, 0},
		{"no headers, max RPM paces", Config{MaxRPM: 120}, rep(3, step{Unknown(200), true}), 4, 120},
		{"room and full: slow start grows by one per success", Config{}, rep(6, step{ok(600, 590), true}), 10, 600},
		{"room but not full (the pacer binds): no growth", Config{}, rep(6, step{ok(600, 590), false}), 4, 600},
		{"full but no room left in the minute", Config{}, rep(6, step{ok(600, 2), true}), 4, 600},
		{"tokens nearly spent: no growth", Config{}, rep(3, step{Observation{Status: 200, LimitRequests: 600, RemainingRequests: 500,
			LimitTokens: 10000, RemainingTokens: 500}, true}), 4, 600},
		{"grows to the maximum only", Config{Max: 6}, rep(20, step{ok(6000, 5000), true}), 6, 6000},
		{"429 halves", Config{}, append(rep(12, step{ok(600, 590), true}), step{limited(time.Second), true}), 8, 600},
		{"after a 429, growth is additive", Config{}, append(append(rep(12, step{ok(600, 590), true}), step{limited(0), true}),
			rep(9, step{ok(600, 590), true})...), 8 + 1, 600},
		{"429 storm: never below one", Config{}, rep(10, step{limited(0), true}), 1, 0},
		{"max RPM caps the header's limit", Config{MaxRPM: 100}, rep(2, step{ok(600, 590), false}), 4, 100},
		{"header limit below max RPM", Config{MaxRPM: 1000}, rep(2, step{ok(600, 590), false}), 4, 600},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewState(c.cfg)
			now := t0
			for _, st := range c.steps {
				now = now.Add(100 * time.Millisecond)
				s.Observe(c.cfg, st.o, now, st.full)
			}

			if got := int(s.Window); got != c.want {
				t.Errorf("window = %v, want %d", s.Window, c.want)
			}
			if got := s.EffectiveRPM(c.cfg); got != c.rpm {
				t.Errorf("effective RPM = %d, want %d", got, c.rpm)
			}
		})
	}
}

func TestAdmitPacesToTheLimit(t *testing.T) {
	cfg := Config{Headroom: 1, Burst: time.Second, Max: 1000}
	s := NewState(cfg)
	s.Window = 1000
	s.Observe(cfg, ok(600, 599), t0, false) // 10 requests per second, 10 in the bucket
	admitted := 0
	now := t0
	// Ask every millisecond for 5 s: the pacer lets 10 + 10/s through.
	for i := 0; i < 5000; i++ {
		if d := s.Admit(cfg, 0, now); d.OK {
			admitted++
		} else if d.Wait <= 0 || d.Wait > 100*time.Millisecond {
			t.Fatalf("wait %s at %s", d.Wait, now.Sub(t0))
		}
		now = now.Add(time.Millisecond)
	}
	if admitted < 58 || admitted > 61 {
		t.Errorf("admitted %d in 5 s at 600 RPM with a bucket of 10, want 60", admitted)
	}
}

func TestAdmitPacesTokens(t *testing.T) {
	cfg := Config{Headroom: 1, Burst: time.Second, Max: 1000}
	s := NewState(cfg)
	s.Window = 1000
	s.Observe(cfg, Observation{Status: 200, LimitRequests: 100000, RemainingRequests: 99999, LimitTokens: 60000, RemainingTokens: 59000}, t0, false)
	// 1,000 tokens per second; calls of 250 tokens: 4 per second.
	admitted := 0
	for now := t0; now.Before(t0.Add(10 * time.Second)); now = now.Add(time.Millisecond) {
		if s.Admit(cfg, 250, now).OK {
			admitted++
		}
	}
	if admitted < 42 || admitted > 45 {
		t.Errorf("admitted %d calls of 250 tokens in 10 s at 60,000 TPM, want 44", admitted)
	}
	// A call larger than the bucket goes when the bucket is full, then the
	// debt is paid back.
	s2 := NewState(cfg)
	s2.Window = 10
	s2.Observe(cfg, Observation{Status: 200, LimitTokens: 60000, RemainingTokens: 60000, LimitRequests: -1, RemainingRequests: -1}, t0, false)
	if !s2.Admit(cfg, 5000, t0).OK {
		t.Fatal("a call over the bucket was refused with the bucket full")
	}
	if d := s2.Admit(cfg, 10, t0.Add(time.Second)); d.OK || d.Wait < 3*time.Second {
		t.Errorf("after a 5,000-token call, a second one 1 s later = %+v; want a wait of about 4 s", d)
	}
}

func TestAdmitWindowPauseAndQuota(t *testing.T) {
	cfg := Config{Initial: 2}
	s := NewState(cfg)
	if first, second := s.Admit(cfg, 1, t0), s.Admit(cfg, 1, t0); !first.OK || !second.OK {
		t.Fatal("the first two calls must start")
	}
	if d := s.Admit(cfg, 1, t0); d.OK || d.Wait != 0 || d.Err != nil {
		t.Errorf("third call with a window of 2 = %+v, want wait for a finish", d)
	}
	s.Finish(cfg, limited(1500*time.Millisecond), time.Millisecond, t0)
	if d := s.Admit(cfg, 1, t0.Add(500*time.Millisecond)); d.OK || d.Wait != time.Second {
		t.Errorf("during a 429's pause = %+v, want a wait of 1 s", d)
	}
	if s.Window != 1 || s.InFlight != 1 {
		t.Errorf("after a 429: window %v, in flight %d; want 1, 1", s.Window, s.InFlight)
	}
	q := Unknown(StatusTooManyRequests)
	q.Code = CodeQuota
	s.Finish(cfg, q, time.Millisecond, t0.Add(2*time.Second))
	if d := s.Admit(cfg, 1, t0.Add(3*time.Second)); d.Err != ErrQuota {
		t.Errorf("after insufficient_quota = %+v, want ErrQuota", d)
	}
	if d := s.Admit(cfg, 1, t0.Add(2*time.Second+DefaultQuotaHold)); d.Err != nil || !d.OK {
		t.Errorf("after the quota hold = %+v, want admitted", d)
	}
	if s.Limited != 1 || s.Quota != 1 || s.Sent != 3 {
		t.Errorf("counters sent %d, limited %d, quota %d; want 3, 1, 1", s.Sent, s.Limited, s.Quota)
	}
}

func TestRemainingZeroPauses(t *testing.T) {
	cfg := Config{}
	s := NewState(cfg)
	s.Observe(cfg, ok(60, 0), t0, false)
	if d := s.Admit(cfg, 1, t0.Add(500*time.Millisecond)); d.OK || d.Wait != 500*time.Millisecond {
		t.Errorf("with no request left at 60 RPM = %+v, want a wait of 0.5 s", d)
	}
}

func TestFactorSlowsAndRecovers(t *testing.T) {
	cfg := Config{}
	s := NewState(cfg)
	s.Observe(cfg, limited(0), t0, false)
	if s.Factor != factorDecrease {
		t.Fatalf("factor after a 429 = %v", s.Factor)
	}
	for range 100 {
		s.Observe(cfg, ok(600, 500), t0, false)
	}
	if s.Factor != 1 {
		t.Errorf("factor after 100 successes = %v, want 1", s.Factor)
	}
}

func TestMaxRPMPacesFromTheStart(t *testing.T) {
	cfg := Config{MaxRPM: 60, Headroom: 1, Burst: time.Second}
	s := NewState(cfg)
	if !s.Admit(cfg, 1, t0).OK {
		t.Fatal("first call refused")
	}
	if d := s.Admit(cfg, 1, t0); d.OK || d.Wait != time.Second {
		t.Errorf("second call at once at 60 RPM = %+v, want a wait of 1 s", d)
	}
}

// TestSlowStartJumps: once the limit and the calls' latency are known,
// slow start jumps to the window the rate needs instead of growing one
// call at a time.
func TestSlowStartJumps(t *testing.T) {
	cases := []struct {
		name   string
		cfg    Config
		before []Observation // observed first (window full)
		last   Observation   // then one call of 1 s finishes, the window full
		want   int
	}{
		// 6000 RPM at 95 % is 95 calls a second; at 1 s each, 95 in
		// flight, a quarter more for the spread, plus one.
		{"jumps to rate × latency", Config{}, nil, ok(6000, 5900), 120},
		{"capped by Max", Config{Max: 50}, nil, ok(6000, 5900), 50},
		{"no jump after a 429 (additive only)", Config{}, []Observation{ok(6000, 5900), limited(0)}, ok(6000, 5900), 2},
		{"no jump without the limit", Config{}, nil, Unknown(200), 4},
		{"max RPM sets the rate", Config{MaxRPM: 600}, nil, ok(6000, 5900), 13},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewState(c.cfg)
			for _, o := range c.before {
				s.Observe(c.cfg, o, t0, true)
			}
			s.InFlight = int(s.Window)
			s.Finish(c.cfg, c.last, time.Second, t0)
			if got := int(s.Window); got != c.want {
				t.Errorf("window = %v, want %d", s.Window, c.want)
			}
		})
	}
}
