package eval

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/gds-cli/gds/internal/tokenize"
)

// Normalization names the text normalisation of the answer metrics, as
// reported with them.
const Normalization = "NFKC, whitespace runs collapsed to one space, trimmed; case kept; word-bounded outside CJK"

// NormalizeText is the normalisation applied to both a gold answer and the
// text searched for it: Unicode NFKC (full-width letters and digits become
// ASCII, compatibility characters their canonical form), then every run
// of white space (line breaks included) becomes one space, and the ends
// are trimmed. Case is kept: the gold answers occur verbatim.
func NormalizeText(s string) string {
	s = norm.NFKC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ContainsAnswer reports whether the text contains one of the gold answers
// after NormalizeText on both sides. An answer that begins (ends) with a
// letter or digit outside the CJK scripts must not be preceded (followed)
// by another such letter or digit in the text: "one" does not occur in
// "someone", "$1" not in "$10"; CJK text has no word boundaries, so
// "一九六四年" occurs in "一九六四年に". Empty answers never match.
func ContainsAnswer(text string, answers []string) bool {
	return containsNormalized(NormalizeText(text), normalizeAnswers(answers))
}

// normalizeAnswers normalises the answers, dropping empty ones.
func normalizeAnswers(answers []string) []string {
	out := make([]string, 0, len(answers))
	for _, a := range answers {
		if a = NormalizeText(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// containsNormalized is ContainsAnswer on normalised text and answers.
func containsNormalized(text string, answers []string) bool {
	for _, a := range answers {
		first, _ := utf8.DecodeRuneInString(a)
		last, _ := utf8.DecodeLastRuneInString(a)
		for from := 0; from <= len(text)-len(a); {
			i := strings.Index(text[from:], a)
			if i < 0 {
				break
			}
			i += from
			before, _ := utf8.DecodeLastRuneInString(text[:i])
			after, _ := utf8.DecodeRuneInString(text[i+len(a):])
			if !(isWordRune(first) && isWordRune(before)) && !(isWordRune(last) && isWordRune(after)) {
				return true
			}
			_, size := utf8.DecodeRuneInString(text[i:])
			from = i + size
		}
	}
	return false
}

// isWordRune is a letter or digit of a script that separates words by
// spaces (not CJK); utf8.RuneError (no rune) is not.
func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) && !tokenize.IsCJK(r)
}

// AnswerRank is the 1-based position of the first of the texts (retrieved
// chunks, best first) that contains a gold answer (ContainsAnswer), or 0
// when none does. Each text is searched on its own: chunks overlap, so an
// answer shorter than the overlap that straddles a chunk border is whole
// in one of them.
func AnswerRank(texts, answers []string) int {
	normalized := normalizeAnswers(answers)
	for i, t := range texts {
		if containsNormalized(NormalizeText(t), normalized) {
			return i + 1
		}
	}
	return 0
}
