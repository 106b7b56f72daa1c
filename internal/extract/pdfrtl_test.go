package extract

import (
	"strings"
	"testing"

	"golang.org/x/text/unicode/runenames"
)

// TestOrderOf: which way a line's right-to-left words were drawn, from
// letters written only at a word's end and from the joining forms of
// presentation forms; each glyph one rune unless split with "|".
func TestOrderOf(t *testing.T) {
	tests := []struct {
		name, line string
		want       lineOrder
	}{
		{"visual Hebrew", "םלוע םולש", orderVisual},
		{"logical Hebrew", "שלום עולם", orderLogical},
		{"visual Arabic", "ةيبرعلا ةغللا معد", orderVisual},
		{"logical Arabic (a code listing)", "فقرة عربية محاذاة إلى اليمين", orderLogical},
		{"logical Arabic in a LaTeX line", `English text \textRTL{جملة عربية}`, orderLogical},
		{"visual Arabic in an English line", "The word ةيبرع is Arabic", orderVisual},
		{"marks are passed over", "فَقْرَةٌ", orderLogical},
		{"a suffix after a tatweel", "ـة", orderLogical},
		{"one letter tells nothing", "ة ם", orderUnknown},
		{"no letter written only at the end", "سلام بيت", orderUnknown},
		{"no right-to-left letter", "plain English", orderUnknown},
		{"a tie", "ةيبرع فقرة", orderUnknown},
		// presentation forms: keheh initial, peh medial, farsi yeh final
		{"visual presentation forms", "\ufbfd\ufb59\ufb90", orderVisual},
		{"logical presentation forms", "\ufb90\ufb59\ufbfd", orderLogical},
		// a word cut by a kashida drawn as a rule ends in an initial
		// form: its ends tell nothing (jeem initial, alef final, yeh initial)
		{"a word cut by a kashida", "\ufe9f\ufe8e\ufbfe", orderUnknown},
		// a ligature glyph's letters are in reading order whichever way
		// the line was drawn: peh medial + yeh final, then keheh initial
		{"a ligature glyph", "\ufb59\ufbfd|\ufb90", orderUnknown},
		{"a ligature glyph reversed", "\ufbfd|\ufb59|\ufb90", orderVisual},
	}
	for _, tt := range tests {
		var gs []string
		for _, part := range strings.Split(tt.line, "|") {
			if strings.Contains(tt.line, "|") {
				gs = append(gs, part)
				continue
			}
			for _, r := range part {
				gs = append(gs, string(r))
			}
		}
		if got := orderOf(gs); got != tt.want {
			t.Errorf("%s: orderOf(%q) = %d, want %d", tt.name, tt.line, got, tt.want)
		}
	}
}

// TestReversedLines: a line without evidence takes the order of the
// nearest line with evidence in its block; a block without evidence is
// reversed.
func TestReversedLines(t *testing.T) {
	const u, v, l = orderUnknown, orderVisual, orderLogical
	tests := []struct {
		orders  []lineOrder
		follows []bool
		want    []bool
	}{
		{nil, nil, []bool{}},
		{[]lineOrder{u}, []bool{false}, []bool{true}},
		{[]lineOrder{l, u, v}, []bool{false, true, true}, []bool{false, false, true}}, // a tie goes to the line before
		{[]lineOrder{u, u, l}, []bool{false, true, true}, []bool{false, false, false}},
		{[]lineOrder{l, u, u, v}, []bool{false, true, true, true}, []bool{false, false, true, true}},
		{[]lineOrder{l, u}, []bool{false, false}, []bool{false, true}}, // another block
		{[]lineOrder{u, l, u, v, u}, []bool{false, false, true, false, true}, []bool{true, false, false, true, true}},
	}
	for _, tt := range tests {
		got := reversedLines(tt.orders, tt.follows)
		if len(got) != len(tt.want) {
			t.Fatalf("reversedLines(%v, %v) = %v, want %v", tt.orders, tt.follows, got, tt.want)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("reversedLines(%v, %v) = %v, want %v", tt.orders, tt.follows, got, tt.want)
				break
			}
		}
	}
}

// TestPresentationForms: the joining form of every Arabic presentation
// form is the one its Unicode name gives (a tatweel with a mark over it
// is medial, as its decomposition is tagged).
func TestPresentationForms(t *testing.T) {
	for _, block := range [][2]rune{{0xfb50, 0xfdff}, {0xfe70, 0xfeff}} {
		for r := block[0]; r <= block[1]; r++ {
			name := runenames.Name(r)
			want := formIsolated
			switch {
			case strings.HasSuffix(name, " INITIAL FORM"):
				want = formInitial
			case strings.HasSuffix(name, " MEDIAL FORM"), strings.Contains(name, "TATWEEL WITH"): // tagged <medial>
				want = formMedial
			case strings.HasSuffix(name, " FINAL FORM"):
				want = formFinal
			}
			if got := formOf(r); got != want {
				t.Errorf("formOf(%U %s) = %d, want %d", r, name, got, want)
			}
		}
	}
	if formOf('ب') != formNone || formOf('a') != formNone {
		t.Error("a letter that is no presentation form has a form")
	}
}

// TestPDFRightToLeftDrawnInReadingOrder: Arabic drawn left to right in
// reading order (LaTeX source holding Arabic, set verbatim) is kept as
// drawn, and so is the next line of the listing, which has no letter
// telling its order; Arabic drawn left to right as seen is reversed.
func TestPDFRightToLeftDrawnInReadingOrder(t *testing.T) {
	// a: feh, b: qaf, c: reh, d: ta marbuta, f: ain, g: beh, h: yeh
	arabic := "<< /Type /Font /Subtype /Type1 /BaseFont /Arabic /FirstChar 97 /LastChar 104 " +
		"/Widths [500 500 500 500 500 500 500 500] /Encoding << /Differences [97 /uni0641 /uni0642 /uni0631 /uni0629 " +
		"/space /uni0639 /uni0628 /uni064A] >> >>"
	content := "BT /F2 10 Tf 50 100 Td [(abcd) -400 (fcghd)] TJ 0 -12 Td (fcg) Tj ET " + // فقرة عربية, عرب
		"BT /F1 10 Tf 50 76 Td (listing) Tj ET " +
		"BT /F2 10 Tf 50 64 Td [(dhgcf) -400 (dcba)] TJ ET" // ةيبرع ةرقف as seen
	_, got := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", arabic))
	if want := "فقرة عربية\nعرب\nlisting\nفقرة عربية"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
