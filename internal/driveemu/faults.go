package driveemu

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// FaultKind names a kind of injected fault.
type FaultKind string

// Fault kinds.
const (
	// FaultLatency delays the request by Rule.Latency, then serves it.
	FaultLatency FaultKind = "latency"
	// FaultStatus answers with Rule.Status and a Drive-shaped error.
	FaultStatus FaultKind = "status"
	// FaultDrop hijacks the connection and closes it without answering.
	FaultDrop FaultKind = "drop"
	// FaultTruncate serves the real answer but closes the connection after
	// half of the body, with a Content-Length for the whole body.
	FaultTruncate FaultKind = "truncate"
)

// Rule is one fault injection rule. A rule matches a request when its
// Endpoint (if set) equals the request's endpoint name and its PathPrefix
// (if set) prefixes the URL path; it then fires with Probability (0 means
// always), after skipping the first After matching requests, at most Count
// times (0 means without limit).
type Rule struct {
	Kind        FaultKind
	Endpoint    string
	PathPrefix  string
	Probability float64
	Count       int
	After       int

	// Status, Domain, Reason and Message shape a FaultStatus answer.
	Status  int
	Domain  string
	Reason  string
	Message string
	// RetryAfter, if positive, is sent as Retry-After (whole seconds, at least 1).
	RetryAfter time.Duration
	// Latency is the delay of a FaultLatency rule.
	Latency time.Duration
}

// On returns r restricted to one endpoint (e.g. EndpointList).
func (r Rule) On(endpoint string) Rule { r.Endpoint = endpoint; return r }

// Times returns r limited to n injections.
func (r Rule) Times(n int) Rule { r.Count = n; return r }

// WithProbability returns r firing with probability p.
func (r Rule) WithProbability(p float64) Rule { r.Probability = p; return r }

// Skip returns r that lets the first n matching requests through.
func (r Rule) Skip(n int) Rule { r.After = n; return r }

// Latency delays every matching request by d.
func Latency(d time.Duration) Rule { return Rule{Kind: FaultLatency, Latency: d} }

// TooManyRequests answers 429 rateLimitExceeded with a Retry-After header.
func TooManyRequests(retryAfter time.Duration) Rule {
	return Rule{Kind: FaultStatus, Status: 429, Domain: "usageLimits", Reason: "rateLimitExceeded",
		Message: "Rate Limit Exceeded", RetryAfter: retryAfter}
}

// UserRateLimitExceeded answers 403 userRateLimitExceeded (domain usageLimits).
func UserRateLimitExceeded() Rule {
	return Rule{Kind: FaultStatus, Status: 403, Domain: "usageLimits", Reason: "userRateLimitExceeded",
		Message: "User Rate Limit Exceeded"}
}

// RateLimitExceeded answers 403 rateLimitExceeded (domain usageLimits).
func RateLimitExceeded() Rule {
	return Rule{Kind: FaultStatus, Status: 403, Domain: "usageLimits", Reason: "rateLimitExceeded",
		Message: "Rate Limit Exceeded"}
}

// ServerError answers a 5xx status (500 backendError, 502 badGateway, 503
// backendError "The service is currently unavailable.").
func ServerError(status int) Rule {
	r := Rule{Kind: FaultStatus, Status: status, Domain: "global", Reason: "backendError", Message: "Backend Error"}
	switch status {
	case 502:
		r.Reason, r.Message = "badGateway", "Bad Gateway"
	case 503:
		r.Message = "The service is currently unavailable."
	}
	return r
}

// DropConnection closes the connection without an answer. Note that Go's
// http.Transport silently retries an idempotent request once when a reused
// connection dies before any answer byte, so a single drop may be invisible
// to the client (the call counter still shows it).
func DropConnection() Rule { return Rule{Kind: FaultDrop} }

// TruncateBody sends half of the real body under a full Content-Length.
func TruncateBody() Rule { return Rule{Kind: FaultTruncate} }

type ruleState struct {
	Rule
	id      int
	seen    int
	applied int
}

// Faults holds the fault rules of an emulator. It is safe for concurrent use.
type Faults struct {
	mu    sync.Mutex
	rules []*ruleState
	next  int
	rng   *rand.Rand
}

func newFaults(seed uint64) *Faults {
	return &Faults{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Faults returns the emulator's fault rules.
func (e *Emulator) Faults() *Faults { return e.faults }

// Add installs a rule and returns its ID for Remove.
func (f *Faults) Add(r Rule) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	f.rules = append(f.rules, &ruleState{Rule: r, id: f.next})
	return f.next
}

// Remove uninstalls the rule with the given ID.
func (f *Faults) Remove(id int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, r := range f.rules {
		if r.id == id {
			f.rules = append(f.rules[:i], f.rules[i+1:]...)
			return
		}
	}
}

// Clear removes every rule.
func (f *Faults) Clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = nil
}

