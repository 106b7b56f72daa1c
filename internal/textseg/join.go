package textseg

import (
	"maps"
	"slices"
	"strings"
	"unicode"
)

// Overlap returns how many runes at the start of next repeat the end of
// prev, prev and next being consecutive pieces of Windows(text, size,
// overlap, maxOverlap); 0 when they do not overlap. Pure.
//
// A repeat alone does not tell the overlap in repetitive text ("ha ha
// ha", a sentence said twice): the longest repeat can be longer than the
// overlap, and dropping it would lose text. So Overlap takes the repeat
// that begins where Windows would have begun next: the first sentence
// start among the last overlap runes of prev; else the last sentence
// start among its last maxOverlap runes that repeats (Windows also asks
// there that the piece reach past prev, which needs the text after
// next); else the first word start, else the first character boundary,
// among the last overlap runes; none of them: no overlap.
//
// Windows counts those runes back from where prev ended before it was
// trimmed; the white space trimmed there (the gap) is what next has
// right after the repeat. In order:
//   - a start that repeats and is followed in next by the gap it was
//     found with, trying one space first, then none (only where prev's
//     end is a boundary without white space, as in Japanese, or prev
//     has size runes: a word longer than a piece cut), then longer
//     gaps ("0 ha ha" then "ha ha00": "ha" then a space, not "ha ha"
//     then none);
//   - else a start, for any gap, whose repeat is all of next (Windows
//     ended next where prev ended, before a word too long for a piece:
//     base64 data, a long URL; so never the last piece, which
//     JoinWindows knows);
//   - else, when one of those gaps leaves Windows no start, none;
//   - else, for pieces cut under older rules (fixed windows that
//     overlap by overlap runes, mid-word), a repeat of overlap runes.
func Overlap(prev, next string, size, overlap, maxOverlap int) int {
	return overlapOf(prev, next, size, overlap, maxOverlap, true)
}

// overlapOf is Overlap; allowWhole false when next is the last piece.
func overlapOf(prev, next string, size, overlap, maxOverlap int, allowWhole bool) int {
	p, n := []rune(prev), []rune(next)
	if len(p) < 2 || len(n) == 0 {
		return 0
	}
	lv := Levels(p)
	// fits reports that the suffix of prev from i begins next and next
	// goes on past it; whole that it is all of next.
	fits := func(i int) bool {
		k := len(p) - i
		return k > 0 && k < len(p) && k < len(n) && k <= maxOverlap && slices.Equal(p[i:], n[:k])
	}
	whole := func(i int) bool {
		k := len(p) - i
		return k > 0 && k < len(p) && k == len(n) && k <= maxOverlap && prev[len(prev)-len(next):] == next
	}
	// gap is the white space next has after a repeat from i.
	gap := func(i int) int {
		k, g := len(p)-i, 0
		for k+g < len(n) && unicode.IsSpace(n[k+g]) {
			g++
		}
		return g
	}
	gaps := map[int]bool{0: true, 1: true}
	for i := max(len(p)-maxOverlap, 1); i < len(p); i++ {
		if fits(i) {
			gaps[gap(i)] = true
		}
	}
	order := slices.Collect(maps.Keys(gaps))
	slices.SortFunc(order, func(a, b int) int { return gapRank(a) - gapRank(b) })
	for _, g := range order {
		reach, start, ok := nextStarts(lv, len(p)+g, overlap, maxOverlap, fits)
		if ok {
			reach = append(reach, start)
		}
		for _, s := range reach {
			if k := len(p) - s; fits(s) && gap(s) == g && (g > 0 || len(p) == size || joinsAtCut(p, n[k:])) {
				return k
			}
		}
	}
	// The white space after a piece that is all repeat is not seen in
	// it: any gap up to overlap runes.
	for g := range overlap + 1 {
		if _, start, ok := nextStarts(lv, len(p)+g, overlap, maxOverlap, fits); allowWhole && ok && whole(start) {
			return len(n)
		}
	}
	for _, g := range []int{1, 0} {
		if _, _, ok := nextStarts(lv, len(p)+g, overlap, maxOverlap, fits); !ok {
			return 0
		}
	}
	if fits(len(p) - overlap) {
		return overlap
	}
	return 0
}

// joinsAtCut reports that a boundary lies between a and b written
// together: where Windows ends a piece with no white space after it.
func joinsAtCut(a, b []rune) bool {
	const context = 64
	r := slices.Concat(a[max(len(a)-context, 0):], b[:min(len(b), context)])
	return Levels(r)[min(len(a), context)] >= Char
}

// gapRank orders the gaps Overlap tries: one space (the white space
// Windows trims is mostly one), none, then by length.
func gapRank(g int) int {
	switch g {
	case 1:
		return 0
	case 0:
		return 1
	}
	return g
}

// nextStarts tells where Windows may begin the piece after one that
// ends at end (before trimming; lv are prev's levels, none past it):
// the sentence start it takes among the last overlap runes (start);
// else the sentence starts among the maxOverlap runes before end that
// fit (reach: Windows takes the first whose piece reaches past prev,
// which prev does not tell), then the word or character start it takes
// among the last overlap runes (start). ok false when Windows may begin
// it at end (no overlap).
func nextStarts(lv []Level, end, overlap, maxOverlap int, fits func(int) bool) (reach []int, start int, ok bool) {
	n := len(lv) - 1 // prev's runes
	from := max(end-overlap, 1)
	for i := from; i < n; i++ {
		if lv[i] >= Line {
			return nil, i, true
		}
	}
	for i := min(from, n) - 1; i >= max(end-maxOverlap, 1); i-- {
		if lv[i] >= Line && fits(i) {
			reach = append(reach, i)
		}
	}
	for _, m := range []Level{Word, Char} {
		for i := from; i < n; i++ {
			if lv[i] >= m {
				return reach, i, true
			}
		}
	}
	return reach, 0, false
}

// JoinWindows rebuilds a text from its pieces (Windows(text, size,
// overlap, maxOverlap), in order): each piece loses the start that
// repeats the previous one (Overlap). Pieces that do not overlap are
// joined with a space, or with nothing between two Japanese characters
// (the white space Windows trimmed there, if any). Pure.
func JoinWindows(pieces []string, size, overlap, maxOverlap int) string {
	var b strings.Builder
	for i, s := range pieces {
		if i == 0 {
			b.WriteString(s)
			continue
		}
		prev := pieces[i-1]
		k := overlapOf(prev, s, size, overlap, maxOverlap, i < len(pieces)-1)
		if k == 0 {
			if prev != "" && s != "" && !(isCJK(lastRune(prev)) && isCJK([]rune(s)[0])) {
				b.WriteByte(' ')
			}
			b.WriteString(s)
			continue
		}
		b.WriteString(string([]rune(s)[k:]))
	}
	return b.String()
}

func lastRune(s string) rune {
	r := []rune(s)
	return r[len(r)-1]
}
