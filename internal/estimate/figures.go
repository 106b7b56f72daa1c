package estimate

import (
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/pricing"
)

// Operations an estimate is made for.
const (
	OpCrawl      = "crawl"
	OpGraphBuild = "graph build"
)

// Figures are the model calls of one run, estimated before it or taken
// from the responses after it, priced and timed.
type Figures struct {
	Operation string `json:"operation"` // OpCrawl or OpGraphBuild
	// Estimate is true for figures made before the run; false for the
	// actual figures of a run (the usage its responses reported).
	Estimate bool   `json:"estimate"`
	Provider string `json:"provider"`
	Models   Models `json:"models"`
	// Offline is set when the provider is gds's offline one: no model
	// call, nothing to pay.
	Offline bool `json:"offline,omitempty"`
	// Scope names what the run covers (sources, folder, --full), so an
	// estimate is shown beside the run it was made for.
	Scope string    `json:"scope"`
	At    time.Time `json:"at"`
	Report
}

// Make prices and times tallies as Figures.
func Make(op string, isEstimate bool, provider string, m Models, scope string, at time.Time,
	tallies map[ai.CallKind]ai.Tally, book *pricing.Book, maxRPM int) Figures {
	return Figures{Operation: op, Estimate: isEstimate, Provider: provider, Models: m, Scope: scope, At: at.UTC(),
		Report: Compute(tallies, m, book, maxRPM)}
}

// Pairs reports whether est is an estimate made for the run of actual: the
// same operation and scope, made before it and at most maxAge earlier.
func Pairs(est, actual Figures, maxAge time.Duration) bool {
	return est.Estimate && !actual.Estimate && est.Operation == actual.Operation && est.Scope == actual.Scope &&
		!est.At.After(actual.At) && actual.At.Sub(est.At) <= maxAge
}
