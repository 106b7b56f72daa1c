package fulltext

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// build makes an index of rows given as columns of tokens (weights 10 and 1).
func build(t *testing.T, rows map[int64][2][]string) *Index {
	t.Helper()
	bd, err := NewBuilder([]float64{10, 1})
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for id, cols := range rows {
		n := int64(len(cols[0]) + len(cols[1]))
		bd.Row(id, n)
		total += n
	}
	for id, cols := range rows {
		for c, toks := range cols {
			for off, tok := range toks {
				if err := bd.Add([]byte(tok), id, c, off); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return bd.Build(int64(len(rows)), total)
}

func rowids(ms []Match) []int64 {
	var out []int64
	for _, m := range ms {
		out = append(out, m.Rowid)
	}
	return out
}

func TestPhraseMatching(t *testing.T) {
	ix := build(t, map[int64][2][]string{
		1: {{"東京", "京都"}, {"tower"}},
		2: {{"東京"}, {"x", "京都"}},        // the tokens, but not in order in one column
		3: {{"京都", "東京"}, {"東京", "京都"}}, // reversed in one column, in order in the other
		4: {{"京"}, {"tower", "bridge"}},
		5: {{"京阪"}, {"towers"}},
	})
	cases := []struct {
		name string
		ph   Phrase
		want []int64
	}{
		{"two tokens in a row", Phrase{Tokens: []string{"東京", "京都"}}, []int64{1, 3}},
		{"one token", Phrase{Tokens: []string{"tower"}}, []int64{1, 4}},
		{"a prefix", Phrase{Tokens: []string{"京"}, Prefix: true}, []int64{1, 2, 3, 4, 5}},
		{"the same token without the prefix", Phrase{Tokens: []string{"京"}}, []int64{4}},
		{"a phrase ending in a prefix", Phrase{Tokens: []string{"東京", "京"}, Prefix: true}, []int64{1, 3}},
		{"a latin prefix", Phrase{Tokens: []string{"tower"}, Prefix: true}, []int64{1, 4, 5}},
		{"a token no row holds", Phrase{Tokens: []string{"東京", "nothing"}}, nil},
	}
	for _, c := range cases {
		got, total := ix.Rank([]Phrase{c.ph}, nil, 0)
		ids := rowids(got)
		slices.Sort(ids)
		if !slices.Equal(ids, c.want) || total != len(c.want) {
			t.Errorf("%s: rows %v (total %d), want %v", c.name, ids, total, c.want)
		}
		if has := ix.Has(c.ph); has != (len(c.want) > 0) {
			t.Errorf("%s: Has = %v, want %v", c.name, has, len(c.want) > 0)
		}
	}
}

// TestScore checks one phrase's bm25 against the formula FTS5 documents,
// with column weights and the average row length.
func TestScore(t *testing.T) {
	ix := build(t, map[int64][2][]string{
		1: {{"budget"}, {"budget", "plan", "for", "q3"}}, // weighted frequency 10 + 1
		2: {{"plan"}, {"the", "budget"}},                 // 1
		3: {{"notes"}, {"nothing", "here"}},
	})
	got, _ := ix.Rank([]Phrase{{Tokens: []string{"budget"}}}, nil, 0)
	avgdl := 11.0 / 3
	idf := math.Log((3 - 2 + 0.5) / (2 + 0.5))
	if idf <= 0 {
		idf = 1e-6 // FTS5's floor: "budget" is in most rows
	}
	want := map[int64]float64{}
	for id, f := range map[int64]float64{1: 11, 2: 1} {
		D := map[int64]float64{1: 5, 2: 3}[id]
		want[id] = -idf * f * (1.2 + 1) / (f + 1.2*(1-0.75+0.75*D/avgdl))
	}
	if len(got) != 2 || got[0].Rowid != 1 {
		t.Fatalf("got %v", got)
	}
	for _, m := range got {
		if math.Abs(m.Rank-want[m.Rowid]) > 1e-15 {
			t.Errorf("row %d: rank %v, want %v", m.Rowid, m.Rank, want[m.Rowid])
		}
	}
	// A rare phrase: the IDF is the logarithm given.
	bd, _ := NewBuilder([]float64{1})
	calls := 0
	bd.Log(func(x float64) float64 { calls++; return math.Log(x) })
	for id := int64(1); id <= 4; id++ {
		bd.Row(id, 1)
		if err := bd.Add([]byte(fmt.Sprint("w", id)), id, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	small := bd.Build(4, 4)
	r, _ := small.Rank([]Phrase{{Tokens: []string{"w2"}}}, nil, 0)
	wantRank := -math.Log(3.5/1.5) * 2.2 / (1 + 1.2)
	if len(r) != 1 || math.Abs(r[0].Rank-wantRank) > 1e-15 || calls != 1 {
		t.Errorf("rare phrase: %v (log called %d times), want rank %v", r, calls, wantRank)
	}
}

// TestRankOrderLimitAccept: ties break by rowid, a limit returns the head
// of the full ranking, and accept filters before the limit.
func TestRankOrderLimitAccept(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c", "d", "e"}
	rows := map[int64][2][]string{}
	for id := int64(1); id <= 300; id++ {
		var cols [2][]string
		for c := range cols {
			for range rng.IntN(6) {
				cols[c] = append(cols[c], words[rng.IntN(len(words))])
			}
		}
		rows[id*3] = cols // sparse rowids
	}
	ix := build(t, rows)
	phrases := []Phrase{{Tokens: []string{"a"}}, {Tokens: []string{"b", "c"}}, {Tokens: []string{"e"}, Prefix: true}}
	all, total := ix.Rank(phrases, nil, 0)
	if total != len(all) || total < 100 {
		t.Fatalf("%d matches", total)
	}
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		if a.Rank > b.Rank || a.Rank == b.Rank && a.Rowid >= b.Rowid {
			t.Fatalf("out of order at %d: %v then %v", i, a, b)
		}
	}
	for _, k := range []int{1, 9, 50} {
		top, n := ix.Rank(phrases, nil, k)
		if n != total || !slices.Equal(top, all[:k]) {
			t.Errorf("limit %d: %v, want %v", k, top, all[:k])
		}
	}
	even := func(id int64) bool { return id%2 == 0 }
	var want []Match
	for _, m := range all {
		if even(m.Rowid) {
			want = append(want, m)
		}
	}
	top, n := ix.Rank(phrases, even, 9)
	if n != len(want) || !slices.Equal(top, want[:9]) {
		t.Errorf("accepted: %v (%d), want %v (%d)", top, n, want[:9], len(want))
	}
	// The scratch space is clean for the next query.
	again, _ := ix.Rank(phrases, nil, 0)
	if !slices.Equal(again, all) {
		t.Error("a second query ranks differently")
	}
}

func TestBuilderErrors(t *testing.T) {
	if _, err := NewBuilder(nil); err == nil {
		t.Error("no columns accepted")
	}
	bd, _ := NewBuilder([]float64{1, 1})
	bd.Row(1, 2)
	if err := bd.Add([]byte("x"), 2, 0, 0); !errors.Is(err, ErrInconsistent) {
		t.Errorf("instance of an unknown row: %v", err)
	}
	if err := bd.Add([]byte("x"), 1, 2, 0); err == nil {
		t.Error("a column out of range accepted")
	}
	if err := bd.Add([]byte("x"), 1, 0, maxOff+1); err == nil {
		t.Error("an offset out of range accepted")
	}
	if bd.Instances() != 0 {
		t.Errorf("%d instances after refusals", bd.Instances())
	}
}

// TestPhrasesAgainstScan compares the rows random phrases match with a
// scan of the rows' tokens, for phrases of one to three tokens, the last
// one a prefix or not, over a vocabulary where prefixes have many terms.
func TestPhrasesAgainstScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	vocab := []string{"a", "ab", "abc", "abd", "ac", "b", "ba", "bb", "c", "ca", "京", "京都", "京阪", "東京", "都"}
	rows := map[int64][2][]string{}
	for id := int64(1); id <= 300; id++ {
		var cols [2][]string
		for c := range cols {
			for range rng.IntN(12) {
				cols[c] = append(cols[c], vocab[rng.IntN(len(vocab))])
			}
		}
		rows[id] = cols
	}
	ix := build(t, rows)
	matches := func(ph Phrase, toks []string) bool {
		for s := 0; s+len(ph.Tokens) <= len(toks); s++ {
			ok := true
			for i, want := range ph.Tokens {
				got := toks[s+i]
				if got != want && !(ph.Prefix && i == len(ph.Tokens)-1 && len(got) > len(want) && got[:len(want)] == want) {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
		return false
	}
	for n := 0; n < 400; n++ {
		ph := Phrase{Prefix: rng.IntN(2) == 0}
		for range 1 + rng.IntN(3) {
			ph.Tokens = append(ph.Tokens, vocab[rng.IntN(len(vocab))])
		}
		var want []int64
		for id, cols := range rows {
			if matches(ph, cols[0]) || matches(ph, cols[1]) {
				want = append(want, id)
			}
		}
		slices.Sort(want)
		got, total := ix.Rank([]Phrase{ph}, nil, 0)
		ids := rowids(got)
		slices.Sort(ids)
		if !slices.Equal(ids, want) || total != len(want) {
			t.Fatalf("%+v: rows %v (total %d), want %v", ph, ids, total, want)
		}
	}
}

// TestPrefixFollows checks both ways of finding the keys a prefix's
// instance follows: looking the few keys up in each term's postings, and
// for many keys each instance up among them.
func TestPrefixFollows(t *testing.T) {
	tails := [][]uint64{{3, 10, 20}, {5, 11}, {21, 40}}
	naive := func(keys []uint64) []uint64 {
		var out []uint64
		for _, k := range keys {
			for _, l := range tails {
				if slices.Contains(l, k+1) {
					out = append(out, k)
					break
				}
			}
		}
		return out
	}
	for _, keys := range [][]uint64{
		{2},                              // 1 key × 3 terms ≤ 7 instances: keys looked up
		{9, 19, 30},                      // 9 > 7: instances looked up among the keys
		{1, 2, 4, 9, 10, 19, 20, 30, 39}, // instances looked up
	} {
		var got []uint64
		prefixFollows(keys, tails, 1, func(k uint64) { got = append(got, k) })
		if want := naive(keys); !slices.Equal(got, want) {
			t.Errorf("keys %v: %v, want %v", keys, got, want)
		}
	}
}

// BenchmarkRankTrailingPrefix ranks a phrase whose last token is a lone
// CJK character — a prefix of many terms — after another token, as a
// keystroke's "1493年" does: 10,000 rows of 60 tokens over 2,000 bigrams,
// 300 of them starting with the prefix; the first token in 1 row of 500
// (rare) or at every 6th token (common).
func BenchmarkRankTrailingPrefix(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var vocab []string
	for i := range 2000 {
		first := "年"
		if i >= 300 {
			first = string(rune(0x4e00 + 1 + i%700))
		}
		vocab = append(vocab, first+string(rune(0x4e00+i)))
	}
	bd, err := NewBuilder([]float64{1})
	if err != nil {
		b.Fatal(err)
	}
	const rows, perRow = 10000, 60
	for id := int64(1); id <= rows; id++ {
		bd.Row(id, perRow)
	}
	for id := int64(1); id <= rows; id++ {
		for off := range perRow {
			tok := vocab[rng.IntN(len(vocab))]
			switch {
			case off == 30 && id%500 == 0:
				tok = "1493"
			case off%6 == 0:
				tok = "の"
			}
			if err := bd.Add([]byte(tok), id, 0, off); err != nil {
				b.Fatal(err)
			}
		}
	}
	ix := bd.Build(rows, rows*perRow)
	for _, first := range []string{"1493", "の"} {
		b.Run(first, func(b *testing.B) {
			ph := []Phrase{{Tokens: []string{first, "年"}, Prefix: true}}
			for range b.N {
				ix.Rank(ph, nil, 9)
			}
		})
	}
}