// Seed resets the random source deciding probabilistic rules, so that a
// sequence of requests meets the same faults in every run.
func (f *Faults) Seed(seed uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// decide picks the faults for one request: the sum of firing latency rules
// and the first firing non-latency rule.
func (f *Faults) decide(r *http.Request, endpoint string) (delay time.Duration, fault *Rule) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, rs := range f.rules {
		if rs.Endpoint != "" && rs.Endpoint != endpoint {
			continue
		}
		if rs.PathPrefix != "" && !strings.HasPrefix(r.URL.Path, rs.PathPrefix) {
			continue
		}
		if rs.Kind != FaultLatency && fault != nil {
			continue
		}
		rs.seen++
		if rs.seen <= rs.After || (rs.Count > 0 && rs.applied >= rs.Count) {
			continue
		}
		if rs.Probability > 0 && rs.Probability < 1 && f.rng.Float64() >= rs.Probability {
			continue
		}
		rs.applied++
		if rs.Kind == FaultLatency {
			delay += rs.Latency
			continue
		}
		rule := rs.Rule
		fault = &rule
	}
	return delay, fault
}

// inject applies the faults for one request. It reports whether it answered
// the request itself; serve is the real handler, used by truncation.
func (f *Faults) inject(w http.ResponseWriter, r *http.Request, endpoint string, st *stats, serve func(http.ResponseWriter)) bool {
	delay, fault := f.decide(r, endpoint)
	if delay > 0 {
		st.fault(FaultLatency)
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return true
		}
	}
	if fault == nil {
		return false
	}
	st.fault(fault.Kind)
	switch fault.Kind {
	case FaultStatus:
		ae := &apiError{Code: fault.Status, Domain: fault.Domain, Reason: fault.Reason, Message: fault.Message}
		if fault.RetryAfter > 0 {
			ae.RetryAfter = max(1, int((fault.RetryAfter+time.Second-1)/time.Second))
		}
		writeError(w, ae)
	case FaultDrop:
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close()
			return true
		}
		panic(http.ErrAbortHandler) // HTTP/2 or a recorder: abort the stream
	case FaultTruncate:
		rec := &recorder{header: http.Header{}, code: http.StatusOK}
		serve(rec)
		h := w.Header()
		for k, v := range rec.header {
			h[k] = v
		}
		body := rec.body.Bytes()
		h.Set("Content-Length", strconv.Itoa(len(body)+1))
		w.WriteHeader(rec.code)
		_, _ = w.Write(body[:len(body)/2])
		_ = http.NewResponseController(w).Flush()
		// Returning with fewer bytes than Content-Length makes the server
		// close the connection; the client sees an unexpected EOF.
	default:
		return false
	}
	return true
}

type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(code int)        { r.code = code }

// Stats is a snapshot of the emulator's counters.
type Stats struct {
	// Calls counts requests per endpoint name (EndpointList...).
	Calls map[string]int
	// Faults counts injected faults per kind.
	Faults map[FaultKind]int
}

// Total returns the number of requests of all endpoints.
func (s Stats) Total() int {
	n := 0
	for _, c := range s.Calls {
		n += c
	}
	return n
}

type stats struct {
	mu     sync.Mutex
	calls  map[string]int
	faults map[FaultKind]int
}

func newStats() *stats { return &stats{calls: map[string]int{}, faults: map[FaultKind]int{}} }

func (s *stats) call(endpoint string) {
	s.mu.Lock()
	s.calls[endpoint]++
	s.mu.Unlock()
}

func (s *stats) fault(k FaultKind) {
	s.mu.Lock()
	s.faults[k]++
	s.mu.Unlock()
}

// Stats returns a snapshot of the call and fault counters.
func (e *Emulator) Stats() Stats {
	s := e.stats
	s.mu.Lock()
	defer s.mu.Unlock()
	out := Stats{Calls: map[string]int{}, Faults: map[FaultKind]int{}}
	for k, v := range s.calls {
		out.Calls[k] = v
	}
	for k, v := range s.faults {
		out.Faults[k] = v
	}
	return out
}

// ResetStats zeroes the counters.
func (e *Emulator) ResetStats() {
	s := e.stats
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = map[string]int{}
	s.faults = map[FaultKind]int{}
}
