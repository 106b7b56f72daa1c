package extract

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Before the layouter joins a page's glyphs into lines (pdftext.go), two
// repairs are made on the glyphs as drawn, in runs of at most maxDrawn:
//
//   - a glyph drawn again over itself (fake bold, a drop shadow) is said
//     once (dropOverprints);
//   - where the content stream breaks a line that the positions continue
//     (MetaPost's textpath draws one letter of many curved copies at a
//     time), the glyph continuing the line is taken next (readingOrder).
//
// Content order is kept everywhere else: it is the reading order of
// columns, right-to-left text and vertical writing, which positions alone
// would not give.

// maxDrawn bounds the glyphs a page holds before laying them out.
const maxDrawn = 4096

// Duplicated text, as poppler's TextOutputDev finds it: the same glyph
// within dupPrimary of an em along the baseline and dupSecondary across
// it.
const (
	dupPrimary   = 0.1
	dupSecondary = 0.2
)

// A line the content stream breaks is continued by a glyph starting at
// most linkAlong of an em after the end of its last glyph (a word space,
// not a column gutter) and linkAcross off its baseline.
const (
	linkLetter       = 0.1  // no space: gapBetween's threshold
	linkLetterAcross = 0.1  // on the baseline (a curved one turns a little)
	linkKern         = 0.12 // letters kerned together (or curved inwards) overlap this much
	linkAlong        = 0.6
	linkAcross       = 0.25
)

// maxCandidates bounds the glyphs compared with one glyph (a hostile page
// may stack thousands at one point).
const maxCandidates = 64

// orderScratch holds the buffers of the repairs, reused by every run of
// glyphs of a document (no allocation per page).
type orderScratch struct {
	cells             cellHash
	dupOf             []int32
	next, prev, chain []int32
	scattered         []bool
	order             []int32
	breaks, inOrder   []bool
	screen            overprintScreen
}

// lineBreaks returns, for each glyph of gs but the last, whether
// gapBetween breaks the line between it and the next one drawn: the
// reading order asks, and the letter spacing and the line ends ask
// again of the same pairs (orderBreaks). Letter spacing changes gaps but
// no line break.
func (s *orderScratch) lineBreaks(gs []placed) []bool {
	n := max(len(gs)-1, 0)
	if cap(s.breaks) < n {
		s.breaks = make([]bool, n)
	}
	s.breaks = s.breaks[:n]
	for i := range s.breaks {
		s.breaks[i], _ = gapBetween(&gs[i], &gs[i+1])
	}
	return s.breaks
}

// orderBreaks returns, for each k of order from 1 on, whether gapBetween
// breaks the line between glyphs order[k-1] and order[k] (false for k =
// 0), taking the answer from drawn (lineBreaks, or nil) for glyphs drawn
// one after the other.
func (s *orderScratch) orderBreaks(gs []placed, order []int32, drawn []bool) []bool {
	n := len(order)
	if cap(s.inOrder) < n {
		s.inOrder = make([]bool, n)
	}
	out := s.inOrder[:n]
	for k := range out {
		if k == 0 {
			out[k] = false
			continue
		}
		p, g := order[k-1], order[k]
		if g == p+1 && int(p) < len(drawn) {
			out[k] = drawn[p]
		} else {
			out[k], _ = gapBetween(&gs[p], &gs[g])
		}
	}
	s.inOrder = out
	return out
}

// int32s returns buf resized to n, every element set to v.
func int32s(buf []int32, n int, v int32) []int32 {
	if cap(buf) < n {
		buf = make([]int32, n)
	}
	buf = buf[:n]
	for i := range buf {
		buf[i] = v
	}
	return buf
}

// cellHash indexes glyphs by a point, in square cells of one size, as
// linked lists in a hash table of cells.
type cellHash struct {
	cell  float64
	heads []int32    // per bucket: the glyph added last, -1 for none
	link  []int32    // per glyph: the glyph added before it to its bucket
	keys  [][2]int64 // per glyph: its cell
}

