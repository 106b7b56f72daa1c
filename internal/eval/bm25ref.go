package eval

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/gds-cli/gds/internal/extract"
)

// The reference BM25 of the benchmark data (the benchmark data's README,
// "Reference figures"): k1 1.2, b 0.75; text NFKC-normalised and lower-cased;
// Japanese as character bigrams, English as words minus a short stop-word
// list. It ranks in memory over the corpus text, independent of gds's index,
// so `gds eval --baseline bm25` measures gds against the same baseline the
// benchmark's figures come from. `--baseline fts5` is the store's own
// keyword search (BM25 in SQLite's FTS5 over gds's tokenizer), kept to
// compare with.
const (
	refK1 = 1.2
	refB  = 0.75
)

// refStopWords is the short English stop-word list of the reference BM25:
// articles, auxiliaries, pronouns, prepositions, conjunctions and the
// question words every query starts with.
// Built on first use: nothing runs at package initialisation.
var refStopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(refStopList) {
		m[w] = true
	}
	return m
})

const refStopList = `a an the of in on at to for by with from as into about and or but
is are was were be been being do does did has have had what which who whom whose when where why how
that this these those it its his her their they he she them there than then so not no`

// RefTokens is the reference BM25's tokenisation of a text: NFKC, lower
// case; every maximal run of letters and digits that holds a Han, Hiragana
// or Katakana character becomes its character bigrams (a one-character run
// stays a unigram), every other run is a word, kept unless it is a stop word.
func RefTokens(text string) []string {
	text = strings.ToLower(norm.NFKC.String(text))
	stop := refStopWords()
	var out []string
	var run []rune
	flush := func() {
		if len(run) == 0 {
			return
		}
		cjk := false
		for _, r := range run {
			if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー' {
				cjk = true
				break
			}
		}
		switch {
		case !cjk:
			if w := string(run); !stop[w] {
				out = append(out, w)
			}
		case len(run) == 1:
			out = append(out, string(run))
		default:
			for i := 0; i+1 < len(run); i++ {
				out = append(out, string(run[i:i+2]))
			}
		}
		run = run[:0]
	}
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r) {
			run = append(run, r)
			continue
		}
		flush()
	}
	flush()
	return out
}

// RefBM25 is the reference BM25 index over a corpus held in memory.
type RefBM25 struct {
	names  []string
	tf     []map[string]int
	length []int
	df     map[string]int
	avgLen float64
}

// NewRefBM25 indexes documents (name → text).
func NewRefBM25(docs map[string]string) *RefBM25 {
	ix := &RefBM25{df: map[string]int{}}
	names := make([]string, 0, len(docs))
	for n := range docs {
		names = append(names, n)
	}
	sort.Strings(names)
	total := 0
	for _, n := range names {
		toks := RefTokens(docs[n])
		tf := make(map[string]int, len(toks))
		for _, t := range toks {
			tf[t]++
		}
		for t := range tf {
			ix.df[t]++
		}
		ix.names = append(ix.names, n)
		ix.tf = append(ix.tf, tf)
		ix.length = append(ix.length, len(toks))
		total += len(toks)
	}
	if len(names) > 0 {
		ix.avgLen = float64(total) / float64(len(names))
	}
	return ix
}

// Rank returns the names of the top k documents for the query, best first
// (ties by name); documents that share no term with the query are left out.
func (ix *RefBM25) Rank(query string, k int) []string {
	seen := map[string]bool{}
	var terms []string
	for _, t := range RefTokens(query) {
		if !seen[t] {
			seen[t] = true
			terms = append(terms, t)
		}
	}
	type scored struct {
		i int
		s float64
	}
	var hits []scored
	for i := range ix.tf {
		s := ix.score(i, terms)
		if s > 0 {
			hits = append(hits, scored{i, s})
		}
	}
	sort.Slice(hits, func(a, b int) bool {
		if hits[a].s != hits[b].s {
			return hits[a].s > hits[b].s
		}
		return ix.names[hits[a].i] < ix.names[hits[b].i]
	})
	if len(hits) > k {
		hits = hits[:k]
	}
	out := make([]string, len(hits))
	for j, h := range hits {
		out[j] = ix.names[h.i]
	}
	return out
}

// score is document i's BM25 score for the distinct query terms.
func (ix *RefBM25) score(i int, terms []string) float64 {
	n := float64(len(ix.names))
	s := 0.0
	for _, t := range terms {
		f := ix.tf[i][t]
		if f == 0 {
			continue
		}
		df := float64(ix.df[t])
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		ff := float64(f)
		s += idf * ff * (refK1 + 1) / (ff + refK1*(1-refB+refB*float64(ix.length[i])/ix.avgLen))
	}
	return s
}

// RefBM25System is the reference BM25 as an evaluation system.
type RefBM25System struct {
	Index *RefBM25
}

// Name implements System.
func (RefBM25System) Name() string { return "bm25" }

// Provider implements System.
func (RefBM25System) Provider() string { return "" }

// Search implements System.
func (s RefBM25System) Search(_ context.Context, query string) (Ranked, error) {
	files := s.Index.Rank(query, TopK)
	r := Ranked{End: "not_found", Files: files}
	if len(files) > 0 {
		r.End = "results"
	}
	return r, nil
}

// ReadCorpus reads every file of the corpus folder the local source would
// list (hidden files and folders skipped) as text, keyed by file name;
// files whose content cannot be extracted are left out. The reference
// BM25 ranks these texts.
func ReadCorpus(ctx context.Context, dir string) (map[string]string, error) {
	docs := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		doc, err := extract.Extract(ctx, extract.MimeTypeByName(d.Name()), f, 0)
		f.Close()
		if err != nil {
			return nil // not extractable: not in the baseline's corpus, as not in gds's
		}
		if _, dup := docs[d.Name()]; !dup {
			docs[d.Name()] = doc.Text()
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the corpus %q: %w", dir, err)
	}
	return docs, nil
}
