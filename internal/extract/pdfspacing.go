package extract

import (
	"math"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Letter spacing: a line whose letters of one font all stand the same
// extra space apart has that space (its tracking) taken off every gap
// before a word space is looked for (gapBetween), as pdftotext does for
// lines whose letters all stand apart. The tracking of a font on a line
// is
//
//   - the smallest gap between two of its glyphs next to each other when
//     at least minTrackedPairs pairs stand minTracking to maxTracking of
//     an em apart (a monospaced font LuaTeX sets with TJ offsets between
//     every two letters, its widths narrower than its advance): a word
//     space is wider;
//   - the typical (median) gap between two of its letters (or digits),
//     kerned pairs and word spaces on either side of it, when it is
//     wider, up to maxWideTracking (a heading set letter spaced,
//     "S p e c i a l  v a l u e s", its kerned "v a" closer): most pairs,
//     and minTrackedPairs pairs of letters (not digits: "3 2 3 1" stays),
//     stand that far apart within trackingSpread of an em, two pairs for
//     each word the wider gaps between two letters part (words of three
//     letters or more), and the line holds a gap wideWordSpace wider than
//     it (its word space). A line of one-letter words ("a b c d") has no
//     wider gap and keeps its spaces, and so does "a b c d  e". A line
//     without that wider gap (a letter-spaced heading of one word) is
//     letter spaced when a line of the same run of glyphs is found so
//     with the same font, size and tracking.
//
// The glyphs of the other fonts of a line letter-spaced wide at its size
// that have fewer than minTrackedPairs pairs of letters there, or whose pairs
// stand as far apart (a heading's capitals in another font than its small
// capitals), take its tracking.
const (
	minTrackedPairs = 3
	minTracking     = 0.05
	maxTracking     = 0.2
	maxWideTracking = 0.5
	wideWordSpace   = 0.25
	trackingSpread  = 0.05
	// sameTracking: two lines' trackings within this of an em are one.
	sameTracking = 0.03
)

// lineFont is what letterSpacing finds of one font and size on a line.
type lineFont struct {
	font *pdfFont
	size float64
	// letters are the gaps between two of its letters or digits next to
	// each other (not dot leaders, not punctuation, not three or more
	// glyphs alike in a row: a leader of a font that maps "." to a letter)
	letters []float64
	alpha   []float64 // the gaps between two letters (no digit)
	gaps    []float64 // between any two of its glyphs next to each other
	// maxGap is the widest gap on the line between two glyphs of its
	// size (any fonts).
	maxGap float64
	median float64 // of letters
}

// spacingScratch holds letterSpacing's buffers.
type spacingScratch struct {
	fonts   [8]lineFont
	n       int
	wide    []lineTracking // wide trackings found with a word space
	pending []pendingLine  // lines of one word with a wide tracking
}

type lineTracking struct {
	font       *pdfFont
	size, each float64
}

type pendingLine struct {
	start, end int
	lineTracking
}

// tracked returns the tracking of the font on the line, whether it is a
// wide one (that needs a word space on the line), and whether it has one
// at all.
func (lf *lineFont) tracked() (each float64, wide, ok bool) {
	if len(lf.letters) >= minTrackedPairs && lf.median >= maxTracking*lf.size && lf.median < maxWideTracking*lf.size {
		each = lf.median
		near, nearAlpha, words := 0, 0, 1
		for _, g := range lf.letters {
			if math.Abs(g-each) <= trackingSpread*lf.size {
				near++
			}
		}
		for _, g := range lf.alpha {
			switch {
			case math.Abs(g-each) <= trackingSpread*lf.size:
				nearAlpha++
			case g >= each+wideWordSpace*lf.size:
				words++
			}
		}
		if near >= minTrackedPairs && 2*near >= len(lf.letters) && nearAlpha >= minTrackedPairs && nearAlpha >= 2*words {
			return each, true, true
		}
	}
	if len(lf.gaps) >= minTrackedPairs {
		least := slices.Min(lf.gaps)
		if least > minTracking*lf.size && least < maxTracking*lf.size {
			return least, false, true
		}
	}
	return 0, false, false
}

// letterSpacing sets the tracking of the glyphs of gs, taken in order, on
// each line (gapBetween breaks lines: breaks[k] before order[k], see
// orderBreaks).
func letterSpacing(gs []placed, order []int32, breaks []bool) {
	var s spacingScratch
	start := 0
	for k := 1; k <= len(order); k++ {
		if k < len(order) && !breaks[k] {
			continue
		}
		s.line(gs, order, start, k)
		start = k
	}
	for _, p := range s.pending {
		for _, w := range s.wide {
			if w.font == p.font && sameSize(w.size, p.size) && math.Abs(w.each-p.each) <= sameTracking*p.size {
				s.measure(gs, order, p.start, p.end)
				s.apply(gs, order, p.start, p.end, p.lineTracking, true)
				break
			}
		}
	}
}

// measure fills s.fonts with the gaps between the glyphs of a line.
func (s *spacingScratch) measure(gs []placed, order []int32, start, end int) {
	for j := range s.n {
		f := &s.fonts[j]
		f.letters, f.alpha, f.gaps, f.maxGap = f.letters[:0], f.alpha[:0], f.gaps[:0], 0
	}
	s.n = 0
	find := func(g *placed) *lineFont {
		for j := range s.n {
			if s.fonts[j].font == g.font && sameSize(s.fonts[j].size, g.size) {
				return &s.fonts[j]
			}
		}
		if s.n == len(s.fonts) {
			return nil
		}
		f := &s.fonts[s.n]
		f.font, f.size = g.font, g.size
		s.n++
		return f
	}
	var p *placed
	run := 0 // glyphs of p's text in a row, p the last
	for k := start; k < end; k++ {
		g := &gs[order[k]]
		if !spans(g) || g.vertical {
			p, run = nil, 0
			continue
		}
		f := find(g)
		if p != nil && f != nil && sameSize(p.size, g.size) && p.dx*g.dx+p.dy*g.dy > 0.9 {
			gap := along(p, g.x, g.y)
			f.maxGap = math.Max(f.maxGap, gap)
			if pf := find(p); pf != nil {
				pf.maxGap = math.Max(pf.maxGap, gap)
			}
			if p.font == g.font {
				f.gaps = append(f.gaps, gap)
			}
			// three glyphs alike in a row are a leader, not letters (a
			// font that maps "." to a letter): a table of contents'
			// dot leaders do not make its line letter spaced
			leader := p.text == g.text && (run >= 2 || k+1 < end && gs[order[k+1]].text == g.text)
			if p.font == g.font && !leader && isLetter(p.text) && isLetter(g.text) {
				f.letters = append(f.letters, gap)
				if isAlpha(p.text) && isAlpha(g.text) {
					f.alpha = append(f.alpha, gap)
				}
			}
		}
		if p != nil && p.text == g.text {
			run++
		} else {
			run = 1
		}
		p = g
	}
	// every font of a size sees the widest gap at that size
	for j := range s.n {
		if f := &s.fonts[j]; len(f.letters) > 0 {
			slices.Sort(f.letters)
			f.median = f.letters[(len(f.letters)-1)/2]
		}
		for i := range s.n {
			if sameSize(s.fonts[i].size, s.fonts[j].size) {
				s.fonts[j].maxGap = math.Max(s.fonts[j].maxGap, s.fonts[i].maxGap)
			}
		}
	}
}

// line finds the letter spacing of the line of glyphs order[start:end].
func (s *spacingScratch) line(gs []placed, order []int32, start, end int) {
	s.measure(gs, order, start, end)
	for j := range s.n {
		f := &s.fonts[j]
		each, wide, ok := f.tracked()
		if !ok {
			continue
		}
		t := lineTracking{font: f.font, size: f.size, each: each}
		if wide && f.maxGap < each+wideWordSpace*f.size {
			s.pending = append(s.pending, pendingLine{start: start, end: end, lineTracking: t})
			continue
		}
		if wide {
			s.wide = append(s.wide, t)
		}
		s.apply(gs, order, start, end, t, wide)
	}
}

// apply sets tracking t on the glyphs of its font and size on the line
// measured last and, when wide, on those of the fonts of that size with
// too few pairs there to tell or whose pairs stand as far apart.
func (s *spacingScratch) apply(gs []placed, order []int32, start, end int, t lineTracking, wide bool) {
	for k := start; k < end; k++ {
		g := &gs[order[k]]
		if !sameSize(g.size, t.size) {
			continue
		}
		if g.font == t.font {
			g.tracking = t.each
			continue
		}
		for j := range s.n {
			if !wide {
				break
			}
			if f := &s.fonts[j]; f.font == g.font && sameSize(f.size, g.size) && g.tracking == 0 &&
				(len(f.letters) < minTrackedPairs || math.Abs(f.median-t.each) <= trackingSpread*f.size) {
				g.tracking = t.each
			}
		}
	}
}

// isAlpha reports whether glyph text s is a letter or a mark (a vowel
// sign of an Indic script is part of its word).
func isAlpha(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsMark(r)
}

// isLetter reports whether glyph text s is a letter, a mark or a digit.
func isLetter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isAlpha(s) || unicode.IsDigit(r)
}

// trackingBetween is the letter spacing taken off the gap between glyphs
// p and g: their font's on their line, or the smaller of their fonts'.
func trackingBetween(p, g *placed) float64 {
	switch {
	case p.font == g.font:
		return p.tracking
	case sameSize(p.size, g.size):
		return math.Min(p.tracking, g.tracking)
	}
	return 0
}

// sameSize reports whether two glyph sizes are one (sizes computed
// through a rotated matrix differ in their last digits).
func sameSize(a, b float64) bool {
	return math.Abs(a-b) <= 1e-3*math.Max(a, b)
}