// reset empties the index for n glyphs of gs, in cells of their typical
// size (the median of a sample).
func (c *cellHash) reset(gs []placed) {
	n := len(gs)
	var sample [65]float64
	k := 0
	for i := 0; i < n && k < len(sample); i += max(1, n/len(sample)) {
		if s := gs[i].size; s > 0 && s < maxCoord {
			sample[k] = s
			k++
		}
	}
	slices.Sort(sample[:k])
	c.cell = 1
	if k > 0 {
		c.cell = max(sample[k/2], 1e-3)
	}
	b := 64
	for b < 2*n {
		b <<= 1
	}
	c.heads = int32s(c.heads, b, -1)
	c.link = int32s(c.link, n, -1)
	if cap(c.keys) < n {
		c.keys = make([][2]int64, n)
	}
	c.keys = c.keys[:n]
}

// maxCoord bounds the coordinates indexed: beyond it a glyph is nowhere
// near any other (hostile matrices).
const maxCoord = 1e9

func (c *cellHash) key(x, y float64) ([2]int64, bool) {
	x, y = x/c.cell, y/c.cell
	if !(math.Abs(x) < maxCoord && math.Abs(y) < maxCoord) { // also NaN
		return [2]int64{}, false
	}
	return [2]int64{floorInt(x), floorInt(y)}, true
}

// floorInt is int64(math.Floor(x)) for |x| < maxCoord, inlined.
func floorInt(x float64) int64 {
	t := int64(x) // towards zero
	if float64(t) > x {
		t--
	}
	return t
}

func (c *cellHash) bucket(k [2]int64) int {
	h := uint64(k[0])*0x9e3779b97f4a7c15 ^ uint64(k[1])*0xc2b2ae3d27d4eb4f
	return int((h ^ h>>29) & uint64(len(c.heads)-1))
}

// add indexes glyph i at (x, y).
func (c *cellHash) add(x, y float64, i int) {
	k, ok := c.key(x, y)
	if !ok {
		return
	}
	b := c.bucket(k)
	c.keys[i], c.link[i], c.heads[b] = k, c.heads[b], int32(i)
}

// near calls fn with the glyphs indexed within r of (x, y) (and some a
// little farther), the last added first, at most maxCandidates of them
// (entries of other cells sharing a bucket count); r beyond a few cells
// finds nothing.
func (c *cellHash) near(x, y, r float64, fn func(j int)) {
	lo, ok1 := c.key(x-r, y-r)
	hi, ok2 := c.key(x+r, y+r)
	if !ok1 || !ok2 || hi[0]-lo[0] > 8 || hi[1]-lo[1] > 8 {
		return
	}
	n := 0
	for kx := lo[0]; kx <= hi[0]; kx++ {
		for ky := lo[1]; ky <= hi[1]; ky++ {
			k := [2]int64{kx, ky}
			for j := c.heads[c.bucket(k)]; j >= 0; j = c.link[j] {
				if n++; n > maxCandidates {
					return
				}
				if c.keys[j] == k {
					fn(int(j))
				}
			}
		}
	}
}

// spans reports whether g has an advance (it is not drawn over another
// glyph) and is more than white space.
func spans(g *placed) bool {
	return !overlay(g) && strings.TrimSpace(g.text) != ""
}

// dropOverprints removes, in place, the glyphs drawn over an earlier
// glyph with the same text, size and direction — as a whole: a word or a
// line drawn again (the glyphs next to the duplicate are duplicates too,
// or the glyph it repeats is the one drawn just before it: fake bold
// glyph by glyph), or a glyph drawn alone. A word that merely starts
// with the letter another one starts with where it stands (overlapping
// labels of a plot) keeps it.
func (s *orderScratch) dropOverprints(gs []placed) []placed {
	if len(gs) < 2 || !s.screen.mayOverprint(gs) {
		return gs
	}
	return s.dropIndexed(gs)
}

