package extract

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode"
)

const courier = "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>"

// letterPath places the letters of s (Courier, 10 pt: 6 pt each) from
// (x, y), the baseline turning by turn degrees after each letter; words
// are set half an em apart and no space glyph is drawn (as MetaPost's
// textpath does). It returns one Tm-and-Tj operation per letter.
func letterPath(s string, x, y, angle, turn float64) []string {
	var ops []string
	for _, r := range s {
		c, sn := math.Cos(angle*math.Pi/180), math.Sin(angle*math.Pi/180)
		adv := 6.0
		if r != ' ' {
			ops = append(ops, fmt.Sprintf("%.4f %.4f %.4f %.4f %.3f %.3f Tm (%c) Tj", c, sn, -sn, c, x, y, r))
		} else {
			adv = 5
		}
		x, y = x+adv*c, y+adv*sn
		angle += turn
	}
	return ops
}

// TestPDFScatteredLetters: letters drawn one copy at a time across many
// copies of a text (MetaPost's textpath: the first letter of every copy,
// then the second...) are read copy by copy, straight, turned or curved;
// text drawn in order keeps the order drawn, where a margin note or a
// narrow column gutter sits next to a line.
func TestPDFScatteredLetters(t *testing.T) {
	copies := [][]string{
		letterPath("Greetings from MetaPost", 50, 700, 0, 0),
		letterPath("Greetings from MetaPost", 400, 100, 90, 0),
		letterPath("Greetings from MetaPost", 100, 300, -20, 2.5),
	}
	var interleaved []string
	for k := range copies[0] {
		for _, c := range copies {
			interleaved = append(interleaved, c[k])
		}
	}
	tests := []struct{ name, content, want string }{
		{"interleaved copies", "BT /F2 10 Tf " + strings.Join(interleaved, " ") + " ET",
			"Greetings from MetaPost\nGreetings from MetaPost\nGreetings from MetaPost"},
		// "Note" ends 3 pt (0.3 em) before the line it is set next to,
		// drawn after it.
		{"margin note", "BT /F2 10 Tf 100 700 Td (Body text) Tj 0 -12 Td (goes on) Tj ET BT /F2 10 Tf 73 700 Td (Note) Tj ET",
			"Body text\ngoes on\nNote"},
		// Two columns 2 pt apart, the left one drawn first.
		{"narrow gutter", "BT /F2 10 Tf 50 700 Td (left one) Tj 0 -12 Td (left two) Tj 50 12 Td (right one) Tj 0 -12 Td (right two) Tj ET",
			"left one\nleft two\nright one\nright two"},
	}
	for _, tt := range tests {
		_, text := extractPDFText(t, onePage(t, tt.content, "/Font << /F1 5 0 R /F2 6 0 R >>", courier))
		if text != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, text, tt.want)
		}
	}
}

// TestPDFOverprint: text drawn again over itself (fake bold, a drop
// shadow, a layer drawn twice) is read once, drawn word by word or glyph
// by glyph; a word starting where another starts with the same letter (a
// plot's overlapping labels) keeps it.
func TestPDFOverprint(t *testing.T) {
	tests := []struct{ name, content, want string }{
		{"word again", "BT /F2 10 Tf 50 700 Td (Bold words) Tj 0.3 0.2 Td (Bold words) Tj ET", "Bold words"},
		{"glyph by glyph", "BT /F2 10 Tf 50 700 Td [(B)570(B)30(o)570(o)30(l)570(l)30(d)570(d)] TJ ET", "Bold"},
		{"glyph alone", "BT /F2 10 Tf 50 700 Td (A) Tj ET BT /F2 10 Tf 50.4 700 Td (A) Tj ET", "A"},
		{"labels", "BT /F2 10 Tf 50 700 Td (Bulgaria) Tj 0.2 0.3 Td (Brazil) Tj ET", "Bulgaria Brazil"},
	}
	for _, tt := range tests {
		_, text := extractPDFText(t, onePage(t, tt.content, "/Font << /F1 5 0 R /F2 6 0 R >>", courier))
		if text != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, text, tt.want)
		}
	}
}

