package offline

import (
	"strings"
	"unicode"

	"github.com/gds-cli/gds/internal/tokenize"
)

// edgeJoin is tokenize.Join with one addition: a CJK run that touches a
// word (digits, Latin letters) also yields its edge character alone, on
// the side it touches — after its last bigram at its end, before its first
// bigram at its start. A run of one character is that character already.
// So a phrase such as 第45回 (tokens 第 45 回) is found in の第45回衆議院
// (の第 第 45 回 回衆 …), where plain bigrams give の第 and 回衆 and the
// phrase test misses.
func edgeJoin(s string) string {
	s = tokenize.Normalize(s)
	rs := []rune(s)
	cls := func(r rune) int {
		switch {
		case tokenize.IsCJK(r):
			return 2
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			return 1
		}
		return 0
	}
	var out []string
	for i := 0; i < len(rs); {
		c := cls(rs[i])
		j := i + 1
		for j < len(rs) && cls(rs[j]) == c {
			j++
		}
		switch c {
		case 1:
			out = append(out, tokenize.Stem(string(rs[i:j])))
		case 2:
			if j-i == 1 {
				out = append(out, string(rs[i]))
				break
			}
			if i > 0 && cls(rs[i-1]) == 1 {
				out = append(out, string(rs[i]))
			}
			for k := i; k+1 < j; k++ {
				out = append(out, string(rs[k:k+2]))
			}
			if j < len(rs) && cls(rs[j]) == 1 {
				out = append(out, string(rs[j-1]))
			}
		}
		i = j
	}
	return strings.Join(out, " ")
}

// crossesWordBoundary reports whether s holds both a CJK character and a
// letter or digit of another script: a keyword such as 第45回 or SARSコロナ.
func crossesWordBoundary(s string) bool {
	var cjk, word bool
	for _, r := range s {
		switch {
		case tokenize.IsCJK(r):
			cjk = true
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word = true
		}
	}
	return cjk && word
}
