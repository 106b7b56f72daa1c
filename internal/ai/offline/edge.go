package offline

import "github.com/gds-cli/gds/internal/tokenize"

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
