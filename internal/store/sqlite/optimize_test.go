package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// segments counts the file full-text index's segments (FTS5 keeps one row
// per segment and leaf range in its %_idx table).
func segments(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.read.QueryRowContext(context.Background(), `SELECT count(DISTINCT segid) FROM drive_file_fts_idx`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// OptimizeText merges the segments that writing file by file leaves into
// one, and every query answers as before.
func TestOptimizeTextMergesSegmentsSameHits(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	s := mustOpen(t, path, Options{})
	if err := s.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
		t.Fatal(err)
	}
	for i := range 60 {
		f := testFile(fmt.Sprintf("f%03d", i), "")
		f.Text = fmt.Sprintf("alpha %s beta %s 梅雨の季節", repeat("alpha ", i%5), repeat("filler ", i%7))
		if i%3 == 0 {
			f.Text += " gamma"
		}
		if err := s.UpsertFile(ctx, f, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteFiles(ctx, []string{"f007", "f011"}); err != nil {
		t.Fatal(err)
	}
	queries := []store.KeywordQuery{
		{Terms: []string{"alpha"}, Match: store.MatchAny, Limit: 9, TopOnly: true},
		{Terms: []string{"gamma", "beta"}, Match: store.MatchAny, Limit: 100},
		{Terms: []string{"alpha", "gamma"}, Match: store.MatchAll, Limit: 5},
		{Terms: []string{"梅雨"}, Match: store.MatchAny, Limit: 9, TopOnly: true},
	}
	search := func() []store.KeywordResult {
		var out []store.KeywordResult
		for _, q := range queries {
			r, err := s.KeywordSearch(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	before, n := search(), segments(t, s)
	if n < 2 {
		t.Fatalf("%d segments before optimizing: the test no longer builds a fragmented index", n)
	}
	if merged, err := s.OptimizeText(ctx); err != nil || !merged {
		t.Fatalf("OptimizeText of %d segments = %v, %v; want merged", n, merged, err)
	}
	if n := segments(t, s); n != 1 {
		t.Errorf("%d segments after optimizing, want 1", n)
	}
	if after := search(); !reflect.DeepEqual(after, before) {
		t.Errorf("hits changed by optimizing:\nbefore %+v\nafter  %+v", before, after)
	}

	// A few new segments are left for a later merge: rewriting the whole
	// index for each crawl that changed a file costs more than they do.
	for i := range maxTextSegments - 1 {
		if err := s.UpsertFile(ctx, testFile(fmt.Sprintf("g%d", i), "alpha delta"), nil); err != nil {
			t.Fatal(err)
		}
	}
	if merged, err := s.OptimizeText(ctx); err != nil || merged {
		t.Errorf("OptimizeText of %d segments = %v, %v; want left as they are", segments(t, s), merged, err)
	}
	if n := segments(t, s); n != maxTextSegments {
		t.Errorf("%d segments, want %d", n, maxTextSegments)
	}

	ro := mustOpen(t, path, Options{ReadOnly: true})
	if _, err := ro.OptimizeText(ctx); !errors.Is(err, ErrReadOnly) {
		t.Errorf("OptimizeText on a read-only store = %v, want ErrReadOnly", err)
	}
}
