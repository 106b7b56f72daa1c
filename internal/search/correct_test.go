package search

import (
	"slices"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

func spellings(cs []Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Spelling)
	}
	return out
}

func TestCandidates(t *testing.T) {
	for _, c := range []struct {
		word    string
		has     []string // among the candidates
		hasNot  []string
		count   int // -1: any
		firstIs string
	}{
		// Every kind of one edit: swap, substitute, drop, add.
		// engnies searches as engnie does (both stem to engni): left out.
		{"engnie", []string{"engine", "engnee", "ennie", "engnei", "enginie"}, []string{"engnie", "engnies"}, -1, "negnie"},
		{"reapir", []string{"repair"}, nil, -1, ""},
		{"estmate", []string{"estimate", "estate"}, nil, -1, ""},
		// Case and accents do not matter.
		{"Efficency", []string{"efficiency"}, nil, -1, ""},
		// Too short, digits, mixed: not corrected.
		{"cat", nil, nil, 0, ""},
		{"q3x9", nil, nil, 0, ""},
		// Kana variants the tokenizer keeps apart.
		{"サーバ", []string{"さーば", "サーバー"}, nil, -1, ""},
		{"サーバー", []string{"サーバ"}, nil, -1, ""},
		{"ばいおりん", []string{"バイオリン"}, nil, -1, ""},
		{"ヴァイオリン", []string{"バイオリン"}, nil, -1, ""},
		{"東京", nil, nil, 0, ""},
	} {
		got := spellings(Candidates(c.word))
		for _, w := range c.has {
			if !slices.Contains(got, w) {
				t.Errorf("Candidates(%q) lack %q", c.word, w)
			}
		}
		for _, w := range c.hasNot {
			if slices.Contains(got, w) {
				t.Errorf("Candidates(%q) hold %q", c.word, w)
			}
		}
		if c.count >= 0 && len(got) != c.count {
			t.Errorf("Candidates(%q): %d, want %d", c.word, len(got), c.count)
		}
		if c.firstIs != "" && (len(got) == 0 || got[0] != c.firstIs) {
			t.Errorf("Candidates(%q) start with %q, want %q (transpositions first)", c.word, got[:1], c.firstIs)
		}
	}
	// One candidate per search term: engine and engines are both kept
	// only if they search differently (they do not: both stem to engin).
	terms := map[string]bool{}
	for _, cand := range Candidates("engnes") {
		if terms[cand.Term] {
			t.Errorf("term %q twice", cand.Term)
		}
		terms[cand.Term] = true
	}
}

func TestPickCorrection(t *testing.T) {
	cands := []Candidate{{"estate", "estate"}, {"estimate", "estimate"}, {"estmates", "estmates"}}
	for _, c := range []struct {
		name   string
		df     map[string]int
		cooc   map[string]int
		want   string
		wantOK bool
	}{
		{"none held", map[string]int{}, nil, "", false},
		{"the one held", map[string]int{"estimate": 2}, nil, "estimate", true},
		{"more files win", map[string]int{"estate": 9, "estimate": 2}, nil, "estate", true},
		{"sharing files with the query's words wins", map[string]int{"estate": 9, "estimate": 2}, map[string]int{"estimate": 1}, "estimate", true},
		{"ties keep the first", map[string]int{"estate": 2, "estimate": 2}, nil, "estate", true},
	} {
		got, ok := PickCorrection(cands, c.df, c.cooc)
		if ok != c.wantOK || got.Spelling != c.want {
			t.Errorf("%s: PickCorrection = %q, %v; want %q, %v", c.name, got.Spelling, ok, c.want, c.wantOK)
		}
	}
}

func TestQuotedWords(t *testing.T) {
	for q, want := range map[string][]string{
		`steam "engnie" efficency`:   {"engnie"},
		`"reapir estmate" now`:       {"reapir", "estmate"},
		`“engnie” and "x`:            {"engnie"},
		`no quotes`:                  nil,
		`「東京」の人口`:                    nil,
		`reciprocating "engnie" "a"`: {"engnie", "a"},
	} {
		if got := QuotedWords(q); !slices.Equal(got, want) {
			t.Errorf("QuotedWords(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestSearchAndInsteadQuery(t *testing.T) {
	for _, c := range []struct {
		query, search, instead string
		unmatched              []Unmatched
	}{
		{"reciprocating engnie efficency", "reciprocating engine efficiency", `reciprocating "engnie" "efficency"`,
			[]Unmatched{{Word: "engnie", Suggestion: "engine"}, {Word: "efficency", Suggestion: "efficiency"}}},
		// Only corrected words change; a word named without a suggestion stays.
		// A word no file holds is left out of the search query.
		{"Engnie zqxjvw engnie", "Engine Engine", `"Engnie" zqxjvw "engnie"`,
			[]Unmatched{{Word: "Engnie", Suggestion: "Engine"}, {Word: "zqxjvw"}}},
		{"東京のさーばの場所", "東京のサーバーの場所", `東京の"さーば"の場所`, []Unmatched{{Word: "さーば", Suggestion: "サーバー"}}},
		{"nothing corrected", "nothing", "", []Unmatched{{Word: "corrected"}}},
		{"zqxjvw", "zqxjvw", "", []Unmatched{{Word: "zqxjvw"}}},
	} {
		s := State{Query: c.query, Unmatched: c.unmatched}
		if got := s.SearchQuery(); got != c.search {
			t.Errorf("SearchQuery(%q) = %q, want %q", c.query, got, c.search)
		}
		if got := s.InsteadQuery(); got != c.instead {
			t.Errorf("InsteadQuery(%q) = %q, want %q", c.query, got, c.instead)
		}
	}
}

func TestMatchCase(t *testing.T) {
	for _, c := range [][3]string{{"Tesal", "tesla", "Tesla"}, {"NSAA", "nasa", "NASA"}, {"engnie", "engine", "engine"}, {"さーば", "サーバー", "サーバー"}} {
		if got := MatchCase(c[0], c[1]); got != c[2] {
			t.Errorf("MatchCase(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// The correction is shown as the index's text writes it.
func TestSurfaceForm(t *testing.T) {
	c := Candidate{Spelling: "directic", Term: "directic"} // stems to direct
	passages := []store.ChunkHit{{Chunk: store.Chunk{Text: "The Direct line and the direction of the river, directed north."}}}
	if got := SurfaceForm("directio", c, passages); got != "direction" {
		t.Errorf("SurfaceForm = %q, want direction (nearest to directio among direct, direction, directed)", got)
	}
	if got := SurfaceForm("directio", c, nil); got != "directic" {
		t.Errorf("no passage: %q", got)
	}
}
