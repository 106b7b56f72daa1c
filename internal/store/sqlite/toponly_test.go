package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// A TopOnly query (the keystroke path) returns the same hits in the same
// order as the full query, with and without filters, on both filter paths
// (the matches looked up in batches, and few matches looked up at once).
func TestTopOnlySameHits(t *testing.T) {
	ctx := context.Background()
	s := mustOpen(t, filepath.Join(t.TempDir(), "index.db"), Options{})
	if err := s.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
		t.Fatal(err)
	}
	for i := range 240 {
		f := testFile(fmt.Sprintf("f%03d", i), "")
		// Ranks vary with the repetitions and the length; ties are frequent.
		f.Text = fmt.Sprintf("alpha %s beta %s", repeat("alpha ", i%5), repeat("filler ", i%7))
		if i%3 == 0 {
			f.Text += " gamma"
		}
		if i%2 == 0 {
			f.MimeType = "application/pdf"
		}
		f.ModifiedAt = time.Date(2020+i%6, time.Month(1+i%12), 1+i%28, 0, 0, 0, 0, time.UTC)
		if err := s.UpsertFile(ctx, f, nil); err != nil {
			t.Fatal(err)
		}
	}
	pdf := store.Filter{MimeTypes: []string{"application/pdf"}}
	y2023 := store.Filter{ModifiedAfter: time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC), ModifiedBefore: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	queries := []store.KeywordQuery{
		{Terms: []string{"alpha"}, Match: store.MatchAny, Limit: 9},
		{Terms: []string{"gamma", "beta"}, Match: store.MatchAny, Limit: 9},
		{Terms: []string{"alpha", "gamma"}, Match: store.MatchAll, Limit: 5},
		{Terms: []string{"alpha"}, Match: store.MatchAny, Filter: pdf, Limit: 9},
		{Terms: []string{"alpha"}, Match: store.MatchAny, Filter: y2023, Limit: 9},
		{Terms: []string{"gamma"}, Match: store.MatchAny, Filter: pdf, Limit: 100},
		{Terms: []string{"nomatch"}, Match: store.MatchAny, Filter: pdf, Limit: 9},
		{Match: store.MatchAny, Filter: y2023, Limit: 9}, // filter only
	}
	saved := resolveByList
	t.Cleanup(func() { resolveByList = saved })
	for _, byList := range []int{saved, 10} {
		resolveByList = byList
		for _, q := range queries {
			full, err := s.KeywordSearch(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			q.TopOnly = true
			top, err := s.KeywordSearch(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(top.Hits, full.Hits) {
				t.Errorf("resolveByList %d, %+v:\nTopOnly %v\nfull    %v", byList, q, top.Hits, full.Hits)
			}
			if top.Total < len(top.Hits) || top.Total > full.Total || full.Total < len(full.Hits) {
				t.Errorf("%+v: totals %d (TopOnly) and %d", q, top.Total, full.Total)
			}
		}
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

// topAny proves the keystroke's best matches without scoring every match
// when a rare keyword's matches outscore anything the common ones can
// reach, and leaves the rest to the full query.
func TestTopAnyPrunes(t *testing.T) {
	savedRows, savedMatches := pruneMinRows, pruneMinMatches
	pruneMinRows, pruneMinMatches = 0, 0
	t.Cleanup(func() { pruneMinRows, pruneMinMatches = savedRows, savedMatches })
	ctx := context.Background()
	s := mustOpen(t, filepath.Join(t.TempDir(), "index.db"), Options{})
	if err := s.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		f := testFile(fmt.Sprintf("f%03d", i), "")
		f.Text = "common words " + repeat("filler ", i%9)
		if i%20 == 0 {
			f.Text += " rare"
		}
		if i%2 == 0 {
			f.Text += " half"
		}
		if err := s.UpsertFile(ctx, f, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		terms  []string
		limit  int
		pruned bool
	}{
		{[]string{"common", "rare"}, 9, true}, // 15 rare rows outscore every common-only row
		{[]string{"half", "rare", "common"}, 3, true},
		{[]string{"rare", "common"}, 20, false}, // fewer rare rows than asked for
		{[]string{"rare"}, 3, false},            // one phrase: nothing to prune
		{[]string{"rare", "common"}, 9, true},
		{[]string{"common", "half"}, 9, true}, // in half the rows or more: FTS5's IDF is 1e-6
	} {
		tx, err := s.read.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		cands, ok, err := topAny(ctx, tx, ftsPhrases(tc.terms), tc.limit)
		var top store.KeywordResult
		if err == nil && ok {
			top, err = s.resolveTop(ctx, tx, cands, tc.limit)
		}
		tx.Rollback()
		if err != nil {
			t.Fatal(err)
		}
		if ok != tc.pruned {
			t.Errorf("%q limit %d: pruned %v, want %v", tc.terms, tc.limit, ok, tc.pruned)
		}
		if !ok {
			continue
		}
		full, err := s.KeywordSearch(ctx, store.KeywordQuery{Terms: tc.terms, Match: store.MatchAny, Limit: tc.limit})
		if err != nil {
			t.Fatal(err)
		}
		if len(top.Hits) != tc.limit || len(top.Hits) != len(full.Hits) {
			t.Fatalf("%q: %d pruned hits, full query %d, limit %d", tc.terms, len(top.Hits), len(full.Hits), tc.limit)
		}
		for i, h := range top.Hits {
			if d := h.Score - full.Hits[i].Score; h.ID != full.Hits[i].ID || d > 1e-12 || d < -1e-12 {
				t.Errorf("%q: hit %d %v, full query %v", tc.terms, i, h, full.Hits[i])
			}
		}
	}
	// With the default thresholds an index of 300 rows is left to the full
	// query, without counting anything.
	pruneMinRows, pruneMinMatches = savedRows, savedMatches
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, ok, err := topAny(ctx, tx, ftsPhrases([]string{"common", "rare"}), 9); ok || err != nil {
		t.Errorf("300 rows, default thresholds: pruned %v (%v), want the full query", ok, err)
	}
}
