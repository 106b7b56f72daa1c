package main

import (
	"slices"
	"strings"
	"testing"
)

func TestJudge(t *testing.T) {
	tests := []struct {
		name                 string
		a, b, got            string
		recall, precision    float64
		agreed, onlyA, onlyB int
		gotOnlyA, gotOnlyB   int
		missed, extra        []string
		unjudgeable          bool
	}{
		{
			name: "agreeing references", a: "one two three four", b: "one two three four", got: "one two four extra",
			recall: 0.75, precision: 0.75, agreed: 4, missed: []string{"three×1"}, extra: []string{"extra×1"},
		},
		{
			// pdftotext's split TeX logo is disputed, not missed; gds's
			// LaTeX is MuPDF's word, not extra.
			name: "a split logo", a: "L AT E X is a logo of a typesetting system by Lamport",
			b: "LATEX is a logo of a typesetting system by Lamport", got: "LaTeX is a logo of a typesetting system by Lamport",
			recall: 1, precision: 1, agreed: 9, onlyA: 4, onlyB: 1, gotOnlyB: 1,
		},
		{
			name: "a word neither holds", a: "alpha beta", b: "alpha gamma", got: "alpha delta",
			recall: 1, precision: 0.5, agreed: 1, onlyA: 1, onlyB: 1, extra: []string{"delta×1"},
		},
		{
			// Counts: both hold "the" twice, pdftotext a third time.
			name: "repeated words", a: "the the the end", b: "the the end", got: "the the the end",
			recall: 1, precision: 1, agreed: 3, onlyA: 1, gotOnlyA: 1,
		},
		{
			name: "a word both hold, gds twice", a: "word", b: "word", got: "word word",
			recall: 1, precision: 0.5, agreed: 1, extra: []string{"word×1"},
		},
		{
			name: "nothing agreed", a: "عربي", b: "العربية", got: "العربية",
			recall: 1, precision: 1, onlyA: 1, onlyB: 1, gotOnlyB: 1, unjudgeable: true,
		},
		{
			name: "a word one reference holds reversed: found, its orientation counted apart", a: "ةيبرعلا", b: "العربية", got: "العربية",
			recall: 1, precision: 1, agreed: 1,
		},
		{
			name: "agreeing on half", a: "one two three four", b: "one two five six", got: "one two three four",
			recall: 1, precision: 1, agreed: 2, onlyA: 2, onlyB: 2, gotOnlyA: 2,
		},
		{
			name: "agreeing on less than half", a: "one two three four five", b: "one two six", got: "one two",
			recall: 1, precision: 1, agreed: 2, onlyA: 3, onlyB: 1, unjudgeable: true,
		},
		{
			name: "a combining mark after a space", a: "الر ّ حمن", b: "الرّ حمن", got: "الرّحمن",
			recall: 0, precision: 0, agreed: 2, missed: []string{"الرّ×1", "حمن×1"}, extra: []string{"الرّحمن×1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := judge(tt.a, tt.b, tt.got, 6)
			if s.Recall != tt.recall || s.Precision != tt.precision {
				t.Errorf("recall %v precision %v, want %v %v", s.Recall, s.Precision, tt.recall, tt.precision)
			}
			if s.Agreed != tt.agreed || s.OnlyA != tt.onlyA || s.OnlyB != tt.onlyB || s.GotOnlyA != tt.gotOnlyA || s.GotOnlyB != tt.gotOnlyB {
				t.Errorf("agreed %d, only a %d (gds %d), only b %d (gds %d); want %d, %d (%d), %d (%d)",
					s.Agreed, s.OnlyA, s.GotOnlyA, s.OnlyB, s.GotOnlyB, tt.agreed, tt.onlyA, tt.gotOnlyA, tt.onlyB, tt.gotOnlyB)
			}
			if s.Judgeable == tt.unjudgeable {
				t.Errorf("judgeable %v, want %v", s.Judgeable, !tt.unjudgeable)
			}
			if !slices.Equal(s.Missed, tt.missed) && len(s.Missed)+len(tt.missed) > 0 {
				t.Errorf("missed %q, want %q", s.Missed, tt.missed)
			}
			if !slices.Equal(s.Extra, tt.extra) && len(s.Extra)+len(tt.extra) > 0 {
				t.Errorf("extra %q, want %q", s.Extra, tt.extra)
			}
		})
	}
}

// A space counts as lost only where both references keep it; a word
// stored reversed only where both hold it the right way round.
func TestJudgeRunTogetherAndRTL(t *testing.T) {
	tests := []struct {
		name, a, b, got string
		joined, bounds  int
		rtl             []string
	}{
		{"both keep the spaces", "Demonstration of backgrounds", "Demonstration of backgrounds", "Demonstrationof backgrounds", 1, 2, nil},
		{"three words as one", "Demonstration of backgrounds", "Demonstration of backgrounds", "Demonstrationofbackgrounds", 2, 2, nil},
		{"the second reference joins them", "A C value", "AC value", "AC value", 0, 2, nil},
		{"the second reference has other words", "A C value", "€ value", "AC value", 0, 2, nil},
		{"kept", "A C value", "A C value", "A C value", 0, 2, nil},
		{"reversed against both", "שלום מרחשון", "שלום מרחשון", "םולש מרחשון", 0, 1, []string{"שלום"}},
		{"the second reference holds it reversed", "שלום מרחשון", "םולש מרחשון", "םולש מרחשון", 0, 1, nil},
	}
	for _, tt := range tests {
		s := judge(tt.a, tt.b, tt.got, 6)
		if s.Joined != tt.joined || s.Boundaries != tt.bounds || !slices.Equal(s.RTL, tt.rtl) {
			t.Errorf("%s: joined %d of %d, RTL %q; want %d of %d, %q", tt.name, s.Joined, s.Boundaries, s.RTL, tt.joined, tt.bounds, tt.rtl)
		}
	}
	// The raw figure counts the first alone.
	if j, _ := joinedWords("A C value", "AC value"); j != 1 {
		t.Errorf("raw joined %d, want 1", j)
	}
}

func TestJudgedCutPages(t *testing.T) {
	var page strings.Builder
	for i := range 60 {
		page.WriteString(string(rune('a'+i%26)) + string(rune('a'+i/26)) + " ")
	}
	p := page.String()
	half := p[:len(p)/2]
	tests := []struct {
		name      string
		a, b      string
		got       map[int]string
		cut, seen int
	}{
		{"cut against both", p + "\f" + p, p + "\f" + p, map[int]string{1: half, 2: p}, 1, 2},
		{"the second reference's page is short too", p + "\f" + p, half + "\f" + p, map[int]string{1: half, 2: p}, 0, 2},
		{"the second reference has fewer pages", p + "\f" + p, p, map[int]string{1: p, 2: half}, 0, 2},
		{"empty pages are not counted", p + "\f \n\f" + p, p + "\f\f" + p, map[int]string{1: p, 3: half}, 1, 2},
	}
	for _, tt := range tests {
		if cut, seen := judgedCutPages(tt.a, tt.b, tt.got); cut != tt.cut || seen != tt.seen {
			t.Errorf("%s: %d cut of %d, want %d of %d", tt.name, cut, seen, tt.cut, tt.seen)
		}
	}
}

func TestAgreedWords(t *testing.T) {
	if got := agreedWords([]string{"a", "b", "a", "c", "a"}, []string{"a", "a", "c", "d"}); !slices.Equal(got, []string{"a", "a", "c"}) {
		t.Errorf("agreedWords = %q", got)
	}
}
