package main

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Text fidelity measures of the realcorpus benchmark: how the text gds
// stores compares with a reference extractor's (pdftotext, w3m -dump).
// Pure functions over two texts.

// words splits text into comparable words: NFKC, lower case; runs of
// letters, digits and marks of alphabetic scripts are words, and a run of
// Han, kana or Hangul (written without spaces) gives its character
// bigrams (a lone character is itself a word); white space between two
// Han or kana characters is layout (a line break, MuPDF's spacing of
// CJK glyphs), not a word boundary: Chinese and Japanese are written
// without spaces (Korean is, and keeps them). A word that would begin
// with a combining mark (Mn, Mc) after nothing but white space continues
// the word before it: extractors differ in putting a space before a mark
// (pdftotext writes Arabic الر ّ for الرّ), and no word of any script
// begins with one. Direction marks and embeddings (pdftotext wraps
// right-to-left runs in them) are invisible: skipped.
func words(s string) []string {
	s = strings.ToLower(norm.NFKC.String(s))
	var out []string
	var run []rune
	cjk := false
	// joinable: the last word is alphabetic and only white space has
	// followed it.
	joinable := false
	flush := func() {
		switch {
		case len(run) == 0:
			return
		case !cjk:
			out = append(out, string(run))
		case len(run) == 1:
			out = append(out, string(run))
		default:
			for i := 0; i+1 < len(run); i++ {
				out = append(out, string(run[i:i+2]))
			}
		}
		joinable = !cjk
		run = run[:0]
	}
	// spaced: white space has followed a Han or kana character ending
	// the run, which the next such character continues.
	spaced := false
	for _, r := range s {
		if bidiControl(r) {
			continue // invisible: pdftotext wraps right-to-left runs in them
		}
		isCJK := unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r == 'ー'
		isWord := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
		if spaced {
			spaced = false
			switch {
			case hanKana(r):
				run = append(run, r)
				continue
			case unicode.IsSpace(r):
				spaced = true
				continue
			}
			flush()
		}
		switch {
		case unicode.IsSpace(r) && cjk && len(run) > 0 && hanKana(run[len(run)-1]):
			spaced = true
		case !isWord && !isCJK:
			flush()
			if !unicode.IsSpace(r) {
				joinable = false
			}
		case len(run) == 0 && joinable && unicode.In(r, unicode.Mn, unicode.Mc):
			run = append(run, []rune(out[len(out)-1])...)
			out = out[:len(out)-1]
			cjk = false
			run = append(run, r)
		case isCJK != cjk && len(run) > 0:
			flush()
			fallthrough
		default:
			cjk = isCJK
			run = append(run, r)
		}
	}
	flush()
	return out
}

// bidiControl tells whether r is an invisible direction mark or embedding
// (LRM, RLM, ALM, LRE…PDF, LRI…PDI): it neither ends a word nor is
// part of one.
func bidiControl(r rune) bool {
	return r == '\u200e' || r == '\u200f' || r == '\u061c' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069')
}

// hanKana tells whether r is written without spaces: Han, kana, the
// prolonged sound mark.
func hanKana(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー'
}

func counts(ws []string) map[string]int {
	m := make(map[string]int, len(ws))
	for _, w := range ws {
		m[w]++
	}
	return m
}

// overlap returns how many words the two bags share (multiset
// intersection).
func overlap(a, b map[string]int) int {
	n := 0
	for w, ca := range a {
		n += min(ca, b[w])
	}
	return n
}

// recallPrecision compares got with the reference ref: the share of the
// reference's words got holds, and of got's words the reference holds.
// An empty side scores 1 (nothing to find, or nothing extra).
func recallPrecision(ref, got []string) (recall, precision float64) {
	common := overlap(counts(ref), counts(got))
	recall, precision = 1, 1
	if len(ref) > 0 {
		recall = float64(common) / float64(len(ref))
	}
	if len(got) > 0 {
		precision = float64(common) / float64(len(got))
	}
	return recall, precision
}

// onlyIn returns the n words a holds more often than b, most frequent
// first, as "word×count": the evidence of where two texts of a file
// differ (reference-only words next to gds-only ones show which side
// split or joined a word, or read a glyph otherwise).
func onlyIn(a, b []string, n int) []string {
	return countsOnlyIn(counts(a), counts(b), n)
}

// countsOnlyIn is onlyIn over word counts.
func countsOnlyIn(ca, cb map[string]int, n int) []string {
	type wc struct {
		w string
		c int
	}
	var diff []wc
	for w, c := range ca {
		if d := c - cb[w]; d > 0 {
			diff = append(diff, wc{w, d})
		}
	}
	slices.SortFunc(diff, func(x, y wc) int {
		if x.c != y.c {
			return y.c - x.c
		}
		return strings.Compare(x.w, y.w)
	})
	out := make([]string, 0, n)
	for _, d := range diff[:min(n, len(diff))] {
		out = append(out, d.w+"×"+strconv.Itoa(d.c))
	}
	return out
}

// joinedWords measures words run together: of the reference's word
// boundaries that are white space between two alphabetic words, how many
// got loses by writing the words as one (two to four words concatenated
// into a word the reference does not have). It returns the lost count and
// the number of boundaries.
func joinedWords(ref, got string) (joined, boundaries int) {
	chains, lost, boundaries := spaceChains(ref)
	return chainsIn(got, chains, lost), boundaries
}

