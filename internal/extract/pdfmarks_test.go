package extract

import (
	"testing"

	"golang.org/x/text/unicode/norm"
)

// markFont is a Type 1 Arabic font for the tests of marks: a meem, b
// lam-alef, c seen, f beh, g ta, h kaf, i fatha, j shadda, k yeh, l ta
// marbuta, m dal, n alef, o hamza above, q hah, all 500 wide but the
// marks (1: next to nothing; a width of 0 reads as none given).
const markFont = "<< /Type /Font /Subtype /Type1 /BaseFont /Arabic /FirstChar 97 /LastChar 113 " +
	"/Widths [500 500 500 500 500 500 500 500 1 1 500 500 500 500 1 500 500] /Encoding << /Differences [97 /uni0645 /uni0644_uni0627" +
	" /uni0633 100 /space /space /uni0628 /uni062A /uni0643 /uni064E /uni0651 /uni064A /uni0629 /uni062F /uni0627 /uni0654 /space /uni062D] >> >>"

// TestPDFMarksInVisualLines: in a right-to-left line laid out left to
// right, a combining mark drawn before the letter it sits on (XeTeX) is
// no word space even when it stands past the end of the letter before,
// and stays with its letter even when it starts a little inside the
// letter before; a mark drawn after its letter, at that letter's start
// (LuaTeX), stays with it; a mark before the first letter of a word
// after a word space goes with that word, even when it stands in the
// space, unless it stands in its middle (a sign between words).
func TestPDFMarksInVisualLines(t *testing.T) {
	tests := []struct{ name, tj, want string }{
		// د م, a fatha 0.12 em past the meem's end over ح, ح
		{"mark before its letter, past the letter before", "[(ma) -120 (i) 119 (q)]", "حَمد"},
		// ة, a shadda 0.1 em inside it (nearer ي's start), ي, ب
		{"mark before its letter, inside the letter before", "[(l) 100 (j) -101 (kf)]", "بيّة"},
		// ب ا, a hamza at the alef's start, ت
		{"mark after its letter, at its start", "[(fn) 500 (o) -499 (g)]", "تأب"},
		// م, a word space, a fatha over ك, ك ب
		{"mark starting a word", "[(a) -400 (i) 99 (hf)]", "بكَ م"},
		// م, a fatha 0.12 em into a 0.3 em word space, ح
		{"mark in the word space before its letter", "[(a) -120 (i) -179 (q)]", "حَ م"},
		// م, a sign in the middle of a 0.6 em space, ح
		{"sign between words", "[(a) -300 (i) -299 (q)]", "ح َ م"},
	}
	for _, tt := range tests {
		content := "BT /F2 10 Tf 50 50 Td " + tt.tj + " TJ ET"
		_, got := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", markFont))
		if norm.NFC.String(got) != norm.NFC.String(tt.want) {
			t.Errorf("%s: %q (%+q), want %q", tt.name, got, got, tt.want)
		}
	}
}

// TestPDFLimitUnderOperator: a glyph of another size set back before the
// start of the glyph before it (the limit under "lim") is another word:
// "lim x", not "limx".
func TestPDFLimitUnderOperator(t *testing.T) {
	content := "BT /F1 12 Tf 50 50 Td (lim) Tj ET BT /F1 8 Tf 47 43 Td (x) Tj ET BT /F1 12 Tf 70 50 Td (f) Tj ET"
	_, got := extractPDFText(t, onePage(t, content, ""))
	if want := "lim x f"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestVisualToLogicalMirrors: reversing a right-to-left line swaps the
// characters Unicode mirrors there (a Persian «quotation» is drawn with
// » at its right, where it starts), and only those: the ornate
// parentheses around a Quran verse number (﴿١﴾) are not mirrored.
func TestVisualToLogicalMirrors(t *testing.T) {
	tests := []struct{ visual, logical string }{
		{":وگب «تسين» تسوا", "اوست «نيست» بگو:"},
		{"﴾١﴿ مالس", "سلام ﴿١﴾"},
		{"‹ي› x ≥ ل", "ل ≤ x ‹ي›"},
	}
	for _, tt := range tests {
		if got := visualToLogical(tt.visual); got != tt.logical {
			t.Errorf("visualToLogical(%q) = %q, want %q", tt.visual, got, tt.logical)
		}
	}
}
