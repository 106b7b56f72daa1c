// Package tokenize turns text into the search tokens both index back ends
// store and query: Unicode NFKC (full-width ASCII → ASCII, half-width ｶﾀｶﾅ
// → カタカナ), lower case, Latin accents folded (Temür → temur, straße →
// strasse), words for Latin scripts and digits, English words stemmed
// (Porter2: running, runs → run), and overlapping character bigrams for
// Japanese and Chinese. Indexing
// and querying with the same function gives substring-like matching for CJK
// terms of two or more characters without a dictionary, which is what lets a
// Japanese query find files a word tokeniser would split differently.
//
// English stemming (github.com/kljensen/snowball/english) applies to a–z
// words only, never to stop words, and runs to a fixed point, so that a
// token is its own tokenisation. The stores index and query IndexTokens:
// Tokens plus a CJK run's edge character where the run touches a number or a
// Latin word, so that 第45回 is found in …の第45回衆議院…. RetokenizesSince tells
// the stores' re-tokenising pass which stored texts changed since the
// tokenisation version they were made with (retokenize_from in gds_meta).
package tokenize

import (
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
	"golang.org/x/text/unicode/norm"
)

// Version identifies the tokenisation the index back ends store
// (IndexTokens): an index whose stored tokens were made by another version
// is re-tokenised by its store's migration. 2 added accent folding, 3
// English stemming, 4 a CJK run's edge character where it touches a word.
const Version = 4

// Normalize applies NFKC, lower-cases s and folds Latin accents (Fold).
func Normalize(s string) string {
	return Fold(strings.ToLower(norm.NFKC.String(s)))
}

// latinSpecial are Latin letters without a canonical decomposition and
// their unaccented spelling.
var latinSpecial = map[rune]string{
	'ø': "o", 'Ø': "o", 'đ': "d", 'Đ': "d", 'ł': "l", 'Ł': "l", 'ħ': "h", 'Ħ': "h",
	'ß': "ss", 'ẞ': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ı': "i", 'þ': "th", 'Þ': "th",
}

// foldable reports whether Fold may change r: a non-ASCII Latin letter or a
// combining mark.
func foldable(r rune) bool {
	return r > 0x7f && (unicode.Is(unicode.Latin, r) || unicode.Is(unicode.Mn, r))
}

// Fold removes the accents of Latin letters (ü → u, é → e, ø → o, ß → ss)
// and the combining marks that follow a Latin letter. Other scripts are
// left alone: Japanese voiced marks (が, パ) and Cyrillic or Greek letters
// keep theirs. s is expected in NFKC (Normalize calls Fold last).
func Fold(s string) string {
	i := strings.IndexFunc(s, foldable)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	prevLatin := i > 0 && s[i-1] < 0x80
	for _, r := range s[i:] {
		switch {
		case r < 0x80:
			b.WriteRune(r)
			prevLatin = unicode.IsLetter(r)
		case unicode.Is(unicode.Mn, r):
			if !prevLatin {
				b.WriteRune(r)
			}
		case unicode.Is(unicode.Latin, r):
			if sp, ok := latinSpecial[r]; ok {
				b.WriteString(sp)
			} else {
				for _, d := range norm.NFD.String(string(r)) {
					if !unicode.Is(unicode.Mn, d) {
						b.WriteRune(d)
					}
				}
			}
			prevLatin = true
		default:
			b.WriteRune(r)
			prevLatin = false
		}
	}
	return b.String()
}

// Folds reports whether Normalize-ing s gives other tokens than the
// tokenisation before accent folding (Version 1) did: whether s holds a
// character Fold changes. A store's re-tokenising migration rewrites only
// such texts.
func Folds(s string) bool {
	return strings.IndexFunc(norm.NFKC.String(s), foldable) >= 0
}

// RetokenizesSince reports whether IndexTokens(s) differs from the tokens
// tokenisation Version since made: whether s holds a character Fold
// changes (since < 2), a word Stem changes (since < 3) or a CJK run with
// an edge character (Edged, since < 4). A store's re-tokenising migration
// rewrites only such texts (a Japanese text without digits or Latin words
// never is; after Version 3, an English one without a CJK run never is).
func RetokenizesSince(s string, since int) bool {
	if since < 2 && Folds(s) || since < 4 && Edged(s) {
		return true
	}
	if since >= 3 {
		return false
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(norm.NFKC.String(s)), func(r rune) bool { return classify(r) != word }) {
		if Stem(w) != w {
			return true
		}
	}
	return false
}

// Stem returns the English (Porter2) stem of a word token: "running",
// "runs" → "run", "cities" → "citi". Only words of the letters a–z are
// stemmed, and never English stop words ("was", "does" stay), so numbers,
// codes with digits (q3, 1990s) and other scripts are left as they are.
// Stemming both the index and the query lets a question's "died" find a
// text's "dies", the commonest way an English question and its answer's
// wording differ (on the English dev set, stemming raised the reference
// BM25's R@10 from 0.951 to 0.963).
func Stem(w string) string {
	if len(w) <= 2 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	// Porter2 is not idempotent ("early" → "earli" → "ear"): stemming
	// again until nothing changes makes every token its own tokenisation,
	// so a token handed back as a search term (the whole question's
	// tokens, store.RetrieveChunks) matches the token stored for its word.
	for {
		s := english.Stem(w, false)
		if s == w {
			return w
		}
		w = s
	}
}

// class of a rune for token boundaries.
type class int

const (
	sep class = iota
	word
	cjk
)

func classify(r rune) class {
	switch {
	case IsCJK(r):
		return cjk
	case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
		return word
	default:
		return sep
	}
}

