// Package suggest picks the closest of a set of names for a mistyped one
// ("serch" → "search", "--limt" → "--limit"). It is pure: the caller
// passes the user's word and the candidates, and gets a name or nothing.
package suggest

import "unicode/utf8"

// Distance is the optimal-string-alignment edit distance between a and b:
// insertions, deletions, substitutions and transpositions of two adjacent
// characters each cost 1. It counts runes, so Japanese input is fair.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	n, m := len(ra), len(rb)
	// three rows: i-2, i-1, i
	prev2 := make([]int, m+1)
	prev := make([]int, m+1)
	cur := make([]int, m+1)
	for j := 0; j <= m; j++ {
		prev[j] = j
	}
	for i := 1; i <= n; i++ {
		cur[0] = i
		for j := 1; j <= m; j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[m]
}

// MaxDistance is the largest distance at which word still gets a
// suggestion: one edit for short words, about a third of the word for
// longer ones, so a typo is caught and unrelated text is not.
func MaxDistance(word string) int {
	n := utf8.RuneCountInString(word)
	switch {
	case n <= 2:
		return 0
	case n <= 5:
		return 1
	default:
		return n / 3
	}
}

// Closest returns the candidate nearest to word and true, or "" and false
// when none is within MaxDistance(word) (or word is itself a candidate).
// Ties go to the earlier candidate, so the result is deterministic. A
// candidate that starts with word (an abbreviation, "sea" → "search") also
// counts when word has at least three characters.
func Closest(word string, candidates []string) (string, bool) {
	best, bestD := "", -1
	limit := MaxDistance(word)
	for _, c := range candidates {
		if c == word {
			return "", false
		}
		d := Distance(word, c)
		if d > limit && !(utf8.RuneCountInString(word) >= 3 && len(c) > len(word) && c[:len(word)] == word) {
			continue
		}
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best, bestD >= 0
}
