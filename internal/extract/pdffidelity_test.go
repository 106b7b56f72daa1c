package extract

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestPDFRotatedWordSpaces: words placed by TJ offsets keep their spaces
// whatever way the page turns them (a landscape page, rotated labels):
// gaps are measured along the baseline, not along the page's x axis.
func TestPDFRotatedWordSpaces(t *testing.T) {
	for _, cm := range []string{"1 0 0 1 0 0", "0 1 -1 0 500 100", "0 -1 1 0 100 700", "-1 0 0 -1 500 700", "0.7071 0.7071 -0.7071 0.7071 300 100"} {
		content := fmt.Sprintf("q %s cm BT /F1 12 Tf 50 50 Td [(The)-333(lscape)-333(package)] TJ 0 -14 Td [(D.)-250(P.)-250(Carlisle)] TJ ET Q", cm)
		_, text := extractPDFText(t, onePage(t, content, ""))
		if text != "The lscape package\nD. P. Carlisle" {
			t.Errorf("cm %s: %q", cm, text)
		}
	}
}

// TestPDFLetterSpacedWords: a producer that spaces letters with Tc and
// takes the spacing back with TJ offsets inside words (Acrobat Distiller
// 4) shows a word space as the spacing it does not take back.
func TestPDFLetterSpacedWords(t *testing.T) {
	content := "BT /F1 1 Tf 9.9626 0 0 9.9626 90 511 Tm 0.5028 Tc " +
		"[(8)502.9(.)499.9(1)-545(S)503.8(o)500.7(m)500.5(e)259.1(F)504.7(o)500.7(n)500.6(t)250.6(D)499.9(e)500(s)505.2(i)504.7(g)504.7(n)] TJ ET"
	_, text := extractPDFText(t, onePage(t, content, ""))
	if text != "8.1 Some Font Design" {
		t.Errorf("%q, want \"8.1 Some Font Design\"", text)
	}
}

// TestPDFGreekFontEncodings: Greek set in a math font whose own (built-in)
// encoding puts it at Latin codes, and in the Symbol font, comes out
// Greek (Γ,Δ,Θ,Λ, not G,D,Q,L).
func TestPDFGreekFontEncodings(t *testing.T) {
	program := "%!PS-AdobeFont-1.0: PazoMath 001.003\n/FontName /PazoMath def\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n" +
		"dup 71 /Gamma put\ndup 68 /Delta put\ndup 81 /Theta put\ndup 76 /Lambda put\ndup 97 /alpha put\nreadonly def\ncurrentdict end\ncurrentfile eexec\n\x8f\x02binary"
	pazo := "<< /Type /Font /Subtype /Type1 /BaseFont /KZWVWQ+PazoMath /FirstChar 0 /LastChar 255 /FontDescriptor 7 0 R >>"
	desc := "<< /Type /FontDescriptor /FontName /KZWVWQ+PazoMath /Flags 4 /FontFile 8 0 R >>"
	ff := streamObj(fmt.Sprintf("/Length1 %d /Length2 7 /Length3 0", strings.Index(program, "\x8f")), program)
	symbol := "<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>"
	content := "BT /F2 12 Tf 50 50 Td (G,D,Q,L a) Tj 0 -14 Td /F3 12 Tf (G,D,Q,L a p) Tj ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R /F3 9 0 R >>", pazo, desc, ff, symbol))
	if text != "Γ,Δ,Θ,Λ α\nΓ,Δ,Θ,Λ α π" {
		t.Errorf("%q, want Γ,Δ,Θ,Λ α / Γ,Δ,Θ,Λ α π", text)
	}
}

