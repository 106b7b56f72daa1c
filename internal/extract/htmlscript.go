package extract

import "strings"

// A number set as a superscript or subscript in HTML (<sup>, <sub>) is
// written with Unicode's superscript and subscript characters: graphviz's
// arrows page "41 · 42<sup>3</sup>" is "41 · 42³", not the number 423.
// Search folds them back (NFKC reads ³ as 3); text that is not a number
// (1<sup>st</sup>, a footnote's word) is written as it stands.

var (
	superscripts = strings.NewReplacer(
		"0", "⁰", "1", "¹", "2", "²", "3", "³", "4", "⁴", "5", "⁵", "6", "⁶", "7", "⁷", "8", "⁸", "9", "⁹",
		"+", "⁺", "-", "⁻", "−", "⁻", "=", "⁼", "(", "⁽", ")", "⁾")
	subscripts = strings.NewReplacer(
		"0", "₀", "1", "₁", "2", "₂", "3", "₃", "4", "₄", "5", "₅", "6", "₆", "7", "₇", "8", "₈", "9", "₉",
		"+", "₊", "-", "₋", "−", "₋", "=", "₌", "(", "₍", ")", "₎")
)

// scriptNumber returns s, text inside <sup> (super) or <sub>, with its
// characters raised or lowered when it is a number: digits with signs
// and brackets, at most 8 characters besides spaces around them.
func scriptNumber(s string, super bool) string {
	t := strings.TrimSpace(s)
	if t == "" || len(t) > 8 || strings.Trim(t, "0123456789+-−=()") != "" || strings.Trim(t, "+-−=()") == "" {
		return s
	}
	if super {
		return strings.Replace(s, t, superscripts.Replace(t), 1)
	}
	return strings.Replace(s, t, subscripts.Replace(t), 1)
}
