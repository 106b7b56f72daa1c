package search

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// KeystrokeIndex is what the per-keystroke path reads.
type KeystrokeIndex interface {
	KeywordIndex
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
	Stats(ctx context.Context) (store.Stats, error)
}

// KeystrokeRequest is one keystroke of a launcher (Alfred, Raycast).
type KeystrokeRequest struct {
	Query string
	Lang  string
	Now   time.Time
	Limit int
	// Sources limits the search to these sources (store.Filter.Sources);
	// none searches all.
	Sources []string
	// Folder limits the search to a folder and its subfolders (the
	// launcher's --folder / GDS_FOLDER); "" searches everything. It is
	// never loosened.
	Folder string
}

// KeystrokeResult is the answer to one keystroke.
type KeystrokeResult struct {
	Files []store.File
	// Indexed is false when the index holds no file at all.
	Indexed bool
	// Loosened lists the filters read from the query that matched nothing
	// and were dropped.
	Loosened []Loosening
	// FullText is set when nothing matched the keywords and the files are
	// the last resort: the ones sharing words with the typed text
	// (KeystrokePlan.Whole), which the user is told.
	FullText bool
	// Unmatched are the typed words no indexed file contains (the word
	// still being typed left out: TypedWords).
	Unmatched []Unmatched
}

// KeystrokePlan is what one keystroke searches for: the keyword query,
// and the looser one to run when it finds nothing (nil when there is
// none), with what that loosening drops. Pure: the analysis is given.
type KeystrokePlan struct {
	First    store.KeywordQuery
	Looser   *store.KeywordQuery
	Loosened []Loosening
	// Whole is the last resort when First and Looser find nothing: every
	// word of the typed text (QueryTerms) as an alternative, within the
	// folder only — the full loop's full-text fallback, for a compound the
	// rules kept whole (日本共産党副委員長) or words no file holds together.
	// nil when it would search what First or Looser did.
	Whole *store.KeywordQuery
}

// PlanKeystroke builds the keyword searches of a keystroke from the query
// analysis (TopOnly: a keystroke shows the best hits, never a count): the keywords with the analysis's filters inside the folder;
// when those filters match nothing, the keywords within the folder alone.
// A query of filter words only ("去年のPDF") lists the files its filters
// select, and when there are none, the files of the next looser filters
// (ai.Filters.Loosen: the period first), else the raw text as a keyword.
// The folder is never loosened. Pure: the analysis is given.
func PlanKeystroke(qa ai.QueryAnalysis, req KeystrokeRequest) KeystrokePlan {
	terms := qa.Keywords
	filterOnly := len(terms) == 0 && !qa.Filters.IsZero()
	if len(terms) == 0 && !filterOnly {
		terms = []string{req.Query}
	}
	query := func(c Conditions) store.KeywordQuery {
		f, err := Filter(c.Filters)
		if err != nil {
			f = store.Filter{Folder: store.CleanFolder(req.Folder)}
		}
		f.Sources = req.Sources
		return store.KeywordQuery{Terms: c.Keywords, Match: store.MatchAny, Filter: f, Limit: req.Limit, TopOnly: true}
	}
	first := Scoped(Conditions{Keywords: terms, Filters: qa.Filters}, req.Folder)
	p := KeystrokePlan{First: query(first)}
	looser := Scoped(Conditions{Keywords: terms}, req.Folder)
	if filterOnly {
		f, _ := qa.Filters.Loosen()
		if l := Scoped(Conditions{Filters: f}, req.Folder); l.Filters != looser.Filters {
			looser = l // still selects by a filter
		} else {
			looser.Keywords = []string{req.Query}
		}
	}
	if first.Filters != looser.Filters {
		q := query(looser)
		p.Looser = &q
		p.Loosened = Loosenings(Conditions{Filters: first.Filters}, Conditions{Filters: looser.Filters})
	}
	if words := QueryTerms(req.Query); len(words) > 0 {
		w := query(Scoped(Conditions{Keywords: words}, req.Folder))
		if !sameKeywordQuery(w, p.First) && (p.Looser == nil || !sameKeywordQuery(w, *p.Looser)) {
			p.Whole = &w
		}
	}
	return p
}

// sameKeywordQuery reports whether a and b search the same terms with the
// same filter.
func sameKeywordQuery(a, b store.KeywordQuery) bool {
	return slices.Equal(a.Terms, b.Terms) && reflect.DeepEqual(a.Filter, b.Filter)
}

