// Package fulltext is a read-only full-text index held in memory that
// ranks an OR of phrases exactly as SQLite FTS5 ranks the same query with
// bm25(): the same phrase matching (tokens at consecutive positions of one
// column, the last token optionally a prefix), the same IDF, document
// lengths and average, and the same floating-point operations in the same
// order, so the matches, their scores and their order are FTS5's. It is
// built from what an FTS5 table stores (every token instance, each row's
// length, the table's totals), not from text, and knows nothing of SQL:
// the SQLite store loads it (sqlite.Resident), and the keystroke server
// answers from it, because scoring a few thousand matches in Go memory
// takes a fraction of what FTS5 needs to read them from the database.
package fulltext

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// bm25 parameters: FTS5's defaults (bm25() takes only column weights).
const (
	k1 = 1.2
	b  = 0.75
)

// Phrase is one phrase of a query, in the tokens the index stores.
type Phrase struct {
	Tokens []string
	// Prefix makes the last token match every term that starts with it
	// (FTS5's "…"*).
	Prefix bool
}

// Match is one matching row: its rowid and FTS5's bm25() value (negative;
// lower is better).
type Match struct {
	Rowid int64
	Rank  float64
}

// Posting keys pack a row's dense index, a column and a token offset.
const (
	offBits = 28
	colBits = 4
	maxCols = 1 << colBits
	maxOff  = 1<<offBits - 1
)

func key(doc uint32, col, off int) uint64 {
	return uint64(doc)<<(offBits+colBits) | uint64(col)<<offBits | uint64(off)
}

func keyDoc(k uint64) uint32 { return uint32(k >> (offBits + colBits)) }
func keyCol(k uint64) int    { return int(k>>offBits) & (maxCols - 1) }

// Builder collects an index's rows and token instances: the rows first
// (Row), then their instances (Add).
type Builder struct {
	weights   []float64
	rowids    []int64   // dense index → rowid
	lengths   []float64 // dense index → length
	dense     map[int64]uint32
	terms     map[string]int
	postings  [][]uint64
	instances int
	log       func(float64) float64
}

// NewBuilder starts an index whose columns have these bm25 weights (FTS5's
// bm25() arguments, one per column, in column order).
func NewBuilder(weights []float64) (*Builder, error) {
	if len(weights) == 0 || len(weights) > maxCols {
		return nil, fmt.Errorf("fulltext: %d columns (1 to %d)", len(weights), maxCols)
	}
	return &Builder{weights: slices.Clone(weights), dense: map[int64]uint32{}, terms: map[string]int{}}, nil
}

// Log sets the natural logarithm the IDF is computed with (math.Log when
// unset): to reproduce FTS5's scores to the last bit, the one the SQLite
// build calls.
func (bd *Builder) Log(f func(float64) float64) { bd.log = f }

// Row records a row and its length in tokens over all its columns (what
// FTS5's docsize table holds for it).
func (bd *Builder) Row(rowid, length int64) {
	if d, ok := bd.dense[rowid]; ok {
		bd.lengths[d] = float64(length)
		return
	}
	bd.dense[rowid] = uint32(len(bd.rowids))
	bd.rowids = append(bd.rowids, rowid)
	bd.lengths = append(bd.lengths, float64(length))
}

// Instances is the number of token instances added so far.
func (bd *Builder) Instances() int { return bd.instances }

// ErrInconsistent is Add's error for an instance of no row.
var ErrInconsistent = errors.New("fulltext: a token instance belongs to no row")

// Add records one instance of term at a token offset of a column of a row
// added before.
func (bd *Builder) Add(term []byte, rowid int64, col, off int) error {
	if col < 0 || col >= len(bd.weights) || off < 0 || off > maxOff {
		return fmt.Errorf("fulltext: instance of %q at column %d offset %d is out of range", term, col, off)
	}
	d, ok := bd.dense[rowid]
	if !ok {
		return fmt.Errorf("%w (rowid %d)", ErrInconsistent, rowid)
	}
	t, ok := bd.terms[string(term)]
	if !ok {
		t = len(bd.postings)
		bd.terms[string(term)] = t
		bd.postings = append(bd.postings, nil)
	}
	bd.postings[t] = append(bd.postings[t], key(d, col, off))
	bd.instances++
	return nil
}

