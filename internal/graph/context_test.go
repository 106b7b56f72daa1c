package graph

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/tokens"
	"github.com/gds-cli/gds/internal/store"
)

func views(n int) []ReportView {
	var out []ReportView
	for i := range n {
		out = append(out, ReportView{CommunityID: fmt.Sprint(i), Title: fmt.Sprintf("Report %d", i),
			Content: strings.Repeat(fmt.Sprintf("finding %d ", i), 20), Rank: float64(i % 4), RawWeight: i + 1, Weight: float64(i%3) / 2})
	}
	return out
}

func TestBatchesAtTheTokenBoundary(t *testing.T) {
	c := tokens.O200k
	vs := views(2)
	header := c.Count(reportHeader) + 1
	rows := c.Count(reportRow(vs[0])) + 1 + c.Count(reportRow(vs[1])) + 1
	// Exactly the two rows and the header: one batch.
	if got := Batches(vs, c, header+rows, ShuffleSeed); len(got) != 1 || len(got[0].Reports) != 2 || got[0].Tokens != header+rows {
		t.Fatalf("budget = header+rows: %d batches (%+v), want 1 of 2 reports and %d tokens", len(got), got, header+rows)
	}
	// One token less: two batches.
	got := Batches(vs, c, header+rows-1, ShuffleSeed)
	if len(got) != 2 || len(got[0].Reports) != 1 || len(got[1].Reports) != 1 {
		t.Fatalf("budget = header+rows-1: %d batches, want 2 of 1", len(got))
	}
	for _, b := range got {
		if b.Tokens > header+rows-1 {
			t.Errorf("batch of %d tokens over the budget", b.Tokens)
		}
		if c.Count(b.Context) > b.Tokens {
			t.Errorf("batch counted %d tokens but its table has %d", b.Tokens, c.Count(b.Context))
		}
	}
	// A row larger than the budget is a batch of its own.
	if got := Batches(vs, c, 5, ShuffleSeed); len(got) != 2 {
		t.Fatalf("tiny budget: %d batches, want one per report", len(got))
	}
}

func TestBatchesSortedAndComplete(t *testing.T) {
	vs := views(30)
	bs := Batches(vs, tokens.O200k, 1500, ShuffleSeed)
	if len(bs) < 2 {
		t.Fatalf("%d batches, want several", len(bs))
	}
	var seen []string
	for _, b := range bs {
		for i, r := range b.Reports {
			seen = append(seen, r.CommunityID)
			if i > 0 {
				p := b.Reports[i-1]
				if p.Weight < r.Weight || p.Weight == r.Weight && p.Rank < r.Rank {
					t.Fatalf("batch not sorted by (weight, rank) descending: %v then %v", p, r)
				}
			}
		}
		if !strings.HasPrefix(b.Context, "-----Reports-----\nid|title|occurrence weight|content|rank\n") {
			t.Fatalf("table header missing: %q", b.Context[:60])
		}
	}
	slices.SortFunc(seen, strings.Compare)
	if len(slices.Compact(seen)) != 30 {
		t.Fatalf("batches hold %d distinct reports, want all 30 once", len(seen))
	}
	again := Batches(vs, tokens.O200k, 1500, ShuffleSeed)
	if fmt.Sprint(again) != fmt.Sprint(bs) {
		t.Fatal("batching is not deterministic for a seed")
	}
}

