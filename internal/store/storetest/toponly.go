package storetest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

// testTopOnlyRanking: a TopOnly MatchAny query (the keystroke's) returns the
// same best hits, in the same order and with the same scores, as the full
// query over generated files whose words range from rare to in every file,
// in every column, English and Japanese — whatever a store does to avoid
// scoring matches it will not return.
func testTopOnlyRanking(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	rng := rand.New(rand.NewPCG(15, 8))
	// Word i appears in a file with probability ~ 1/(i+1)^0.9: w0 in nearly
	// every file, w59 in a few.
	words := make([]string, 60)
	for i := range words {
		words[i] = fmt.Sprintf("w%02d", i)
	}
	ja := []string{"日本", "北海道", "梅雨", "東京都", "大阪"}
	pick := func(n int) []string {
		var out []string
		for range n {
			i := int(math.Pow(rng.Float64(), 2.5) * float64(len(words)))
			out = append(out, words[i])
		}
		return out
	}
	const files = 400
	for i := range files {
		f := file(fmt.Sprintf("f%03d", i), strings.Join(pick(1+rng.IntN(3)), " ")+".txt", "")
		body := pick(5 + rng.IntN(60))
		for j, w := range ja {
			if rng.IntN(len(ja)+2) > j+1 { // 日本 common, 大阪 rarer
				body = append(body, w)
			}
		}
		rng.Shuffle(len(body), func(a, b int) { body[a], body[b] = body[b], body[a] })
		f.Text = strings.Join(body, " ")
		f.Keywords = pick(rng.IntN(3))
		f.Summary = strings.Join(pick(rng.IntN(8)), " ")
		if i%7 == 0 { // same text as another file: equal scores, ordered by the store's tie-break
			f.Name, f.Text, f.Keywords, f.Summary = "w01 w02.txt", "w00 w03 w58 日本", nil, ""
		}
		upsert(t, ctx, s, f)
	}
	var queries [][]string
	for range 60 {
		n := 2 + rng.IntN(4)
		terms := pick(n)
		if rng.IntN(3) == 0 {
			terms = append(terms, ja[rng.IntN(len(ja))])
		}
		queries = append(queries, terms)
	}
	queries = append(queries,
		[]string{"w00", "w59"}, []string{"w00", "w01", "w02", "w03"}, []string{"w59", "w58", "w57"},
		[]string{"日本", "梅雨", "北海道", "w00"}, []string{"日本", "北"}, []string{"w00", "w00", "w40"},
		[]string{"w00", "nomatch"}, []string{"w58", "w03 w58"})
	for _, terms := range queries {
		// The full query's best 9 (ordered by score, then the store's
		// tie-break) hold its best 1 and 3 as their first hits.
		all := keyword(t, ctx, s, store.KeywordQuery{Terms: terms, Match: store.MatchAny, Limit: 9}).Hits
		for _, limit := range []int{1, 3, 9} {
			full := all[:min(limit, len(all))]
			top := keyword(t, ctx, s, store.KeywordQuery{Terms: terms, Match: store.MatchAny, Limit: limit, TopOnly: true})
			if !slices.Equal(hitIDs(top.Hits), hitIDs(full)) {
				t.Errorf("TopOnly %q limit %d:\n got %v\nwant %v", terms, limit, top.Hits, full)
				continue
			}
			for i := range top.Hits {
				a, b := top.Hits[i].Score, full[i].Score
				if math.Abs(a-b) > 1e-9*math.Max(math.Abs(a), math.Abs(b)) {
					t.Errorf("TopOnly %q limit %d: hit %d score %v, full query %v", terms, limit, i, a, b)
				}
			}
		}
	}
}
