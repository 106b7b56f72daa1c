package postgres

import (
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

func TestBuildTSQuery(t *testing.T) {
	cases := []struct {
		terms []string
		mode  store.MatchMode
		want  string
	}{
		{[]string{"alpha"}, store.MatchAll, "('alpha')"},
		{[]string{"Alpha Beta", "gamma"}, store.MatchAll, "('alpha' <-> 'beta') & ('gamma')"},
		{[]string{"alpha", "gamma"}, store.MatchAny, "('alpha') | ('gamma')"},
		{[]string{"議事録"}, store.MatchAll, "('議事' <-> '事録')"},
		{[]string{"株"}, store.MatchAll, "('株':*)"},
		{[]string{"Q3 株"}, store.MatchAll, "('q3' <-> '株':*)"},
		{[]string{"%", `"`, "alpha"}, store.MatchAll, "('alpha')"},
		{[]string{"'; DROP TABLE x; --"}, store.MatchAll, "('drop' <-> 'tabl' <-> 'x')"}, // English words stemmed
		{[]string{"!", "&|"}, store.MatchAny, ""},
		{nil, store.MatchAny, ""},
	}
	for _, c := range cases {
		if got := buildTSQuery(c.terms, c.mode); got != c.want {
			t.Errorf("buildTSQuery(%q, %v) = %q, want %q", c.terms, c.mode, got, c.want)
		}
	}
}

func TestQuoteLexeme(t *testing.T) {
	for in, want := range map[string]string{
		"plain": "'plain'",
		"it's":  "'it''s'",
		`a\b`:   `'a\\b'`,
		`'\`:    `'''\\'`,
	} {
		if got := quoteLexeme(in); got != want {
			t.Errorf("quoteLexeme(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBuildTSVectorWeightsAndGaps(t *testing.T) {
	got := buildTSVector(store.File{
		Name:     "Roadmap Q3",
		Keywords: []string{"plan", "roadmap"},
		Summary:  "the plan",
		Text:     "roadmap text",
	})
	// name: roadmap 1, q3 2; gap; plan 4; gap; roadmap 6; gap;
	// summary: the 8, plan 9; gap; text: roadmap 11, text 12.
	want := "'plan':4A,9B 'q3':2A 'roadmap':1A,6A,11 'text':12 'the':8B"
	if got != want {
		t.Errorf("buildTSVector = %q, want %q", got, want)
	}
}

func TestBuildTSVectorLimits(t *testing.T) {
	// 20,000 distinct words push positions past 16,383: later words share
	// the last position, and a repeated word keeps at most 256 positions.
	var b strings.Builder
	for i := range 20000 {
		b.WriteString("w")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(" ")
	}
	got := buildTSVector(store.File{Text: b.String()})
	for _, lex := range strings.Split(got, " ") {
		_, pos, ok := strings.Cut(lex, ":")
		if !ok {
			t.Fatalf("lexeme %q has no positions", lex)
		}
		ps := strings.Split(pos, ",")
		if len(ps) > maxPosPerLex {
			t.Errorf("lexeme %q keeps %d positions, want at most %d", lex[:10], len(ps), maxPosPerLex)
		}
		seen := map[string]bool{}
		for _, p := range ps {
			if seen[p] {
				t.Errorf("lexeme has duplicate position %s", p)
			}
			seen[p] = true
		}
	}
	long := strings.Repeat("y", maxLexBytes+1)
	if got := buildTSVector(store.File{Text: "short " + long}); got != "'short':1" {
		t.Errorf("a word longer than Postgres allows should be skipped; got %q", got[:min(len(got), 40)])
	}
}
