package extract

import (
	"context"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// matrix is a PDF transformation matrix [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul returns m × n (apply m, then n).
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func (m matrix) apply(x, y float64) (float64, float64) {
	return x*m[0] + y*m[2] + m[4], x*m[1] + y*m[3] + m[5]
}

// placed is a decoded glyph in device space.
type placed struct {
	text           string
	x, y, ex, ey   float64 // start and end of the glyph's advance
	size           float64 // em size in device units
	vertical       bool
	wordSpaceGlyph bool
}

// maxPageRunes caps the text taken from one page (a guard against content
// streams built to blow up memory).
const maxPageRunes = 2 << 20

// maxFormDepth bounds nested Form XObjects (they may reference each other).
const maxFormDepth = 8

// pageText interprets a page's content streams and lays the glyphs out as
// text in content order, with spaces and line breaks taken from positions.
type pageText struct {
	ctx    context.Context
	glyphs []placed
	runes  int
	buf    []glyph
}

func (p *pageText) run(content, resources pdf.Value, ctm matrix, depth int) {
	var (
		gstack  []matrix
		tm, tlm = identity, identity
		tc, tw  float64
		th      = 1.0
		tl, ts  float64
		font    *pdfFont
		fs      float64
		ops     int
	)
	fontsDict := resources.Key("Font")
	fonts := map[string]*pdfFont{} // by resource name, per content stream
	show := func(s string) {
		if font == nil || p.runes > maxPageRunes {
			return
		}
		p.buf = font.decode(s, p.buf[:0])
		for _, g := range p.buf {
			trm := matrix{fs * th, 0, 0, fs, 0, ts}.mul(tm).mul(ctm)
			x, y := trm.apply(0, 0)
			var tx, ty float64
			if font.vertical {
				ty = -g.width*font.scale*fs + tc
				if g.space {
					ty += tw
				}
				ty = -math.Abs(ty)
			} else {
				tx = g.width*font.scale*fs + tc
				if g.space {
					tx += tw
				}
				tx *= th
			}
			tm = matrix{1, 0, 0, 1, tx, ty}.mul(tm)
			end := matrix{fs * th, 0, 0, fs, 0, ts}.mul(tm).mul(ctm)
			ex, ey := end.apply(0, 0)
			size := math.Sqrt(math.Abs(trm[0]*trm[3] - trm[1]*trm[2]))
			if g.text != "" {
				p.glyphs = append(p.glyphs, placed{text: g.text, x: x, y: y, ex: ex, ey: ey, size: size, vertical: font.vertical, wordSpaceGlyph: g.space})
				p.runes += len(g.text)
			}
		}
	}
	nextLine := func(tx, ty float64) {
		tlm = matrix{1, 0, 0, 1, tx, ty}.mul(tlm)
		tm = tlm
	}
	pdf.Interpret(content, func(stk *pdf.Stack, op string) {
		ops++
		if ops%4096 == 0 && p.ctx.Err() != nil {
			panic(p.ctx.Err())
		}
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		num := func(i int) float64 {
			if i < len(args) {
				return args[i].Float64()
			}
			return 0
		}
		switch op {
		case "q":
			if len(gstack) < 256 {
				gstack = append(gstack, ctm)
			}
		case "Q":
			if n := len(gstack); n > 0 {
				ctm, gstack = gstack[n-1], gstack[:n-1]
			}
		case "cm":
			if len(args) == 6 {
				ctm = matrix{num(0), num(1), num(2), num(3), num(4), num(5)}.mul(ctm)
			}
		case "BT":
			tm, tlm = identity, identity
		case "Tf":
			if len(args) == 2 {
				fs = num(1)
				name := args[0].Name()
				f, ok := fonts[name]
				if !ok {
					f = newPDFFont(fontsDict.Key(name))
					fonts[name] = f
				}
				font = f
			}
		case "Tc":
			tc = num(0)
		case "Tw":
			tw = num(0)
		case "Tz":
			th = num(0) / 100
		case "TL":
			tl = num(0)
		case "Ts":
			ts = num(0)
		case "Td":
			nextLine(num(0), num(1))
		case "TD":
			tl = -num(1)
			nextLine(num(0), num(1))
		case "Tm":
			if len(args) == 6 {
				tlm = matrix{num(0), num(1), num(2), num(3), num(4), num(5)}
				tm = tlm
			}
		case "T*":
			nextLine(0, -tl)
		case "Tj":
			if len(args) == 1 {
				show(args[0].RawString())
			}
		case "'":
			nextLine(0, -tl)
			if len(args) == 1 {
				show(args[0].RawString())
			}
		case "\"":
			if len(args) == 3 {
				tw, tc = num(0), num(1)
				nextLine(0, -tl)
				show(args[2].RawString())
			}
		case "TJ":
			if len(args) != 1 {
				return
			}
			a := args[0]
			for i := 0; i < a.Len(); i++ {
				v := a.Index(i)
				if v.Kind() == pdf.String {
					show(v.RawString())
					continue
				}
				adj := v.Float64() / 1000 * fs
				if font != nil && font.vertical {
					tm = matrix{1, 0, 0, 1, 0, adj}.mul(tm)
				} else {
					tm = matrix{1, 0, 0, 1, -adj * th, 0}.mul(tm)
				}
			}
		case "Do":
			if len(args) != 1 || depth >= maxFormDepth {
				return
			}
			xo := resources.Key("XObject").Key(args[0].Name())
			if xo.Kind() != pdf.Stream || xo.Key("Subtype").Name() != "Form" {
				return
			}
			m := identity
			if mv := xo.Key("Matrix"); mv.Len() == 6 {
				m = matrix{mv.Index(0).Float64(), mv.Index(1).Float64(), mv.Index(2).Float64(), mv.Index(3).Float64(), mv.Index(4).Float64(), mv.Index(5).Float64()}
			}
			res := xo.Key("Resources")
			if res.IsNull() {
				res = resources
			}
			p.run(xo, res, m.mul(ctm), depth+1)
		}
	})
}

// isCJK reports whether r belongs to a script written without spaces
// between words (Han, kana, Hangul, full-width forms, CJK punctuation).
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef || r == 0x30fc
}