// dropIndexed is dropOverprints without its screen.
func (s *orderScratch) dropIndexed(gs []placed) []placed {
	n := len(gs)
	if n < 2 {
		return gs
	}
	s.cells.reset(gs)
	s.dupOf = int32s(s.dupOf, n, -1)
	dupOf := s.dupOf
	found := false
	for i := range gs {
		g := &gs[i]
		if overlay(g) || g.text == "" {
			continue
		}
		s.cells.near(g.x, g.y, dupSecondary*g.size, func(j int) {
			if dupOf[i] < 0 && overprint(&gs[j], g) {
				dupOf[i], found = int32(j), true
			}
		})
		s.cells.add(g.x, g.y, i)
	}
	if !found {
		return gs
	}
	// A duplicate is marked dropped (dropped) once decided, in order:
	// the neighbours are the ones drawn; then the kept glyphs move down.
	const dropped = -2
	for i := range gs {
		if dupOf[i] < 0 {
			continue
		}
		before := i > 0 && drawnOn(&gs[i-1], &gs[i])
		after := i+1 < n && drawnOn(&gs[i], &gs[i+1])
		if !before && !after ||
			before && (dupOf[i-1] != -1 || int(dupOf[i]) == i-1) ||
			after && dupOf[i+1] >= 0 {
			dupOf[i] = dropped
		}
	}
	out := gs[:0]
	for i := range gs {
		if dupOf[i] != dropped {
			out = append(out, gs[i])
		}
	}
	clear(gs[len(out):])
	return out
}

// overprintScreen answers, faster than dropOverprints finds them, whether
// a run of glyphs holds any glyph repeating an earlier one (overprint):
// most runs hold none, and are then left as they are, as dropOverprints
// would leave them. It indexes the glyphs by their text and a grid of
// cells of the typical glyph size, and compares a glyph with the
// earlier ones of its text in the cells around it: one it repeats is
// less than sqrt(0.1² + 0.2²)/0.95 < 0.25 of its size away (the sizes
// of the two differ by at most 5 %). Where that bound may not hold
// (no positive size, a direction that is not a unit vector, coordinates
// out of range), or a cell holds more than maxCandidates glyphs of a
// text, it answers yes and dropOverprints looks.
type overprintScreen struct {
	inv     float64       // 1 / the cell size
	heads   []int32       // per bucket: the glyph added last, -1 for none
	entries []screenEntry // per glyph
}

// screenEntry is a glyph as overprintScreen indexes it: its cell, the
// hash of its text, and the glyph added before it to its bucket.
type screenEntry struct {
	cell [2]int32
	text uint32
	link int32
}

// overprintReach bounds, in ems of the later glyph, how far apart a
// glyph and one repeating it are (see overprintScreen).
const overprintReach = 0.25

