package storetest

import (
	"context"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

// docFreqCounter is the one-call count of the files each term matches
// (search.DocFreqCounter): the reranker's document frequencies and the
// words a search checks. Every store has it.
type docFreqCounter interface {
	DocFreqs(ctx context.Context, terms []string) (df map[string]int, files int, err error)
}

// testDocFreqs: DocFreqs counts, for every term — words, a stemmed form,
// CJK bigrams, a single CJK character, a phrase, a term in no file, one
// without a searchable token, a term twice — the Total of a one-term
// KeywordSearch (MatchAny, no filter), and the file count is Stats'; on an
// empty store and for no terms it answers too.
func testDocFreqs(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	dc, ok := s.(docFreqCounter)
	if !ok {
		t.Fatalf("%T has no DocFreqs", s)
	}
	df, files, err := dc.DocFreqs(ctx, []string{"tower"})
	if err != nil || files != 0 || df["tower"] != 0 {
		t.Fatalf("DocFreqs on an empty store = %v, %d, %v", df, files, err)
	}
	for _, f := range []store.File{
		file("a", "a.txt", "the tower of london was built in 1078"),
		file("b", "b.txt", "tower bridge crosses the thames; towers"),
		file("c", "c.txt", "東京タワーは東京都港区にある"),
		file("d", "d.txt", "京都の寺と東京の塔"),
		file("e", "e.txt", "nothing in common"),
	} {
		upsert(t, ctx, s, f)
	}
	terms := []string{"tower", "towers", "thames", "1078", "東京", "京都", "東", "tower bridge", "bridge tower", "absent", "!!", "the", "tower"}
	df, files, err = dc.DocFreqs(ctx, terms)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if files != st.Files || files != 5 {
		t.Errorf("DocFreqs counts %d files, Stats %d, want 5", files, st.Files)
	}
	nonzero := 0
	for _, term := range terms {
		r := keyword(t, ctx, s, store.KeywordQuery{Terms: []string{term}, Match: store.MatchAny, Limit: 1})
		if got, ok := df[term]; !ok || got != r.Total {
			t.Errorf("DocFreqs[%q] = %d (present %v), KeywordSearch total %d", term, got, ok, r.Total)
		}
		if r.Total > 0 {
			nonzero++
		}
	}
	if nonzero < 6 {
		t.Errorf("only %d terms match: the comparison is vacuous", nonzero)
	}
	if df["tower"] != 2 || df["東京"] != 2 || df["tower bridge"] != 1 || df["absent"] != 0 {
		t.Errorf("frequencies %v", df)
	}
	df, files, err = dc.DocFreqs(ctx, nil)
	if err != nil || files != 5 || len(df) != 0 {
		t.Errorf("DocFreqs(no terms) = %v, %d, %v; want no counts and 5 files", df, files, err)
	}
}