// layout joins the glyphs into text. Glyphs stay in content-stream order
// (which follows the reading order for most producers, columns included);
// a jump to another line or column becomes a line break, a horizontal gap
// wider than 15% of the font size a space. A line break between two CJK
// characters is dropped: Japanese wraps lines without spaces, and keeping
// the break would split words for search.
func layout(glyphs []placed) string {
	var b strings.Builder
	var prev *placed
	var last rune // last non-space rune written
	endsBlank := true
	for i := range glyphs {
		g := &glyphs[i]
		if prev != nil {
			brk, sp := gapBetween(prev, g)
			first, _ := utf8.DecodeRuneInString(g.text)
			switch {
			case brk:
				if !(isCJK(last) && isCJK(first)) {
					b.WriteByte('\n')
					endsBlank = true
				}
			case sp && !endsBlank && !unicode.IsSpace(first):
				b.WriteByte(' ')
				endsBlank = true
			}
		}
		b.WriteString(g.text)
		if r, _ := utf8.DecodeLastRuneInString(g.text); !unicode.IsSpace(r) {
			last, endsBlank = r, false
		} else {
			endsBlank = true
		}
		prev = g
	}
	return cleanLines(b.String())
}

// gapBetween decides what separates glyph g from the previous glyph p:
// a line (or column) break, a space, or nothing.
func gapBetween(p, g *placed) (lineBreak, space bool) {
	size := math.Max(p.size, g.size)
	if size <= 0 {
		size = 1
	}
	if g.vertical && p.vertical {
		dx := math.Abs(g.x - p.ex)
		dy := p.ey - g.y // > 0 when g is below the end of p
		switch {
		case dx > 0.5*size || dy < -0.5*size:
			return true, false
		case dy > 0.5*size:
			return false, true
		}
		return false, false
	}
	dy := g.y - p.ey
	dx := g.x - p.ex
	switch {
	case math.Abs(dy) > 0.6*size:
		return true, false
	case dx > 0.15*size || dx < -2*size:
		return false, true
	}
	return false, false
}

// cleanLines trims trailing spaces, collapses runs of blank lines.
func cleanLines(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	blank := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			blank++
			if blank > 1 {
				continue
			}
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}