func TestSelectReports(t *testing.T) {
	comms := []store.GraphCommunity{
		{ID: "0", Level: 0, EntityIDs: []string{"a", "b", "c", "d"}, Weight: 8, Signature: "s0"},
		{ID: "1", Level: 1, Parent: "0", EntityIDs: []string{"a", "b"}, Weight: 4, Signature: "s1"},
		{ID: "2", Level: 1, Parent: "0", EntityIDs: []string{"c", "d"}, Weight: 2, Signature: "s2"},
		{ID: "3", Level: 2, Parent: "1", EntityIDs: []string{"a", "b"}, Weight: 4, Signature: "s3"},
	}
	reports := map[string]Report{"s0": {Title: "top", Rank: 9}, "s1": {Title: "one", Rank: 5}, "s2": {Title: "two", Rank: 2}, "s3": {Title: "deep", Rank: 7}}
	ids := func(v []ReportView) []string {
		var out []string
		for _, r := range v {
			out = append(out, r.CommunityID)
		}
		return out
	}
	for _, tc := range []struct {
		level   int
		minRank float64
		want    []string
	}{
		{0, 0, []string{"0"}},
		{1, 0, []string{"1", "2"}}, // the deepest community per entity at level <= 1
		{2, 0, []string{"2", "3"}}, // a and b are deeper in 3
		{2, 3, []string{"3"}},      // rank 2 < 3
		{1, 6, nil},                // nothing ranks 6 or more at level 1
		{5, 0, []string{"2", "3"}}, // levels beyond the deepest
	} {
		got := SelectReports(comms, reports, tc.level, tc.minRank, true)
		if !slices.Equal(ids(got), tc.want) {
			t.Errorf("level %d min rank %g: %v, want %v", tc.level, tc.minRank, ids(got), tc.want)
		}
	}
	got := SelectReports(comms, reports, 1, 0, true)
	if got[0].Weight != 1 || got[1].Weight != 0.5 || got[1].RawWeight != 2 {
		t.Errorf("normalised weights = %v, %v; want 1 and 0.5", got[0].Weight, got[1].Weight)
	}
	got = SelectReports(comms, reports, 1, 0, false)
	if got[0].Weight != 4 || got[1].Weight != 2 {
		t.Errorf("raw weights = %v, %v; want 4 and 2", got[0].Weight, got[1].Weight)
	}
	// A community without a report is skipped.
	delete(reports, "s2")
	if got := SelectReports(comms, reports, 1, 0, true); !slices.Equal(ids(got), []string{"1"}) {
		t.Errorf("without report s2: %v", ids(got))
	}
}

func TestParseMapPoints(t *testing.T) {
	for _, tc := range []struct {
		name   string
		raw    string
		ok     bool
		scores []float64
		refs   [][]string
	}{
		{"plain", `{"points":[{"description":"A [Data: Reports (1, 5, +more)]","score":80},{"description":"B","score":0}]}`, true,
			[]float64{80, 0}, [][]string{{"1", "5"}, nil}},
		{"fenced", "```json\n{\"points\":[{\"description\":\"C [Data: Reports (7)]\",\"score\":150}]}\n```", true, []float64{100}, [][]string{{"7"}}},
		{"negative", `{"points":[{"description":"D","score":-3}]}`, true, []float64{0}, [][]string{nil}},
		{"not json", `I think the answer is 42.`, false, []float64{0}, [][]string{nil}},
		{"truncated", `{"points":[{"description":"E","sco`, false, []float64{0}, [][]string{nil}},
		{"no points", `{"answer":"x"}`, false, []float64{0}, [][]string{nil}},
		{"empty", ``, false, []float64{0}, [][]string{nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps, ok := ParseMapPoints([]byte(tc.raw), 3)
			if ok != tc.ok || len(ps) != len(tc.scores) {
				t.Fatalf("ok %v, %d points; want %v, %d", ok, len(ps), tc.ok, len(tc.scores))
			}
			for i, p := range ps {
				if p.Score != tc.scores[i] || p.Analyst != 3 || !slices.Equal(p.ReportIDs, tc.refs[i]) {
					t.Errorf("point %d = %+v, want score %v refs %v", i, p, tc.scores[i], tc.refs[i])
				}
			}
		})
	}
}

