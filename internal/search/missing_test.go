package search

import (
	"slices"
	"testing"
)

func TestMissingTerms(t *testing.T) {
	got := MissingTerms([]string{"Q3", "フランス最大都市", "都市", "roadmap"})
	want := []string{"Q3", "フランス", "最大", "都市", "roadmap"}
	if !slices.Equal(got, want) {
		t.Errorf("MissingTerms = %q, want %q", got, want)
	}
}

func TestMissingFrom(t *testing.T) {
	held := map[string]map[string]bool{"a": {"f1": true, "f2": true}, "b": {"f2": true}, "c": {}}
	for _, c := range []struct {
		id   string
		want []string
	}{
		{"f1", []string{"b", "c"}},
		{"f2", []string{"c"}},
		{"f3", []string{"a", "b", "c"}},
	} {
		if got := MissingFrom([]string{"a", "b", "c"}, held, c.id); !slices.Equal(got, c.want) {
			t.Errorf("MissingFrom(%s) = %q, want %q", c.id, got, c.want)
		}
	}
}

func TestCoverage(t *testing.T) {
	df := map[string]int{"steam": 40, "engine": 90, "watt": 3}
	terms := []string{"steam", "engine", "watt"}
	if got := Coverage(terms, df, 1000, nil); got != 1 {
		t.Errorf("nothing missing: %v", got)
	}
	// watt is rarer than steam and engine together weigh... less than it
	// and steam: missing watt costs more than missing engine.
	if a, b := Coverage(terms, df, 1000, []string{"watt"}), Coverage(terms, df, 1000, []string{"engine"}); a >= b {
		t.Errorf("missing the rare word %v, the common one %v: want the rare to cost more", a, b)
	}
	if got := Coverage(terms, df, 1000, terms); got != 0 {
		t.Errorf("all missing: %v", got)
	}
}

func TestPartialWords(t *testing.T) {
	terms := []string{"steam", "engine", "watt"}
	df := map[string]int{"steam": 40, "engine": 90, "watt": 3}
	for _, c := range []struct {
		name    string
		terms   []string
		missing [][]string
		want    []string
	}{
		{"the best result holds every word", terms, [][]string{nil, {"watt"}, {"watt"}}, nil},
		{"one of the best three holds the rare word", terms, [][]string{{"watt", "steam"}, {"watt"}, {"engine"}}, nil},
		{"even the best lacks the rare word and another", terms, [][]string{{"watt", "steam"}, {"watt", "engine"}, {"watt", "steam", "engine"}, nil},
			[]string{"watt", "engine"}},
		{"fewer results than three, all weak", terms, [][]string{{"watt", "steam"}}, []string{"watt", "steam"}},
		{"one term is never partial", []string{"watt"}, [][]string{{"watt"}, {"watt"}}, nil},
		{"no results", terms, nil, nil},
	} {
		got := PartialWords(c.terms, df, 1000, c.missing)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: PartialWords = %q, want %q", c.name, got, c.want)
		}
		if Partial(c.terms, df, 1000, c.missing) != (c.want != nil) {
			t.Errorf("%s: Partial disagrees", c.name)
		}
	}
}