func (o *overprintScreen) mayOverprint(gs []placed) bool {
	n := len(gs)
	var sample [65]float64
	k := 0
	for i := 0; i < n && k < len(sample); i += max(1, n/len(sample)) {
		if sz := gs[i].size; sz > 0 && sz < maxCoord {
			sample[k] = sz
			k++
		}
	}
	if k == 0 {
		return true
	}
	slices.Sort(sample[:k])
	o.inv = 1 / max(sample[k/2], 1e-3)
	b := 64
	for b < 2*n {
		b <<= 1
	}
	o.heads = int32s(o.heads, b, -1)
	if cap(o.entries) < n {
		o.entries = make([]screenEntry, n)
	}
	o.entries = o.entries[:n]
	for i := range gs {
		g := &gs[i]
		if overlay(g) || g.text == "" {
			continue
		}
		unit := g.dx*g.dx + g.dy*g.dy
		if !(g.size > 0 && g.size < maxCoord) || !(unit > 1-1e-9 && unit < 1+1e-9) {
			return true
		}
		r := overprintReach * g.size
		x0, x1 := (g.x-r)*o.inv, (g.x+r)*o.inv
		y0, y1 := (g.y-r)*o.inv, (g.y+r)*o.inv
		if !(math.Abs(x0) < maxCoord && math.Abs(x1) < maxCoord && math.Abs(y0) < maxCoord && math.Abs(y1) < maxCoord) {
			return true // also NaN
		}
		lx, hx, ly, hy := floorInt(x0), floorInt(x1), floorInt(y0), floorInt(y1)
		if hx-lx > 8 || hy-ly > 8 {
			return true
		}
		th := textHash(g.text)
		for cx := lx; cx <= hx; cx++ {
			for cy := ly; cy <= hy; cy++ {
				c := [2]int32{int32(cx), int32(cy)}
				seen := 0
				for j := o.heads[o.bucket(c, th)]; j >= 0; j = o.entries[j].link {
					if e := &o.entries[j]; e.cell != c || e.text != th || gs[j].text != g.text {
						continue
					}
					if seen++; seen > maxCandidates || overprint(&gs[j], g) {
						return true
					}
				}
			}
		}
		// g's own cell: x0 <= x*inv <= x1, so lx <= cell <= hx
		c := [2]int32{int32(floorInt(g.x * o.inv)), int32(floorInt(g.y * o.inv))}
		bk := o.bucket(c, th)
		o.entries[i], o.heads[bk] = screenEntry{cell: c, text: th, link: o.heads[bk]}, int32(i)
	}
	return false
}

func (o *overprintScreen) bucket(c [2]int32, th uint32) int {
	h := uint64(uint32(c[0]))*0x9e3779b97f4a7c15 ^ uint64(uint32(c[1]))*0xc2b2ae3d27d4eb4f ^ uint64(th)*0x165667b19e3779f9
	return int((h ^ h>>29) & uint64(len(o.heads)-1))
}

// textHash is FNV-1a of s.
func textHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}

// overprint reports whether g repeats glyph a where a is.
func overprint(a, g *placed) bool {
	if a.text != g.text || a.vertical != g.vertical || a.dx*g.dx+a.dy*g.dy < 0.99 ||
		math.Abs(a.size-g.size) > 0.05*math.Max(a.size, g.size) {
		return false
	}
	ox, oy := g.x-a.x, g.y-a.y
	along := ox*a.dx + oy*a.dy
	across := -ox*a.dy + oy*a.dx
	if a.vertical {
		along, across = across, along
	}
	return math.Abs(along) < dupPrimary*a.size && math.Abs(across) < dupSecondary*a.size
}