func TestVisualToLogical(t *testing.T) {
	tests := []struct{ visual, logical string }{
		{"ןושחרמ", "מרחשון"},
		{"ةيبرعلا ةغللا معد رابتخا", "اختبار دعم اللغة العربية"},
		{"٢٠٢٢ يناثلا نيرشت ٢٩", "٢٩ تشرين الثاني ٢٠٢٢"},
		{"(Calendar) ةيخيرأت لامعأ", "أعمال تأريخية (Calendar)"},
		// A mostly English line is taken as left to right: its words
		// are right, their order is the visual one.
		{"(Calendar operations) ةيخيرأت لامعأ", "(Calendar operations) أعمال تأريخية"},
		{"The word םולש means peace", "The word שלום means peace"},
		{"in 1948 לארשי תנידמ was founded", "in 1948 מדינת ישראל was founded"},
		{"plain English (no change)", "plain English (no change)"},
	}
	for _, tt := range tests {
		if got := visualToLogical(tt.visual); got != tt.logical {
			t.Errorf("visualToLogical(%q) = %q, want %q", tt.visual, got, tt.logical)
		}
		if len(visualToLogical(tt.visual)) != len(tt.visual) {
			t.Errorf("%q: length changed", tt.visual)
		}
	}
}

// TestPDFRightToLeftLogicalOrder: Arabic laid out left to right by
// XeTeX (polyglossia's example, visual order in the content stream) is
// stored in reading order; Hebrew placed leftwards glyph by glyph (logical
// order in the stream) stays as it is, with its word spaces.
func TestPDFRightToLeftLogicalOrder(t *testing.T) {
	doc, err := extractFile(t, filepath.Join(fidelity, "polyglossia-example-arabic.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	text := doc.Text()
	// میشود: the zero-width non-joiner between its parts is a space
	// glyph drawn back, not a word space.
	for _, want := range []string{"اختبار دعم اللغة العربية", "٢٩ تشرين الثاني ٢٠٢٢", "میشود"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, firstRunes(text, 300))
		}
	}
	if strings.Contains(text, "ةيبرعلا") {
		t.Error("an Arabic word is stored reversed")
	}

	// Hebrew glyphs (a font mapping codes to AGL names) drawn right to
	// left: each glyph moved left of the previous one.
	hebrew := "<< /Type /Font /Subtype /Type1 /BaseFont /Hebrew /FirstChar 97 /LastChar 100 /Widths [500 500 500 500] " +
		"/Encoding << /Differences [97 /mem /resh /het /shin] >> >>"
	content := "BT /F2 10 Tf 200 50 Td (a) Tj -5 0 Td (b) Tj -5 0 Td (c) Tj -5 0 Td (d) Tj -13 0 Td (a) Tj ET"
	_, got := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", hebrew))
	if got != "מרחש מ" {
		t.Errorf("logical-order Hebrew: %q, want \"מרחש מ\"", got)
	}
}

// TestPDFRightToLeftGlyphClusters: a visual-order line is reversed glyph
// by glyph, not character by character: a lam-alef ligature glyph whose
// name stands for lam then alef stays "لا" (not "ال"), and a mark drawn
// over the letter before it in the stream stays after that letter.
func TestPDFRightToLeftGlyphClusters(t *testing.T) {
	for _, lamAlef := range []string{"uni06440627", "uni0644_uni0627", "afii57444_afii57415"} {
		// a: meem, b: lam-alef, c: seen, f: beh, g: ta (U+062A), h: kaf, i: fatha
		arabic := "<< /Type /Font /Subtype /Type1 /BaseFont /Arabic /FirstChar 97 /LastChar 105 " +
			"/Widths [500 500 500 500 500 500 500 500 0] /Encoding << /Differences [97 /uni0645 /" + lamAlef +
			" /uni0633 100 /space /space /uni0628 /uni062A /uni0643 /uni064E] >> >>"
		// left to right: ب ت ك (fatha over kaf), a word space, م لا س
		content := "BT /F2 10 Tf 50 50 Td [(fgh) 300 (i) -1300 (abc)] TJ ET"
		_, got := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", arabic))
		if want := "سلام كَتب"; got != want {
			t.Errorf("%s: %q (% x), want %q", lamAlef, got, got, want)
		}
	}
}

