package eval

import (
	"strings"
	"testing"
	"time"
)

func TestRank(t *testing.T) {
	cases := []struct {
		files, relevant []string
		want            int
	}{
		{[]string{"a.txt", "b.txt", "c.txt"}, []string{"b.txt"}, 2},
		{[]string{"a.txt", "b.txt"}, []string{"z.txt"}, 0},
		{nil, []string{"a.txt"}, 0},
		{[]string{"docs/sub/a.txt"}, []string{"a.txt"}, 1}, // names match by last element
		{[]string{"A.txt"}, []string{"a.txt"}, 0},          // exactly
		{[]string{"x.txt", "c.txt", "b.txt"}, []string{"b.txt", "c.txt"}, 2},
	}
	for _, c := range cases {
		if got := Rank(c.files, c.relevant); got != c.want {
			t.Errorf("Rank(%v, %v) = %d, want %d", c.files, c.relevant, got, c.want)
		}
	}
}

func TestRecallAndReciprocalRank(t *testing.T) {
	files := []string{"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11"}
	cases := []struct {
		relevant    []string
		r1, r10, rr float64
		comment     string
	}{
		{[]string{"f1"}, 1, 1, 1, "first"},
		{[]string{"f4"}, 0, 1, 0.25, "fourth"},
		{[]string{"f10"}, 0, 1, 0.1, "tenth is inside the cut-off"},
		{[]string{"f11"}, 0, 0, 0, "eleventh is outside"},
		{[]string{"f2", "f11"}, 0, 0.5, 0.5, "one of two relevant in the top 10"},
		{[]string{"f3", "f3"}, 0, 1, 1.0 / 3, "duplicates count once"},
		{[]string{"zz"}, 0, 0, 0, "absent"},
	}
	for _, c := range cases {
		if got := RecallAt(files, c.relevant, 1); got != c.r1 {
			t.Errorf("%s: R@1 = %v, want %v", c.comment, got, c.r1)
		}
		if got := RecallAt(files, c.relevant, 10); got != c.r10 {
			t.Errorf("%s: R@10 = %v, want %v", c.comment, got, c.r10)
		}
		if got := ReciprocalRankAt(files, c.relevant, 10); got != c.rr {
			t.Errorf("%s: RR@10 = %v, want %v", c.comment, got, c.rr)
		}
	}
	if got := RecallAt([]string{"f1"}, []string{"f1"}, 10); got != 1 {
		t.Errorf("R@10 with a single returned file = %v, want 1", got)
	}
}

// A hand-computed report over four queries.
func TestMetricsReport(t *testing.T) {
	m := NewMetrics("gds", "offline")
	ms := time.Millisecond
	m.Add(Query{Relevant: []string{"a"}}, Ranked{Files: []string{"a", "b"}, Loops: 1, End: "results", Branches: []string{"rerank"}, Elapsed: 10 * ms})
	m.Add(Query{Relevant: []string{"c"}}, Ranked{Files: []string{"a", "b", "c"}, Loops: 2, End: "results", Branches: []string{"narrow", "rerank"}, Elapsed: 20 * ms})
	m.Add(Query{Relevant: []string{"d"}}, Ranked{Files: nil, Loops: 3, End: "not_found", Branches: []string{"relax", "relax", "not_found"}, Elapsed: 30 * ms})
	m.Add(Query{Relevant: []string{"e"}}, Ranked{Files: []string{"x"}, Loops: 2, End: "results", Branches: []string{"narrow", "single"}, Elapsed: 100 * ms})
	r := m.Report()
	// R@1 = (1+0+0+0)/4; R@10 = (1+1+0+0)/4; MRR = (1 + 1/3)/4 = 0.3333.
	want := Report{RecallAt1: 0.25, RecallAt10: 0.5, MRRAt10: 0.3333, ZeroResultRate: 0.25, MeanLoops: 2, Queries: 4,
		System: "gds", Provider: "offline", MeanResults: 1.5}
	if r.RecallAt1 != want.RecallAt1 || r.RecallAt10 != want.RecallAt10 || r.MRRAt10 != want.MRRAt10 ||
		r.ZeroResultRate != want.ZeroResultRate || r.MeanLoops != want.MeanLoops || r.Queries != want.Queries ||
		r.MeanResults != want.MeanResults || r.System != "gds" || r.Provider != "offline" {
		t.Errorf("report = %+v\nwant %+v", r, want)
	}
	if r.Ends["results"] != 3 || r.Ends["not_found"] != 1 {
		t.Errorf("ends = %v", r.Ends)
	}
	// Branches count queries, not rounds: relax twice in one query is 1.
	if r.Branches["relax"] != 1 || r.Branches["narrow"] != 2 || r.Branches["rerank"] != 2 || r.Branches["single"] != 1 {
		t.Errorf("branches = %v", r.Branches)
	}
	// Nearest rank: p50 of {10,20,30,100} is the 2nd (20), p95 the 4th (100).
	if r.LatencyMS != (Latency{P50: 20, P95: 100, Max: 100}) {
		t.Errorf("latency = %+v", r.LatencyMS)
	}
	if empty := NewMetrics("bm25", "").Report(); empty.Queries != 0 || empty.RecallAt1 != 0 {
		t.Errorf("empty report = %+v", empty)
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i))
	}
	for p, want := range map[float64]time.Duration{50: 50, 95: 95, 99: 99, 100: 100, 1: 1} {
		if got := Percentile(ds, p); got != want {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if Percentile(nil, 50) != 0 {
		t.Error("percentile of nothing should be 0")
	}
}

func TestReadQueries(t *testing.T) {
	in := `{"id": "q1", "query": " 日本で梅雨がないのは？ ", "relevant": ["P00001.txt"], "answers": ["小笠原諸島"]}

{"query": "second", "relevant": ["a.txt", "b.txt"]}
`
	qs, err := ReadQueries(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 || qs[0].ID != "q1" || qs[0].Query != "日本で梅雨がないのは？" || qs[0].Answers[0] != "小笠原諸島" ||
		qs[1].ID != "line-3" || len(qs[1].Relevant) != 2 {
		t.Errorf("queries = %+v", qs)
	}
	for _, bad := range []string{
		`{"query": "x"}`,
		`{"query": "", "relevant": ["a"]}`,
		`not json`,
		`{"query": "x", "relevant": "a.txt"}`,
	} {
		if _, err := ReadQueries(strings.NewReader("\n" + bad + "\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("ReadQueries(%q) error = %v, want one naming line 2", bad, err)
		}
	}
}
