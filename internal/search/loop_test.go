package search

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
)

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("f%03d", i)
	}
	return out
}

// searched returns a state that has analysed kws and run its first search.
func searched(t *testing.T, maxLoops int, kws []string, f ai.Filters, hits int) (State, Action) {
	t.Helper()
	s := NewState("q", "en", time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), maxLoops)
	s, a := Next(s, Event{Kind: EvStart})
	if a.Kind != ActAnalyze {
		t.Fatalf("start: action %v", a.Kind)
	}
	s, a = Next(s, Event{Kind: EvAnalyzed, Analysis: ai.QueryAnalysis{Keywords: kws, Filters: f}})
	if a.Kind != ActSearch || s.Loop != 1 {
		t.Fatalf("analysed: action %v loop %d", a.Kind, s.Loop)
	}
	h := ids(min(hits, NoAnswerKeep))
	return Next(s, Event{Kind: EvSearched, Hits: h, Total: hits})
}

func TestBranchesOnHitCount(t *testing.T) {
	period := ai.Filters{ModifiedAfter: "2026-10-01", ModifiedBefore: "2026-11-01"}
	tests := []struct {
		name     string
		maxLoops int
		kws      []string
		filters  ai.Filters
		hits     int
		action   ActionKind
		branch   Branch
		end      End
		nIDs     int
	}{
		{"101 asks", 5, []string{"a"}, ai.Filters{}, 101, ActClarify, BranchClarify, EndNone, 100},
		{"5000 asks", 5, []string{"a"}, ai.Filters{}, 5000, ActClarify, BranchClarify, EndNone, 100},
		{"100 narrows", 5, []string{"a"}, ai.Filters{}, 100, ActNarrow, BranchNarrow, EndNone, 100},
		{"11 narrows", 5, []string{"a"}, ai.Filters{}, 11, ActNarrow, BranchNarrow, EndNone, 11},
		{"10 reranks", 5, []string{"a"}, ai.Filters{}, 10, ActRerank, BranchRerank, EndNone, 10},
		{"2 reranks", 5, []string{"a"}, ai.Filters{}, 2, ActRerank, BranchRerank, EndNone, 2},
		{"1 shows", 5, []string{"a"}, ai.Filters{}, 1, ActStop, BranchSingle, EndResults, 0},
		{"0 with two keywords relaxes", 5, []string{"a", "b"}, ai.Filters{}, 0, ActRelax, BranchRelax, EndNone, 0},
		{"0 with one keyword and a filter relaxes", 5, []string{"a"}, period, 0, ActRelax, BranchRelax, EndNone, 0},
		{"0 with one keyword: not found", 5, []string{"a"}, ai.Filters{}, 0, ActStop, BranchNotFound, EndNotFound, 0},
		{"cap with 101: limit message", 1, []string{"a"}, ai.Filters{}, 101, ActStop, BranchLoopCap, EndLoopCap, 0},
		{"cap with 11: limit message", 1, []string{"a"}, ai.Filters{}, 11, ActStop, BranchLoopCap, EndLoopCap, 0},
		{"cap with 10: rerank", 1, []string{"a"}, ai.Filters{}, 10, ActRerank, BranchRerank, EndNone, 10},
		{"cap with 1: show", 1, []string{"a"}, ai.Filters{}, 1, ActStop, BranchSingle, EndResults, 0},
		{"cap with 0: not found", 1, []string{"a", "b"}, ai.Filters{}, 0, ActStop, BranchNotFound, EndNotFound, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, a := searched(t, tt.maxLoops, tt.kws, tt.filters, tt.hits)
			if a.Kind != tt.action {
				t.Errorf("action %v, want %v", a.Kind, tt.action)
			}
			if got := s.Rounds[len(s.Rounds)-1]; got.Branch != tt.branch || got.Hits != tt.hits {
				t.Errorf("round %+v, want branch %s hits %d", got, tt.branch, tt.hits)
			}
			if s.End != tt.end {
				t.Errorf("end %q, want %q", s.End, tt.end)
			}
			if len(a.IDs) != tt.nIDs {
				t.Errorf("%d ids in action, want %d", len(a.IDs), tt.nIDs)
			}
			if tt.branch == BranchSingle && !reflect.DeepEqual(s.Results, []string{"f000"}) {
				t.Errorf("results %v", s.Results)
			}
		})
	}
}