func TestVisualToLogicalGlyphs(t *testing.T) {
	tests := []struct {
		visual  string
		whole   [][2]int
		logical string
	}{
		{"ماس", [][2]int{{2, 6}}, "اسم"}, // "اس" one glyph (made up): kept
		{"ماس", nil, "سام"},
		{"abc مال", [][2]int{{6, 10}}, "الم abc"},
		{"x", [][2]int{{5, 9}}, "x"}, // a range outside the line is ignored
	}
	for _, tt := range tests {
		if got := visualToLogicalGlyphs(tt.visual, tt.whole); got != tt.logical {
			t.Errorf("visualToLogicalGlyphs(%q, %v) = %q, want %q", tt.visual, tt.whole, got, tt.logical)
		}
	}
}

// TestPDFStandardFontWidths: a standard font without /Widths (old
// pdfTeX, Ghostscript) is measured with its real advances, so a word
// placed one space after the previous one is a new word: "like hyperref",
// not "likehyperref" (with one average width for every letter "like"
// would end 5 points too far right).
func TestPDFStandardFontWidths(t *testing.T) {
	times := "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>"
	courier := "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>"
	// "like" in Times at 10 pt is 15 pt wide (l 278, i 278, k 500, e 444);
	// a space is 2.5 pt.
	content := "BT /F2 10 Tf 50 50 Td (like) Tj ET BT /F3 10 Tf 67.5 50 Td (hyperref) Tj ET " +
		"BT /F2 10 Tf 50 30 Td (see) Tj ET BT /F2 10 Tf 64.8 30 Td (section) Tj ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R /F3 7 0 R >>", times, courier))
	if text != "like hyperref\nsee section" {
		t.Errorf("%q, want \"like hyperref\\nsee section\"", text)
	}
}

// TestPDFAccentOverLetter: TeX's \accent draws the accent, then the
// letter under it (old OT1 fonts have no accented letters): the two are
// one letter, "Fleischerfachgeschäft" rather than "Fleischerfachgesch¨aft".
// An accent over nothing stays as it is.
func TestPDFAccentOverLetter(t *testing.T) {
	times := "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding << /Differences [127 /dieresis 128 /acute] >> >>"
	content := "BT /F2 10 Tf 50 50 Td [(Fleischerfachgesch\\177)361(aft.)-250(Caf)(e\\200)] TJ 0 -14 Td [(x)-600(\\177)-600(y)] TJ ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", times))
	if text != "Fleischerfachgeschäft. Cafe´\nx ¨ y" {
		t.Errorf("%q", text)
	}
	// An accent over an accent (a music font's note heads are carons) is
	// two accents, not a letter with one: ˇ is a modifier letter.
	caron := "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding << /Differences [127 /caron] >> >>"
	_, text = extractPDFText(t, onePage(t, "BT /F2 10 Tf 50 50 Td [(\\177)200(\\177)] TJ ET", "/Font << /F1 5 0 R /F2 6 0 R >>", caron))
	if text != "ˇˇ" {
		t.Errorf("caron over caron: %q, want \"ˇˇ\"", text)
	}
}