func TestPackPoints(t *testing.T) {
	c := tokens.O200k
	points := []Point{
		{Description: "low", Score: 10, Analyst: 1},
		{Description: "zero", Score: 0, Analyst: 1},
		{Description: "high", Score: 90, Analyst: 2},
		{Description: "", Score: 50, Analyst: 2},
		{Description: "mid", Score: 50, Analyst: 3},
	}
	text, used := PackPoints(points, c, 10_000)
	var got []string
	for _, p := range used {
		got = append(got, p.Description)
	}
	if !slices.Equal(got, []string{"high", "mid", "low"}) {
		t.Fatalf("packed %v, want high, mid, low (score <= 0 and empty dropped, best first)", got)
	}
	want := "----Analyst 2----\nImportance Score: 90\nhigh\n\n----Analyst 3----\nImportance Score: 50\nmid\n\n----Analyst 1----\nImportance Score: 10\nlow"
	if text != want {
		t.Fatalf("text = %q\nwant %q", text, want)
	}
	first := c.Count("----Analyst 2----\nImportance Score: 90\nhigh") + 2
	if _, used := PackPoints(points, c, first); len(used) != 1 {
		t.Fatalf("budget for one block packed %d", len(used))
	}
	if text, used := PackPoints([]Point{{Description: "x", Score: 0}}, c, 100); text != "" || used != nil {
		t.Fatalf("only zero scores: %q %v, want nothing (the no-data reply)", text, used)
	}
}

func TestReportContextBudget(t *testing.T) {
	ents := map[string]store.GraphEntity{
		"a": {ID: "a", Name: "Alpha", Description: "first | piped\nline", Degree: 1},
		"b": {ID: "b", Name: "Beta", Description: strings.Repeat("long ", 200), Degree: 3},
	}
	rels := map[string]store.GraphRelationship{"r": {ID: "r", Source: "a", Target: "b", Description: "linked", Weight: 2}}
	c := store.GraphCommunity{EntityIDs: []string{"a", "b"}, RelationshipIDs: []string{"r"}}
	text, listed := ReportContext(c, ents, rels, tokens.O200k, 10_000)
	if len(listed) != 2 || listed[0].ID != "b" {
		t.Fatalf("listed %v, want b (degree 3) first", listed)
	}
	if !strings.Contains(text, `a|Alpha|first / piped\nline|1`) || !strings.Contains(text, "r|Alpha|Beta|linked|2") {
		t.Fatalf("context = %q", text)
	}
	small, listed := ReportContext(c, ents, rels, tokens.O200k, 60)
	if tokens.Count(small) > 60 || len(listed) != 0 {
		t.Fatalf("budget 60: %d tokens, %d entities listed", tokens.Count(small), len(listed))
	}
}

func TestNewReportClamps(t *testing.T) {
	var fs []ai.GraphFinding
	for i := range 12 {
		fs = append(fs, ai.GraphFinding{Summary: fmt.Sprint(i)})
	}
	r := NewReport(ai.GraphReport{Title: " T ", Rating: 14, Findings: fs}, "openai")
	if r.Rank != 10 || len(r.Findings) != 10 || r.Title != "T" || r.Provider != "openai" {
		t.Fatalf("NewReport = %+v", r)
	}
	if r := NewReport(ai.GraphReport{Rating: -1}, "x"); r.Rank != 0 || r.Findings == nil {
		t.Fatalf("negative rating: %+v", r)
	}
}

func TestDriftHelpers(t *testing.T) {
	folds := DriftFolds(views(7), 5)
	if len(folds) != 4 || len(folds[0]) != 2 || len(folds[3]) != 1 {
		t.Fatalf("7 reports in 5 folds: %d folds (%d, …, %d)", len(folds), len(folds[0]), len(folds[len(folds)-1]))
	}
	answers := []DriftAnswer{
		{Score: 10, FollowUps: []string{"low one", "Shared"}},
		{Score: 90, FollowUps: []string{"high one", "shared ", "asked before"}},
	}
	got := NextFollowUps(answers, []string{"Asked Before"}, 3)
	if !slices.Equal(got, []string{"high one", "shared", "low one"}) {
		t.Fatalf("NextFollowUps = %v", got)
	}
}