func TestClarifyAnswerLoop(t *testing.T) {
	s, a := searched(t, 5, []string{"report"}, ai.Filters{}, 500)
	q := ai.Question{Question: "Which type?", Choices: []ai.Choice{
		{Label: "PDF (300)", Filters: ai.Filters{FileType: ai.FileTypePDF}},
		{Label: "alpha (120)", Keyword: "alpha"},
		{Label: "Sales (80)", Filters: ai.Filters{Folder: "Sales"}},
	}}
	s, a = Next(s, Event{Kind: EvClarified, Question: q})
	if a.Kind != ActAsk || !s.Waiting() {
		t.Fatalf("clarified: %v waiting=%v", a.Kind, s.Waiting())
	}
	// A numbered choice applies its filter directly and searches again.
	s2, a2 := Next(s, Event{Kind: EvAnswered, Answer: Answer{Choice: 0}})
	if a2.Kind != ActSearch || s2.Loop != 2 || a2.Cond.Filters.FileType != ai.FileTypePDF || s2.Waiting() {
		t.Errorf("choice 0: %v %+v loop %d", a2.Kind, a2.Cond, s2.Loop)
	}
	// A keyword choice becomes a required keyword.
	_, a3 := Next(s, Event{Kind: EvAnswered, Answer: Answer{Choice: 1}})
	if !reflect.DeepEqual(a3.Cond.Required, []string{"alpha"}) || !reflect.DeepEqual(a3.Cond.Keywords, []string{"report"}) {
		t.Errorf("choice 1: %+v", a3.Cond)
	}
	// A folder choice applies the folder filter.
	if _, a := Next(s, Event{Kind: EvAnswered, Answer: Answer{Choice: 2}}); a.Kind != ActSearch || a.Cond.Filters != (ai.Filters{Folder: "Sales"}) {
		t.Errorf("folder choice: %v %+v", a.Kind, a.Cond)
	}
	// Free text goes through the AI.
	s4, a4 := Next(s, Event{Kind: EvAnswered, Answer: Answer{Choice: -1, Text: " the one from March "}})
	if a4.Kind != ActRefine || a4.Answer != "the one from March" {
		t.Fatalf("free text: %v %q", a4.Kind, a4.Answer)
	}
	s5, a5 := Next(s4, Event{Kind: EvRefined, Refinement: ai.Refinement{Filters: ai.Filters{ModifiedAfter: "2026-03-01", ModifiedBefore: "2026-04-01"}}})
	if a5.Kind != ActSearch || a5.Cond.Filters.ModifiedAfter != "2026-03-01" || s5.Loop != 2 {
		t.Errorf("refined: %v %+v", a5.Kind, a5.Cond)
	}
	// A refinement that yields nothing uses the answer text as a keyword.
	_, a6 := Next(s4, Event{Kind: EvRefined})
	if !reflect.DeepEqual(a6.Cond.Required, []string{"the one from March"}) {
		t.Errorf("empty refinement: required %v", a6.Cond.Required)
	}
	// An empty answer follows the no-answer policy: narrow the top 100.
	s7, a7 := Next(s, Event{Kind: EvAnswered, Answer: Answer{Choice: -1, Text: "  "}})
	if a7.Kind != ActNarrow || len(a7.IDs) != NoAnswerKeep || s7.Rounds[0].Branch != BranchNoAnswer {
		t.Errorf("no answer: %v %d %+v", a7.Kind, len(a7.IDs), s7.Rounds)
	}
}

func TestNarrowCountsAsNextLoop(t *testing.T) {
	s, a := searched(t, 5, []string{"a"}, ai.Filters{}, 40)
	if a.Kind != ActNarrow {
		t.Fatal(a.Kind)
	}
	s, a = Next(s, Event{Kind: EvNarrowed, Hits: ids(10)})
	if a.Kind != ActRerank || s.Loop != 2 || len(s.Rounds) != 2 || s.Rounds[1].Hits != 10 || s.Rounds[1].Branch != BranchRerank {
		t.Fatalf("narrowed: %v loop %d rounds %+v", a.Kind, s.Loop, s.Rounds)
	}
	s, a = Next(s, Event{Kind: EvReranked, Hits: []string{"f003", "f001"}})
	if a.Kind != ActStop || s.End != EndResults || !reflect.DeepEqual(s.Results, []string{"f003", "f001"}) {
		t.Fatalf("reranked: %v %+v", a.Kind, s)
	}
	// One survivor is shown as is.
	s, _ = searched(t, 5, []string{"a"}, ai.Filters{}, 40)
	s, a = Next(s, Event{Kind: EvNarrowed, Hits: ids(1)})
	if a.Kind != ActStop || s.End != EndResults || len(s.Results) != 1 {
		t.Fatalf("single survivor: %v %+v", a.Kind, s)
	}
}

