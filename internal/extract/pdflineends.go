package extract

import "math"

// A line break between two CJK characters is dropped (a word wrapped
// without a hyphen) only where the line ends at its block's margin: a
// neighbouring line of its block (up to blockWindow lines before or after
// it, in its direction and size, starting within blockIndent ems of it
// and at most blockLeading ems across per line apart) ends within
// sameEnd ems of it, and none ends shortLine ems or more beyond it. A
// paragraph's last line, a heading, a line of verse end elsewhere.
const (
	blockWindow  = 2
	sameEnd      = 0.5
	shortLine    = 1
	blockIndent  = 3
	blockLeading = 3
)

// textLine is a line of glyphs order[start:end] as lineEnds sees it.
type textLine struct {
	start, end int
	first      *placed // its first glyph with an advance
	to         float64 // where it ends, from first's start along its baseline
}

// lineEnds marks the first glyph of each line of gs, taken in order
// (gapBetween breaks lines: breaks[k] before order[k], see orderBreaks),
// that follows a line not ending at its block's margin.
func lineEnds(gs []placed, order []int32, breaks []bool, lines []textLine) []textLine {
	lines = lines[:0]
	start := 0
	for k := 1; k <= len(order); k++ {
		if k < len(order) && !breaks[k] {
			continue
		}
		lines = append(lines, measureLine(gs, order, start, k))
		start = k
	}
	for i := 0; i+1 < len(lines); i++ {
		l := &lines[i]
		if l.first == nil {
			continue
		}
		margin, short := false, false
		for j := max(i-blockWindow, 0); j <= min(i+blockWindow, len(lines)-1); j++ {
			if j == i {
				continue
			}
			off, ok := sameBlock(l, &lines[j], max(j-i, i-j))
			if !ok {
				continue
			}
			end := off + lines[j].to
			margin = margin || math.Abs(end-l.to) <= sameEnd*l.first.size
			short = short || end >= l.to+shortLine*l.first.size
		}
		if !margin || short {
			gs[order[lines[i+1].start]].afterShortLine = true
		}
	}
	return lines
}

// measureLine finds where line order[start:end] ends (no first glyph for
// vertical lines).
func measureLine(gs []placed, order []int32, start, end int) textLine {
	l := textLine{start: start, end: end}
	for k := start; k < end; k++ {
		g := &gs[order[k]]
		if g.vertical {
			return textLine{start: start, end: end}
		}
		if !spans(g) {
			continue
		}
		if l.first == nil {
			l.first = g
		}
		l.to = math.Max(l.to, along(l.first, g.ex, g.ey)+advance(l.first))
	}
	return l
}

// advance is the length of g's advance along its baseline.
func advance(g *placed) float64 {
	return (g.ex-g.x)*g.dx + (g.ey-g.y)*g.dy
}

// sameBlock reports whether line m, n lines away from line l, is in its
// block, and where m starts along l.
func sameBlock(l, m *textLine, n int) (float64, bool) {
	if m.first == nil {
		return 0, false
	}
	p, q := l.first, m.first
	size := p.size
	if p.dx*q.dx+p.dy*q.dy < 0.99 || math.Abs(p.size-q.size) > 0.1*size {
		return 0, false
	}
	ox, oy := q.x-p.x, q.y-p.y
	off := ox*p.dx + oy*p.dy
	across := -ox*p.dy + oy*p.dx
	return off, math.Abs(off) <= blockIndent*size && math.Abs(across) <= blockLeading*size*float64(n)
}
