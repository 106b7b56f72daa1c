package offline

import (
	"strings"

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
	runs := tokenize.Runs(s)
	touchesWord := func(i, j int) bool { // run j exists, is a word and touches run i
		return j >= 0 && j < len(runs) && !runs[j].CJK && (runs[i].End == runs[j].Start || runs[j].End == runs[i].Start)
	}
	var out []string
	for i, r := range runs {
		switch {
		case !r.CJK:
			out = append(out, tokenize.Stem(string(r.Runes)))
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
	return strings.Join(out, " ")
}

// crossesWordBoundary reports whether s holds both a CJK character and a
// letter or digit of another script: a keyword such as 第45回 or SARSコロナ.
func crossesWordBoundary(s string) bool {
	var cjk, word bool
	for _, r := range tokenize.Runs(s) {
		if r.CJK {
			cjk = true
		} else {
			word = true
		}
	}
	return cjk && word
}
