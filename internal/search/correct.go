package search

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Did you mean: a word no indexed file contains is replaced by a close
// term of the index's own vocabulary, so a typo (engnie, reapir) finds
// what the word meant. The candidates are every spelling one edit away
// (a letter dropped, added, substituted, or two adjacent letters swapped:
// Damerau–Levenshtein distance 1, Norvig's generation) of a Latin word of
// MinCorrectLen letters or more, and for a Japanese word the kana variants
// the tokenizer keeps apart (katakana ↔ hiragana, a final long-vowel mark
// added or dropped, ヴ → バ行). Each is looked up in the index as the
// keyword search would search it; among those the index holds, the one
// sharing the most files with the query's other matched words wins, then
// the one more files hold (frequency-weighted), then the first generated.
// A word written in double quotes ("engnie") is never corrected: that is
// the way back ("search instead for").

// MinCorrectLen is the fewest letters of a Latin word that is corrected
// (shorter words have too many neighbours one edit away).
const MinCorrectLen = 4

// maxCandidateTerms bounds the terms looked up for one word.
const maxCandidateTerms = 600

// Candidate is a spelling the index may hold in place of a word, and the
// term the index is asked for (its search form).
type Candidate struct {
	Spelling string
	Term     string
}

// Candidates are the corrections to look up for word, in order of
// preference among equals (transpositions first, then substitutions,
// deletions, insertions), one per search term; none for a word that is
// not corrected (too short, digits, mixed scripts).
func Candidates(word string) []Candidate {
	w := tokenize.Normalize(word)
	if w == "" {
		return nil
	}
	var out []Candidate
	seen := map[string]bool{}
	add := func(s string) {
		if s == w || s == "" {
			return
		}
		toks := tokenize.IndexTokens(s)
		if len(toks) == 0 {
			return
		}
		term := strings.Join(toks, " ")
		if seen[term] || term == strings.Join(tokenize.IndexTokens(w), " ") {
			return
		}
		seen[term] = true
		out = append(out, Candidate{Spelling: s, Term: s})
	}
	switch {
	case isLatinWord(w):
		if utf8.RuneCountInString(w) < MinCorrectLen {
			return nil
		}
		for _, s := range edits1(w) {
			add(s)
		}
	case isKanaWord(w):
		for _, s := range kanaVariants(w) {
			add(s)
		}
	}
	if len(out) > maxCandidateTerms {
		out = out[:maxCandidateTerms]
	}
	return out
}

// isLatinWord reports whether w is letters a–z only.
func isLatinWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return w != ""
}

// isKanaWord reports whether w holds kana (and maybe kanji), no Latin
// letter or digit.
func isKanaWord(w string) bool {
	kana := false
	for _, r := range w {
		switch {
		case unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || r == 'ー':
			kana = true
		case unicode.Is(unicode.Han, r):
		default:
			return false
		}
	}
	return kana
}

// edits1 are the spellings one edit from w (a–z), transpositions first,
// then substitutions, deletions and insertions.
func edits1(w string) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	var out []string
	for i := 0; i+1 < len(w); i++ {
		if w[i] != w[i+1] {
			out = append(out, w[:i]+string(w[i+1])+string(w[i])+w[i+2:])
		}
	}
	for i := 0; i < len(w); i++ {
		for j := 0; j < len(letters); j++ {
			if letters[j] != w[i] {
				out = append(out, w[:i]+string(letters[j])+w[i+1:])
			}
		}
	}
	for i := 0; i < len(w); i++ {
		out = append(out, w[:i]+w[i+1:])
	}
	for i := 0; i <= len(w); i++ {
		for j := 0; j < len(letters); j++ {
			out = append(out, w[:i]+string(letters[j])+w[i:])
		}
	}
	return out
}

// kanaVariants are the spellings of a Japanese word the tokenizer keeps
// apart: katakana ↔ hiragana, a final long-vowel mark added or dropped,
// ヴ written with バ行.
func kanaVariants(w string) []string {
	var out []string
	conv := func(from, to rune, delta rune) string {
		var b strings.Builder
		changed := false
		for _, r := range w {
			if r >= from && r <= to {
				r += delta
				changed = true
			}
			b.WriteRune(r)
		}
		if !changed {
			return ""
		}
		return b.String()
	}
	// Hiragana ぁ..ゖ and katakana ァ..ヶ are 0x60 apart.
	out = append(out, conv('ァ', 'ヶ', -0x60), conv('ぁ', 'ゖ', 0x60))
	if strings.HasSuffix(w, "ー") {
		out = append(out, strings.TrimSuffix(w, "ー"))
	} else if r, _ := utf8.DecodeLastRuneInString(w); unicode.Is(unicode.Katakana, r) {
		out = append(out, w+"ー")
	}
	if strings.ContainsRune(w, 'ヴ') {
		out = append(out, strings.NewReplacer("ヴァ", "バ", "ヴィ", "ビ", "ヴェ", "ベ", "ヴォ", "ボ", "ヴ", "ブ").Replace(w))
	}
	return out
}

