package extract

import (
	"unicode"
	"unicode/utf8"
)

// Which way a right-to-left line was drawn. Most producers lay Hebrew
// and Arabic out visually, left to right, and the line is reversed to be
// read; a code listing (LaTeX source holding Arabic, set verbatim) or a
// paragraph set without a bidirectional engine draws it left to right in
// reading order, and reversing it turns every word around. The spelling
// tells the two apart. Some letters are written only at a word's end:
// Hebrew final forms, Arabic ta marbuta and alef maksura. And where a
// font maps its glyphs to Arabic presentation forms, a medial form
// follows an initial or medial one and precedes a medial or final one.
// The order in which fewer words break these rules is the one the line
// was drawn in. (A presentation form at a word's end tells nothing: a
// kashida drawn as a rule, not a glyph, cuts a word after an initial
// form.)

// lineOrder is what the spelling of a line says about its order.
type lineOrder int8

const (
	orderUnknown lineOrder = iota // no evidence either way
	orderVisual                   // drawn left to right as seen: reversed to be read
	orderLogical                  // drawn in reading order: kept
)

// endOnly reports whether r is a letter written only at the end of a
// word: a Hebrew final form, ta marbuta or alef maksura (or one of
// their presentation forms).
func endOnly(r rune) bool {
	switch r {
	case 'ך', 'ם', 'ן', 'ף', 'ץ', 'ة', 'ى',
		0xfb3a, 0xfb43, // final kaf and pe with dagesh
		0xfe93, 0xfe94, 0xfeef, 0xfef0: // ta marbuta and alef maksura isolated and final
		return true
	}
	return false
}

// joining forms of Arabic presentation forms (formOf)
const (
	formNone     = iota // not a presentation form
	formIsolated        // an isolated form (or one not tagged)
	formInitial
	formMedial
	formFinal
)

// formOf returns the joining form r is a presentation form of.
func formOf(r rune) int {
	switch {
	case r < 0xfb50 || (r > 0xfdff && r < 0xfe70) || r > 0xfeff:
		return formNone
	case unicode.Is(initialForms, r):
		return formInitial
	case unicode.Is(medialForms, r):
		return formMedial
	case unicode.Is(finalForms, r):
		return formFinal
	}
	return formIsolated
}

// joinsWell reports whether letter b may follow letter a in a word: when
// both are presentation forms, a is joined to what follows it (initial,
// medial) exactly when b is joined to what precedes it (medial, final).
func joinsWell(a, b rune) bool {
	fa, fb := formOf(a), formOf(b)
	if fa == formNone || fb == formNone {
		return true
	}
	return (fa == formInitial || fa == formMedial) == (fb == formMedial || fb == formFinal)
}

// orderOf weighs the right-to-left words of a line's glyphs as drawn
// (left to right) against the same glyphs reversed, each glyph's text
// kept (a ligature's letters are in reading order): each word that would
// begin with a letter written only at a word's end, and each two letters
// in a row whose joining forms cannot follow each other, counts against
// that order. A word is a run of glyphs of right-to-left letters and
// marks (marks are passed over); a tatweel is a letter that tells
// nothing.
func orderOf(gs []string) lineOrder {
	asDrawn, reversed := 0, 0
	var word [][2]rune // the current word's letter glyphs: each one's first and last letter
	end := func() {
		if len(word) == 0 {
			return
		}
		if endOnly(word[0][0]) {
			asDrawn++
		}
		if endOnly(word[len(word)-1][0]) {
			reversed++
		}
		for k := 1; k < len(word); k++ {
			if !joinsWell(word[k-1][1], word[k][0]) {
				asDrawn++
			}
			if !joinsWell(word[k][1], word[k-1][0]) {
				reversed++
			}
		}
		word = word[:0]
	}
	for _, g := range gs {
		first, _ := utf8.DecodeRuneInString(g)
		switch {
		case isRTL(first) && unicode.IsLetter(first):
			last := first
			for _, r := range g {
				if isRTL(r) && unicode.IsLetter(r) {
					last = r
				}
			}
			word = append(word, [2]rune{first, last})
		case unicode.In(first, unicode.Mn, unicode.Me, unicode.Mc) && len(word) > 0:
		default:
			end()
		}
	}
	end()
	switch {
	case asDrawn > reversed:
		return orderVisual
	case reversed > asDrawn:
		return orderLogical
	}
	return orderUnknown
}

// reversedLines decides which of a page's visually laid out lines are
// reversed, from each line's order (orderOf) and whether each line
// directly follows the one before it (follows[0] is ignored). A line
// without evidence takes the order of the nearest line with evidence in
// its block of consecutive lines (the one before it on a tie): a listing
// is drawn one way throughout. A block without any evidence is reversed,
// as most producers draw right-to-left text visually.
func reversedLines(orders []lineOrder, follows []bool) []bool {
	n := len(orders)
	// joined: line i follows line i-1; before: the nearest line with
	// evidence at or before i in its block, or -1
	joined := func(i int) bool { return i > 0 && i < len(follows) && follows[i] }
	before := make([]int, n)
	for i, o := range orders {
		switch {
		case o != orderUnknown:
			before[i] = i
		case joined(i):
			before[i] = before[i-1]
		default:
			before[i] = -1
		}
	}
	rev := make([]bool, n)
	after := -1 // the nearest line with evidence at or after i in its block, or -1
	for i := n - 1; i >= 0; i-- {
		switch {
		case orders[i] != orderUnknown:
			after = i
		case !joined(i + 1):
			after = -1
		}
		o := orderUnknown
		switch p := before[i]; {
		case p >= 0 && (after < 0 || i-p <= after-i):
			o = orders[p]
		case after >= 0:
			o = orders[after]
		}
		rev[i] = o != orderLogical
	}
	return rev
}