// Build returns the index of the rows and instances added, with the
// table's totals as FTS5 keeps them (rows, and tokens over all columns):
// bm25's average row length is tokens / rows. The builder is spent.
func (bd *Builder) Build(rows, tokens int64) *Index {
	ix := &Index{weights: bd.weights, rowids: bd.rowids, lengths: bd.lengths, rows: rows, tokens: tokens, log: bd.log}
	if ix.log == nil {
		ix.log = math.Log
	}
	ix.terms = make([]string, 0, len(bd.terms))
	for t := range bd.terms {
		ix.terms = append(ix.terms, t)
	}
	sort.Strings(ix.terms)
	ix.postings = make([][]uint64, len(ix.terms))
	for i, t := range ix.terms {
		keys := bd.postings[bd.terms[t]]
		slices.Sort(keys)
		ix.postings[i] = slices.Clip(keys)
	}
	n := len(ix.rowids)
	ix.scratch.New = func() any { s := make([]float64, n); return &s }
	*bd = Builder{}
	return ix
}

// Index is a built index; safe for concurrent use.
type Index struct {
	weights  []float64
	terms    []string   // sorted
	postings [][]uint64 // per term, sorted keys
	rowids   []int64    // dense index → rowid
	lengths  []float64  // dense index → row length in tokens
	rows     int64
	tokens   int64
	log      func(float64) float64
	scratch  sync.Pool // *[]float64, one per row: a phrase's weighted frequencies
}

// Rows is the number of rows indexed.
func (ix *Index) Rows() int { return len(ix.rowids) }

// term returns the postings of term, or nil.
func (ix *Index) term(t string) []uint64 {
	i, ok := slices.BinarySearch(ix.terms, t)
	if !ok {
		return nil
	}
	return ix.postings[i]
}

// Has reports whether any row holds ph, without ranking: one look-up for a
// phrase of one token, the instances of the first token checked against
// the others' for a longer one. It is the cheap question "does any file
// contain this word" a search asks of each word it was given.
func (ix *Index) Has(ph Phrase) bool {
	found := false
	ix.instances(ph, func(uint64) { found = true })
	return found
}

// prefixed returns the postings of every term starting with p.
func (ix *Index) prefixed(p string) [][]uint64 {
	var out [][]uint64
	for i := sort.SearchStrings(ix.terms, p); i < len(ix.terms) && strings.HasPrefix(ix.terms[i], p); i++ {
		out = append(out, ix.postings[i])
	}
	return out
}

// instances calls fn with the key of every instance of ph (the key of its
// first token).
func (ix *Index) instances(ph Phrase, fn func(k uint64)) {
	n := len(ph.Tokens)
	if n == 0 {
		return
	}
	lists := make([][][]uint64, n)
	for i, t := range ph.Tokens {
		if i == n-1 && ph.Prefix {
			lists[i] = ix.prefixed(t)
		} else if p := ix.term(t); p != nil {
			lists[i] = [][]uint64{p}
		}
		if len(lists[i]) == 0 {
			return
		}
	}
	if n == 1 {
		for _, l := range lists[0] {
			for _, k := range l {
				fn(k)
			}
		}
		return
	}
	// The other tokens must sit at the following offsets of the same
	// column: look each one up. Only the last token can be a prefix of
	// several terms; it is looked up for the instances the others leave.
	exact := n
	if len(lists[n-1]) > 1 {
		exact = n - 1
	}
	var left []uint64 // instances waiting for the prefix
	for _, l := range lists[0] {
	next:
		for _, k := range l {
			if int(k&maxOff)+n-1 > maxOff {
				continue
			}
			for i := 1; i < exact; i++ {
				if _, ok := slices.BinarySearch(lists[i][0], k+uint64(i)); !ok {
					continue next
				}
			}
			if exact == n {
				fn(k)
			} else {
				left = append(left, k)
			}
		}
	}
	if len(left) == 0 {
		return
	}
	prefixFollows(left, lists[n-1], uint64(n-1), fn)
}

