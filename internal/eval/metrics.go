package eval

import (
	"math"
	"path"
	"slices"
	"sort"
	"time"
)

// Cut-offs of the reported metrics.
const (
	TopK = 10 // Recall@10 and MRR@10
)

// Ranked is what a system returned for one query.
type Ranked struct {
	// Files are the names of the returned files, best first.
	Files []string
	// Loops is the number of loops the search took (0 for the baseline).
	Loops int
	// End is how the search ended ("results", "not_found", "loop_cap";
	// "results" or "not_found" for the baseline).
	End string
	// Branches are the branches taken, in order (empty for the baseline).
	Branches []string
	// Trace describes each round (conditions, hits, branch) for
	// inspecting misses; not used by the metrics.
	Trace []string
	// Elapsed is the wall-clock time of the search (set by Run).
	Elapsed time.Duration
}

// Rank returns the 1-based position of the first relevant file in files,
// or 0 when none is there. Names are compared by their last path element,
// exactly (case matters).
func Rank(files, relevant []string) int {
	for i, f := range files {
		if isRelevant(f, relevant) {
			return i + 1
		}
	}
	return 0
}

func isRelevant(file string, relevant []string) bool {
	base := path.Base(file)
	return slices.ContainsFunc(relevant, func(r string) bool { return path.Base(r) == base })
}

// RecallAt is the share of the relevant files found among the first k
// files (each relevant file counted once).
func RecallAt(files, relevant []string, k int) float64 {
	if len(relevant) == 0 {
		return 0
	}
	found := map[string]bool{}
	for _, f := range files[:min(k, len(files))] {
		if isRelevant(f, relevant) {
			found[path.Base(f)] = true
		}
	}
	distinct := map[string]bool{}
	for _, r := range relevant {
		distinct[path.Base(r)] = true
	}
	return float64(len(found)) / float64(len(distinct))
}

// ReciprocalRankAt is 1/rank of the first relevant file when it is within
// the first k files, else 0.
func ReciprocalRankAt(files, relevant []string, k int) float64 {
	r := Rank(files, relevant)
	if r == 0 || r > k {
		return 0
	}
	return 1 / float64(r)
}

// Latency summarises per-query wall-clock times in milliseconds.
type Latency struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	Max float64 `json:"max"`
}

// Report is the result of an evaluation. The JSON names of the first six
// fields are a stable interface (docs/BENCHMARKS.md, CI scripts).
type Report struct {
	RecallAt1      float64 `json:"recall_at_1"`
	RecallAt10     float64 `json:"recall_at_10"`
	MRRAt10        float64 `json:"mrr_at_10"`
	ZeroResultRate float64 `json:"zero_result_rate"`
	MeanLoops      float64 `json:"mean_loops"`
	Queries        int     `json:"queries"`

	// System is "gds" (the hybrid loop) or "bm25" (the baseline).
	System string `json:"system"`
	// Provider is the AI provider the loop used ("" for the baseline).
	Provider string `json:"provider,omitempty"`
	// MeanResults is the mean number of files returned per query.
	MeanResults float64 `json:"mean_results"`
	// Ends counts the queries by how their search ended.
	Ends map[string]int `json:"ends"`
	// Branches counts, per branch, the queries whose search took it at
	// least once.
	Branches map[string]int `json:"branches,omitempty"`
	// LatencyMS is the per-query wall-clock time.
	LatencyMS Latency `json:"latency_ms"`
}

// Metrics accumulates per-query results into a Report.
type Metrics struct {
	n         int
	r1, r10   float64
	mrr       float64
	zero      int
	loops     int
	results   int
	ends      map[string]int
	branches  map[string]int
	latencies []time.Duration
	system    string
	provider  string
}

// NewMetrics starts an accumulator for a system and provider name.
func NewMetrics(system, provider string) *Metrics {
	return &Metrics{system: system, provider: provider, ends: map[string]int{}, branches: map[string]int{}}
}

// Add records one query's result.
func (m *Metrics) Add(q Query, r Ranked) {
	m.n++
	m.r1 += RecallAt(r.Files, q.Relevant, 1)
	m.r10 += RecallAt(r.Files, q.Relevant, TopK)
	m.mrr += ReciprocalRankAt(r.Files, q.Relevant, TopK)
	if len(r.Files) == 0 {
		m.zero++
	}
	m.loops += r.Loops
	m.results += len(r.Files)
	if r.End != "" {
		m.ends[r.End]++
	}
	seen := map[string]bool{}
	for _, b := range r.Branches {
		if b != "" && !seen[b] {
			seen[b] = true
			m.branches[b]++
		}
	}
	m.latencies = append(m.latencies, r.Elapsed)
}

// Report returns the metrics of the queries added so far.
func (m *Metrics) Report() Report {
	rep := Report{Queries: m.n, System: m.system, Provider: m.provider, Ends: m.ends}
	if len(m.branches) > 0 {
		rep.Branches = m.branches
	}
	if m.n == 0 {
		return rep
	}
	n := float64(m.n)
	rep.RecallAt1 = round4(m.r1 / n)
	rep.RecallAt10 = round4(m.r10 / n)
	rep.MRRAt10 = round4(m.mrr / n)
	rep.ZeroResultRate = round4(float64(m.zero) / n)
	rep.MeanLoops = round4(float64(m.loops) / n)
	rep.MeanResults = round4(float64(m.results) / n)
	rep.LatencyMS = latency(m.latencies)
	return rep
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// latency computes nearest-rank percentiles in milliseconds.
func latency(ds []time.Duration) Latency {
	if len(ds) == 0 {
		return Latency{}
	}
	s := slices.Clone(ds)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	ms := func(d time.Duration) float64 { return math.Round(float64(d)/1e4) / 100 }
	return Latency{P50: ms(Percentile(s, 50)), P95: ms(Percentile(s, 95)), Max: ms(s[len(s)-1])}
}

// Percentile returns the nearest-rank p-th percentile (0 < p ≤ 100) of
// sorted, ascending durations; 0 for none.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
