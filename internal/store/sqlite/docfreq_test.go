package sqlite

import (
	"context"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

// TestDocFreqsMatchKeywordSearch: the reranker's document frequencies
// counted in one call are the Total of a one-term KeywordSearch (MatchAny,
// no filter) for every term — words, CJK bigrams, a single CJK character
// (a prefix query), a term in no file and one without a searchable token —
// and the file count is Stats'.
func TestDocFreqsMatchKeywordSearch(t *testing.T) {
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
	terms := []string{"tower", "thames", "1078", "東京", "京都", "東", "absent", "!!", "the"}
	df, files, err := s.DocFreqs(ctx, terms)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if files != st.Files || files != 5 {
		t.Errorf("files %d, Stats %d, want 5", files, st.Files)
	}
	if len(df) != len(terms) {
		t.Errorf("%d frequencies for %d terms: %v", len(df), len(terms), df)
	}
	nonzero := 0
	for _, term := range terms {
		r, err := s.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{term}, Match: store.MatchAny, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := df[term]; !ok || got != r.Total {
			t.Errorf("DocFreqs[%q] = %d (present %v), KeywordSearch total %d", term, got, ok, r.Total)
		}
		if r.Total > 0 {
			nonzero++
		}
	}
	if nonzero < 5 {
		t.Errorf("only %d terms match: the comparison is vacuous", nonzero)
	}
	// HasTerms says of each term (and of phrases, found or not) whether
	// the one-term search finds a file.
	phrases := append(terms, "tower bridge", "bridge tower", "東京タワー", "タワー京都")
	has, ok, err := s.HasTerms(ctx, phrases)
	if err != nil || !ok {
		t.Fatalf("HasTerms: %v, %v", ok, err)
	}
	for _, term := range phrases {
		r, err := s.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{term}, Match: store.MatchAny, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if has[term] != (r.Total > 0) {
			t.Errorf("HasTerms[%q] = %v, KeywordSearch total %d", term, has[term], r.Total)
		}
	}
	if df["tower"] != 2 || df["東京"] != 2 || df["absent"] != 0 {
		t.Errorf("frequencies %v", df)
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