// prefixFollows calls fn, in order, with each of keys (sorted: the
// instances of a phrase's first token, one term) that has an instance of
// one of the prefix's terms (their postings: tails) at offset +off. A few
// keys are looked up in each term's postings; for many, each posting is
// looked up among the keys.
func prefixFollows(keys []uint64, tails [][]uint64, off uint64, fn func(k uint64)) {
	size := 0
	for _, l := range tails {
		size += len(l)
	}
	if len(keys)*len(tails) <= size {
		for _, k := range keys {
			for _, l := range tails {
				if _, ok := slices.BinarySearch(l, k+off); ok {
					fn(k)
					break
				}
			}
		}
		return
	}
	found := make([]bool, len(keys))
	for _, l := range tails {
		for _, t := range l {
			if t < off {
				continue
			}
			if i, ok := slices.BinarySearch(keys, t-off); ok {
				found[i] = true
			}
		}
	}
	for i, k := range keys {
		if found[i] {
			fn(k)
		}
	}
}

// Rank returns every row matching any of phrases, ranked as FTS5 ranks
// `MATCH 'p1 OR p2 …' ORDER BY bm25(t, weights…), rowid`, with the same
// bm25 values; accept (nil: every row) keeps only the rows it accepts,
// and at most limit are returned (limit <= 0: all), with the number of
// accepted matches.
func (ix *Index) Rank(phrases []Phrase, accept func(rowid int64) bool, limit int) (top []Match, total int) {
	if len(ix.rowids) == 0 || len(phrases) == 0 {
		return nil, 0
	}
	avgdl := float64(ix.tokens) / float64(ix.rows)
	freqs := make([][]float64, len(phrases))
	pooled := make([]*[]float64, len(phrases)) // freqs[i] is *pooled[i]
	idf := make([]float64, len(phrases))
	var touched []uint32
	seenBuf := ix.scratch.Get().(*[]float64)
	seen := *seenBuf // 1 for a row already in touched
	defer func() {
		for _, d := range touched {
			seen[d] = 0
		}
		ix.scratch.Put(seenBuf)
		for i, f := range freqs {
			if f != nil {
				clearRows(f, touched)
				ix.scratch.Put(pooled[i])
			}
		}
	}()
	for i, ph := range phrases {
		pooled[i] = ix.scratch.Get().(*[]float64)
		f := *pooled[i]
		freqs[i] = f
		var hits int64
		ix.instances(ph, func(k uint64) {
			d := keyDoc(k)
			if f[d] == 0 {
				hits++
			}
			f[d] += ix.weights[keyCol(k)]
			if seen[d] == 0 {
				seen[d] = 1
				touched = append(touched, d)
			}
		})
		// FTS5's IDF (fts5Bm25GetData): ln((N − n + 0.5) / (n + 0.5)), at
		// least 1e-6.
		v := ix.log((float64(ix.rows-hits) + float64(0.5)) / (float64(hits) + float64(0.5)))
		if v <= 0 {
			v = 1e-06
		}
		idf[i] = v
	}
	matches := make([]Match, 0, len(touched))
	for _, d := range touched {
		if accept != nil && !accept(ix.rowids[d]) {
			continue
		}
		D := ix.lengths[d]
		score := float64(0)
		for i := range phrases {
			f := freqs[i][d]
			if f == 0 {
				continue // FTS5 adds idf · 0 / x: the same sum
			}
			// fts5Bm25Function, operation for operation.
			score += float64(idf[i] * (float64(f*(k1+float64(1))) / (f + float64(k1*(float64(1)-b+float64(b*D)/avgdl)))))
		}
		matches = append(matches, Match{Rowid: ix.rowids[d], Rank: float64(-float64(1) * score)})
	}
	total = len(matches)
	less := func(a, b Match) int {
		if a.Rank != b.Rank {
			if a.Rank < b.Rank {
				return -1
			}
			return 1
		}
		if a.Rowid < b.Rowid {
			return -1
		}
		if a.Rowid > b.Rowid {
			return 1
		}
		return 0
	}
	if limit > 0 && limit < len(matches) {
		matches = topK(matches, limit, less)
	} else {
		slices.SortFunc(matches, less)
	}
	return matches, total
}

// topK returns the k smallest of ms by cmp, sorted.
func topK(ms []Match, k int, cmp func(a, b Match) int) []Match {
	out := make([]Match, 0, k+1)
	for _, m := range ms {
		if len(out) == k && cmp(m, out[k-1]) >= 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(out, m, cmp)
		out = slices.Insert(out, i, m)
		if len(out) > k {
			out = out[:k]
		}
	}
	return out
}

func clearRows(f []float64, rows []uint32) {
	for _, d := range rows {
		f[d] = 0
	}
}
