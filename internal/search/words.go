package search

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Unmatched is a word of the query that no indexed file contains. The
// search names it to the user (the loop's relaxation would otherwise drop it
// in silence); Suggestion is the index's close term the search used in its
// place, "" when there was none.
type Unmatched struct {
	Word       string `json:"word"`
	Suggestion string `json:"suggestion,omitempty"`
}

// WordCheck is what the index says of the query's words: the words
// checked (QueryWords) and the number of indexed files holding each word
// and each part of a compound (WordTerms). A nil DocFreq means the index
// could not count them; nothing is then called unmatched.
type WordCheck struct {
	Words   []string
	DocFreq map[string]int
	// Files is the number of indexed files when the count gave it (0
	// otherwise).
	Files int
	// Corrections maps an unmatched word to the close term of the index
	// that replaces it (Correct); none when nothing is close enough.
	Corrections map[string]string
}

// QueryWords are the words of a query checked against the index: the
// content words the query rules read (rules.ContentWords, every one,
// beyond the keyword cap) and the analysis's keywords among them or
// after them (a date kept as a keyword, a model's keyword), each once.
// Words without a search token (punctuation) and hiragana grammar
// (rules.IsGrammar: いつはじまったのか) are left out.
func QueryWords(query string, keywords []string) []string {
	var out []string
	for _, w := range append(rules.ContentWords(query), keywords...) {
		w = strings.TrimSpace(w)
		if w == "" || len(tokenize.IndexTokens(w)) == 0 || rules.IsGrammar(w) || containsFold(out, w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// WordTerms are the terms whose document frequencies decide which words
// matched (UnmatchedWords): each word, the script runs of each CJK
// compound (WordRuns), and every two-character window of a kanji run of
// three or more characters, each once.
func WordTerms(words []string) []string {
	var out []string
	add := func(t string) {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	for _, w := range words {
		add(w)
		runs := WordRuns(w)
		for _, r := range runs {
			if len(runs) > 1 {
				add(r.Text)
			}
			for _, win := range r.windows() {
				add(win)
			}
		}
	}
	return out
}

// WordRun is a run of one script in a CJK word: kanji, katakana (with ー),
// hiragana or Latin letters; digits and other characters separate runs and
// belong to none (a number is not a word to name).
type WordRun struct {
	Text  string
	Kanji bool
}

// windows are the two-character windows of a kanji run of three or more
// characters (none for other runs).
func (r WordRun) windows() []string {
	rs := []rune(r.Text)
	if !r.Kanji || len(rs) < 3 {
		return nil
	}
	out := make([]string, 0, len(rs)-1)
	for i := 0; i+1 < len(rs); i++ {
		out = append(out, string(rs[i:i+2]))
	}
	return out
}

// WordRuns are the script runs of a word holding CJK characters, in
// order; nil for a word without CJK.
func WordRuns(w string) []WordRun {
	const (
		none = iota
		kanji
		katakana
		hiragana
		latin
	)
	classOf := func(r rune) int {
		switch {
		case r == 'ー' || unicode.Is(unicode.Katakana, r):
			return katakana
		case unicode.Is(unicode.Han, r) || r == '々':
			return kanji
		case unicode.Is(unicode.Hiragana, r):
			return hiragana
		case unicode.IsLetter(r):
			return latin
		}
		return none
	}
	var out []WordRun
	cjk := false
	cur, curClass := []rune(nil), none
	flush := func() {
		if len(cur) > 0 && curClass != none {
			out = append(out, WordRun{Text: string(cur), Kanji: curClass == kanji})
		}
		cur = nil
	}
	for _, r := range w {
		c := classOf(r)
		if c == kanji || c == katakana || c == hiragana {
			cjk = true
		}
		if c != curClass {
			flush()
			curClass = c
		}
		if c != none {
			cur = append(cur, r)
		}
	}
	flush()
	if !cjk {
		return nil
	}
	return out
}

// UnmatchedWords are the words (in order) that no indexed file contains,
// by df (WordTerms' document frequencies). A word counted more than 0 is
// found. A CJK word no file holds whole is judged by its script runs: a
// kanji run of three or more characters is found when one of its
// two-character windows is (支部名 holds 支部: the loop finds it by its
// parts, and 名 is no word to name), any other run when it is found
// whole. The runs not found are named (東京ズヴォルク大学 → ズヴォルク); the
// word itself when none of its runs is found, or when it is one run. A
// term df does not hold is taken as found.
func UnmatchedWords(words []string, df map[string]int) []string {
	var out []string
	add := func(w string) {
		if !containsFold(out, w) {
			out = append(out, w)
		}
	}
	zero := func(t string) bool { n, ok := df[t]; return ok && n == 0 }
	found := func(r WordRun) bool {
		if !zero(r.Text) {
			return true
		}
		for _, win := range r.windows() {
			if !zero(win) {
				return true
			}
		}
		return false
	}
	for _, w := range words {
		if !zero(w) {
			continue
		}
		runs := WordRuns(w)
		if len(runs) == 0 {
			add(w)
			continue
		}
		if len(runs) == 1 {
			if !found(runs[0]) {
				add(w)
			}
			continue
		}
		var missing []string
		for _, r := range runs {
			if !found(r) {
				missing = append(missing, r.Text)
			}
		}
		if len(missing) == len(runs) {
			add(w)
			continue
		}
		for _, m := range missing {
			add(m)
		}
	}
	return out
}

// applyCheck records what the index said of the query's words in s: the
// words, the unmatched ones (with their corrections) and the keywords
// left to search — the unmatched keywords dropped (no file can match them)
// or replaced by their corrections. When no keyword is left, the query's
// matched words take their place (a query's words beyond the keyword cap);
// when none matched, the conditions keep no keyword and the search ends
// not found, naming the words.
func applyCheck(s State, c WordCheck) State {
	if c.DocFreq == nil {
		return s
	}
	s.Words = slices.Clone(c.Words)
	unmatched := UnmatchedWords(c.Words, c.DocFreq)
	s.Unmatched = nil
	for _, w := range unmatched {
		s.Unmatched = append(s.Unmatched, Unmatched{Word: w, Suggestion: c.Corrections[w]})
	}
	if len(unmatched) == 0 {
		return s
	}
	var kws []string
	for _, k := range s.Cond.Keywords {
		if to := c.Corrections[k]; to != "" {
			k = to
		} else if containsFold(unmatched, k) {
			continue
		}
		if !containsFold(kws, k) {
			kws = append(kws, k)
		}
	}
	if len(kws) == 0 {
		for _, w := range c.Words {
			if !containsFold(unmatched, w) && len(kws) < rules.MaxKeywords {
				kws = append(kws, w)
			}
		}
	}
	s.Cond.Keywords = kws
	return s
}

// CheckedQuery is what the index said of a query's words for a surface
// that searches without the loop (the HTTP API's chunk search): a state
// holding the query, its words, the unmatched ones with their
// corrections, and in Cond.Keywords the keywords left to search (as the
// loop's first round takes them: applyCheck). Its SearchQuery is the
// query to rank by, InsteadQuery the way back, NothingMatched whether the
// index holds none of the words.
func CheckedQuery(query string, keywords []string, c WordCheck) State {
	return applyCheck(State{Query: query, Cond: Conditions{Keywords: slices.Clone(keywords)}}, c)
}

// NothingMatched reports whether the index holds none of the query's
// words: every word checked is unmatched and none was corrected. Such a
// search ends "No files found" naming the words, without the full-text
// last resort, whose files would share only the question's other words.
func (s State) NothingMatched() bool {
	var plain []string
	for _, u := range s.Unmatched {
		if u.Suggestion == "" {
			plain = append(plain, u.Word)
		}
	}
	return len(s.Words) > 0 && allIn(s.Words, plain)
}

// allIn reports whether every word is among xs (case-insensitive).
func allIn(words, xs []string) bool {
	for _, w := range words {
		if !containsFold(xs, w) {
			return false
		}
	}
	return true
}

// UnmatchedText says which words no file contains, in the user's
// language ("" for none); words with a suggestion are left out (the
// correction notice names them).
func UnmatchedText(us []Unmatched, lang string) string {
	var ws []string
	for _, u := range us {
		if u.Suggestion == "" {
			ws = append(ws, u.Word)
		}
	}
	if len(ws) == 0 {
		return ""
	}
	return unmatchedMessage(ws, lang)
}

// DocFreqCounter is an index that counts the reranker's document
// frequencies in one call: how many files each term matches (as
// KeywordSearch's Total for the term alone, MatchAny, no filter) and how
// many files are indexed. Without it the loop counts them with one
// KeywordSearch per term, which also ranks every match.
type DocFreqCounter interface {
	DocFreqs(ctx context.Context, terms []string) (df map[string]int, files int, err error)
}

// TermChecker is an index that says, cheaply, whether any file holds each
// term (a resident full text: no ranking). ok is false when it cannot say
// now; the search then asks KeywordSearch.
type TermChecker interface {
	HasTerms(ctx context.Context, terms []string) (has map[string]bool, ok bool, err error)
}

// CountTerms returns the number of indexed files holding each term (a
// phrase of its tokens, as a keyword is searched): with one DocFreqs call
// when ix can count, else one KeywordSearch per term. present asks only
// whether a term is found: the count is then 0 or 1 (a TopOnly search
// of one hit, which a resident index answers from memory). nil when ix
// has no full-text search.
func CountTerms(ctx context.Context, ix any, terms []string, present bool) (map[string]int, error) {
	if len(terms) == 0 {
		return map[string]int{}, nil
	}
	df, _, err := countTerms(ctx, ix, terms, present)
	return df, err
}

// countTerms is CountTerms, also returning the number of indexed files
// when the index counted them in the same call (0 otherwise).
func countTerms(ctx context.Context, ix any, terms []string, present bool) (map[string]int, int, error) {
	if len(terms) == 0 {
		return map[string]int{}, 0, nil
	}
	if tc, ok := ix.(TermChecker); ok && present {
		has, ok, err := tc.HasTerms(ctx, terms)
		if err != nil {
			return nil, 0, fmt.Errorf("look the query's words up: %w", err)
		}
		if ok {
			df := make(map[string]int, len(terms))
			for _, t := range terms {
				if has[t] {
					df[t] = 1
				} else {
					df[t] = 0
				}
			}
			return df, 0, nil
		}
	}
	if dc, ok := ix.(DocFreqCounter); ok && !present {
		df, files, err := dc.DocFreqs(ctx, terms)
		if err != nil {
			return nil, 0, fmt.Errorf("count the files holding the query's words: %w", err)
		}
		return df, files, nil
	}
	ki, ok := ix.(KeywordIndex)
	if !ok {
		return nil, 0, nil
	}
	df := make(map[string]int, len(terms))
	for _, t := range terms {
		r, err := ki.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{t}, Match: store.MatchAny, Limit: 1, TopOnly: present})
		if err != nil {
			return nil, 0, fmt.Errorf("count the files holding %q: %w", t, err)
		}
		df[t] = max(r.Total, len(r.Hits))
	}
	return df, 0, nil
}

// CheckWords looks the query's words up in ix: QueryWords of the query and
// the analysis's keywords, counted by CountTerms. A nil DocFreq in the
// result means ix cannot say.
func CheckWords(ctx context.Context, ix any, query string, keywords []string, present bool) (WordCheck, error) {
	words := QueryWords(query, keywords)
	if len(words) == 0 {
		return WordCheck{}, nil
	}
	df, files, err := countTerms(ctx, ix, WordTerms(words), present)
	if err != nil || df == nil {
		return WordCheck{}, err
	}
	return WordCheck{Words: words, DocFreq: df, Files: files}, nil
}

// unmatchedMessage is "No file contains ‘a’, ‘b’" in lang.
func unmatchedMessage(ws []string, lang string) string {
	return i18n.T(lang, "search.unmatched", QuoteWords(ws, lang))
}

// QuoteWords quotes each word as lang quotes a word and joins them
// (‘a’, ‘b’ / 「a」「b」).
func QuoteWords(ws []string, lang string) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = i18n.T(lang, "search.word.quote", w)
	}
	return strings.Join(parts, i18n.T(lang, "search.word.sep"))
}
