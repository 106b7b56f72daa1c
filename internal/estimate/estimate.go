// Package estimate is the arithmetic of a cost and time estimate: from the
// model calls a crawl or graph build makes (counted by kind, with their
// input and output tokens), the price at the configured models' prices and
// the time the account's rate limits allow. It is pure: the calls are
// counted elsewhere (internal/ai/counting runs the real pipeline with a
// provider that counts instead of calling; an openai provider's ai.Meter
// counts the real calls), and the prices and limits come from
// internal/ai/pricing.
package estimate

import (
	"math"
	"slices"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/pricing"
)

// Models are the models the calls go to.
type Models struct {
	Chat      string `json:"chat"`      // chat and vision calls
	Embedding string `json:"embedding"` // embeddings calls
}

// Line is the calls of one kind.
type Line struct {
	Kind  ai.CallKind `json:"kind"`
	Model string      `json:"model"`
	ai.Tally
	// CostUSD is the price of the line; nil when the model's price is
	// unknown.
	CostUSD *float64 `json:"cost_usd"`
}

// Lane is the calls one model receives and how long its rate limit makes
// them take.
type Lane struct {
	Model  string `json:"model"`
	Calls  int    `json:"calls"`
	Tokens int    `json:"tokens"` // input + output
	// Limit is the model's limit at the account's tier (or configured);
	// nil when unknown.
	Limit *pricing.Limit `json:"limit,omitempty"`
	// Seconds is the least time the limit allows for the lane; nil when
	// the limit is unknown.
	Seconds *float64 `json:"seconds,omitempty"`
	// BoundBy says which limit decides: "requests" or "tokens".
	BoundBy string `json:"bound_by,omitempty"`
}

// Report is an estimate, or the actual figures of a run, in the same form.
type Report struct {
	Lines []Line   `json:"calls"`
	Total ai.Tally `json:"total"`
	// CostUSD is the price of every line; nil when one of them has no
	// price.
	CostUSD *float64 `json:"cost_usd"`
	// Prices are the prices used, each with its date and source.
	Prices []pricing.Price `json:"prices"`
	// Lanes are the calls per model with their rate-limit time.
	Lanes []Lane `json:"lanes"`
	// Seconds is the least time the rate limits allow for the whole run
	// (its lanes run side by side: the slowest decides); nil when a limit
	// is unknown.
	Seconds *float64 `json:"seconds,omitempty"`
	Tier    string   `json:"tier"`
}

// Duration is Seconds as a duration (0 when unknown).
func (r Report) Duration() time.Duration {
	if r.Seconds == nil {
		return 0
	}
	return time.Duration(*r.Seconds * float64(time.Second))
}

// Compute prices tallies (the calls by kind) with book and times them at
// its limits, RPM capped at maxRPM when it is positive (GDS_AI_MAX_RPM).
func Compute(tallies map[ai.CallKind]ai.Tally, m Models, book *pricing.Book, maxRPM int) Report {
	r := Report{Tier: book.Tier}
	cost, known := 0.0, true
	lanes := map[string]*Lane{}
	var order []string
	for _, k := range ai.CallKinds {
		t, ok := tallies[k]
		if !ok || t.Calls == 0 {
			continue
		}
		model := m.Chat
		if k == ai.CallEmbedding {
			model = m.Embedding
		}
		line := Line{Kind: k, Model: model, Tally: t}
		if p, ok := book.Price(model); ok {
			c := (float64(t.InputTokens)*p.Input + float64(t.OutputTokens)*p.Output) / 1e6
			line.CostUSD = &c
			cost += c
			if !slices.ContainsFunc(r.Prices, func(q pricing.Price) bool { return q.Model == p.Model }) {
				r.Prices = append(r.Prices, p)
			}
		} else {
			known = false
		}
		r.Lines = append(r.Lines, line)
		r.Total = r.Total.Add(t)
		if lanes[model] == nil {
			lanes[model] = &Lane{Model: model}
			order = append(order, model)
		}
		lanes[model].Calls += t.Calls
		lanes[model].Tokens += t.InputTokens + t.OutputTokens
	}
	if known && len(r.Lines) > 0 {
		r.CostUSD = &cost
	}
	if len(r.Lines) == 0 {
		zero := 0.0
		r.CostUSD, r.Seconds = &zero, &zero
		return r
	}
	slowest, timed := 0.0, true
	for _, model := range order {
		l := lanes[model]
		lim, ok := book.Limit(model)
		if !ok && maxRPM > 0 {
			lim, ok = pricing.Limit{Model: model, RPM: maxRPM, AsOf: pricing.FromConfig}, true
		}
		if ok {
			if maxRPM > 0 && (lim.RPM == 0 || maxRPM < lim.RPM) {
				lim.RPM = maxRPM
			}
			s, by := laneSeconds(l.Calls, l.Tokens, lim.RPM, lim.TPM)
			l.Limit, l.Seconds, l.BoundBy = &lim, &s, by
			slowest = math.Max(slowest, s)
		} else {
			timed = false
		}
		r.Lanes = append(r.Lanes, *l)
	}
	if timed {
		r.Seconds = &slowest
	}
	return r
}

// laneSeconds is the least time calls of tokens take under rpm requests
// and tpm tokens per minute (a zero limit does not bind).
func laneSeconds(calls, tokens, rpm, tpm int) (float64, string) {
	var byReq, byTok float64
	if rpm > 0 {
		byReq = 60 * float64(calls) / float64(rpm)
	}
	if tpm > 0 {
		byTok = 60 * float64(tokens) / float64(tpm)
	}
	if byTok > byReq {
		return byTok, "tokens"
	}
	return byReq, "requests"
}

// Deviation is how far actual is from estimated, as a fraction of actual
// (0.1 = the estimate is 10 % off); 0 when both are 0, +Inf when only
// the actual is 0.
func Deviation(estimated, actual int) float64 {
	if actual == 0 {
		if estimated == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return math.Abs(float64(estimated-actual)) / float64(actual)
}