// initialForms, medialForms and finalForms are the Arabic presentation
// forms (U+FB50–FDFF, U+FE70–FEFF) whose Unicode decomposition is tagged
// <initial>, <medial> and <final>: the shapes a letter or ligature takes
// joined to the letter after it, to both, and to the one before it.
var initialForms = &unicode.RangeTable{R16: []unicode.Range16{
	{0xfb54, 0xfb80, 4}, {0xfb90, 0xfb9c, 4}, {0xfba2, 0xfba8, 6}, {0xfbac, 0xfbd5, 41},
	{0xfbe6, 0xfbe8, 2}, {0xfbf8, 0xfbfe, 3}, {0xfc97, 0xfcde, 1}, {0xfd2d, 0xfd33, 1},
	{0xfd50, 0xfd52, 2}, {0xfd53, 0xfd57, 1}, {0xfd59, 0xfd5c, 3}, {0xfd5d, 0xfd60, 3},
	{0xfd61, 0xfd65, 2}, {0xfd68, 0xfd6b, 3}, {0xfd6d, 0xfd70, 3}, {0xfd72, 0xfd73, 1},
	{0xfd77, 0xfd83, 6}, {0xfd86, 0xfd88, 2}, {0xfd89, 0xfd8a, 1}, {0xfd8c, 0xfd8f, 1},
	{0xfd92, 0xfd95, 1}, {0xfd98, 0xfd9d, 5}, {0xfdb4, 0xfdb5, 1}, {0xfdb8, 0xfdba, 2},
	{0xfdc3, 0xfdc5, 1}, {0xfe8b, 0xfe97, 6}, {0xfe9b, 0xfea7, 4}, {0xfeb3, 0xfeeb, 4},
	{0xfef3, 0xfef3, 1},
}}

var medialForms = &unicode.RangeTable{R16: []unicode.Range16{
	{0xfb55, 0xfb81, 4}, {0xfb91, 0xfb9d, 4}, {0xfba3, 0xfba9, 6}, {0xfbad, 0xfbd6, 41},
	{0xfbe7, 0xfbe9, 2}, {0xfbff, 0xfcdf, 224}, {0xfce0, 0xfcf4, 1}, {0xfd34, 0xfd3b, 1},
	{0xfe71, 0xfe77, 6}, {0xfe79, 0xfe7f, 2}, {0xfe8c, 0xfe98, 6}, {0xfe9c, 0xfea8, 4},
	{0xfeb4, 0xfeec, 4}, {0xfef4, 0xfef4, 1},
}}

var finalForms = &unicode.RangeTable{R16: []unicode.Range16{
	{0xfb51, 0xfb53, 2}, {0xfb57, 0xfb83, 4}, {0xfb85, 0xfb8f, 2}, {0xfb93, 0xfb9f, 4},
	{0xfba1, 0xfba5, 4}, {0xfba7, 0xfbaf, 4}, {0xfbb1, 0xfbd4, 35}, {0xfbd8, 0xfbdc, 2},
	{0xfbdf, 0xfbe5, 2}, {0xfbeb, 0xfbf7, 2}, {0xfbfa, 0xfbfd, 3}, {0xfc64, 0xfc96, 1},
	{0xfd11, 0xfd2c, 1}, {0xfd3c, 0xfd51, 21}, {0xfd58, 0xfd5a, 2}, {0xfd5b, 0xfd5e, 3},
	{0xfd5f, 0xfd62, 3}, {0xfd64, 0xfd66, 2}, {0xfd67, 0xfd69, 2}, {0xfd6a, 0xfd6e, 2},
	{0xfd6f, 0xfd71, 2}, {0xfd74, 0xfd76, 1}, {0xfd78, 0xfd7c, 1}, {0xfd7e, 0xfd82, 1},
	{0xfd84, 0xfd85, 1}, {0xfd87, 0xfd8b, 4}, {0xfd96, 0xfd97, 1}, {0xfd99, 0xfd9c, 1},
	{0xfd9e, 0xfdb3, 1}, {0xfdb6, 0xfdb7, 1}, {0xfdb9, 0xfdbb, 2}, {0xfdbc, 0xfdc2, 1},
	{0xfdc6, 0xfdc7, 1}, {0xfe82, 0xfe8a, 2}, {0xfe8e, 0xfe90, 2}, {0xfe94, 0xfe96, 2},
	{0xfe9a, 0xfeaa, 4}, {0xfeac, 0xfeb2, 2}, {0xfeb6, 0xfeee, 4}, {0xfef0, 0xfef2, 2},
	{0xfef6, 0xfefc, 2},
}}