// readingOrder returns the order in which to lay gs out, or nil for the
// order drawn. Glyphs drawn one after the other on one line stay
// together (drawnOn). Where the stream breaks a line, the line is
// continued by the glyph that starts where it ends, if that glyph begins
// a line of the stream (so no line the stream draws whole is broken up):
// first letters (no space between them: the stream broke a word), then
// the words of lines so repaired, or single glyphs drawn alone. Joining
// words alone would take a margin note and the line it stands next to
// for one line. The lines so joined come in the order their first
// glyphs were drawn. breaks are the line breaks between the glyphs
// drawn one after the other (lineBreaks).
func (s *orderScratch) readingOrder(gs []placed, breaks []bool) []int32 {
	n := len(gs)
	if n < 3 {
		return nil
	}
	s.next, s.prev = int32s(s.next, n, -1), int32s(s.prev, n, -1)
	next, prev := s.next, s.prev
	for i := 0; i+1 < n; i++ {
		if !breaks[i] && drawnNear(&gs[i], &gs[i+1]) {
			next[i], prev[i+1] = int32(i+1), int32(i)
		}
	}
	linkable := func(i int) bool {
		g := &gs[i]
		r, _ := utf8.DecodeRuneInString(g.text)
		return !g.vertical && spans(g) && !isRTL(r)
	}
	indexed := false
	for j := range gs {
		if prev[j] < 0 && linkable(j) {
			if !indexed {
				s.cells.reset(gs)
				indexed = true
			}
			s.cells.add(gs[j].x, gs[j].y, j)
		}
	}
	if !indexed {
		return nil
	}
	// chain finds the line a glyph belongs to (union-find), so that no
	// line is continued by its own beginning.
	s.chain = int32s(s.chain, n, 0)
	chain := s.chain
	for i := range chain {
		chain[i] = int32(i)
	}
	find := func(i int) int32 {
		for int(chain[i]) != i {
			chain[i] = chain[chain[i]]
			i = int(chain[i])
		}
		return int32(i)
	}
	for i := 0; i+1 < n; i++ {
		if next[i] >= 0 {
			chain[find(i+1)] = find(i)
		}
	}
	if cap(s.scattered) < n {
		s.scattered = make([]bool, n)
	}
	scattered := s.scattered[:n] // by line (chain root): a letter was joined
	clear(scattered)
	alone := func(i int) bool { return prev[i] < 0 && next[i] < 0 }
	linked := false
	for _, words := range []bool{false, true} {
		for i := range gs {
			if next[i] >= 0 || !linkable(i) || words && !scattered[find(i)] && !alone(i) {
				continue
			}
			p := &gs[i]
			best, bestScore := -1, math.Inf(1)
			s.cells.near(p.ex, p.ey, linkAlong*p.size, func(j int) {
				if j == i || prev[j] >= 0 || find(j) == find(i) {
					return
				}
				if words && !scattered[find(j)] && (!alone(j) || !scattered[find(i)]) {
					return
				}
				if score, ok := continuation(p, &gs[j], words); ok && score < bestScore {
					best, bestScore = j, score
				}
			})
			if best >= 0 {
				next[i], prev[best] = int32(best), int32(i)
				root := find(i)
				scattered[root] = scattered[root] || scattered[find(best)] || !words
				chain[find(best)] = root
				linked = true
			}
		}
	}
	if !linked {
		return nil
	}
	order := s.order[:0]
	for h := range gs {
		if prev[h] >= 0 {
			continue
		}
		for i := h; i >= 0; i = int(next[i]) {
			order = append(order, int32(i))
		}
	}
	s.order = order
	return order
}

// drawnOn reports whether g, drawn after p, continues p's line: on it
// (gapBetween decides, as for the layout), not more than an em after p
// ends. Farther on, the stream may have left the line and come back: the
// glyphs on either side of such a gap stay in the order drawn unless
// positions join others to them.
func drawnOn(p, g *placed) bool {
	if brk, _ := gapBetween(p, g); brk {
		return false
	}
	return drawnNear(p, g)
}

// drawnNear is drawnOn for glyphs gapBetween does not part by a line
// break.
func drawnNear(p, g *placed) bool {
	if p.vertical || g.vertical {
		return true
	}
	along := (g.x-p.ex)*p.dx + (g.y-p.ey)*p.dy
	return along <= maxDrawnGap*math.Max(p.size, g.size)
}

// maxDrawnGap is the widest gap, in ems, within a line drawn in order.
const maxDrawnGap = 1.0

// continuation reports whether g continues the line of p where p ends
// (the next letter; with words, also the next word after a space), and
// how far from there it starts.
func continuation(p, g *placed, words bool) (float64, bool) {
	if p.dx*g.dx+p.dy*g.dy < 0.9 {
		return 0, false
	}
	size := math.Max(p.size, g.size)
	ox, oy := g.x-p.ex, g.y-p.ey
	along := ox*p.dx + oy*p.dy
	across := -ox*p.dy + oy*p.dx
	maxAlong, maxAcross := linkLetter*size, linkLetterAcross*size
	if words {
		maxAlong, maxAcross = linkAlong*size, linkAcross*size
	}
	if along < -linkKern*size || along > maxAlong || math.Abs(across) > maxAcross {
		return 0, false
	}
	return math.Abs(along) + 2*math.Abs(across), true
}
