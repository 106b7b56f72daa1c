package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// dehyphenatePages joins the words a typesetter broke across lines: a
// letter, a hyphen ending the line, and a lower-case letter starting the
// next ("trans-\nmitted" becomes "transmitted", as readers do), so the
// word is found whole. A hyphen before a capital or a digit, or not after
// a letter, stays ("Anglo-\nSaxon", "--\nverbose"), and so does the
// hyphen of a compound the document writes on one line elsewhere
// (hyphenVocab): "chat-\noptimized" stays where "chat-optimized" is
// written. (That both parts are words of the document is no evidence:
// "some-\nwhere", "be-\ncoming" and "remark-\nable" are broken words.) A
// hard hyphen (U+2010) always stays, a soft one (U+00AD) always goes.
// The lines of every page count, so it runs once the document is read.
func dehyphenatePages(pages []Page) {
	broken := false
	for _, p := range pages {
		broken = broken || hasLineEndHyphen(p.Text)
	}
	if !broken {
		return
	}
	v := newHyphenVocab(pages)
	for i := range pages {
		pages[i].Text = v.dehyphenate(pages[i].Text)
	}
}

func hasLineEndHyphen(s string) bool {
	return strings.Contains(s, "-\n") || strings.Contains(s, "\u2010\n") || strings.Contains(s, "\u00ad\n")
}

func isHyphen(r rune) bool { return r == '-' || r == '\u2010' || r == '\u00ad' }

// wordRune reports whether r belongs to a word for hyphenation: a letter
// or a mark of a script written with spaces.
func wordRune(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsMark(r)) && !isCJK(r)
}

// hyphenVocab holds the compounds (words joined by hyphens) a document
// writes on one line, lower case; not those broken at a line end.
type hyphenVocab struct {
	compounds map[string]bool
}

func newHyphenVocab(pages []Page) *hyphenVocab {
	v := &hyphenVocab{compounds: map[string]bool{}}
	for _, p := range pages {
		brokenBefore := false // the line before ended in a broken word
		for _, line := range strings.Split(p.Text, "\n") {
			last, _ := utf8.DecodeLastRuneInString(line)
			brokenAfter := isHyphen(last)
			tokens := hyphenTokens(line)
			for k, t := range tokens {
				if k == 0 && brokenBefore || k == len(tokens)-1 && brokenAfter && t.end == len(line)-utf8.RuneLen(last) {
					continue
				}
				if parts := strings.FieldsFunc(t.text, isHyphen); len(parts) > 1 {
					v.compounds[strings.ToLower(strings.Join(parts, "-"))] = true
				}
			}
			brokenBefore = brokenAfter
		}
	}
	return v
}

type hyphenToken struct {
	text string
	end  int // byte offset after it in the line
}

// hyphenTokens returns the runs of word runes of line, with the hyphens
// joining runs (a hyphen with word runes on both sides) kept inside.
func hyphenTokens(line string) []hyphenToken {
	var out []hyphenToken
	start := -1
	for i, r := range line {
		switch {
		case wordRune(r):
			if start < 0 {
				start = i
			}
		case isHyphen(r) && start >= 0:
			next, _ := utf8.DecodeRuneInString(line[i+utf8.RuneLen(r):])
			if wordRune(next) {
				continue
			}
			out = append(out, hyphenToken{line[start:i], i})
			start = -1
		default:
			if start >= 0 {
				out = append(out, hyphenToken{line[start:i], i})
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, hyphenToken{line[start:], len(line)})
	}
	return out
}

// keep reports whether the hyphen h between left (the word part ending
// the line) and right (the one starting the next) is a compound's.
func (v *hyphenVocab) keep(left, right string, h rune) bool {
	switch h {
	case '\u2010':
		return true
	case '\u00ad':
		return false
	}
	return v.compounds[strings.ToLower(left)+"-"+strings.ToLower(right)]
}

// dehyphenate joins the broken words of s that are not compounds.
func (v *hyphenVocab) dehyphenate(s string) string {
	if !hasLineEndHyphen(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := rune(0) // the last rune written
	wordStart := 0  // where the run of word runes ending at last starts in s
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isHyphen(r) && strings.HasPrefix(s[i+n:], "\n") && unicode.IsLetter(last) && !isCJK(last) {
			rest := s[i+n+1:]
			next, _ := utf8.DecodeRuneInString(rest)
			if unicode.IsLower(next) {
				end := strings.IndexFunc(rest, func(r rune) bool { return !wordRune(r) })
				if end < 0 {
					end = len(rest)
				}
				if !v.keep(s[wordStart:i], rest[:end], r) {
					i += n + 1
					continue
				}
			}
		}
		if !wordRune(r) {
			wordStart = i + n
		}
		b.WriteString(s[i : i+n])
		last = r
		i += n
	}
	return b.String()
}
