// Package rendertest holds the fixtures shared by the renderers' golden
// tests (internal/render's --json goldens and internal/render/alfred's
// Script Filter goldens render the same outcomes), and the golden-file
// check. Imported by tests only.
package rendertest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// Golden compares got with testdata/name, or rewrites it when update is
// set; pkg names the package for the hint (go test PKG -update).
func Golden(t *testing.T, pkg, name string, got []byte, update bool) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test %s -update to create it)", err, pkg)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the golden file (go test %s -update rewrites it):\n--- got\n%s\n--- want\n%s", name, pkg, got, want)
	}
}

// Fixture files: a Drive presentation and a local Japanese PDF.
var (
	When = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)
	FQ3  = store.File{ID: "1AbCdEf", Name: "Q3 roadmap", Summary: "Roadmap for Q3:\nlaunch <beta> & pricing.", MimeType: "application/vnd.google-apps.presentation",
		WebLink: "https://docs.google.com/presentation/d/1AbCdEf/edit", Path: "Projects/Alpha", ModifiedAt: When, Source: "drive"}
	FMinutes = store.File{ID: "loc-9f8e", Name: "議事録 2024-05.pdf", Summary: "5月の定例会の議事録。予算と採用について。", MimeType: "application/pdf",
		WebLink: "file:///Users/me/Docs/%E8%AD%B0%E4%BA%8B%E9%8C%B2%202024-05.pdf", Path: "Docs", ModifiedAt: When.Add(-48 * time.Hour), Source: "local"}
)

// RoundsOf are rounds that took branches, with made-up hit counts.
func RoundsOf(branches ...search.Branch) []search.Round {
	var out []search.Round
	for i, b := range branches {
		out = append(out, search.Round{Loop: i + 1, Hits: []int{240, 37, 2, 0, 0}[i%5], Branch: b,
			Conditions: search.Conditions{Keywords: []string{"roadmap", "Q3"}, Filters: ai.Filters{FileType: "presentation"}}})
	}
	return out
}

// Outcomes are one search outcome per end: results, not_found, loop_cap,
// question.
func Outcomes() map[string]search.Outcome {
	st := func(end search.End, rounds ...search.Branch) search.State {
		s := search.NewState("Q3 roadmap slides", "en", When, 5)
		s.End, s.Rounds, s.Loop = end, RoundsOf(rounds...), len(rounds)
		return s
	}
	q := &ai.Question{Question: "Which kind of file?", Choices: []ai.Choice{
		{Label: "Slides (42)", Filters: ai.Filters{FileType: "presentation"}},
		{Label: "2024", Filters: ai.Filters{ModifiedAfter: "2024-01-01", ModifiedBefore: "2025-01-01"}},
		{Label: "budget", Keyword: "budget"},
	}}
	loosened := st(search.EndResults, search.BranchRelax, search.BranchRerank)
	loosened.Loosened = []search.Loosening{
		{Kind: search.LoosenPeriod, From: "2025-01-01..2026-01-01", FileType: "pdf"},
		{Kind: search.LoosenKeyword, From: "roadmap"},
	}
	unmatched := st(search.EndResults, search.BranchNarrow, search.BranchRerank)
	unmatched.Words = []string{"Q3", "roadmap", "zqxjvw"}
	unmatched.Unmatched = []search.Unmatched{{Word: "zqxjvw"}}
	nothing := st(search.EndNotFound)
	nothing.Words = []string{"zqxjvw"}
	nothing.Unmatched = []search.Unmatched{{Word: "zqxjvw"}}
	corrected := st(search.EndResults, search.BranchRerank)
	corrected.Query = "Q3 roadmap slieds"
	corrected.Words = []string{"Q3", "roadmap", "slieds"}
	corrected.Unmatched = []search.Unmatched{{Word: "slieds", Suggestion: "slides"}}
	pending := st(search.EndNone, search.BranchClarify)
	pending.Question = q
	return map[string]search.Outcome{
		"results":   {Provider: "offline", State: st(search.EndResults, search.BranchNarrow, search.BranchRerank), Results: []search.Result{{File: FQ3, Score: 0.87654321}, {File: FMinutes, Score: 0.5}}},
		"not_found": {Provider: "offline", State: st(search.EndNotFound, search.BranchRelax, search.BranchNotFound)},
		"loop_cap":  {Provider: "openai", State: st(search.EndLoopCap, search.BranchClarify, search.BranchNarrow, search.BranchLoopCap)},
		"question":  {Provider: "offline", State: pending, Pending: q},
		// A search that dropped the period and a keyword read from the query.
		"loosened": {Provider: "offline", State: loosened, Results: []search.Result{{File: FQ3, Score: 0.5}}},
		// A search that found files for the query's other words, and one
		// none of whose words any file holds.
		"unmatched":       {Provider: "offline", State: unmatched, Results: []search.Result{{File: FQ3, Score: 0.5}}},
		"nothing_matched": {Provider: "offline", State: nothing},
		// A word one letter from a term of the index, searched as that term.
		"corrected": {Provider: "offline", State: corrected, Results: []search.Result{{File: FQ3, Score: 0.5}}},
		// The best results each miss one of the most specific words.
		"partial": {Provider: "offline", State: st(search.EndResults, search.BranchRerank), Partial: []string{"Q3"},
			Results: []search.Result{{File: FQ3, Score: 0.5, Missing: []string{"Q3"}}, {File: FMinutes, Score: 0.4, Missing: []string{"Q3", "roadmap"}}}},
	}
}

// FakeToken stands for a state token in goldens.
const FakeToken = "g1.TOKEN-for-golden_tests"
