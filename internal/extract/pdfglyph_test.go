package extract

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestGlyphNamesOfOtherFonts: glyph names the Adobe Glyph List spells
// otherwise, as Arabic and Hebrew fonts give them (Monotype's
// Traditional Arabic, arabi's, cjhebrew's), are read; a name that only
// ends in digits after a letter is no variant of it.
func TestGlyphNamesOfOtherFonts(t *testing.T) {
	tests := []struct{ name, want string }{
		{"behinitial", "\ufe91"},
		{"meemisolated", "\ufee1"},
		{"alefisolated", "\ufe8d"},
		{"yehwithhamzaabovemedial", "\ufe8c"},
		{"lamwithalefisolated", "\ufefb"},
		{"lamwithalefhamzaabovefinal", "\ufef8"}, // LAM WITH ALEF WITH HAMZA ABOVE FINAL FORM
		{"allahisolated", "\ufdf2"},
		{"arabicindicdigitone", "\u0661"},
		{"arabiccomma", "\u060c"},
		{"arabicquestionmark", "\u061f"},
		{"ornateleftparenthesis", "\ufd3e"},
		{"fathah", "\u064e"},
		{"kaffinal", "\ufeda"}, // Arabic unless the font is Hebrew (TestPDFHebrewFinalKaf)
		{"maqaf", "\u05be"},
		{"memfinal", "\u05dd"},
		{"tsadifinal", "\u05e5"},
		{"kaffinalsheva", "\u05da\u05b0"},
		{"qamats2", "\u05b8"},
		{"hiriq3", "\u05b4"},
		{"qibuts", "\u05bb"},
		{"beharabic", "\u0628"}, // the list's own names are unchanged
		{"a65", ""},             // Ghostscript's name for code 65 of a bitmap font
		{"g12", ""},
		{"endofword", ""},
		{"lamwithalefhamzaaboveisolatedd", ""},
	}
	for _, tt := range tests {
		if got := glyphText(tt.name); got != tt.want {
			t.Errorf("glyphText(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestPDFArabicGlyphNames: an Arabic font without a ToUnicode map whose
// glyphs are named after their characters' Unicode names (Ghostscript's
// PDFs of arabi's plain TeX example, big2's Traditional Arabic) reads as
// Arabic, not as the Latin letters of its codes.
func TestPDFArabicGlyphNames(t *testing.T) {
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /TraditionalArabic /FirstChar 65 /LastChar 70 /Widths [300 300 300 300 300 300] " +
		"/Encoding << /Differences [65 /yehfinal /behinitial /rehfinal /ainmedial /laminitial /alefisolated] >> >>"
	content := "BT /F2 10 Tf 50 50 Td (ABCDEF) Tj ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font))
	if want := "\ufe8d\ufedf\ufecc\ufeae\ufe91\ufef2"; text != want { // laid out left to right: read in logical order
		t.Errorf("%q, want %q", text, want)
	}
}

// TestPDFHebrewFinalKaf: "kaffinal" is the Hebrew final kaf in a font
// whose other letters are Hebrew, the Arabic kaf in an Arabic one.
func TestPDFHebrewFinalKaf(t *testing.T) {
	for _, tt := range []struct{ names, kaf string }{
		{"/kaffinal /lamed /mem", "ך"},
		{"/kaffinal /laminitial /meemmedial", "\ufeda"},
	} {
		font := "<< /Type /Font /Subtype /Type1 /BaseFont /F /FirstChar 65 /LastChar 67 /Widths [500 500 500] " +
			"/Encoding << /Differences [65 " + tt.names + "] >> >>"
		_, text := extractPDFText(t, onePage(t, "BT /F2 10 Tf 50 50 Td (ABC) Tj ET", "/Font << /F1 5 0 R /F2 6 0 R >>", font))
		if !strings.Contains(text, tt.kaf) || utf8.RuneCountInString(text) != 3 {
			t.Errorf("%s: %q, want %q in it", tt.names, text, tt.kaf)
		}
	}
}

// TestPDFDifferencesOverBuiltIn: a Differences name no table knows
// (cjhebrew's endofword) replaces what the font program's own encoding
// put at its code (alef): the code reads as in the base table, "!", not
// as the letter it no longer draws.
func TestPDFDifferencesOverBuiltIn(t *testing.T) {
	program := "%!PS-AdobeFont-1.0: CJHebLSm 001.000\n/FontName /CJHebLSm def\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n" +
		"dup 33 /alef put\ndup 34 /bet put\nreadonly def\ncurrentdict end\ncurrentfile eexec\n\x8f\x02binary"
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /CJHebLSm /FirstChar 33 /LastChar 39 /Widths [0 527 0 0 0 0 527] " +
		"/Encoding << /Differences [33 /endofword 39 /alef] >> /FontDescriptor 7 0 R >>"
	desc := "<< /Type /FontDescriptor /FontName /CJHebLSm /Flags 4 /FontFile 8 0 R >>"
	ff := streamObj(fmt.Sprintf("/Length1 %d /Length2 7 /Length3 0", strings.Index(program, "\x8f")), program)
	_, text := extractPDFText(t, onePage(t, "BT /F2 10 Tf 50 50 Td (!\"') Tj ET", "/Font << /F1 5 0 R /F2 6 0 R >>", font, desc, ff))
	if want := "אב!"; text != want { // laid out left to right, read right to left
		t.Errorf("%q, want %q", text, want)
	}
}