// IsCJK reports whether r is a Han ideograph, Hiragana or Katakana
// (including the prolonged sound mark), the scripts that are bigrammed.
func IsCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || r == 'ー' || r == '々' || r == '〆'
}

// A Run is a maximal run of word characters (letters, digits, combining
// marks) or of CJK characters in Normalize(s): Runes are its characters,
// [Start, End) their positions in the normalized text's runes, so two runs
// touch when one's End is the other's Start.
type Run struct {
	Runes      []rune
	CJK        bool
	Start, End int
}

// Runs returns the runs of s in text order; separators belong to none.
func Runs(s string) []Run {
	runes := []rune(Normalize(s))
	var out []Run
	for i := 0; i < len(runes); {
		c := classify(runes[i])
		j := i + 1
		for j < len(runes) && classify(runes[j]) == c {
			j++
		}
		if c != sep {
			out = append(out, Run{Runes: runes[i:j:j], CJK: c == cjk, Start: i, End: j})
		}
		i = j
	}
	return out
}

// Tokens returns the search tokens of s in text order. A CJK run of one
// character yields that character; a longer run yields its bigrams.
func Tokens(s string) []string { return tokens(s, false) }

// IndexTokens returns the tokens the index back ends store and query:
// Tokens(s), plus a CJK run's edge character alone where the run touches a
// word (digits, Latin letters) — after its last bigram at its end, before
// its first bigram at its start (a run of one character is that character
// already). So the phrase of a keyword that crosses such a boundary, 第45回
// (第 45 回), is found in …の第45回衆議院… (の第 第 45 回 回衆 …), where plain
// bigrams (の第 45 回衆 …) have no 第 and no 回. Any other phrase is found as
// before: an edge token stands only at a boundary, where a keyword that
// does not cross it ends or starts, and one that crosses it has the same
// edge token.
func IndexTokens(s string) []string { return tokens(s, true) }

// tokens is Tokens, with IndexTokens' edge characters when edges is set.
func tokens(s string, edges bool) []string {
	runs := Runs(s)
	touchesWord := func(i, j int) bool { // run j exists, is a word and touches run i
		return edges && j >= 0 && j < len(runs) && !runs[j].CJK && (runs[i].End == runs[j].Start || runs[j].End == runs[i].Start)
	}
	var out []string
	for i, r := range runs {
		switch {
		case !r.CJK:
			out = append(out, Stem(string(r.Runes)))
		case len(r.Runes) == 1:
			out = append(out, string(r.Runes))
		default:
			if touchesWord(i, i-1) {
				out = append(out, string(r.Runes[0]))
			}
			for k := 0; k+1 < len(r.Runes); k++ {
				out = append(out, string(r.Runes[k:k+2]))
			}
			if touchesWord(i, i+1) {
				out = append(out, string(r.Runes[len(r.Runes)-1]))
			}
		}
	}
	return out
}

// Edged reports whether IndexTokens(s) holds an edge character: whether a
// CJK run of two or more characters touches a word.
func Edged(s string) bool {
	runs := Runs(s)
	for i := 1; i < len(runs); i++ {
		a, b := runs[i-1], runs[i]
		if a.End == b.Start && a.CJK != b.CJK && (a.CJK && len(a.Runes) > 1 || b.CJK && len(b.Runes) > 1) {
			return true
		}
	}
	return false
}

// IndexJoin returns IndexTokens(s) joined by single spaces: the form stored
// in the back ends' full-text columns.
//
// It streams: it holds one run of s at a time rather than s's runs and
// tokens (about seventeen bytes a character), since the index stores the
// whole text of every crawled file this way (TestIndexJoinIsJoinedTokens
// keeps it equal to strings.Join(IndexTokens(s), " ")).
func IndexJoin(s string) string {
	var b strings.Builder
	n := 0
	emit := func(t string) {
		if n > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
		n++
	}
	// pend is the last complete run, written once the run after it is
	// known (a CJK run's edge character depends on it); cur is the run
	// being read.
	var pend, cur []rune
	pendCJK, pendAfterWord := false, false
	curClass, adjacent := sep, false // adjacent: cur touches pend
	have := false
	write := func(beforeWord bool) {
		switch {
		case !pendCJK:
			emit(Stem(string(pend)))
		case len(pend) == 1:
			emit(string(pend))
		default:
			if pendAfterWord {
				emit(string(pend[0]))
			}
			for k := 0; k+1 < len(pend); k++ {
				emit(string(pend[k : k+2]))
			}
			if beforeWord {
				emit(string(pend[len(pend)-1]))
			}
		}
	}
	end := func() { // cur is complete
		if curClass == sep {
			return
		}
		isCJK := curClass == cjk
		afterWord := false
		if have {
			write(adjacent && !isCJK)
			afterWord = adjacent && !pendCJK
		}
		pend, cur = cur, pend[:0]
		pendCJK, pendAfterWord, have = isCJK, afterWord, true
	}
	for _, r := range Normalize(s) {
		c := classify(r)
		if c != curClass {
			end()
			// The new run touches pend when no separator came between.
			adjacent = curClass != sep
			cur, curClass = cur[:0], c
		}
		cur = append(cur, r)
	}
	end()
	if have {
		write(false)
	}
	return b.String()
}

// Join returns Tokens(s) joined by single spaces.
func Join(s string) string {
	return strings.Join(Tokens(s), " ")
}

// Unique returns the distinct Tokens of s in order of first occurrence: the
// terms of a whole question searched as alternatives.
func Unique(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range Tokens(s) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}
