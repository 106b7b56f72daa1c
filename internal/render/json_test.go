package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// updateGolden rewrites testdata/*.golden: go test ./internal/render -update
var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *updateGolden {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/render -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the golden file (go test ./internal/render -update rewrites it):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

var (
	when = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)
	fQ3  = store.File{ID: "1AbCdEf", Name: "Q3 roadmap", Summary: "Roadmap for Q3:\nlaunch <beta> & pricing.", MimeType: "application/vnd.google-apps.presentation",
		WebLink: "https://docs.google.com/presentation/d/1AbCdEf/edit", Path: "Projects/Alpha", ModifiedAt: when, Source: "drive"}
	fMinutes = store.File{ID: "loc-9f8e", Name: "議事録 2024-05.pdf", Summary: "5月の定例会の議事録。予算と採用について。", MimeType: "application/pdf",
		WebLink: "file:///Users/me/Docs/%E8%AD%B0%E4%BA%8B%E9%8C%B2%202024-05.pdf", Path: "Docs", ModifiedAt: when.Add(-48 * time.Hour), Source: "local"}
)

func roundsOf(branches ...search.Branch) []search.Round {
	var out []search.Round
	for i, b := range branches {
		out = append(out, search.Round{Loop: i + 1, Hits: []int{240, 37, 2, 0, 0}[i%5], Branch: b,
			Conditions: search.Conditions{Keywords: []string{"roadmap", "Q3"}, Filters: ai.Filters{FileType: "presentation"}}})
	}
	return out
}

func outcomes() map[string]search.Outcome {
	st := func(end search.End, rounds ...search.Branch) search.State {
		s := search.NewState("Q3 roadmap slides", "en", when, 5)
		s.End, s.Rounds, s.Loop = end, roundsOf(rounds...), len(rounds)
		return s
	}
	q := &ai.Question{Question: "Which kind of file?", Choices: []ai.Choice{
		{Label: "Slides (42)", Filters: ai.Filters{FileType: "presentation"}},
		{Label: "2024", Filters: ai.Filters{ModifiedAfter: "2024-01-01", ModifiedBefore: "2025-01-01"}},
		{Label: "budget", Keyword: "budget"},
	}}
	pending := st(search.EndNone, search.BranchClarify)
	pending.Question = q
	return map[string]search.Outcome{
		"results":   {Provider: "offline", State: st(search.EndResults, search.BranchNarrow, search.BranchRerank), Results: []search.Result{{File: fQ3, Score: 0.87654321}, {File: fMinutes, Score: 0.5}}},
		"not_found": {Provider: "offline", State: st(search.EndNotFound, search.BranchRelax, search.BranchNotFound)},
		"loop_cap":  {Provider: "openai", State: st(search.EndLoopCap, search.BranchClarify, search.BranchNarrow, search.BranchLoopCap)},
		"question":  {Provider: "offline", State: pending, Pending: q},
	}
}

const fakeToken = "g1.TOKEN-for-golden_tests"

func TestSearchJSONGolden(t *testing.T) {
	for name, out := range outcomes() {
		for _, lang := range []string{i18n.En, i18n.Ja} {
			t.Run(name+"-"+lang, func(t *testing.T) {
				var buf bytes.Buffer
				if err := WriteJSON(&buf, NewSearchDoc(out, fakeToken, 10, lang)); err != nil {
					t.Fatal(err)
				}
				golden(t, "search-"+name+"-"+lang+".json.golden", buf.Bytes())
			})
		}
	}
}

func TestSearchJSONShape(t *testing.T) {
	outs := outcomes()
	doc := NewSearchDoc(outs["results"], fakeToken, 1, i18n.En)
	if len(doc.Results) != 1 || doc.Results[0].ID != fQ3.ID || doc.State != "" || doc.Question != nil {
		t.Fatalf("limit 1 results doc = %+v", doc)
	}
	if doc.Results[0].ModifiedTime != "2026-03-14T09:26:53Z" || doc.Results[0].Score != 0.8765 {
		t.Fatalf("result = %+v", doc.Results[0])
	}
	q := NewSearchDoc(outs["question"], fakeToken, 10, i18n.En)
	if q.End != JSONEndQuestion || q.State != fakeToken || len(q.Question.Choices) != 3 || q.Question.Choices[2].Number != 3 || q.Question.Choices[2].Keyword != "budget" {
		t.Fatalf("question doc = %+v", q)
	}
	nf := NewSearchDoc(outs["not_found"], fakeToken, 10, i18n.Ja)
	if nf.End != JSONEndNotFound || nf.Message != "見つかりませんでした" || nf.State != "" {
		t.Fatalf("not found doc = %+v", nf)
	}
	lc := NewSearchDoc(outs["loop_cap"], "", 10, i18n.En)
	if lc.End != JSONEndLoopCap || lc.Message != i18n.T(i18n.En, i18n.LoopLimitReached, 5) {
		t.Fatalf("loop cap doc = %+v", lc)
	}
	// A full-text fallback says so in fallback and message, in the user's language.
	fb := outs["results"]
	fb.State.FullText = true
	if d := NewSearchDoc(fb, "", 10, i18n.Ja); d.End != JSONEndResults || d.Fallback != JSONFallbackFullText || d.Message != i18n.T(i18n.Ja, "search.fulltext_fallback") || len(d.Results) == 0 {
		t.Fatalf("full-text fallback doc = %+v", d)
	}
	if doc.Fallback != "" || doc.Message != "" {
		t.Fatalf("plain results carry a fallback: %+v", doc)
	}
	// Every documented top-level field is always present (stable schema).
	var m map[string]any
	b, _ := json.Marshal(nf)
	json.Unmarshal(b, &m)
	for _, k := range []string{"provider", "query", "end", "message", "results", "rounds"} {
		if _, ok := m[k]; !ok {
			t.Errorf("field %q missing from %s", k, b)
		}
	}
	if _, ok := m["question"]; ok {
		t.Errorf("question present without a pending question: %s", b)
	}
}

func TestErrorJSONGolden(t *testing.T) {
	var buf bytes.Buffer
	doc := ErrorDoc{Error: JSONError{Code: "no_index", Message: "the index is empty: run `gds crawl` first", Hint: "run `gds doctor` to check your setup"}}
	if err := WriteJSON(&buf, doc); err != nil {
		t.Fatal(err)
	}
	golden(t, "search-error.json.golden", buf.Bytes())
	var back ErrorDoc
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || !reflect.DeepEqual(back, doc) {
		t.Fatalf("round trip: %v %+v", err, back)
	}
}

// A degraded outcome lists its notices under "degraded"; a healthy one
// has no such field (the document is unchanged).
func TestSearchDocDegraded(t *testing.T) {
	out := search.Outcome{State: search.State{Query: "q", End: search.EndNotFound}}
	b, _ := json.Marshal(NewSearchDoc(out, "", 10, i18n.En))
	if strings.Contains(string(b), "degraded") {
		t.Errorf("healthy document has a degraded field: %s", b)
	}
	out.Degraded = []budget.Notice{{Service: budget.Drive, Reason: budget.CauseTimeout, Fallback: budget.FallbackIndex, Limit: 2 * time.Second}}
	doc := NewSearchDoc(out, "", 10, i18n.En)
	if len(doc.Degraded) != 1 || doc.Degraded[0] != (JSONDegraded{Service: "drive", Reason: "timeout", Fallback: "local_index",
		Message: "Drive did not answer within 2s; searched the local index"}) {
		t.Errorf("degraded = %+v", doc.Degraded)
	}
}
