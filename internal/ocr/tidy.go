package ocr

import (
	"strings"
	"unicode"
)

// Tidy cleans tesseract's text: the spaces it puts between Japanese
// characters ("わ た く し") are removed, page breaks (form feeds) become
// blank lines, trailing spaces go, and runs of blank lines become one.
func Tidy(s string) string {
	s = strings.ReplaceAll(s, "\f", "\n\n")
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	blank := false
	for _, l := range lines {
		l = strings.TrimRight(joinCJK(l), " \t")
		if strings.TrimSpace(l) == "" {
			if !blank && len(out) > 0 {
				out = append(out, "")
			}
			blank = true
			continue
		}
		blank = false
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// joinCJK drops the spaces between two CJK characters.
func joinCJK(l string) string {
	if !strings.ContainsRune(l, ' ') {
		return l
	}
	rs := []rune(l)
	var b strings.Builder
	b.Grow(len(l))
	for i := 0; i < len(rs); i++ {
		if rs[i] == ' ' && i > 0 && isCJK(rs[i-1]) {
			j := i
			for j < len(rs) && rs[j] == ' ' {
				j++
			}
			if j < len(rs) && isCJK(rs[j]) {
				i = j - 1
				continue
			}
		}
		b.WriteRune(rs[i])
	}
	return b.String()
}

// isCJK reports whether r is written without spaces around it in Japanese:
// kanji, kana, CJK punctuation, full-width forms.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
		(r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef) || r == 'ー'
}