// spaceChains returns the concatenations of two to four words across the
// reference's white-space word boundaries that are not themselves words
// of the reference (concatenation → occurrences), with the boundaries
// each one loses, and the number of boundaries.
func spaceChains(ref string) (chains, lost map[string]int, boundaries int) {
	fields := strings.Fields(strings.ToLower(norm.NFKC.String(ref)))
	vocab := counts(words(ref))
	chains, lost = map[string]int{}, map[string]int{}
	joinable := func(i int) bool { // a boundary between fields i and i+1
		return i+1 < len(fields) && endsAlpha(fields[i]) && startsAlpha(fields[i+1]) &&
			len(alphaWords(fields[i])) > 0 && len(alphaWords(fields[i+1])) > 0
	}
	for i := range fields {
		if !joinable(i) {
			continue
		}
		boundaries++
		a := alphaWords(fields[i])
		key := a[len(a)-1]
		for j := i + 1; j < len(fields) && j <= i+3; j++ {
			b := alphaWords(fields[j])
			key += b[0]
			if vocab[key] == 0 {
				chains[key]++
				lost[key] = j - i
			}
			if len(b) != 1 || !joinable(j) {
				break
			}
		}
	}
	return chains, lost, boundaries
}

// chainsIn counts the boundaries got loses: each concatenation of chains
// got holds as a word, as often as both hold it, times the boundaries it
// spans.
func chainsIn(got string, chains, lost map[string]int) int {
	joined := 0
	for w, c := range counts(words(got)) {
		joined += min(c, chains[w]) * lost[w]
	}
	return joined
}

func alphaWords(field string) []string {
	ws := words(field)
	if len(ws) == 0 {
		return nil
	}
	for _, w := range ws {
		for _, r := range w {
			if !unicode.IsLetter(r) || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
				return nil
			}
		}
	}
	return ws
}

func endsAlpha(s string) bool {
	r := []rune(s)
	return len(r) > 0 && unicode.IsLetter(r[len(r)-1])
}

func startsAlpha(s string) bool {
	for _, r := range s {
		return unicode.IsLetter(r)
	}
	return false
}

// cutOff tells whether a page of got stops early: the reference page has
// at least 30 words, got holds its first third (recall ≥ 0.8) but not its
// last third (recall < 0.5), and fewer than three quarters of its
// letters. A page holding as much text as the reference but other words
// at its end is read otherwise, not cut (both references garble arabi's
// Arabic footnotes, which gds reads).
func cutOff(refPage, gotPage string) bool {
	ref := foldRTL(words(refPage))
	if len(ref) < 30 || 4*letters(gotPage) >= 3*letters(refPage) {
		return false
	}
	third := len(ref) / 3
	gotWords := foldRTL(words(gotPage))
	got := counts(gotWords)
	head, _ := recallPrecision(ref[:third], gotWords)
	tail := float64(overlap(counts(ref[len(ref)-third:]), got)) / float64(third)
	return head >= 0.8 && tail < 0.5
}

// reversedRTL returns the reference's right-to-left words (Hebrew,
// Arabic, at least two letters) that got holds only reversed, in the
// reference's order.
func reversedRTL(ref, got string) []string {
	have := counts(words(got))
	var out []string
	for _, w := range words(ref) {
		rs := []rune(w)
		if len(rs) < 2 || !unicode.In(rs[0], unicode.Hebrew, unicode.Arabic) {
			continue
		}
		rev := slices.Clone(rs)
		slices.Reverse(rev)
		if string(rev) != w && have[w] == 0 && have[string(rev)] > 0 {
			out = append(out, w)
		}
	}
	return out
}

// quantile returns the q-quantile (0..1) of xs by the nearest-rank method.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(q*float64(len(s)) + 0.5)
	return s[min(max(i-1, 0), len(s)-1)]
}

// endOnly are the letters written only at the end of a word: the final
// forms of Hebrew (kaf, mem, nun, pe, tsadi) and Arabic ta marbuta and
// alef maksura.
const endOnly = "ךםןףץةى"

// reversedByForm counts the right-to-left words of text (at least two
// letters: a lone letter with its marks is a letter's name or a chart's
// cell) that begin with a letter written only at a word's end: words
// stored in visual order, found without a reference. It sees only the
// reversed words holding such a letter, so it is a lower bound; it is the
// one measure that still counts where the references themselves store a
// file's words reversed (pdftotext on some LuaTeX Arabic, mutool on
// right-to-left lines), or disagree. sample holds the first n of them.
func reversedByForm(text string, n int) (count int, sample []string) {
	for _, w := range words(text) {
		r, _ := utf8.DecodeRuneInString(w)
		if strings.ContainsRune(endOnly, r) && letters(w) >= 2 {
			count++
			if len(sample) < n {
				sample = append(sample, w)
			}
		}
	}
	return count, sample
}

func letters(w string) int {
	n := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// foldRTL writes each right-to-left word (Hebrew, Arabic) of ws in one
// orientation, the lesser of it and its reverse: recall and precision
// ask whether a word is there, and reversedRTL and reversedByForm which
// way round it is. Without it a reference that stores a file's words
// reversed (pdftotext on Arabic a LaTeX listing holds in reading order)
// would count gds's right ones as missed.
func foldRTL(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.In(r, unicode.Hebrew, unicode.Arabic) {
			continue
		}
		rs := []rune(w)
		slices.Reverse(rs)
		if rev := string(rs); rev < w {
			out[i] = rev
		}
	}
	return out
}
