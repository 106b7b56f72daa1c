package sqlite

import (
	"context"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

// TestHasTermsMatchKeywordSearch: HasTerms says of each term — words,
// CJK bigrams, a single CJK character (a prefix query), phrases found or
// not, a term in no file and one without a searchable token — whether a
// one-term KeywordSearch (MatchAny, no filter) finds a file. (DocFreqs is
// in the store contract, storetest.)
func TestHasTermsMatchKeywordSearch(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, Options{})
	for _, f := range []store.File{
		testFile("a", "the tower of london was built in 1078"),
		testFile("b", "tower bridge crosses the thames"),
		testFile("c", "東京タワーは東京都港区にある"),
		testFile("d", "京都の寺と東京の塔"),
		testFile("e", "nothing in common"),
	} {
		if err := s.UpsertFile(ctx, f, []store.Chunk{{Ordinal: 0, Text: f.Text, Embedding: f.Embedding}}); err != nil {
			t.Fatal(err)
		}
	}
	phrases := []string{"tower", "thames", "1078", "東京", "京都", "東", "absent", "!!", "the",
		"tower bridge", "bridge tower", "東京タワー", "タワー京都"}
	has, ok, err := s.HasTerms(ctx, phrases)
	if err != nil || !ok {
		t.Fatalf("HasTerms: %v, %v", ok, err)
	}
	found := 0
	for _, term := range phrases {
		r, err := s.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{term}, Match: store.MatchAny, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if has[term] != (r.Total > 0) {
			t.Errorf("HasTerms[%q] = %v, KeywordSearch total %d", term, has[term], r.Total)
		}
		if has[term] {
			found++
		}
	}
	if found < 5 || found == len(phrases) {
		t.Errorf("%d of %d terms found: the comparison is vacuous", found, len(phrases))
	}
}

// TestSummaryIsStatsWithoutChunks: Summary reports what Stats does except
// the chunk count, which it does not read.
func TestSummaryIsStatsWithoutChunks(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, Options{})
	f := testFile("a", "alpha beta")
	if err := s.UpsertFile(ctx, f, []store.Chunk{{Ordinal: 0, Text: "alpha", Embedding: f.Embedding}, {Ordinal: 1, Text: "beta", Embedding: f.Embedding}}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sm, err := s.Summary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Chunks != 2 || sm.Chunks != 0 || sm.Files != 1 {
		t.Errorf("Stats chunks %d, Summary chunks %d files %d", st.Chunks, sm.Chunks, sm.Files)
	}
	st.Chunks = 0
	if sm.Backend != st.Backend || sm.Location != st.Location || sm.SchemaVersion != st.SchemaVersion ||
		sm.Files != st.Files || sm.Space != st.Space || sm.Sync != st.Sync || len(sm.Syncs) != len(st.Syncs) {
		t.Errorf("Summary %+v, Stats %+v", sm, st)
	}
}