func TestRelaxation(t *testing.T) {
	pdfMarch := ai.Filters{FileType: ai.FileTypePDF, ModifiedAfter: "2026-03-01", ModifiedBefore: "2026-04-01"}
	tests := []struct {
		name  string
		kws   []string
		f     ai.Filters
		relax ai.Relaxation
		want  Conditions
		end   End
	}{
		{"AI drops a keyword", []string{"a", "b", "c"}, ai.Filters{}, ai.Relaxation{Keywords: []string{"a", "c"}},
			Conditions{Keywords: []string{"a", "c"}}, EndNone},
		{"AI widens the period", []string{"a"}, pdfMarch, ai.Relaxation{Keywords: []string{"a"}, Filters: ai.Filters{FileType: ai.FileTypePDF, ModifiedAfter: "2026-01-01"}},
			Conditions{Keywords: []string{"a"}, Filters: ai.Filters{FileType: ai.FileTypePDF, ModifiedAfter: "2026-01-01"}}, EndNone},
		{"AI adds a keyword: forced drop instead", []string{"a", "b"}, ai.Filters{}, ai.Relaxation{Keywords: []string{"a", "b", "z"}},
			Conditions{Keywords: []string{"a"}}, EndNone},
		{"AI changes nothing: forced period drop", []string{"a"}, pdfMarch, ai.Relaxation{Keywords: []string{"a"}, Filters: pdfMarch},
			Conditions{Keywords: []string{"a"}, Filters: ai.Filters{FileType: ai.FileTypePDF}}, EndNone},
		{"AI widens the folder to its parent", []string{"a"}, ai.Filters{Folder: "Sales/Tokyo"}, ai.Relaxation{Keywords: []string{"a"}, Filters: ai.Filters{Folder: "Sales"}},
			Conditions{Keywords: []string{"a"}, Filters: ai.Filters{Folder: "Sales"}}, EndNone},
		{"AI moves to another folder: forced folder drop", []string{"a"}, ai.Filters{Folder: "Sales/Tokyo"}, ai.Relaxation{Keywords: []string{"a"}, Filters: ai.Filters{Folder: "Legal"}},
			Conditions{Keywords: []string{"a"}}, EndNone},
		{"AI narrows the folder: forced folder drop", []string{"a"}, ai.Filters{Folder: "Sales"}, ai.Relaxation{Keywords: []string{"a"}, Filters: ai.Filters{Folder: "Sales/Tokyo"}},
			Conditions{Keywords: []string{"a"}}, EndNone},
		{"AI narrows the period: forced drop", []string{"a"}, pdfMarch, ai.Relaxation{Keywords: []string{"a"}, Filters: ai.Filters{FileType: ai.FileTypePDF, ModifiedAfter: "2026-03-10", ModifiedBefore: "2026-04-01"}},
			Conditions{Keywords: []string{"a"}, Filters: ai.Filters{FileType: ai.FileTypePDF}}, EndNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, a := searched(t, 5, tt.kws, tt.f, 0)
			if a.Kind != ActRelax {
				t.Fatalf("action %v", a.Kind)
			}
			s, a = Next(s, Event{Kind: EvRelaxed, Relaxation: tt.relax})
			if s.End != tt.end {
				t.Fatalf("end %q", s.End)
			}
			if a.Kind != ActSearch || !reflect.DeepEqual(a.Cond, tt.want) || s.Loop != 2 {
				t.Errorf("got %v %+v loop %d, want search %+v", a.Kind, a.Cond, s.Loop, tt.want)
			}
		})
	}
}

