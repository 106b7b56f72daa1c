package extract

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestType3Em: a Type 3 font whose glyphs advance a plausible fraction
// of the font size keeps its em; one whose FontMatrix leaves them tens of
// font sizes wide (or a thousandth of one) gets twice their median
// advance.
func TestType3Em(t *testing.T) {
	tests := []struct {
		widths []float64
		scale  float64
		want   float64
	}{
		{[]float64{500, 600, 278}, 0.001, 1},   // a 1000-unit glyph space
		{[]float64{42, 55, 61}, 0.01204, 1},    // a TeX bitmap font (pixels)
		{[]float64{59, 59, 59, 59}, 1, 118},    // Ghostscript's bitmap digits
		{[]float64{0, 59, 61, 0, 57}, -1, 118}, // empty slots do not count; a mirrored matrix neither
		{[]float64{5, 6, 7}, 0.001, 0.012},     // glyphs a hundredth of the size
		{nil, 1, 1},                            // no widths: nothing to go by
	}
	for _, tt := range tests {
		if got := type3Em(tt.widths, tt.scale); got < tt.want*0.999 || got > tt.want*1.001 {
			t.Errorf("type3Em(%v, %v) = %v, want %v", tt.widths, tt.scale, got, tt.want)
		}
	}
}

// TestPDFType3OddGlyphSpace: numbers set in a Type 3 font whose glyph
// space is the text space (FontMatrix 1, glyphs 59 units wide at 0.04
// pt: Ghostscript's digits on the upside-down face of a calendar in
// arabi's user guide, drawn leftwards) keep their digits together: "10
// 11", not "1 0 1 1"; on a face set with a shearing matrix that mirrors
// what the FontMatrix mirrors, the cells stay apart ("9 10 11", not
// "91011").
func TestPDFType3OddGlyphSpace(t *testing.T) {
	font := "<< /Type /Font /Subtype /Type3 /FontMatrix [1 0 0 -1 0 0] /FontBBox [0 0 1000 1000] /FirstChar 48 /LastChar 57 " +
		"/Widths [" + strings.Repeat("59 ", 10) + "] /CharProcs << >> " +
		"/Encoding << /Type /Encoding /Differences [48 /zero /one /two /three /four /five /six /seven /eight /nine] >> >>"
	for _, tm := range []string{"-2.236 0 0 -1 300 400", "-0.321543 0.442566 0.989607 0.143798 262 666"} {
		content := "q 0 0.75 -0.75 0 600 100 cm BT /F2 0.0865 Tf " + tm + " Tm (9) Tj 20.43 0 Td (10) Tj 20.43 0 Td (11) Tj -40.86 20.43 Td (12) Tj ET Q"
		_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font))
		if want := "9 10 11\n12"; text != want {
			t.Errorf("Tm %s: %q, want %q", tm, text, want)
		}
	}
}

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
		{"arabickaffinal", "\ufeda"},
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

// TestPDFZeroWidthGlyph: a glyph whose Widths entry is 0 has no advance
// when the font lists advances, be it no mark (cjhebrew's endofword,
// drawn before each Hebrew word): the word after it, set a quarter em
// after the last letter, stays apart ("a!b is", not "a!bis"). A font
// whose Widths are all 0 says nothing of its advances.
func TestPDFZeroWidthGlyph(t *testing.T) {
	for _, tt := range []struct{ widths, want string }{
		{"500 0 500", "a!b is"},
		{"0 0 0", "a!bis"}, // no widths: 500 each, "is" drawn over the b
	} {
		font := "<< /Type /Font /Subtype /Type1 /BaseFont /F /FirstChar 65 /LastChar 67 /Widths [" + tt.widths + "] " +
			"/Encoding << /Differences [65 /a /exclam /b] >> >>"
		content := "BT /F2 10 Tf 50 50 Td (ABC) Tj 12.5 0 Td /F1 10 Tf (is) Tj ET"
		_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font))
		if text != tt.want {
			t.Errorf("widths %s: %q, want %q", tt.widths, text, tt.want)
		}
	}
}

// TestPDFMarkBeginsLine: a glyph without advance that begins a line
// (cjhebrew's table of points, each cell starting with one) ends where
// it stands, not where the line before ended: the letters after it stay
// on its line.
func TestPDFMarkBeginsLine(t *testing.T) {
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /F /FirstChar 65 /LastChar 66 /Widths [0 500] " +
		"/Encoding << /Differences [65 /exclam /b] >> >>"
	content := "BT /F1 10 Tf 50 700 Td (consonants) Tj /F2 10 Tf 0 -30 Td (ABB) Tj ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font))
	if want := "consonants\n!bb"; text != want {
		t.Errorf("%q, want %q", text, want)
	}
}

