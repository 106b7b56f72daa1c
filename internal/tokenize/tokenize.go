// Package tokenize turns text into the search tokens both index back ends
// store and query: Unicode NFKC, lower case, words for Latin scripts and
// digits, and overlapping character bigrams for Japanese and Chinese. Indexing
// and querying with the same function gives substring-like matching for CJK
// terms of two or more characters without a dictionary, which is what lets a
// Japanese query find files a word tokeniser would split differently.
package tokenize

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Normalize applies NFKC and lower-cases s.
func Normalize(s string) string {
	return strings.ToLower(norm.NFKC.String(s))
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

// Tokens returns the search tokens of s in text order. A CJK run of one
// character yields that character; a longer run yields its bigrams.
func Tokens(s string) []string {
	s = Normalize(s)
	var out []string
	runes := []rune(s)
	for i := 0; i < len(runes); {
		c := classify(runes[i])
		j := i + 1
		for j < len(runes) && classify(runes[j]) == c {
			j++
		}
		switch c {
		case word:
			out = append(out, string(runes[i:j]))
		case cjk:
			if j-i == 1 {
				out = append(out, string(runes[i]))
			} else {
				for k := i; k+1 < j; k++ {
					out = append(out, string(runes[k:k+2]))
				}
			}
		}
		i = j
	}
	return out
}

// Join returns Tokens(s) joined by single spaces: the form stored in the
// back ends' full-text columns.
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