// Keystroke answers one keystroke from the index alone: one keyword search
// for the keywords rules (the analyzer, normally the offline provider)
// find in the typed text — or the raw text — with their period and type
// filters; when the filters leave nothing, the keywords alone (and the
// result says which filters were dropped); when that finds nothing, the
// files sharing words with the typed text (FullText). It never calls a remote
// service, so it stays fast enough to run on every key. An empty index is
// reported as Indexed == false, with no error.
func Keystroke(ctx context.Context, ix KeystrokeIndex, analyzer ai.Provider, req KeystrokeRequest) (KeystrokeResult, error) {
	qa, err := ai.AnalyzeQuery(ctx, analyzer, ai.QueryInput{Query: req.Query, Now: req.Now, Lang: req.Lang})
	if err != nil {
		return KeystrokeResult{}, fmt.Errorf("analyse the query: %w", err)
	}
	plan := PlanKeystroke(qa, req)
	var out KeystrokeResult
	all := QueryWords(req.Query, qa.Keywords)
	if words := TypedWords(req.Query, all); len(words) > 0 {
		df, err := CountTerms(ctx, ix, WordTerms(words), true)
		if err != nil {
			return KeystrokeResult{}, err
		}
		unmatched := UnmatchedWords(words, df)
		var fixes map[string]string
		if len(unmatched) > 0 && inMemory(ix) {
			// Did you mean, on the keystroke too when the index answers
			// from memory (a few hundred look-ups cost microseconds there).
			if fixes, err = Correct(ctx, ix, req.Query, WordCheck{Words: words, DocFreq: df}); err != nil {
				return KeystrokeResult{}, err
			}
		}
		for _, w := range unmatched {
			out.Unmatched = append(out.Unmatched, Unmatched{Word: w, Suggestion: fixes[w]})
		}
		if len(fixes) > 0 {
			qa.Keywords = correctedKeywords(qa.Keywords, fixes)
			plan = PlanKeystroke(qa, req)
		}
		unmatched = slices.DeleteFunc(unmatched, func(w string) bool { return fixes[w] != "" })
		if len(words) == len(all) && allIn(all, unmatched) {
			// No file holds any typed word: files sharing the rest of the
			// text (a file extension, grammar) would be no match.
			plan.Whole = nil
		}
	}
	res, err := ix.KeywordSearch(ctx, plan.First)
	if err == nil && len(res.Hits) == 0 && plan.Looser != nil {
		res, err = ix.KeywordSearch(ctx, *plan.Looser)
		out.Loosened = plan.Loosened
	}
	if err == nil && len(res.Hits) == 0 && plan.Whole != nil {
		res, err = ix.KeywordSearch(ctx, *plan.Whole)
		out.FullText = len(res.Hits) > 0
	}
	if err != nil {
		return KeystrokeResult{}, fmt.Errorf("keyword search of the index: %w", err)
	}
	if len(res.Hits) == 0 {
		stats, err := ix.Stats(ctx)
		if err != nil {
			return KeystrokeResult{}, fmt.Errorf("read the index statistics: %w", err)
		}
		return KeystrokeResult{Indexed: stats.Files > 0, Unmatched: out.Unmatched}, nil
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	out.Files, err = ix.GetFiles(ctx, ids)
	if err != nil {
		return KeystrokeResult{}, fmt.Errorf("load the matches: %w", err)
	}
	out.Indexed = true
	return out, nil
}

// TypedWords are the words of a keystroke's query to check against the
// index: all of words but the last when the query ends inside it (no
// space or punctuation typed after it yet), since a word being typed
// ("eng" of "steam eng") is not one the user means.
func TypedWords(query string, words []string) []string {
	if len(words) == 0 {
		return words
	}
	q := []rune(tokenize.Normalize(query))
	if len(q) == 0 {
		return nil
	}
	last := q[len(q)-1]
	if !unicode.IsLetter(last) && !unicode.IsDigit(last) && last != 'ー' {
		return words
	}
	if strings.HasSuffix(string(q), tokenize.Normalize(words[len(words)-1])) {
		return words[:len(words)-1]
	}
	return words
}

// MemoryIndex is a keystroke index that may hold its full text in memory
// (the keystroke server's): InMemory reports whether it does now.
type MemoryIndex interface {
	InMemory() bool
}

// inMemory reports whether ix answers keyword searches from memory.
func inMemory(ix any) bool {
	m, ok := ix.(MemoryIndex)
	return ok && m.InMemory()
}

// correctedKeywords are kws with each corrected word replaced by its
// correction (kept once), and the corrections of words beyond them added.
func correctedKeywords(kws []string, fixes map[string]string) []string {
	var out []string
	for _, k := range kws {
		if to := fixes[k]; to != "" {
			k = to
		}
		if !containsFold(out, k) {
			out = append(out, k)
		}
	}
	words := make([]string, 0, len(fixes))
	for w := range fixes {
		words = append(words, w)
	}
	sort.Strings(words)
	for _, w := range words {
		if to := fixes[w]; !containsFold(out, to) {
			out = append(out, to)
		}
	}
	return out
}