// A whole run: 0 hits relaxes down to one keyword, which still finds
// nothing → not found; and a run that keeps finding ≥ 101 hits hits the cap.
func TestRunsToTheEnd(t *testing.T) {
	s, a := searched(t, 5, []string{"a", "b"}, ai.Filters{}, 0)
	s, a = Next(s, Event{Kind: EvRelaxed, Relaxation: ai.Relaxation{Keywords: []string{"a"}}})
	if a.Kind != ActSearch {
		t.Fatal(a.Kind)
	}
	s, a = Next(s, Event{Kind: EvSearched})
	if a.Kind != ActStop || s.End != EndNotFound || len(s.Rounds) != 2 {
		t.Fatalf("%v %+v", a.Kind, s)
	}

	s, a = searched(t, 3, []string{"a"}, ai.Filters{}, 1000)
	for loop := 1; a.Kind == ActClarify; loop++ {
		if loop > 3 {
			t.Fatal("loop did not stop at the cap")
		}
		s, a = Next(s, Event{Kind: EvClarified, Question: ai.Question{Question: "?", Choices: []ai.Choice{{Label: "x", Keyword: fmt.Sprint("k", loop)}}}})
		s, a = Next(s, Event{Kind: EvAnswered, Answer: Answer{Choice: 0}})
		s, a = Next(s, Event{Kind: EvSearched, Hits: ids(100), Total: 900})
	}
	if s.End != EndLoopCap || s.Loop != 3 || len(s.Rounds) != 3 || len(s.Cond.Required) != 2 {
		t.Fatalf("cap: %+v", s)
	}
}

func TestEmptyAnalysisFallsBackToQuery(t *testing.T) {
	s := NewState(" 何か ", "ja", time.Now(), 5)
	_, a := Next(s, Event{Kind: EvAnalyzed})
	if a.Kind != ActSearch || !reflect.DeepEqual(a.Cond.Keywords, []string{"何か"}) {
		t.Errorf("%v %+v", a.Kind, a.Cond)
	}
	// Filters alone are a valid search.
	_, a = Next(s, Event{Kind: EvAnalyzed, Analysis: ai.QueryAnalysis{Filters: ai.Filters{FileType: ai.FileTypePDF}}})
	if len(a.Cond.Keywords) != 0 || a.Cond.Filters.FileType != ai.FileTypePDF {
		t.Errorf("%+v", a.Cond)
	}
}

// Compounds: a query whose only keyword is a long compound
// (country name + 最大都市, country + 経済, two country names run together).
func TestSplitCompound(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"フランス最大都市", []string{"フランス", "最大", "都市"}},
		{"ドイツ経済", []string{"ドイツ", "経済"}},
		{"日本経済", []string{"日本", "経済"}},
		{"中国韓国", []string{"中国", "韓国"}},
		{"オーストリアハンガリー", []string{"オーストリアハンガリー"}}, // one katakana run: no boundary to see
		{"第41回総選挙", []string{"第41回", "総選挙"}},
		{"営業2部報告書", []string{"営業", "2部", "報告書"}},
		{"Windows11対応", []string{"Windows11", "対応"}},
		{"東京都", []string{"東京都"}},
		{"議事録", []string{"議事録"}},
		{"roadmap", []string{"roadmap"}},
		{"国", []string{"国"}},
	} {
		if got := SplitCompound(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("SplitCompound(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// When relaxation has nothing left (one keyword, no filter) and that
// keyword is a compound, the loop searches its parts before giving up; a
// keyword with no parts still ends "not found".
func TestCompoundSplitWhenRelaxationRunsOut(t *testing.T) {
	s, a := searched(t, 5, []string{"フランス最大都市"}, ai.Filters{}, 0)
	if a.Kind != ActSearch || !reflect.DeepEqual(a.Cond.Keywords, []string{"フランス", "最大", "都市"}) {
		t.Fatalf("action %v %+v, want a search for the parts", a.Kind, a.Cond)
	}
	if s.LastBranch() != BranchRelax || s.Loop != 2 {
		t.Errorf("branch %q loop %d", s.LastBranch(), s.Loop)
	}
	// The parts find nothing either: ordinary relaxation drops them.
	s, a = Next(s, Event{Kind: EvSearched, Total: 0})
	if a.Kind != ActRelax {
		t.Fatalf("parts found nothing: action %v, want relax", a.Kind)
	}
	_ = s

	// A filter left: it is loosened first (relaxation has not run out).
	_, a = searched(t, 5, []string{"日本経済"}, ai.Filters{FileType: ai.FileTypePDF}, 0)
	if a.Kind != ActRelax {
		t.Errorf("with a filter: action %v, want relax", a.Kind)
	}
	// Nothing to split: not found.
	s, a = searched(t, 5, []string{"議事録"}, ai.Filters{}, 0)
	if a.Kind != ActStop || s.End != EndNotFound {
		t.Errorf("unsplittable: action %v end %q", a.Kind, s.End)
	}
	// At the loop cap nothing more is searched.
	s, a = searched(t, 1, []string{"日本経済"}, ai.Filters{}, 0)
	if a.Kind != ActStop || s.End != EndNotFound {
		t.Errorf("at the cap: action %v end %q", a.Kind, s.End)
	}
}
