package main

import (
	"slices"
	"strings"
	"unicode"
)

// The judged reference of a PDF: two independent extractors (pdftotext,
// poppler; mutool draw -F txt, MuPDF) each make mistakes of their own —
// pdftotext splits words at combining marks and TeX logos (L AT E X),
// MuPDF loses the word spaces of right-to-left lines — so a word counts
// against gds only where both agree. Missed: a word both references hold
// (as often as both hold it) that gds lacks. Extra: a word of gds that
// neither reference holds. Words only one reference holds are disputed:
// counted and shown, never scored. The same rule judges words run
// together (a space both references keep), pages cut off (cut against
// both) and right-to-left words stored reversed (both hold the word the
// right way round). Where the two references agree on less than half of
// pdftotext's words (MuPDF reads right-to-left lines without their spaces,
// old fonts without a Unicode map give each its own garbage), no judgement
// can be made: the file is not judged (Judgeable false); its raw
// figures are listed apart and kept out of the judged ones.
//
// Reversed right-to-left words are also counted without any reference
// (reversedByForm): a word that begins with a letter written only at a
// word's end. pdftotext stores some LuaTeX Arabic reversed, and MuPDF
// writes right-to-left lines in the order they are drawn, so its words
// cannot confirm which way round one is (na-box's ان, read right, is
// MuPDF's نا): a PDF's judged count is the letter-form one, and the
// rule above stays evidence (RTL). Recall and precision take a right-to-left word in either
// orientation (foldRTL): which way round it is, is the RTL figure's.

// judgedScore is one file's text against two references.
type judgedScore struct {
	Recall, Precision  float64
	Judgeable          bool // the references agree on at least half of a's words
	Agreed             int  // words both references hold (the judged reference)
	OnlyA, OnlyB       int  // disputed: words only the first, only the second reference holds
	GotOnlyA, GotOnlyB int  // of those, how many got holds
	Joined, Boundaries int
	RTL                []string
	// Missed and Extra are the evidence: words of the judged reference
	// got lacks, words of got neither reference holds ("word×count", most
	// frequent first); DisputedA and DisputedB the words only one
	// reference holds.
	Missed, Extra, DisputedA, DisputedB []string
}

// judge scores got against the references a and b (whole texts, pages
// separated by form feeds) by the rule above; n bounds each evidence list.
func judge(a, b, got string, n int) judgedScore {
	wa, wb, wg := foldRTL(words(a)), foldRTL(words(b)), foldRTL(words(got))
	agreed := agreedWords(wa, wb)
	var s judgedScore
	s.Agreed = len(agreed)
	s.Judgeable = 2*len(agreed) >= len(wa)
	s.Recall, _ = recallPrecision(agreed, wg)
	ca, cb, cg := counts(wa), counts(wb), counts(wg)
	either := make(map[string]int, len(ca)+len(cb))
	for w, c := range ca {
		either[w] = max(c, cb[w])
	}
	for w, c := range cb {
		either[w] = max(c, either[w])
	}
	s.Precision = 1
	if len(wg) > 0 {
		s.Precision = float64(overlap(cg, either)) / float64(len(wg))
	}
	for w, c := range ca {
		if d := c - cb[w]; d > 0 {
			s.OnlyA += d
			s.GotOnlyA += min(d, max(cg[w]-cb[w], 0))
		}
	}
	for w, c := range cb {
		if d := c - ca[w]; d > 0 {
			s.OnlyB += d
			s.GotOnlyB += min(d, max(cg[w]-ca[w], 0))
		}
	}
	chainsA, lost, boundaries := spaceChains(a)
	chainsB, _, _ := spaceChains(b)
	for k, c := range chainsA {
		chainsA[k] = min(c, chainsB[k])
	}
	s.Joined, s.Boundaries = chainsIn(got, chainsA, lost), boundaries
	rightB := counts(words(b)) // cb holds right-to-left words either way round
	for _, w := range reversedRTL(a, got) {
		if rightB[w] > 0 && !slices.Contains(s.RTL, w) {
			s.RTL = append(s.RTL, w)
		}
	}
	s.Missed, s.Extra = onlyIn(agreed, wg, n), countsOnlyIn(cg, either, n)
	s.DisputedA, s.DisputedB = onlyIn(wa, wb, n), onlyIn(wb, wa, n)
	return s
}

// agreedWords is the multiset intersection of two word lists, in a's
// order.
func agreedWords(a, b []string) []string {
	left := counts(b)
	var out []string
	for _, w := range a {
		if left[w] > 0 {
			left[w]--
			out = append(out, w)
		}
	}
	return out
}

// judgedCutPages counts the pages of got cut off against both
// references (pages separated by form feeds; gotPages by page number from
// 1) and the pages the first reference has text on.
func judgedCutPages(a, b string, gotPages map[int]string) (cut, pages int) {
	pb := strings.Split(b, "\f")
	for i, p := range strings.Split(a, "\f") {
		if strings.TrimFunc(p, unicode.IsSpace) == "" {
			continue
		}
		pages++
		if cutOff(p, gotPages[i+1]) && i < len(pb) && cutOff(pb[i], gotPages[i+1]) {
			cut++
		}
	}
	return cut, pages
}
