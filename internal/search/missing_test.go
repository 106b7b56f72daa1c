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

func TestSpecificTerms(t *testing.T) {
	df := map[string]int{"steam": 40, "engine": 90, "watt": 3, "the": 2000}
	for _, c := range []struct {
		terms []string
		want  []string
	}{
		{[]string{"steam", "engine", "watt"}, []string{"watt", "steam"}},
		{[]string{"steam", "engine", "watt", "the"}, []string{"watt", "steam"}},
		{[]string{"engine"}, []string{"engine"}},
		// Ties keep query order; an uncounted term is common.
		{[]string{"x", "steam", "y"}, []string{"steam", "x"}},
		{nil, nil},
	} {
		if got := SpecificTerms(c.terms, df); !slices.Equal(got, c.want) {
			t.Errorf("SpecificTerms(%q) = %q, want %q", c.terms, got, c.want)
		}
	}
}

func TestPartial(t *testing.T) {
	terms := []string{"steam", "engine", "watt"} // specific: watt, steam
	df := map[string]int{"steam": 40, "engine": 90, "watt": 3}
	for _, c := range []struct {
		name    string
		terms   []string
		missing [][]string
		want    bool
	}{
		{"the best result holds every word", terms, [][]string{nil, {"watt"}, {"watt"}}, false},
		{"each of the best three misses a specific word", terms, [][]string{{"watt"}, {"steam"}, {"watt", "engine"}, nil}, true},
		{"one misses only a common word", terms, [][]string{{"watt"}, {"engine"}, {"watt"}}, false},
		{"fewer results than three, all missing", terms, [][]string{{"watt"}}, true},
		{"one term is never partial", []string{"watt"}, [][]string{{"watt"}, {"watt"}}, false},
		{"no results", terms, nil, false},
	} {
		if got := Partial(c.terms, df, c.missing); got != c.want {
			t.Errorf("%s: Partial = %v, want %v", c.name, got, c.want)
		}
	}
}
