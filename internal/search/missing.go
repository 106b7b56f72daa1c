package search

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
)

// PartialTop is how many of the best results PartialWords looks at.
const PartialTop = 3

// MissingTerms are the words each result is checked for: the keywords the
// search looked for first, a CJK compound by its parts (a file holding 最大
// and 都市 apart matches フランス最大都市 as the loop searches it), each
// once.
func MissingTerms(keywords []string) []string {
	var out []string
	for _, k := range keywords {
		parts := SplitCompound(k)
		if len(parts) < 2 {
			parts = []string{k}
		}
		for _, p := range parts {
			if !containsFold(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// MissingFrom lists the terms (in order) a file does not hold, given the
// files holding each term.
func MissingFrom(terms []string, holders map[string]map[string]bool, id string) []string {
	var out []string
	for _, t := range terms {
		if !holders[t][id] {
			out = append(out, t)
		}
	}
	return out
}

// WeakCoverage is the share of the query's term weight that the best of
// its PartialTop first results must hold for the match not to be weak: a
// term weighs its inverse document frequency, log((files+1)/(df+0.5)), so
// a rare word counts more than a common one. Chosen on the dev splits of
// the retrieval benchmarks (docs/BENCHMARKS.md, "Honest search").
const WeakCoverage = 0.6

// Coverage is the share of the terms' weight (inverse document frequency
// over files indexed files) a result missing the terms missing holds.
func Coverage(terms []string, df map[string]int, files int, missing []string) float64 {
	var total, lacked float64
	for _, t := range terms {
		w := idf(df[t], files)
		total += w
		if containsFold(missing, t) {
			lacked += w
		}
	}
	if total <= 0 {
		return 1
	}
	return 1 - lacked/total
}

// idf is a term's inverse document frequency (at least a small positive
// weight, so that every term counts).
func idf(df, files int) float64 {
	return max(math.Log(float64(files+1)/(float64(df)+0.5)), 0.05)
}

// Partial reports whether the match is weak (PartialWords).
func Partial(terms []string, df map[string]int, files int, missing [][]string) bool {
	return len(PartialWords(terms, df, files, missing)) > 0
}

// PartialWords decides whether a search's match is weak: even the best of
// its first PartialTop results (missing holds each result's missing terms,
// best first) holds less than WeakCoverage of the query's term weight
// (Coverage). It returns the terms that best result lacks — what the
// files found do not share with the question — or nil when the match is
// not weak. A query of one term is never weak (its results hold it, or
// say they do not).
func PartialWords(terms []string, df map[string]int, files int, missing [][]string) []string {
	if len(terms) < 2 || len(missing) == 0 {
		return nil
	}
	best, bestCov := -1, -1.0
	for i, m := range missing[:min(len(missing), PartialTop)] {
		if c := Coverage(terms, df, files, m); c > bestCov {
			best, bestCov = i, c
		}
	}
	if bestCov >= WeakCoverage {
		return nil
	}
	return slices.Clone(missing[best])
}

// Holders finds, among the files ids, those holding each term (a phrase
// of its tokens, as a keyword is searched): one keyword search per term
// restricted to ids (not TopOnly: the store then checks the few files
// passing the filter instead of walking the term's matches). nil when ix
// has no full-text search.
func Holders(ctx context.Context, ix any, terms, ids []string) (map[string]map[string]bool, error) {
	ki, ok := ix.(KeywordIndex)
	if !ok || len(ids) == 0 {
		return nil, nil
	}
	out := make(map[string]map[string]bool, len(terms))
	for _, t := range terms {
		r, err := ki.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{t}, Match: store.MatchAny,
			Filter: store.Filter{IDs: ids}, Limit: len(ids)})
		if err != nil {
			return nil, fmt.Errorf("find the results holding %q: %w", t, err)
		}
		held := make(map[string]bool, len(r.Hits))
		for _, h := range r.Hits {
			held[h.ID] = true
		}
		out[t] = held
	}
	return out, nil
}

// markMissing sets each result's Missing words and returns what the weak
// match judgement read (MissingWords over the terms of the first round's
// keywords, MissingTerms). Without a full-text index nothing is marked.
func markMissing(ctx context.Context, ix any, s State, res []Result, known map[string]int, files int) (Weakness, error) {
	if len(s.Rounds) == 0 || len(res) == 0 {
		return Weakness{}, nil
	}
	ids := make([]string, len(res))
	for i, r := range res {
		ids[i] = r.File.ID
	}
	missing, w, err := MissingWords(ctx, ix, MissingTerms(s.Rounds[0].Conditions.Keywords), ids, known, files)
	if err != nil || missing == nil {
		return Weakness{}, err
	}
	for i := range res {
		res[i].Missing = missing[i]
	}
	return w, nil
}

// MissingWords checks the files ids (the results' files, best first; a
// file may repeat, as chunks of one file do) for terms: the terms each
// does not hold (MissingFrom, in order of ids), and what the weak-match
// judgement read — the terms' index counts (CountTerms; known: counts
// already made, by the word check; files: the indexed files, 0 when not
// known) and the words of a Partial match (PartialWords; nil when it is
// not). missing is nil when ix has no full-text search.
func MissingWords(ctx context.Context, ix any, terms, ids []string, known map[string]int, files int) (missing [][]string, w Weakness, err error) {
	if len(ids) == 0 {
		return nil, Weakness{}, nil
	}
	held, err := Holders(ctx, ix, terms, uniq(ids))
	if err != nil || held == nil {
		return nil, Weakness{}, err
	}
	missing = make([][]string, len(ids))
	for i, id := range ids {
		missing[i] = MissingFrom(terms, held, id)
	}
	var unknown []string
	for _, t := range terms {
		if _, ok := known[t]; !ok {
			unknown = append(unknown, t)
		}
	}
	df, counted, err := countTerms(ctx, ix, unknown, false)
	if err != nil {
		return nil, Weakness{}, err
	}
	if files <= 0 {
		files = counted
	}
	if df == nil {
		df = map[string]int{}
	}
	for _, t := range terms {
		if n, ok := known[t]; ok {
			df[t] = n
		}
	}
	if files <= 0 {
		if files, err = indexedFiles(ctx, ix, df); err != nil {
			return nil, Weakness{}, err
		}
	}
	return missing, Weakness{Terms: terms, DocFreq: df, Files: files, Partial: PartialWords(terms, df, files, missing)}, nil
}

// uniq is ids without repeats, in order.
func uniq(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// Weakness is what the weak-match judgement of a search read and decided:
// the terms each result was checked for, how many indexed files hold each,
// and the most specific words the best results each miss when the match is
// partial (nil otherwise).
type Weakness struct {
	Terms   []string
	DocFreq map[string]int
	Files   int // indexed files
	Partial []string
}

// indexedFiles is the number of indexed files: as DocFreqs counts them, or
// the store's statistics; failing both, ten times the largest count in df
// (the weights then only compare the terms with each other).
func indexedFiles(ctx context.Context, ix any, df map[string]int) (int, error) {
	if dc, ok := ix.(DocFreqCounter); ok {
		_, n, err := dc.DocFreqs(ctx, nil)
		if err != nil {
			return 0, fmt.Errorf("count the indexed files: %w", err)
		}
		return n, nil
	}
	if sx, ok := ix.(interface {
		Stats(ctx context.Context) (store.Stats, error)
	}); ok {
		st, err := sx.Stats(ctx)
		if err != nil {
			return 0, fmt.Errorf("count the indexed files: %w", err)
		}
		return st.Files, nil
	}
	most := 1
	for _, n := range df {
		most = max(most, n)
	}
	return 10 * most, nil
}

// MissingText says a result's missing words ("Missing: watt, steam"); ""
// for none.
func MissingText(ws []string, lang string) string {
	if len(ws) == 0 {
		return ""
	}
	return i18n.T(lang, "search.missing", strings.Join(ws, i18n.T(lang, "search.missing.sep")))
}

// PartialText says that the match is weak, naming the words ("" when it
// is not partial).
func PartialText(ws []string, lang string) string {
	if len(ws) == 0 {
		return ""
	}
	return i18n.T(lang, "search.partial", QuoteWords(ws, lang))
}
