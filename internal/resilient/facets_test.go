package resilient

import (
	"context"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/search"
)

// countingLocal is a local searcher that counts facets.
type countingLocal struct{ fixedSearcher }

func (countingLocal) CountFacets(context.Context, search.Conditions) ([]ai.FacetCount, bool, error) {
	return []ai.FacetCount{{Path: "Sales", N: 50}}, true, nil
}

// Facets are counted by the local index only when it is the one that
// searched: no Drive, --local, or Drive given up in this search.
func TestSearcherCountsFacetsOnlyForLocalSearches(t *testing.T) {
	calls := 0
	failing := failingSearcher{err: apperr.New(apperr.RateLimited, "429"), calls: &calls}
	given := Searcher{Drive: failing, Local: countingLocal{fixedSearcher{"a"}}, Run: NewRun(budget.Policy{}, nil)}
	if _, _, err := given.SearchKeywords(context.Background(), search.Conditions{}, 10); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		s    Searcher
		want bool
	}{
		{"local only", Searcher{Local: countingLocal{fixedSearcher{"a"}}, Run: NewRun(budget.Policy{}, nil)}, true},
		{"--local", Searcher{Drive: fixedSearcher{"d"}, Local: countingLocal{fixedSearcher{"a"}}, Run: NewRun(budget.Policy{Local: true}, nil)}, true},
		{"Drive searched", Searcher{Drive: fixedSearcher{"d"}, Local: countingLocal{fixedSearcher{"a"}}, Run: NewRun(budget.Policy{}, nil)}, false},
		{"Drive given up", given, true},
		{"local cannot count", Searcher{Local: fixedSearcher{"a"}, Run: NewRun(budget.Policy{}, nil)}, false},
	}
	for _, tt := range tests {
		fs, ok, err := tt.s.CountFacets(context.Background(), search.Conditions{})
		if err != nil || ok != tt.want || ok && (len(fs) != 1 || fs[0].N != 50) {
			t.Errorf("%s: CountFacets = %v, %v, %v; want ok %v", tt.name, fs, ok, err, tt.want)
		}
	}
}