// TestPageBox: the page's area is its media box; a glyph is outside it
// when wholly beyond it by more than its size.
func TestPageBox(t *testing.T) {
	tests := []struct {
		media []float64
		want  pageBox
	}{
		{[]float64{0, 0, 612, 792}, pageBox{0, 0, 612, 792, true}},
		{[]float64{612, 792, 0, 0}, pageBox{0, 0, 612, 792, true}}, // corners in any order
		{nil, pageBox{}}, // no media box: no clipping
		{[]float64{0, 0, 0, 0}, pageBox{}},
		{[]float64{0, 0, 612}, pageBox{}},
	}
	for _, tt := range tests {
		if got := newPageBox(tt.media); got != tt.want {
			t.Errorf("newPageBox(%v) = %v, want %v", tt.media, got, tt.want)
		}
	}
	box := newPageBox([]float64{0, 0, 612, 792})
	for _, tt := range []struct {
		g   placed
		out bool
	}{
		{placed{x: 100, y: 100, ex: 105, ey: 100, size: 10}, false},
		{placed{x: 100, y: -5, ex: 105, ey: -5, size: 10}, false}, // a descender's worth below: kept
		{placed{x: 100, y: -30, ex: 105, ey: -30, size: 10}, true},
		{placed{x: -40, y: 100, ex: -35, ey: 100, size: 10}, true},
		{placed{x: 615, y: 100, ex: 620, ey: 100, size: 10}, false},
		{placed{x: 900, y: 100, ex: 905, ey: 100, size: 10}, true},
		{placed{x: 100, y: 1000, ex: 105, ey: 1000, size: 10}, true},
	} {
		if got := box.outside(&tt.g); got != tt.out {
			t.Errorf("outside(%+v) = %v, want %v", tt.g, got, tt.out)
		}
	}
	if (pageBox{}).outside(&placed{x: -1e6, y: -1e6, size: 1}) {
		t.Error("a page without a box clips")
	}
}

// TestPDFOffPageText: text drawn off the page (the tiles of a pattern
// that overflow it, frames of a slide hidden below it) is not read; text
// on it, and on a page without a media box, is.
func TestPDFOffPageText(t *testing.T) {
	content := "BT /F1 10 Tf 50 100 Td (seen) Tj 0 -300 Td (below) Tj 700 400 Td (right) Tj ET"
	page := func(box string) []byte {
		return pdfOf(t, catalogObj, pagesObj,
			"<< /Type /Page /Parent 2 0 R "+box+" /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
			streamObj("", content), helvetica)
	}
	for _, tt := range []struct{ box, want string }{
		{"/MediaBox [0 0 612 792]", "seen"},
		{"/MediaBox [0 -400 1000 792]", "seen\nbelow\nright"},
		// the crop box hides "seen", but it is the file's text (pdfcrop's figures, pdftotext)
		{"/MediaBox [0 0 612 792] /CropBox [0 0 40 40]", "seen"},
		{"", "seen\nbelow\nright"},
	} {
		doc, err := Extract(context.Background(), "application/pdf", bytes.NewReader(page(tt.box)), 0)
		if text := doc.Text(); err != nil && tt.want != "" || text != tt.want {
			t.Errorf("%s: %q (%v), want %q", tt.box, text, err, tt.want)
		}
	}
}

// TestVisualToLogicalNumbers: in a right-to-left line, numbers with no
// letter between them follow each other right to left, each read left to
// right (arabi's samplebook: "(١٩٢٤ - ١٩٢٨)", drawn "(١٩٢٨ - ١٩٢٤)"); a
// number joined by a separator stays one; a left-to-right phrase keeps
// its order.
func TestVisualToLogicalNumbers(t *testing.T) {
	tests := []struct{ visual, logical string }{
		{"(١٩٢٨ - ١٩٢٤) سيراب", "باريس (١٩٢٤ - ١٩٢٨)"},
		{"(1928 - 1924) سيراب", "باريس (1924 - 1928)"},
		{"1924-1928 سيراب", "باريس 1924-1928"},
		{"3.5 و 12:30 ةعاسلا", "الساعة 12:30 و 3.5"},
		{"7 8 9 و ماقرأ", "أرقام و 9 8 7"},
		{"(LaTeX 2e) يبرعلا ماظن", "نظام العربي (LaTeX 2e)"},
	}
	for _, tt := range tests {
		if got := visualToLogical(tt.visual); got != tt.logical {
			t.Errorf("visualToLogical(%q) = %q, want %q", tt.visual, got, tt.logical)
		}
	}
}
