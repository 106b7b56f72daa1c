package sqlite

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

// TestRankedCacheSameAsFresh: a store that answered the same words before
// (with other filters and limits, which filter its cached ranking in
// place) answers every query as a store that never did — and a write
// between two queries is seen (the ranking is kept for one generation).
func TestRankedCacheSameAsFresh(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, Options{})
	for i := range 60 {
		text := fmt.Sprintf("tower report %d", i)
		if i%3 == 0 {
			text += " bridge over the river"
		}
		f := testFile(fmt.Sprintf("f%02d", i), text)
		if i%2 == 0 {
			f.MimeType = "application/pdf"
		}
		if err := s.UpsertFile(ctx, f, nil); err != nil {
			t.Fatal(err)
		}
	}
	ids := []string{"f03", "f10", "f21", "f33", "f47", "f58"}
	queries := []store.KeywordQuery{
		{Terms: []string{"tower", "bridge"}, Match: store.MatchAny, Filter: store.Filter{MimeTypes: []string{"application/pdf"}}, Limit: 7},
		{Terms: []string{"tower", "bridge"}, Match: store.MatchAny, Filter: store.Filter{IDs: ids}, Limit: 4},
		{Terms: []string{"tower", "bridge"}, Match: store.MatchAny, Limit: 10},
		{Terms: []string{"tower", "bridge"}, Match: store.MatchAny, Limit: 100},
		{Terms: []string{"tower", "bridge"}, Match: store.MatchAny, Filter: store.Filter{MimeTypes: []string{"text/plain"}}, Limit: 9, TopOnly: true},
		{Terms: []string{"river"}, Match: store.MatchAny, Limit: 5},
	}
	run := func(st *Store) []store.KeywordResult {
		var out []store.KeywordResult
		for _, q := range queries {
			r, err := st.KeywordSearch(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	first := run(s)
	second := run(s) // every full ranking now comes from the cache
	fresh := mustOpen(t, s.Path(), Options{ReadOnly: true})
	defer fresh.Close()
	want := run(fresh)
	for i := range queries {
		if !reflect.DeepEqual(first[i], want[i]) || !reflect.DeepEqual(second[i], want[i]) {
			t.Errorf("%+v:\nfirst  %+v\nsecond %+v\nfresh  %+v", queries[i], first[i], second[i], want[i])
		}
	}
	if want[3].Total != 60 || len(want[1].Hits) != 4 {
		t.Fatalf("premise: %d matches, %d ID-filtered hits", want[3].Total, len(want[1].Hits))
	}
	// A write in between: the new file ranks first for "bridge bridge".
	if err := s.UpsertFile(ctx, testFile("new", "bridge bridge bridge tower"), nil); err != nil {
		t.Fatal(err)
	}
	r, err := s.KeywordSearch(ctx, queries[3])
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != 61 || r.Hits[0].ID != "new" {
		t.Errorf("after a write: %d matches, first %v; want 61 and the new file", r.Total, r.Hits[0])
	}
}