func TestGlyphRuneAccents(t *testing.T) {
	tests := map[string]rune{
		"eacute": 'é', "Aring": 'Å', "ecircumflexacute": 'ế', "ohorndotbelow": 'ợ', "uhorn": 'ư',
		"ahookabove": 'ả', "dcroat": 'đ', "Gamma": 'Γ', "alef": 'א', "uni0416": 'Ж', "notaglyph": 0,
		"afii10103": 'і', "afii10104": 'ї', "afii10056": 'Ї', "afii10050": 'Ґ', "afii10098": 'ґ', "afii10110": 'ў',
		"afii10145": 'Џ', "afii10193": 'џ', "afii10051": 'Ђ', "afii10061": 'Ќ', "afii10099": 'ђ', "afii10109": 'ќ',
		"afii57415.isol": 'ا', "afii57421.init": 'ح', "afii57434": 'غ', "afii57470.fina": 'ه', "afii57506": 'پ',
		"afii57509.medi": 'گ', "afii57388": '،', "afii57392": '٠', "afii57458": 'ْ', "afii57664": 'א', "afii57690": 'ת',
		"afii57999": 0,
	}
	for name, want := range tests {
		if got := glyphRune(name, 0); got != want {
			t.Errorf("glyphRune(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestPDFDehyphenation: a word a typesetter broke across lines is stored
// whole ("transmitted", as pdftotext gives it); a hyphen before a capital
// or a digit, or after no letter, stays.
func TestPDFDehyphenation(t *testing.T) {
	content := "BT /F1 10 Tf 50 100 Td (data are trans-) Tj 0 -12 Td (mitted at once; Anglo-) Tj 0 -12 Td (Saxon and 1990-) Tj 0 -12 Td (2000 or --) Tj 0 -12 Td (verbose) Tj ET"
	_, text := extractPDFText(t, onePage(t, content, ""))
	want := "data are transmitted at once; Anglo-\nSaxon and 1990-\n2000 or --\nverbose"
	if text != want {
		t.Errorf("%q, want %q", text, want)
	}
}

// TestPDFWordSpaceThresholds: words a tenth of an em apart are two words
// (tight justified lines), a kern of a few hundredths is not; where the
// size or the baseline changes — a raised footnote mark, a large heading
// letter followed by small text — a gap of 3% of an em already separates
// words ("1 There", not "1There"), as pdftotext reads it.
func TestPDFWordSpaceThresholds(t *testing.T) {
	// Helvetica: "word" is 10 * (722+556+333+556)/1000 = 21.67 pt wide at 10 pt.
	content := "BT /F1 10 Tf 50 100 Td [(word)-120(next)-50(kern)] TJ ET " +
		// a footnote mark: "1" at 6 pt raised 3 pt, "There" 0.5 pt (0.05 em) after it
		"BT /F1 6 Tf 50 80 Td (1) Tj /F1 10 Tf 3.836 -3 Td (There) Tj ET " +
		// a 40 pt "AB" then 10 pt text 5 pt (0.125 em of 40 pt) after it
		"BT /F1 40 Tf 50 40 Td (AB) Tj /F1 10 Tf 58.36 0 Td (Filling) Tj ET"
	_, text := extractPDFText(t, onePage(t, content, ""))
	want := "word nextkern\n1 There\nAB Filling"
	if text != want {
		t.Errorf("%q, want %q", text, want)
	}
}

// TestPDFAdobeGlyphNames: glyphs named in /Differences by the Adobe Glyph
// List come out as what they are: TeX's caron drawn over "c" is "č"
// (Czech text), the angle brackets of syntax descriptions are brackets
// (not the letters h and i their codes have in WinAnsi), afii names are
// Cyrillic.
func TestPDFAdobeGlyphNames(t *testing.T) {
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding << /BaseEncoding /WinAnsiEncoding " +
		"/Differences [20 /caron 104 /angleleft /angleright 200 /afii10071 /afii10049 /afii10017] >> " +
		"/FirstChar 0 /LastChar 255 /Widths [" + strings.Repeat("500 ", 256) + "] >>"
	content := "BT /F2 10 Tf 50 50 Td [(\\024)500(cesk\\341) ( \\310\\311\\312) ( hkeyi)] TJ ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font))
	if want := "česká ёЯА 〈key〉"; text != want {
		t.Errorf("%q, want %q", text, want)
	}
}

// TestPDFMarkOverLetter: a vowel sign drawn under the letter before it
// (Devanagari ू, moved back under क) does not end the word: "मजकूर", not
// "मजकू र" — the next letter is measured from the end of the letter.
func TestPDFMarkOverLetter(t *testing.T) {
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Devanagari /FirstChar 65 /LastChar 69 /Widths [600 600 600 1 600] " +
		"/Encoding << /Differences [65 /uni092E /uni091C /uni0915 /uni0942 /uni0930] >> >>"
	content := "BT /F2 10 Tf 50 50 Td [(ABC)301(D)-300(E)-400(AB)] TJ ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font))
	if want := "मजकूर मज"; text != want {
		t.Errorf("%q, want %q", text, want)
	}
}

// TestPDFMirroredGlyph: a glyph mirrored left to right (the reversed E of
// the XeTeX logo, drawn with a reflecting matrix) stays in its word:
// "XETeX", not "X", "E" and "TeX" on lines of their own.
func TestPDFMirroredGlyph(t *testing.T) {
	// X (Helvetica, 6.67 pt wide at 10 pt) ends at 56.67; the mirrored E
	// spans 56.17 to 62.84 lowered by 2 pt; T starts 1.5 pt before its end.
	content := "BT /F1 10 Tf 50 50 Td (X) Tj ET q -1 0 0 1 62.84 48 cm BT /F1 10 Tf 0 0 Td (E) Tj ET Q " +
		"BT /F1 10 Tf 61.34 50 Td (TeX) Tj ET"
	_, text := extractPDFText(t, onePage(t, content, ""))
	if want := "XETeX"; text != want {
		t.Errorf("%q, want %q", text, want)
	}
}

// TestPDFSpaceDrawnBack: a space glyph whose advance the next glyph takes
// back is no word space (XeTeX draws the Persian zero-width non-joiner of
// "می‌شود" as such a glyph); a space glyph followed where it ends is one.
func TestPDFSpaceDrawnBack(t *testing.T) {
	// Helvetica's space is 2.78 pt wide at 10 pt.
	content := "BT /F1 10 Tf 50 50 Td [(ab)( )278(cd)] TJ 0 -14 Td [(ab)( )(cd)] TJ 0 -14 Td 5 Tw [(ab)( )(cd)] TJ ET"
	_, text := extractPDFText(t, onePage(t, content, ""))
	if want := "abcd\nab cd\nab cd"; text != want {
		t.Errorf("%q, want %q", text, want)
	}
}

// TestPDFControlGlyphs: a glyph whose Unicode mapping is a control
// character (a form feed, a line feed, Ctrl-X from Type 3 and math fonts)
// is no text: it neither shows nor breaks the line (its advance still
// parts the letters around it).
func TestPDFControlGlyphs(t *testing.T) {
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <00> <FF> endcodespacerange " +
		"4 beginbfchar <0C> <000C> <0A> <000A> <18> <0018> <41> <0041> endbfchar endcmap end end"
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 7 0 R >>"
	content := "BT /F2 10 Tf 50 50 Td (A\\014A\\012A\\030A) Tj ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font, streamObj("", cmap)))
	if want := "A A A A"; text != want {
		t.Errorf("%q, want %q", text, want)
	}
}

// TestPDFToUnicodeEndsAtEndcmap: a ToUnicode stream holding a second
// map after the first one's endcmap (arabi's PDFs: the Arabic map, then a
// Latin one over the same codes) is read up to that endcmap.
func TestPDFToUnicodeEndsAtEndcmap(t *testing.T) {
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <00> <FF> endcodespacerange " +
		"2 beginbfchar <41> <FE8E> <72> <FEAE> endbfchar endcmap end end\n%%EOF\n" +
		"1 beginbfrange <61> <7E> <0061> endbfrange 1 beginbfchar <41> <0041> endbfchar"
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 7 0 R >>"
	content := "BT /F2 10 Tf 50 50 Td (Ar) Tj ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font, streamObj("", cmap)))
	if want := "\ufeae\ufe8e"; text != want { // laid out left to right: read reh, alef
		t.Errorf("%q, want %q", text, want)
	}
}

// TestPDFCIDCollections: a CID font over Identity-H without a ToUnicode
// map (dvipdfmx's Chinese Fandol fonts) is read through the CID → Unicode
// table of its character collection: Adobe-GB1, -CNS1, -Korea1 as
// Adobe-Japan1.
func TestPDFCIDCollections(t *testing.T) {
	tests := []struct {
		ordering string
		cids     [2]int
		want     string
	}{
		{"GB1", [2]int{4559, 3795}, "中文"},
		{"CNS1", [2]int{661, 726}, "中文"},
		{"Korea1", [2]int{3296, 1204}, "한국"},
		{"Japan1", [2]int{3284, 3722}, "日本"},
	}
	for _, tt := range tests {
		font := fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /F /Encoding /Identity-H /DescendantFonts [<< /Type /Font "+
			"/Subtype /CIDFontType0 /BaseFont /F /CIDSystemInfo << /Registry (Adobe) /Ordering (%s) /Supplement 5 >> /DW 1000 >>] >>", tt.ordering)
		content := fmt.Sprintf("BT /F2 10 Tf 50 700 Td <%04x%04x> Tj ET", tt.cids[0], tt.cids[1])
		if _, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font)); text != tt.want {
			t.Errorf("%s: %q, want %q", tt.ordering, text, tt.want)
		}
	}
}

// TestPDFZeroWidthJamo: old Hangul set as an initial consonant with an
// advance, then its vowel and final drawn over it from a font whose
// Widths give them 0 (pdfTeX's ko.TeX fonts), keeps the word space after
// the syllable: the listed 0 is their real advance, not a missing width.
func TestPDFZeroWidthJamo(t *testing.T) {
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <00> <FF> endcodespacerange " +
		"3 beginbfchar <41> <1100> <61> <1161> <62> <11A8> endbfchar endcmap end end"
	widths := "1000" + strings.Repeat(" 0", 33)
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /F /FirstChar 65 /LastChar 98 /Widths [" + widths + "] /ToUnicode 7 0 R >>"
	content := "BT /F2 10 Tf 50 50 Td (Aab) Tj 13.3 0 Td (Aa) Tj ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font, streamObj("", cmap)))
	if want := "\u1100\u1161\u11a8 \u1100\u1161"; text != want {
		t.Errorf("%q, want %q", text, want)
	}
}

// TestPDFLetterSpacedHeadings: headings whose letters stand a quarter of
// an em apart (dvips's letter-spaced small capitals), a word space wider,
// with a kerned pair, read as words; a one-word heading too when a line
// of the page shows that font and size so spaced. One-letter words a
// word space apart keep their spaces.
func TestPDFLetterSpacedHeadings(t *testing.T) {
	heading := "BT /F1 12 Tf 50 700 Td 3 Tc [(Special)-400(v)150(alues)] TJ ET"
	oneWord := "BT /F1 12 Tf 50 650 Td 3 Tc [(Settings)] TJ ET"
	tests := []struct{ name, content, want string }{
		{"two words", heading, "Special values"},
		{"one word after", heading + " " + oneWord, "Special values\nSettings"},
		{"one word before", oneWord + " " + heading, "Settings\nSpecial values"},
		{"one-letter words", "BT /F1 12 Tf 50 700 Td [(a)-250(b)-250(c)-250(d)-250(e)] TJ ET", "a b c d e"},
		{"one-letter words and a wider gap", "BT /F1 12 Tf 50 700 Td [(a)-250(b)-250(c)-250(d)-1000(e)] TJ ET", "a b c d e"},
		{"digits", "BT /F1 12 Tf 50 700 Td [(3)-250(2)-250(3)-250(1)-250(2)-1000(123)] TJ ET", "3 2 3 1 2 123"},
		// minus signs a tenth of an em apart (narrow tracking) keep it
		// to themselves: the letters after them are 0.15 em apart
		{"narrow spacing of another font", "BT /F1 10 Tf 50 700 Td [(-)-100(-)-100(-)-100(-)] TJ /F2 10 Tf [-300(a)-150(b)] TJ ET", "---- a b"},
		// a table of contents' leader of a letter (a font whose "." maps
		// to a letter) a third of an em apart is no letter spacing
		{"leader of letters", "BT /F1 12 Tf 50 700 Td [(Intro)-300" + strings.Repeat("(x)-300", 6) + "(x)-1300(12)] TJ ET", "Intro x x x x x x x 12"},
	}
	for _, tt := range tests {
		if _, text := extractPDFText(t, onePage(t, tt.content, "/Font << /F1 5 0 R /F2 6 0 R >>", courier)); text != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, text, tt.want)
		}
	}
	// Bengali words of consonants and vowel signs, a third of an em
	// apart: their consonants next to each other are a word space apart,
	// their vowel signs none; no letter spacing.
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <00> <FF> endcodespacerange " +
		"2 beginbfchar <41> <0995> <62> <09BE> endbfchar endcmap end end"
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /F /FirstChar 65 /LastChar 98 /Widths [600" + strings.Repeat(" 0", 32) + " 200] /ToUnicode 7 0 R >>"
	content := "BT /F2 12 Tf 50 700 Td [(AbA)-363(AbA)-363(AbA)-363(AbA)-363(AbA)-1000(AbA)] TJ ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font, streamObj("", cmap)))
	if want := strings.TrimSpace(strings.Repeat("কাক ", 6)); text != want {
		t.Errorf("Bengali: %q, want %q", text, want)
	}
}

