package store

import "strings"

// maxChunkOverlap bounds the overlap JoinChunkTexts looks for between two
// consecutive chunks of a page (the crawler overlaps them by a few hundred
// characters).
const maxChunkOverlap = 1000

// minChunkOverlap is the shortest repeat taken for an overlap: a chunk
// that happens to start with the previous one's last few characters is
// not cut.
const minChunkOverlap = 8

// JoinChunkTexts rebuilds a file's text from its stored chunks, in
// ordinal order: consecutive chunks of one page lose the longest prefix
// that repeats the previous chunk's end (their overlap); pages are
// separated by a blank line. It is the text a store re-tokenises when its
// tokenisation changes (the full text itself is not stored). Pure.
func JoinChunkTexts(texts []string, pages []int) string {
	var b strings.Builder
	var prev []rune
	for i, t := range texts {
		r := []rune(t)
		if i > 0 {
			if pages[i] == pages[i-1] {
				r = r[overlap(prev, r):]
			} else {
				b.WriteString("\n\n")
			}
		}
		b.WriteString(string(r))
		prev = []rune(t)
	}
	return b.String()
}

// overlap is the length of the longest suffix of a that is a prefix of b
// (minChunkOverlap to maxChunkOverlap runes and shorter than either; else 0).
func overlap(a, b []rune) int {
	for k := min(len(a)-1, len(b)-1, maxChunkOverlap); k >= minChunkOverlap; k-- {
		if string(a[len(a)-k:]) == string(b[:k]) {
			return k
		}
	}
	return 0
}