// PickCorrection chooses among the candidates the index holds: the one
// sharing the most files with the query's other words (cooc), then the one
// the most files hold (df), then the first. ok is false when the index
// holds none.
func PickCorrection(cands []Candidate, df, cooc map[string]int) (Candidate, bool) {
	best, ok := Candidate{}, false
	for _, c := range cands {
		if df[c.Term] <= 0 {
			continue
		}
		if !ok || cooc[c.Term] > cooc[best.Term] || cooc[c.Term] == cooc[best.Term] && df[c.Term] > df[best.Term] {
			best, ok = c, true
		}
	}
	return best, ok
}

// Correct finds the corrections of the check's unmatched words (those not
// quoted in the query) in the index ix: each word's candidates counted in
// one call (CountTerms), the found ones scored by the files they share
// with the query's matched words. It returns word → correction.
func Correct(ctx context.Context, ix any, query string, check WordCheck) (map[string]string, error) {
	unmatched := UnmatchedWords(check.Words, check.DocFreq)
	if len(unmatched) == 0 {
		return nil, nil
	}
	quoted := QuotedWords(query)
	var matched []string
	for _, w := range check.Words {
		if !containsFold(unmatched, w) {
			matched = append(matched, w)
		}
	}
	out := map[string]string{}
	for _, w := range unmatched {
		if containsFold(quoted, w) {
			continue
		}
		cands := Candidates(w)
		if len(cands) == 0 {
			continue
		}
		terms := make([]string, len(cands))
		for i, c := range cands {
			terms[i] = c.Term
		}
		df, err := CountTerms(ctx, ix, terms, false)
		if err != nil || df == nil {
			return nil, err
		}
		cooc, err := cooccurrence(ctx, ix, cands, df, matched)
		if err != nil {
			return nil, err
		}
		if c, ok := PickCorrection(cands, df, cooc); ok {
			spelling, err := surfaceForm(ctx, ix, w, c)
			if err != nil {
				return nil, err
			}
			out[w] = MatchCase(w, spelling)
		}
	}
	return out, nil
}

// cooccurrence counts, for each candidate the index holds, the files
// holding it and any of the matched words.
func cooccurrence(ctx context.Context, ix any, cands []Candidate, df map[string]int, matched []string) (map[string]int, error) {
	ki, ok := ix.(KeywordIndex)
	if !ok || len(matched) == 0 {
		return nil, nil
	}
	out := map[string]int{}
	for _, c := range cands {
		if df[c.Term] <= 0 {
			continue
		}
		n := 0
		for _, m := range matched {
			r, err := ki.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{c.Term, m}, Match: store.MatchAll, Limit: 1})
			if err != nil {
				return nil, fmt.Errorf("count the files holding %q and %q: %w", c.Term, m, err)
			}
			n += r.Total
		}
		out[c.Term] = n
	}
	return out, nil
}

// chunkTexter is an index that searches its chunks' text (the store).
type chunkTexter interface {
	ChunkTextSearch(ctx context.Context, q store.KeywordQuery) ([]store.ChunkHit, error)
}

// surfaceForm is how the index's text writes a correction: among the words
// of the passages holding c's term, the one searched as c is (same
// tokens) nearest to the word typed — "direction" rather than the
// generated "directic", which the stemmer also reads as direct. c's own
// spelling when the index cannot say.
func surfaceForm(ctx context.Context, ix any, typed string, c Candidate) (string, error) {
	ct, ok := ix.(chunkTexter)
	if !ok {
		return c.Spelling, nil
	}
	hits, err := ct.ChunkTextSearch(ctx, store.KeywordQuery{Terms: []string{c.Term}, Match: store.MatchAny, Limit: 3})
	if err != nil {
		return "", fmt.Errorf("read how the index writes %q: %w", c.Term, err)
	}
	return SurfaceForm(typed, c, hits), nil
}

// SurfaceForm picks, among the words of the passages, the one searched as
// c is that is nearest (edit distance, case-insensitive) to the word
// typed; c's spelling when none is.
func SurfaceForm(typed string, c Candidate, passages []store.ChunkHit) string {
	want := strings.Join(tokenize.IndexTokens(c.Term), " ")
	t := tokenize.Normalize(typed)
	best, bestD := c.Spelling, -1
	for _, p := range passages {
		for _, w := range strings.FieldsFunc(p.Text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if strings.Join(tokenize.IndexTokens(w), " ") != want {
				continue
			}
			if d := editDistance(t, tokenize.Normalize(w)); bestD < 0 || d < bestD {
				best, bestD = strings.ToLower(w), d
			}
		}
	}
	return best
}