// TestPDFGlyphBeforeItsNumber: a font table's cell draws the code number
// small, then the glyph at full size to its left (within two ems): the
// glyph is a word of its own, not the number's last digit ("48 0").
// A superscript drawn back over the end of its base stays with it.
func TestPDFGlyphBeforeItsNumber(t *testing.T) {
	tests := []struct{ content, want string }{
		{"BT /F1 5 Tf 163 476 Td (48) Tj ET BT /F1 10 Tf 149 480.5 Td (0) Tj ET", "48 0"},
		{"BT /F1 10 Tf 100 500 Td (x) Tj 7 0 0 7 105 498 Tm (0) Tj 7 0 0 7 105 504 Tm (2) Tj ET", "x02"},
	}
	for _, tt := range tests {
		if _, text := extractPDFText(t, onePage(t, tt.content, "")); text != tt.want {
			t.Errorf("%s: %q, want %q", tt.content, text, tt.want)
		}
	}
}

// TestPDFCJKLineEnds: a CJK line wrapped at its block's margin goes on
// the next line without a break (a word wrapped without a hyphen); a
// line ending short of the lines around it (a paragraph's last line, a
// line of verse) keeps its break.
func TestPDFCJKLineEnds(t *testing.T) {
	font := "<< /Type /Font /Subtype /Type0 /BaseFont /F /Encoding /Identity-H /DescendantFonts [<< /Type /Font " +
		"/Subtype /CIDFontType0 /BaseFont /F /CIDSystemInfo << /Registry (Adobe) /Ordering (Korea1) /Supplement 5 >> /DW 1000 >>] >>"
	const han, guk = "0ce0", "04b4"
	line := func(cids ...string) string { return "<" + strings.Join(cids, "") + "> Tj 0 -14 Td " }
	tests := []struct{ name, lines, want string }{
		{"paragraphs", line(han, guk, han, guk) + line(guk, han, guk, han) + line(han, guk) + line(guk, han, guk, han),
			"한국한국국한국한한국\n국한국한"},
		{"verse", line(han, guk, han, guk) + line(guk, han, guk) + line(han, guk, han, guk, han) + line(guk, han),
			"한국한국\n국한국\n한국한국한\n국한"},
	}
	for _, tt := range tests {
		content := "BT /F2 10 Tf 50 700 Td " + tt.lines + "ET"
		if _, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font)); text != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, text, tt.want)
		}
	}
}

// TestPDFLetterSpacedCircle: a letter-spaced title set round a circle
// (a seal's "CHONGQING UNIVERSITY"), each letter turned a little more
// than the one before, reads as its words.
func TestPDFLetterSpacedCircle(t *testing.T) {
	var ops []string
	x, y, angle := 300.0, 500.0, 0.0
	for _, r := range "CHONGQING UNIVERSITY" {
		c, sn := math.Cos(angle*math.Pi/180), math.Sin(angle*math.Pi/180)
		if r == ' ' {
			x, y = x+10*c, y+10*sn
			continue
		}
		ops = append(ops, fmt.Sprintf("%.4f %.4f %.4f %.4f %.3f %.3f Tm (%c) Tj", c, sn, -sn, c, x, y, r))
		x, y = x+8.3*c, y+8.3*sn // Courier's 6 pt and 2.3 pt of letter spacing
		angle += 10
	}
	content := "BT /F2 10 Tf " + strings.Join(ops, " ") + " ET"
	if _, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", courier)); text != "CHONGQING UNIVERSITY" {
		t.Errorf("%q, want \"CHONGQING UNIVERSITY\"", text)
	}
}
