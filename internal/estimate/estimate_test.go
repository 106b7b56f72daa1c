package estimate

import (
	"math"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/pricing"
)

func book(t *testing.T, prices, limits string) *pricing.Book {
	t.Helper()
	b, err := pricing.New("1", prices, limits)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCompute(t *testing.T) {
	m := Models{Chat: "gpt-4o-mini", Embedding: "text-embedding-3-small"}
	for _, c := range []struct {
		name           string
		tallies        map[ai.CallKind]ai.Tally
		models         Models
		prices, limits string
		maxRPM         int
		wantCost       float64 // < 0: unknown
		wantSeconds    float64 // < 0: unknown
		wantBound      string  // of the first lane
	}{
		{name: "nothing to do", wantCost: 0, wantSeconds: 0},
		{
			name: "chat and embeddings at tier 1",
			tallies: map[ai.CallKind]ai.Tally{
				ai.CallChat:      {Calls: 1000, InputTokens: 1_000_000, OutputTokens: 100_000},
				ai.CallEmbedding: {Calls: 50, InputTokens: 2_000_000},
			},
			// 1M × 0.15 + 0.1M × 0.60 + 2M × 0.02 = 0.15 + 0.06 + 0.04
			wantCost: 0.25,
			// chat: 1000 calls / 500 RPM = 120 s; 1.1M tokens / 200k TPM = 330 s.
			// embeddings: 50 / 3000 RPM = 1 s; 2M / 1M TPM = 120 s. The slowest: 330 s.
			wantSeconds: 330, wantBound: "tokens",
		},
		{
			name:     "vision calls go to the chat model's lane",
			tallies:  map[ai.CallKind]ai.Tally{ai.CallChat: {Calls: 250, InputTokens: 10_000}, ai.CallVision: {Calls: 250, InputTokens: 10_000}},
			wantCost: 0.003, wantSeconds: 60, wantBound: "requests", // 500 calls at 500 RPM
		},
		{
			name:     "GDS_AI_MAX_RPM caps the tier's requests",
			tallies:  map[ai.CallKind]ai.Tally{ai.CallChat: {Calls: 100, InputTokens: 1000}},
			maxRPM:   10,
			wantCost: 0.00015, wantSeconds: 600, wantBound: "requests",
		},
		{
			name:     "a local model: no price, no limit",
			tallies:  map[ai.CallKind]ai.Tally{ai.CallChat: {Calls: 10, InputTokens: 1000}},
			models:   Models{Chat: "llama3.1", Embedding: "nomic-embed-text"},
			wantCost: -1, wantSeconds: -1,
		},
		{
			name:    "a local model with configured price and RPM",
			tallies: map[ai.CallKind]ai.Tally{ai.CallChat: {Calls: 10, InputTokens: 1000}},
			models:  Models{Chat: "llama3.1", Embedding: "nomic-embed-text"},
			prices:  "llama3.1=0/0", maxRPM: 60,
			wantCost: 0, wantSeconds: 10, wantBound: "requests",
		},
		{
			name:     "configured limits replace the tier's",
			tallies:  map[ai.CallKind]ai.Tally{ai.CallChat: {Calls: 10, InputTokens: 100_000}},
			limits:   "gpt-4o-mini=1000/10000",
			wantCost: 0.015, wantSeconds: 600, wantBound: "tokens",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			models := c.models
			if models == (Models{}) {
				models = m
			}
			r := Compute(c.tallies, models, book(t, c.prices, c.limits), c.maxRPM)
			switch {
			case c.wantCost < 0 && r.CostUSD != nil:
				t.Errorf("cost %v, want unknown", *r.CostUSD)
			case c.wantCost >= 0 && (r.CostUSD == nil || math.Abs(*r.CostUSD-c.wantCost) > 1e-9):
				t.Errorf("cost %v, want %v", r.CostUSD, c.wantCost)
			}
			switch {
			case c.wantSeconds < 0 && r.Seconds != nil:
				t.Errorf("seconds %v, want unknown", *r.Seconds)
			case c.wantSeconds >= 0 && (r.Seconds == nil || math.Abs(*r.Seconds-c.wantSeconds) > 1e-9):
				t.Errorf("seconds %v, want %v", r.Seconds, c.wantSeconds)
			}
			if c.wantBound != "" && (len(r.Lanes) == 0 || r.Lanes[0].BoundBy != c.wantBound) {
				t.Errorf("lanes %+v, want the first bound by %s", r.Lanes, c.wantBound)
			}
			var sum ai.Tally
			for _, t := range c.tallies {
				sum = sum.Add(t)
			}
			if r.Total != sum {
				t.Errorf("total %+v, want %+v", r.Total, sum)
			}
		})
	}
}

func TestDeviation(t *testing.T) {
	for _, c := range []struct {
		est, act int
		want     float64
	}{
		{0, 0, 0}, {100, 100, 0}, {80, 100, 0.2}, {120, 100, 0.2}, {1, 0, math.Inf(1)},
	} {
		if got := Deviation(c.est, c.act); math.Abs(got-c.want) > 1e-12 && !(math.IsInf(got, 1) && math.IsInf(c.want, 1)) {
			t.Errorf("Deviation(%d, %d) = %v, want %v", c.est, c.act, got, c.want)
		}
	}
}

func TestPairs(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	est := Figures{Operation: OpCrawl, Estimate: true, Scope: "local:/a", At: t0}
	run := Figures{Operation: OpCrawl, Scope: "local:/a", At: t0.Add(time.Hour)}
	for _, c := range []struct {
		name string
		est  Figures
		run  Figures
		want bool
	}{
		{"same scope, an hour later", est, run, true},
		{"another scope", est, Figures{Operation: OpCrawl, Scope: "local:/b", At: run.At}, false},
		{"another operation", est, Figures{Operation: OpGraphBuild, Scope: "local:/a", At: run.At}, false},
		{"too old", est, Figures{Operation: OpCrawl, Scope: "local:/a", At: t0.Add(25 * time.Hour)}, false},
		{"made after the run", Figures{Operation: OpCrawl, Estimate: true, Scope: "local:/a", At: run.At.Add(time.Minute)}, run, false},
		{"two actual figures", run, run, false},
	} {
		if got := Pairs(c.est, c.run, 24*time.Hour); got != c.want {
			t.Errorf("%s: Pairs = %v, want %v", c.name, got, c.want)
		}
	}
}