// QuotedWords are the words the query writes in double quotes ("…" or
// “…”): searched as typed, never corrected.
func QuotedWords(query string) []string {
	var out []string
	for _, pair := range [][2]string{{`"`, `"`}, {"“", "”"}} {
		rest := query
		for {
			i := strings.Index(rest, pair[0])
			if i < 0 {
				break
			}
			rest = rest[i+len(pair[0]):]
			j := strings.Index(rest, pair[1])
			if j < 0 {
				break
			}
			out = append(out, strings.FieldsFunc(rest[:j], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })...)
			rest = rest[j+len(pair[1]):]
		}
	}
	return out
}

// Corrections are the corrections the search made: word → the term
// searched in its place, from the unmatched words' suggestions.
func (s State) Corrections() map[string]string {
	var out map[string]string
	for _, u := range s.Unmatched {
		if u.Suggestion != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[u.Word] = u.Suggestion
		}
	}
	return out
}

// SearchQuery is the query the search ranks by: the query with its
// corrections made and the words no file contains left out (they match
// nothing, and would only blur the query's embedding); the query itself
// when there are neither.
func (s State) SearchQuery() string {
	words := s.Corrections()
	for _, u := range s.Unmatched {
		if u.Suggestion == "" {
			if words == nil {
				words = map[string]string{}
			}
			words[u.Word] = ""
		}
	}
	if len(words) == 0 {
		return s.Query
	}
	q := rewriteWords(s.Query, words, func(_, to string) string { return to })
	if strings.TrimSpace(q) == "" {
		return s.Query
	}
	return strings.Join(strings.Fields(q), " ")
}

// InsteadQuery is the way back of a corrected search: the query with each
// corrected word in double quotes ("" when nothing was corrected).
func (s State) InsteadQuery() string {
	c := s.Corrections()
	if len(c) == 0 {
		return ""
	}
	return rewriteWords(s.Query, c, func(from, _ string) string { return `"` + from + `"` })
}

// rewriteWords replaces every whole-word occurrence in q of a key of
// words (compared after tokenize.Normalize) by with(word as written,
// its value). Words are runs of letters, digits and marks; CJK words
// are matched as substrings.
func rewriteWords(q string, words map[string]string, with func(from, to string) string) string {
	if len(words) == 0 {
		return q
	}
	keys := make([]string, 0, len(words))
	for k := range words {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { // longest first; a total order, keys come from a map
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	var b strings.Builder
	rs := []rune(q)
	for i := 0; i < len(rs); {
		if !unicode.IsLetter(rs[i]) && !unicode.IsDigit(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || unicode.Is(unicode.Mn, rs[j])) {
			j++
		}
		word := string(rs[i:j])
		replaced := false
		for _, k := range keys {
			if tokenize.Normalize(word) == tokenize.Normalize(k) {
				b.WriteString(with(word, words[k]))
				replaced = true
				break
			}
			if !isLatinWord(tokenize.Normalize(k)) && strings.Contains(word, k) {
				b.WriteString(strings.Replace(word, k, with(k, words[k]), 1))
				replaced = true
				break
			}
		}
		if !replaced {
			b.WriteString(word)
		}
		i = j
	}
	return b.String()
}

// CorrectedText says what was searched instead and the way back:
// "Showing results for: …" and "Search instead for: …" ("" when nothing
// was corrected).
func CorrectedText(s State, lang string) []string {
	instead := s.InsteadQuery()
	if instead == "" {
		return nil
	}
	return []string{i18n.T(lang, "search.corrected", s.SearchQuery()), i18n.T(lang, "search.corrected.instead", instead)}
}

// CorrectionsText lists the corrections made, "engnie → engine, …" ("" for
// none), in the order of the unmatched words.
func CorrectionsText(s State, lang string) string {
	var parts []string
	for _, u := range s.Unmatched {
		if u.Suggestion != "" {
			parts = append(parts, u.Word+" → "+u.Suggestion)
		}
	}
	return strings.Join(parts, i18n.T(lang, "search.missing.sep"))
}

// MatchCase writes a correction in the case of the word it replaces: all
// capitals (NASA), a capital first letter (Tesla), else as it is.
func MatchCase(word, correction string) string {
	if !isLatinWord(tokenize.Normalize(word)) {
		return correction
	}
	if strings.ToUpper(word) == word && len(word) > 1 {
		return strings.ToUpper(correction)
	}
	if r, _ := utf8.DecodeRuneInString(word); unicode.IsUpper(r) {
		c, n := utf8.DecodeRuneInString(correction)
		return string(unicode.ToUpper(c)) + correction[n:]
	}
	return correction
}
