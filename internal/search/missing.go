package search

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
)

// PartialTop is how many of the best results Partial looks at.
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

// SpecificTerms are the query's most specific terms: the half of terms
// (rounded up) held by the fewest indexed files (df), ties in query order.
// A term df does not count is taken as common.
func SpecificTerms(terms []string, df map[string]int) []string {
	if len(terms) == 0 {
		return nil
	}
	order := slices.Clone(terms)
	count := func(t string) int {
		if n, ok := df[t]; ok {
			return n
		}
		return int(^uint(0) >> 1)
	}
	sort.SliceStable(order, func(i, j int) bool { return count(order[i]) < count(order[j]) })
	return order[:(len(order)+1)/2]
}

// Partial reports whether a search's best results (PartialTop of them)
// each miss at least one of the query's most specific terms
// (SpecificTerms): the files found share the query's common words, not
// what singles out its answer. missing holds each result's missing terms,
// best first. A query of one term is never partial (its results hold it,
// or say they do not).
func Partial(terms []string, df map[string]int, missing [][]string) bool {
	return len(PartialWords(terms, df, missing)) > 0
}

// PartialWords are the most specific terms the best results each miss
// part of when the match is Partial; nil otherwise.
func PartialWords(terms []string, df map[string]int, missing [][]string) []string {
	if len(terms) < 2 || len(missing) == 0 {
		return nil
	}
	specific := SpecificTerms(terms, df)
	for _, m := range missing[:min(len(missing), PartialTop)] {
		if !slices.ContainsFunc(m, func(t string) bool { return containsFold(specific, t) }) {
			return nil
		}
	}
	var out []string // in query order
	for _, t := range terms {
		if containsFold(specific, t) {
			out = append(out, t)
		}
	}
	return out
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
// match judgement read: the terms the results were checked for
// (MissingTerms of the first round's keywords), their index counts
// (CountTerms; known: counts already made, by the word check), and the
// words of a Partial match (PartialWords; nil when it is not). Without a
// full-text index nothing is marked.
func markMissing(ctx context.Context, ix any, s State, res []Result, known map[string]int) (Weakness, error) {
	if len(s.Rounds) == 0 || len(res) == 0 {
		return Weakness{}, nil
	}
	terms := MissingTerms(s.Rounds[0].Conditions.Keywords)
	ids := make([]string, len(res))
	for i, r := range res {
		ids[i] = r.File.ID
	}
	held, err := Holders(ctx, ix, terms, ids)
	if err != nil || held == nil {
		return Weakness{}, err
	}
	missing := make([][]string, len(res))
	for i := range res {
		res[i].Missing = MissingFrom(terms, held, res[i].File.ID)
		missing[i] = res[i].Missing
	}
	var unknown []string
	for _, t := range terms {
		if _, ok := known[t]; !ok {
			unknown = append(unknown, t)
		}
	}
	df, err := CountTerms(ctx, ix, unknown, false)
	if err != nil {
		return Weakness{}, err
	}
	if df == nil {
		df = map[string]int{}
	}
	for _, t := range terms {
		if n, ok := known[t]; ok {
			df[t] = n
		}
	}
	return Weakness{Terms: terms, DocFreq: df, Partial: PartialWords(terms, df, missing)}, nil
}

// Weakness is what the weak-match judgement of a search read and decided:
// the terms each result was checked for, how many indexed files hold each,
// and the most specific words the best results each miss when the match is
// partial (nil otherwise).
type Weakness struct {
	Terms   []string
	DocFreq map[string]int
	Partial []string
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
	if len(ws) == 1 {
		return i18n.T(lang, "search.partial.one", QuoteWords(ws, lang))
	}
	return i18n.T(lang, "search.partial.many", QuoteWords(ws, lang))
}
