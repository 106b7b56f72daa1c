package storetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

// testKeywordTies checks that files of equal full-text relevance come in
// file ID order (by bytes) whatever order they were written in (a crawl
// writes files concurrently), also where the limit cuts among them, with
// and without a filter, TopOnly or not, one term or several: two crawls
// of one corpus rank alike. The tied IDs differ in case, which a database
// collation orders otherwise than bytes; a file with the words more often
// and one with them diluted score otherwise (how, the back end decides).
func testKeywordTies(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	put := func(id, text string) {
		f := file(id, "ledger.txt", text)
		f.Path = "Ties"
		upsert(t, ctx, s, f)
	}
	put("zlow", "walrus ledger "+strings.Repeat("entry ", 40))
	tied := []string{"kb", "ka", "kB", "kA"} // written in reverse ID order
	for _, id := range tied {
		put(id, "walrus ledger entry")
	}
	put("ztop", "walrus walrus ledger ledger")
	for _, terms := range [][]string{{"walrus"}, {"walrus", "ledger"}} {
		for _, m := range []store.MatchMode{store.MatchAny, store.MatchAll} {
			full := keyword(t, ctx, s, store.KeywordQuery{Terms: terms, Match: m}).Hits
			if len(full) != 6 {
				t.Fatalf("%q match %v: %d hits, want 6", terms, m, len(full))
			}
			checkTieOrder(t, fmt.Sprintf("%q match %v", terms, m), full, tied)
			for _, flt := range []store.Filter{{}, {Folder: "Ties"}} {
				for _, topOnly := range []bool{false, true} {
					for limit := 1; limit <= 7; limit++ {
						q := store.KeywordQuery{Terms: terms, Match: m, Filter: flt, Limit: limit, TopOnly: topOnly}
						got := hitIDs(keyword(t, ctx, s, q).Hits)
						if want := hitIDs(full[:min(limit, len(full))]); !slices.Equal(got, want) {
							t.Errorf("%q match %v folder %q TopOnly %v limit %d: %v, want %v", terms, m, flt.Folder, topOnly, limit, got, want)
						}
					}
				}
			}
		}
	}
}

// checkTieOrder checks that hits are ordered by score, equal scores by
// file ID, and that the files of tied (same name and text) score alike.
func checkTieOrder(t *testing.T, what string, hits []store.Hit, tied []string) {
	t.Helper()
	for i := 1; i < len(hits); i++ {
		a, b := hits[i-1], hits[i]
		if a.Score < b.Score || a.Score == b.Score && a.ID >= b.ID {
			t.Errorf("%s: %v before %v; want a higher score first, equal scores by file ID", what, a, b)
		}
	}
	var scores []float64
	for _, h := range hits {
		if slices.Contains(tied, h.ID) {
			scores = append(scores, h.Score)
		}
	}
	if len(scores) != len(tied) || slices.Min(scores) != slices.Max(scores) {
		t.Errorf("%s: the tied files score %v, want %d equal scores", what, scores, len(tied))
	}
}
