package serveload

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"
)

// CheckTarget accepts an http(s) URL whose host is a loopback IP (127.0.0.0/8,
// ::1) or "localhost", and refuses everything else.
func CheckTarget(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("target %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("target %q: scheme must be http or https", raw)
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("target %q is not a loopback address (127.0.0.0/8, ::1, localhost): the load generator only loads servers on this machine", raw)
}

// Latency summarizes durations in milliseconds.
type Latency struct {
	P50  float64 `json:"p50_ms"`
	P95  float64 `json:"p95_ms"`
	P99  float64 `json:"p99_ms"`
	Mean float64 `json:"mean_ms"`
	Max  float64 `json:"max_ms"`
}

// Summarize is the latency summary of ds (nearest-rank percentiles); zero
// for no durations.
func Summarize(ds []time.Duration) Latency {
	if len(ds) == 0 {
		return Latency{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	return Latency{
		P50: ms(percentile(s, 50)), P95: ms(percentile(s, 95)), P99: ms(percentile(s, 99)),
		Mean: ms(sum / time.Duration(len(s))), Max: ms(s[len(s)-1]),
	}
}

// percentile is the nearest-rank p-th percentile of sorted (non-empty) s.
func percentile(s []time.Duration, p int) time.Duration {
	rank := (p*len(s) + 99) / 100 // ceil(p/100 * n)
	if rank < 1 {
		rank = 1
	}
	return s[rank-1]
}

// outcome is how one request ended.
type outcome int

const (
	ok outcome = iota
	// failed: the server answered with an error (a status other than 200,
	// a body that is not the endpoint's JSON, an SSE frame carrying an
	// error).
	failed
	// dropped: no complete answer (the connection failed or closed, the
	// stream ended before its done frame, the run's grace period ran out).
	dropped
)

// sample is one request's result.
type sample struct {
	outcome outcome
	status  int           // HTTP status, 0 when none arrived
	latency time.Duration // request sent → answer complete
	ttff    time.Duration // request sent → first SSE frame (chat streams)
	frames  int           // SSE frames read
	detail  string        // why it failed or was dropped
}

// KindReport is the result of one kind of request.
type KindReport struct {
	Clients       int         `json:"clients"`
	Requests      int         `json:"requests"`
	OK            int         `json:"ok"`
	Errors        int         `json:"errors"`
	Dropped       int         `json:"dropped"`
	RequestsPerS  float64     `json:"requests_per_second"`
	Latency       Latency     `json:"latency"`
	FirstFrame    *Latency    `json:"time_to_first_frame,omitempty"`
	FramesPerChat float64     `json:"frames_per_stream,omitempty"`
	Statuses      map[int]int `json:"error_statuses,omitempty"`
	Samples       []string    `json:"error_samples,omitempty"`
}

// maxSamples bounds the error descriptions a report keeps per kind.
const maxSamples = 5

// summarizeKind folds the samples of one kind over elapsed wall time.
func summarizeKind(clients int, ss []sample, elapsed time.Duration, stream bool) KindReport {
	r := KindReport{Clients: clients, Requests: len(ss)}
	var lat, first []time.Duration
	frames := 0
	for _, s := range ss {
		switch s.outcome {
		case ok:
			r.OK++
			lat = append(lat, s.latency)
			if stream {
				first = append(first, s.ttff)
				frames += s.frames
			}
			continue
		case failed:
			r.Errors++
		case dropped:
			r.Dropped++
		}
		if s.status != 0 && s.status != 200 {
			if r.Statuses == nil {
				r.Statuses = map[int]int{}
			}
			r.Statuses[s.status]++
		}
		if len(r.Samples) < maxSamples {
			r.Samples = append(r.Samples, s.detail)
		}
	}
	r.Latency = Summarize(lat)
	if stream {
		f := Summarize(first)
		r.FirstFrame = &f
		if r.OK > 0 {
			r.FramesPerChat = float64(frames) / float64(r.OK)
		}
	}
	if elapsed > 0 {
		r.RequestsPerS = float64(r.OK) / elapsed.Seconds()
	}
	return r
}

// Report is the result of a run.
type Report struct {
	Target   string        `json:"target"`
	Duration time.Duration `json:"-"`
	Seconds  float64       `json:"seconds"` // wall time, first request to last answer
	Queries  int           `json:"queries"`
	Chat     KindReport    `json:"chat_stream"`
	Search   KindReport    `json:"search"`
	// Baseline is the same requests one at a time before the load, when
	// asked for (Options.Baseline).
	Baseline *Baseline `json:"baseline,omitempty"`
}

// Baseline is the latency of requests sent one at a time, without load.
type Baseline struct {
	Requests int        `json:"requests_per_kind"`
	Chat     KindReport `json:"chat_stream"`
	Search   KindReport `json:"search"`
}

// Ratio is loaded ÷ unloaded p50 of one kind (0 when either is unknown):
// how much the concurrency slows a request, a figure that compares across
// machines better than milliseconds.
func Ratio(loaded, single KindReport) float64 {
	if loaded.Latency.P50 <= 0 || single.Latency.P50 <= 0 {
		return 0
	}
	return loaded.Latency.P50 / single.Latency.P50
}

// Failures is what makes the run fail: every error response and every
// dropped request, and a kind that was asked for but completed nothing.
func (r Report) Failures() []string {
	var out []string
	kinds := []struct {
		name string
		r    KindReport
	}{{"chat/stream", r.Chat}, {"search", r.Search}}
	if b := r.Baseline; b != nil {
		kinds = append(kinds, struct {
			name string
			r    KindReport
		}{"baseline chat/stream", b.Chat}, struct {
			name string
			r    KindReport
		}{"baseline search", b.Search})
	}
	for _, k := range kinds {
		if k.r.Errors > 0 {
			out = append(out, fmt.Sprintf("%s: %d error responses", k.name, k.r.Errors))
		}
		if k.r.Dropped > 0 {
			out = append(out, fmt.Sprintf("%s: %d dropped or incomplete", k.name, k.r.Dropped))
		}
		if k.r.Clients > 0 && k.r.OK == 0 {
			out = append(out, fmt.Sprintf("%s: no request completed", k.name))
		}
	}
	return out
}