// TestPDFScripts: a subscript or superscript set a little after its base
// (x₀ 0.04 em after the x: pdftotext reads "x0" in labels) is no new word,
// nor is a subscript set under a superscript (ds²ᵣ); 0.06 em apart it is,
// as for pdftotext and MuPDF; a footnote mark set apart before a word
// still is (TestPDFWordSpaceThresholds).
func TestPDFScripts(t *testing.T) {
	// Helvetica at 10 pt: x is 5 pt wide, "ds" 10.56 pt; scripts at 7 pt.
	content := "BT /F1 10 Tf 50 700 Td (x) Tj /F1 7 Tf 5.4 -1.5 Td (0) Tj /F1 10 Tf 10 1.5 Td (= 1) Tj ET " +
		"BT /F1 10 Tf 50 680 Td (ds) Tj /F1 7 Tf 10.56 3.6 Td (2) Tj 0 -5.1 Td (r) Tj /F1 10 Tf 8 1.5 Td (= 1) Tj ET " +
		"BT /F1 10 Tf 50 660 Td (x) Tj /F1 7 Tf 5.6 -1.5 Td (n) Tj ET"
	_, text := extractPDFText(t, onePage(t, content, ""))
	if want := "x0 = 1\nds2r = 1\nx n"; text != want {
		t.Errorf("%q, want %q", text, want)
	}
}

// TestPDFLetterSpacing: a line whose letters all stand the same space
// apart (LuaTeX's monospaced font with a TJ offset between every two
// letters, 0.128 em here) is read as words, its wider gaps as word
// spaces; one-letter words a word space apart stay apart.
func TestPDFLetterSpacing(t *testing.T) {
	tracked := func(s string) string {
		var b strings.Builder
		for _, w := range strings.Fields(s) {
			for i, r := range w {
				if i > 0 {
					b.WriteString("-128")
				}
				fmt.Fprintf(&b, "(%c)", r)
			}
			b.WriteString("-728")
		}
		return b.String()
	}
	content := "BT /F2 9.1 Tf 0.8 0 0 1 50 700 Tm [" + tracked("usepackage geometry and more") + "] TJ ET " +
		"BT /F2 10 Tf 50 680 Td [(a)-300(b)-300(c)-300(d)-300(e)] TJ ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", courier))
	if want := "usepackage geometry and more\na b c d e"; text != want {
		t.Errorf("%q, want %q", text, want)
	}
}

// TestOverprintScreen: wherever the screen answers that a run of glyphs
// repeats none, the indexed search drops none either — on random runs of
// a few letters, sizes, directions and positions close together, with
// glyphs drawn again over others a little off, at another size or turned.
func TestOverprintScreen(t *testing.T) {
	rnd := uint64(1)
	next := func(n int) int { // xorshift: the same runs every time
		rnd ^= rnd << 13
		rnd ^= rnd >> 7
		rnd ^= rnd << 17
		return int(rnd % uint64(n))
	}
	var s orderScratch
	screened, repeats := 0, 0
	for run := range 3000 {
		n := 2 + next(60)
		gs := make([]placed, n)
		for i := range gs {
			angle := float64(next(3)) * 0.3
			g := placed{text: string(rune('a' + next(3))), size: 8 + float64(next(5)), dx: math.Cos(angle), dy: math.Sin(angle),
				x: float64(next(40)), y: float64(next(3)) * 10}
			if i > 0 && next(4) == 0 { // near an earlier glyph
				a := gs[next(i)]
				g.text, g.size, g.dx, g.dy = a.text, a.size*(0.94+float64(next(13))/100), a.dx, a.dy
				g.x, g.y = a.x+float64(next(41)-20)/100*a.size, a.y+float64(next(41)-20)/100*a.size
			}
			g.ex, g.ey = g.x+0.6*g.size*g.dx, g.y+0.6*g.size*g.dy
			gs[i] = g
		}
		may := s.screen.mayOverprint(gs)
		kept := len(s.dropIndexed(append([]placed(nil), gs...)))
		if kept < n {
			repeats++
		}
		if !may {
			screened++
			if kept != n {
				t.Fatalf("run %d: the screen passed a run whose search drops %d of %d glyphs", run, n-kept, n)
			}
		}
	}
	if screened < 300 || repeats < 300 {
		t.Errorf("runs passed by the screen %d, runs with repeats %d: the test tries too few of either", screened, repeats)
	}
}

// TestNoMarkBeforeU300: overlay takes no rune below U+0300 for a mark
// without asking unicode.In.
func TestNoMarkBeforeU300(t *testing.T) {
	for r := rune(0); r < 0x300; r++ {
		if unicode.In(r, unicode.Mn, unicode.Me) {
			t.Errorf("U+%04X is a mark", r)
		}
	}
}
