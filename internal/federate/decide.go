package federate

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"sync"
)

// Select keeps the top perService hits of each server (in the servers'
// order) and at most total in all, taking them round-robin so that no
// service crowds out the others (FR-SR-01).
func Select(order []string, hits map[string][]Hit, perService, total int) map[string][]Hit {
	out := map[string][]Hit{}
	n := 0
	for rank := 0; rank < perService && n < total; rank++ {
		for _, s := range order {
			if n >= total {
				break
			}
			if rank < len(hits[s]) {
				out[s] = append(out[s], hits[s][rank])
				n++
			}
		}
	}
	return out
}

// Status is how one service's search ended.
type Status string

const (
	StatusOK          Status = "ok"
	StatusNoHits      Status = "no_hits"
	StatusRateLimited Status = "rate_limited" // 429: skipped, no retry (FR-ER-02)
	StatusTimeout     Status = "timeout"
	StatusFailed      Status = "failed" // crashed, refused, unreadable output (FR-ER-01)
	StatusUnavailable Status = "unavailable"
)

// ErrRateLimited marks a service's answer as a rate-limit refusal (HTTP
// 429 from the service behind the MCP server).
var ErrRateLimited = errors.New("rate limited (429)")

// rateLimitText recognises a rate-limit refusal in a third-party tool's
// error text — the only signal an MCP tool result carries. This reads a
// foreign server's payload; gds's own errors are classified by kind.
var rateLimitText = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b429\b|rate[ _-]?limit(ed)?|too many requests|ratelimited`)
})

// IsRateLimitText reports whether a tool's error text is a rate limit.
func IsRateLimitText(s string) bool { return rateLimitText().MatchString(s) }

// StatusOf classifies a search error: 429 → skipped, the call's own
// deadline → timeout, anything else → failed; nil → ok or no hits.
func StatusOf(err error, hits int) Status {
	switch {
	case err == nil && hits == 0:
		return StatusNoHits
	case err == nil:
		return StatusOK
	case errors.Is(err, ErrRateLimited):
		return StatusRateLimited
	case errors.Is(err, context.DeadlineExceeded):
		return StatusTimeout
	case errors.Is(err, ErrUnavailable):
		return StatusUnavailable
	}
	return StatusFailed
}

// ErrUnavailable marks a server that could not be started.
var ErrUnavailable = errors.New("server unavailable")

// Source is one numbered link of the sources section, built by the host
// from the services' own URLs — never from model output (FR-TR-01).
type Source struct {
	N       int    `json:"n"`
	Server  string `json:"server"`
	Kind    string `json:"kind"`
	Title   string `json:"title"`
	URL     string `json:"url"`
	Warning string `json:"warning,omitempty"` // the body could not be read; the snippet was used
}

// BuildSources numbers the selected hits per service in the servers' order.
func BuildSources(order []string, sel map[string][]Hit) []Source {
	var out []Source
	for _, s := range order {
		for _, h := range sel[s] {
			out = append(out, Source{N: len(out) + 1, Server: s, Kind: h.Kind, Title: h.Title, URL: h.URL, Warning: h.BodyWarning})
		}
	}
	return out
}

// DedupeByFetch drops a hit whose body would be read by the same call as
// an earlier one's (two Slack messages of one thread), keeping the first.
func DedupeByFetch(s Server, hits []Hit) []Hit {
	seen := map[string]bool{}
	out := hits[:0:0]
	for _, h := range hits {
		call, ok := FetchFor(s, h)
		if ok {
			b, _ := json.Marshal(call)
			if seen[string(b)] {
				continue
			}
			seen[string(b)] = true
		}
		out = append(out, h)
	}
	return out
}
