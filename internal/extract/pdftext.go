package extract

import (
	"errors"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
	"golang.org/x/text/unicode/norm"
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
	dx, dy         float64 // unit vector of the baseline in device space
	vertical       bool
	wordSpaceGlyph bool
	font           *pdfFont // the font it is drawn with
	measured       bool     // its advance is the font's own (not a guess)
	tracking       float64  // letter spacing of its font on its line, taken off the gap after it (letterSpacing)
	afterShortLine bool     // it starts a line after one not ending at its block's margin (lineEnds)
}

// maxFormDepth bounds nested Form XObjects (they may reference each other).
const maxFormDepth = 8

// maxOperands bounds the operand stack: no operator takes more than a few
// operands, so a longer run is garbage and dropped. After maxOperandRun
// operands without an operator the stream is taken as damaged (a bomb of
// numbers) and abandoned.
const (
	maxOperands   = 64
	maxOperandRun = 1 << 16
)

// pdfDoc is the state shared by the pages of one document: the limits, the
// fonts read so far (by object), and the Form XObjects being drawn.
type pdfDoc struct {
	budget *pdfBudget
	src    *pdfSource
	// cache holds objects shared by pages (tree nodes, resources), within
	// cacheLeft bytes of the file read to parse them.
	cache     map[objRef]pdf.Value
	cacheLeft int64
	fonts     map[objRef]*pdfFont
	forms     map[objRef]bool // on the current path: a form drawing itself is skipped
	// lexBufs are the lexer buffers, one per form depth, reused by every
	// stream.
	lexBufs [maxFormDepth + 1][]byte
	// drawn holds the glyphs of the page being read drawn since they
	// were last laid out (at most maxDrawn): duplicates are dropped and
	// the order repaired there first (pdforder.go, with the buffers of
	// scratch).
	drawn   []placed
	scratch orderScratch
	lines   []textLine // lineEnds's buffer
	offPage int        // bytes of the glyphs drawn off their page (pageBox)
}

func newPDFDoc(budget *pdfBudget, src *pdfSource) *pdfDoc {
	return &pdfDoc{budget: budget, src: src, fonts: map[objRef]*pdfFont{}, forms: map[objRef]bool{},
		cache: map[objRef]pdf.Value{}, cacheLeft: maxSharedCache}
}

// maxSharedCache bounds the file bytes read to parse the objects kept in
// pdfDoc.cache (their parsed form is several times larger), and
// maxSharedObject one of them.
const (
	maxSharedCache  = 16 << 20
	maxSharedObject = 1 << 20
)

// shared returns v's entry key, from the cache when it is an indirect
// reference read before.
func (d *pdfDoc) shared(v pdf.Value, key string) pdf.Value {
	ref, ok := dictRef(v, key)
	if !ok {
		return v.Key(key)
	}
	if x, ok := d.cache[ref]; ok {
		return x
	}
	before := d.src.left
	x := v.Key(key)
	if cost := before - d.src.left; cost <= maxSharedObject && cost <= d.cacheLeft {
		d.cache[ref] = x
		d.cacheLeft -= cost
	}
	return x
}

// pageText interprets a page's content streams and lays the glyphs out as
// text in content order, with spaces and line breaks taken from positions.
type pageText struct {
	doc *pdfDoc
	lay layouter
	buf []glyph
	box pageBox // glyphs wholly outside it are not drawn
}

func newPageText(doc *pdfDoc) *pageText {
	return &pageText{doc: doc, lay: layouter{w: newTextWriter(doc.budget.text), endsBlank: true}}
}

// text returns the page's text laid out so far; words broken across
// lines are joined once the document is read (dehyphenatePages).
func (p *pageText) text() string {
	p.flush()
	return cleanLines(p.lay.text())
}

// draw takes glyph g as drawn; every maxDrawn glyphs they are laid out.
// A glyph wholly outside the page is not seen and is dropped.
func (p *pageText) draw(g placed) {
	if p.box.outside(&g) {
		// Unseen text costs as much to read as text: it is bounded
		// as the text is (a stream drawing megabytes below the page).
		if p.doc.offPage += len(g.text); p.doc.offPage > textLimit {
			p.doc.budget.stop("text size")
		}
		return
	}
	d := p.doc
	d.drawn = append(d.drawn, g)
	if len(d.drawn) >= maxDrawn {
		p.flush()
	}
}

// flush lays out the glyphs drawn so far: drawn twice over themselves
// (fake bold, shadows) once, in content order repaired where it breaks
// lines that the glyphs' positions continue.
func (p *pageText) flush() {
	d := p.doc
	gs := d.drawn
	var order []int32
	var breaks []bool
	if orderRepairs {
		gs = d.scratch.dropOverprints(gs)
		breaks = d.scratch.lineBreaks(gs)
		order = d.scratch.readingOrder(gs, breaks)
	}
	if order == nil {
		order = d.scratch.order[:0]
		for i := range gs {
			order = append(order, int32(i))
		}
		d.scratch.order = order
	}
	breaks = d.scratch.orderBreaks(gs, order, breaks)
	if orderRepairs {
		letterSpacing(gs, order, breaks)
	}
	d.lines = lineEnds(gs, order, breaks, d.lines)
	for _, i := range order {
		p.lay.add(gs[i])
	}
	clear(d.drawn)
	d.drawn = d.drawn[:0]
}

// orderRepairs turns the repairs of pdforder.go on; it is a variable only
// so that BenchmarkOrderRepairs can measure their cost.
var orderRepairs = true

// pageBox is the area of a page in default user space where glyphs are
// placed: its MediaBox. A page without a readable box (ok false) keeps
// everything. The CropBox is not applied, as pdftotext does not (its
// -cropbox is off by default): the rest of a page that pdfcrop cut a
// figure from is hidden by the viewer but is the file's text.
type pageBox struct {
	llx, lly, urx, ury float64
	ok                 bool
}

// newPageBox returns the area of a page from its MediaBox (nil when
// absent or not four numbers).
func newPageBox(media []float64) pageBox {
	if len(media) != 4 {
		return pageBox{}
	}
	for _, v := range media {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return pageBox{}
		}
	}
	b := pageBox{math.Min(media[0], media[2]), math.Min(media[1], media[3]), math.Max(media[0], media[2]), math.Max(media[1], media[3]), true}
	if b.urx-b.llx < 1 || b.ury-b.lly < 1 {
		return pageBox{}
	}
	return b
}

// outside reports whether glyph g lies wholly outside the box, by more
// than its size: a glyph drawn off the page, as the tiles of a pattern
// that overflow it, is not seen (pdftotext drops it too).
func (b pageBox) outside(g *placed) bool {
	if !b.ok {
		return false
	}
	m := g.size
	return math.Max(g.x, g.ex)+m < b.llx || math.Min(g.x, g.ex)-m > b.urx ||
		math.Max(g.y, g.ey)+m < b.lly || math.Min(g.y, g.ey)-m > b.ury
}

// gstate is the part of the graphics and text state the layout needs.
type gstate struct {
	ctm     matrix
	tm, tlm matrix
	tc, tw  float64
	th      float64
	tl, ts  float64
	font    *pdfFont
	fs      float64
}

// run interprets content (a stream or an array of streams) with the given
// resources; depth counts the Form XObjects around it.
func (p *pageText) run(content, resources pdf.Value, ctm matrix, depth int) {
	st := &gstate{ctm: ctm, tm: identity, tlm: identity, th: 1}
	in := &interp{page: p, st: st, resources: resources, fontsDict: resources.Key("Font"), xobjects: resources.Key("XObject"),
		fonts: map[string]*pdfFont{}, depth: depth}
	if content.Kind() == pdf.Array {
		for i := 0; i < content.Len(); i++ {
			in.stream(content.Index(i))
		}
		return
	}
	in.stream(content)
}

// interp is the interpreter of one content stream (or array of streams).
type interp struct {
	page      *pageText
	st        *gstate
	gstack    []gstate
	resources pdf.Value
	fontsDict pdf.Value // looked up once: each lookup parses the object again
	xobjects  pdf.Value
	fonts     map[string]*pdfFont // by resource name: fonts without identity
	depth     int
	operands  []pdfObj
	run       int // operands since the last operator
}

// stream interprets one content stream, reading it as it inflates. A
// damaged stream ends where it breaks; running out of a limit unwinds.
func (in *interp) stream(s pdf.Value) {
	if s.Kind() != pdf.Stream {
		return
	}
	b := in.page.doc.budget
	b.open()
	err := safely(func() {
		rc := s.Reader()
		defer rc.Close()
		buf := &in.page.doc.lexBufs[in.depth]
		if *buf == nil {
			*buf = make([]byte, 16<<10)
		}
		p := &parser{lx: &lexer{src: budgetReader{rc, b}, buf: *buf}}
		in.tokens(p)
	})
	if err != nil && (errors.Is(err, errPDFBudget) || b.ctx.Err() != nil) {
		panic(err) // a limit or the context: stop the document, not just this stream
	}
}

// tokens runs the operators of a content stream.
func (in *interp) tokens(p *parser) {
	b := in.page.doc.budget
	for {
		t := p.token()
		switch t.kind {
		case tEOF:
			if p.lx.err != nil {
				panic(p.lx.err) // a read error (a limit, or a damaged stream)
			}
			return
		case tKeyword:
			switch t.s {
			case "true", "false", "null":
				in.push(pdfObj{kind: oKeyword, s: t.s})
				continue
			case "BI":
				in.operands = in.operands[:0]
				skipInlineImage(p)
				continue
			}
			b.charge(1)
			in.op(t.s)
			in.operands, in.run = in.operands[:0], 0
		case tArrOpen, tDictOpen:
			p.push(t)
			v, err := p.object(0)
			if err != nil {
				in.operands = in.operands[:0] // garbage (or nesting beyond the limit)
				continue
			}
			in.push(v)
		case tArrClose, tDictClose, tBraceOpen, tBraceClose:
			// stray delimiters: skipped
		case tNum:
			in.push(pdfObj{kind: oNum, num: t.num, isInt: t.isInt})
		case tName:
			in.push(pdfObj{kind: oName, s: t.s})
		case tStr:
			in.push(pdfObj{kind: oStr, s: t.s})
		}
	}
}

func (in *interp) push(v pdfObj) {
	if len(in.operands) >= maxOperands {
		in.operands = in.operands[:0]
	}
	if in.run++; in.run > maxOperandRun {
		panic(errOperandRun)
	}
	in.operands = append(in.operands, v)
}

// errOperandRun abandons a stream of operands without operators.
var errOperandRun = errors.New("content stream without operators")

// skipInlineImage skips an inline image after BI: its dictionary up to ID,
// one white-space byte, then binary data up to "EI" between white space.
func skipInlineImage(p *parser) {
	for {
		t := p.token()
		if t.kind == tEOF || t.kind == tKeyword && t.s == "ID" {
			break
		}
	}
	lx := p.lx
	lx.readByte() // the single white-space byte after ID
	var prev2, prev1 byte = ' ', ' '
	for {
		c, ok := lx.readByte()
		if !ok {
			return
		}
		if prev1 == 'I' && prev2 == 'E' && isPDFSpace(c) {
			return
		}
		prev2, prev1 = prev1, c
		if prev2 == 'E' && !isPDFSpace(c) && c != 'I' {
			prev2 = 0
		}
	}
}

func (in *interp) num(i int) float64 {
	if i < len(in.operands) && in.operands[i].kind == oNum {
		return in.operands[i].num
	}
	return 0
}

func (in *interp) matrixArgs() (matrix, bool) {
	if len(in.operands) != 6 {
		return matrix{}, false
	}
	return matrix{in.num(0), in.num(1), in.num(2), in.num(3), in.num(4), in.num(5)}, true
}

// op runs one operator on the operands collected before it.
func (in *interp) op(name string) {
	st := in.st
	args := in.operands
	switch name {
	case "q":
		if len(in.gstack) < 256 {
			in.gstack = append(in.gstack, *st)
		}
	case "Q":
		if n := len(in.gstack); n > 0 {
			saved := in.gstack[n-1]
			saved.tm, saved.tlm = st.tm, st.tlm // the text matrices are not graphics state
			*st, in.gstack = saved, in.gstack[:n-1]
		}
	case "cm":
		if m, ok := in.matrixArgs(); ok {
			st.ctm = m.mul(st.ctm)
		}
	case "BT":
		st.tm, st.tlm = identity, identity
	case "Tf":
		if len(args) == 2 && args[0].kind == oName {
			st.fs = in.num(1)
			st.font = in.font(args[0].s)
		}
	case "Tc":
		st.tc = in.num(0)
	case "Tw":
		st.tw = in.num(0)
	case "Tz":
		st.th = in.num(0) / 100
	case "TL":
		st.tl = in.num(0)
	case "Ts":
		st.ts = in.num(0)
	case "Td":
		in.nextLine(in.num(0), in.num(1))
	case "TD":
		st.tl = -in.num(1)
		in.nextLine(in.num(0), in.num(1))
	case "Tm":
		if m, ok := in.matrixArgs(); ok {
			st.tlm, st.tm = m, m
		}
	case "T*":
		in.nextLine(0, -st.tl)
	case "Tj":
		if len(args) == 1 {
			in.show(args[0].s)
		}
	case "'":
		in.nextLine(0, -st.tl)
		if len(args) == 1 {
			in.show(args[0].s)
		}
	case "\"":
		if len(args) == 3 {
			st.tw, st.tc = in.num(0), in.num(1)
			in.nextLine(0, -st.tl)
			in.show(args[2].s)
		}
	case "TJ":
		if len(args) != 1 || args[0].kind != oArray {
			return
		}
		for _, v := range args[0].arr {
			if v.kind == oStr {
				in.show(v.s)
				continue
			}
			adj := v.num / 1000 * st.fs
			if st.font != nil && st.font.vertical {
				st.tm = matrix{1, 0, 0, 1, 0, adj}.mul(st.tm)
			} else {
				st.tm = matrix{1, 0, 0, 1, -adj * st.th, 0}.mul(st.tm)
			}
		}
	case "Do":
		if len(args) == 1 && args[0].kind == oName {
			in.form(args[0].s)
		}
	}
}

func (in *interp) nextLine(tx, ty float64) {
	in.st.tlm = matrix{1, 0, 0, 1, tx, ty}.mul(in.st.tlm)
	in.st.tm = in.st.tlm
}

// font returns the font a resource name stands for: one object is read
// once per document, whichever page or form uses it.
func (in *interp) font(name string) *pdfFont {
	doc := in.page.doc
	ref, ok := dictRef(in.fontsDict, name)
	if ok {
		if f, ok := doc.fonts[ref]; ok {
			return f
		}
	} else if f, ok := in.fonts[name]; ok {
		return f
	}
	f := newPDFFont(in.fontsDict.Key(name), doc.budget)
	if ok {
		doc.fonts[ref] = f
	} else {
		in.fonts[name] = f
	}
	return f
}

// form draws a Form XObject: skipped when it is already being drawn (a
// form that draws itself) or nested beyond maxFormDepth; every call is
// charged, so forms drawing each other many times run out of work.
func (in *interp) form(name string) {
	if in.depth >= maxFormDepth {
		return
	}
	doc := in.page.doc
	xobjects := in.xobjects
	ref, hasRef := dictRef(xobjects, name)
	if hasRef && doc.forms[ref] {
		return
	}
	xo := xobjects.Key(name)
	if xo.Kind() != pdf.Stream || xo.Key("Subtype").Name() != "Form" {
		return
	}
	doc.budget.charge(16)
	m := identity
	if mv := xo.Key("Matrix"); mv.Len() == 6 {
		m = matrix{mv.Index(0).Float64(), mv.Index(1).Float64(), mv.Index(2).Float64(), mv.Index(3).Float64(), mv.Index(4).Float64(), mv.Index(5).Float64()}
	}
	res := xo.Key("Resources")
	if res.IsNull() {
		res = in.resources
	}
	if hasRef {
		doc.forms[ref] = true
		defer delete(doc.forms, ref)
	}
	in.page.run(xo, res, m.mul(in.st.ctm), in.depth+1)
}

// show decodes a string with the current font and lays its glyphs out.
func (in *interp) show(s string) {
	st := in.st
	if st.font == nil {
		return
	}
	p := in.page
	p.buf = st.font.decode(s, p.buf[:0])
	p.doc.budget.charge(int64(len(p.buf)))
	for _, g := range p.buf {
		trm := matrix{st.fs * st.th, 0, 0, st.fs, 0, st.ts}.mul(st.tm).mul(st.ctm)
		x, y := trm.apply(0, 0)
		var tx, ty float64
		if st.font.vertical {
			ty = -g.width*st.font.scale*st.fs + st.tc
			if g.space {
				ty += st.tw
			}
			ty = -math.Abs(ty)
		} else {
			tx = g.width*st.font.scale*st.fs + st.tc
			if g.space {
				tx += st.tw
			}
			tx *= st.th
		}
		// The glyph ends where its own width does: character and word
		// spacing (Tc, Tw) are gaps after it, which a producer may take
		// back with TJ offsets (letter-spaced words) or not (spaces).
		glyphEnd := matrix{1, 0, 0, 1, tx, ty}
		if !st.font.vertical {
			glyphEnd[4] = g.width * st.font.scale * st.fs * st.th
		}
		end := matrix{st.fs * st.th, 0, 0, st.fs, 0, st.ts}.mul(glyphEnd.mul(st.tm)).mul(st.ctm)
		ex, ey := end.apply(0, 0)
		st.tm = matrix{1, 0, 0, 1, tx, ty}.mul(st.tm)
		size := math.Sqrt(math.Abs(trm[0]*trm[3]-trm[1]*trm[2])) * st.font.em
		dx, dy := 1.0, 0.0
		if n := math.Hypot(trm[0], trm[1]); n > 0 {
			dx, dy = trm[0]/n, trm[1]/n
		}
		det := trm[0]*trm[3] - trm[1]*trm[2]
		if st.font.flipped {
			det = -det
		}
		if !st.font.vertical && trm[0] < 0 && det < 0 {
			// A glyph mirrored left to right (the reversed E of the
			// XeTeX logo) spans the same place as an upright one
			// drawn from its end: it is laid out as that. A Type 3
			// font whose FontMatrix mirrors its glyphs is mirrored
			// back by such a matrix: its glyphs are turned, not
			// mirrored (the faces of Ghostscript's calendars).
			x, y, ex, ey = ex, ey, x, y
			dx, dy = -dx, -dy
		}
		if g.text != "" && !controlOnly(g.text) {
			p.draw(placed{text: g.text, x: x, y: y, ex: ex, ey: ey, size: size, dx: dx, dy: dy, vertical: st.font.vertical, wordSpaceGlyph: g.space,
				font: st.font, measured: g.measured})
			if p.doc.budget.text.full() {
				p.doc.budget.stop("text size")
			}
		}
	}
}

// controlOnly reports whether s holds only control characters: a glyph
// of a font without a Unicode mapping whose code fell below the space
// (Type 3 and math fonts) is no text, and a form feed or line feed from it
// would break the page's lines.
func controlOnly(s string) bool {
	for _, r := range s {
		if !unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// isCJK reports whether r belongs to a script written without spaces
// between words (Han, kana, Hangul, full-width forms, CJK punctuation).
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef || r == 0x30fc
}

// layouter joins glyphs into text as they come. Glyphs stay in
// content-stream order (which follows the reading order for most
// producers, columns included; pdforder.go repairs it where it breaks
// lines); a jump to another line or column becomes a line break, a
// horizontal gap wider than a tenth of the font size a space (3% where
// the size or the baseline changes, see sizeOrBaselineChange, but 5% for
// a subscript or superscript after its base, scriptOf; a
// subscript set under a superscript stays on the line, stackedScript). A
// line break between two CJK characters is dropped: Japanese wraps lines
// without spaces, and keeping the break would split words for search;
// unless the line ends short of its block (a paragraph's end, verse:
// lineEnds).
//
// Right-to-left text (Hebrew, Arabic) comes in visual order from most
// producers (TeX's, which lay glyphs out left to right) and in logical
// order from others (glyphs placed leftwards). The layouter counts, per
// line, which way consecutive right-to-left glyphs advance; a line laid
// out visually is turned into logical order when the page's text is taken
// (visualToLogical), so the stored word is the word as written, unless
// its spelling shows it was drawn left to right in reading order, as a
// code listing is (orderOf).
type layouter struct {
	w         *textWriter
	prev      placed
	hasPrev   bool
	base      placed // the glyph the scripts after it are set against (prev when none)
	last      rune   // last non-space rune written
	endsBlank bool
	// the current line: where it starts in w, and how its right-to-left
	// glyphs advanced (rightwards: visual order; leftwards: logical)
	lineStart         int
	rtlRight, rtlLeft int
	visual            [][2]int // byte ranges of lines in visual order
	// glyphs kept whole when a visual line is reversed: byte ranges of
	// glyphs that stand for several characters (lam-alef "لا") and of a
	// letter with the marks set over it after it; lineAtoms is where the
	// current line's start in atoms, prevAt where prev's text starts
	atoms     [][2]int
	lineAtoms int
	prevAt    int
	accent    placed // a spacing accent waiting for its letter (hasAccent)
	hasAccent bool
	space     placed // a space glyph waiting for the next glyph (hasSpace)
	hasSpace  bool
	marks     []placed // combining marks waiting for the next glyph (place)
}

// endLine closes the current line at the end of what is written.
func (l *layouter) endLine() {
	if l.rtlRight > l.rtlLeft {
		l.visual = append(l.visual, [2]int{l.lineStart, l.w.Len()})
	} else {
		l.atoms = l.atoms[:l.lineAtoms]
	}
	l.lineAtoms = len(l.atoms)
	l.rtlRight, l.rtlLeft = 0, 0
}

// text returns what was written, with the lines laid out visually put in
// logical order (same bytes, reordered).
func (l *layouter) text() string {
	l.flush()
	l.endLine()
	l.lineStart = l.w.Len()
	s := l.w.String()
	if len(l.visual) == 0 {
		return s
	}
	b := []byte(s)
	whole := make([][][2]int, len(l.visual)) // each line's glyphs kept whole (glyphsOf)
	orders := make([]lineOrder, len(l.visual))
	follows := make([]bool, len(l.visual))
	atoms := l.atoms
	for i, span := range l.visual {
		start, end := min(span[0], len(b)), min(span[1], len(b))
		var local [][2]int
		for len(atoms) > 0 && atoms[0][0] < start {
			atoms = atoms[1:]
		}
		for ; len(atoms) > 0 && atoms[0][1] <= end; atoms = atoms[1:] {
			local = append(local, [2]int{atoms[0][0] - start, atoms[0][1] - start})
		}
		whole[i] = local
		orders[i] = orderOf(glyphsOf(s[start:end], local))
		follows[i] = i > 0 && l.visual[i-1][1]+1 == span[0]
	}
	for i, rev := range reversedLines(orders, follows) {
		if rev { // else drawn in reading order (orderOf)
			start, end := min(l.visual[i][0], len(b)), min(l.visual[i][1], len(b))
			copy(b[start:end], visualToLogicalGlyphs(s[start:end], whole[i]))
		}
	}
	return string(b)
}

// add lays out glyph g. A space glyph is held until the next glyph: when
// that one is drawn back over the space's advance, the space was no
// word space (XeTeX draws a Persian zero-width non-joiner so, "می‌شود"
// is one word) and is dropped, as pdftotext, which reads word spaces from
// positions only, drops it.
func (l *layouter) add(g placed) {
	if l.hasSpace {
		l.hasSpace = false
		if !drawnBack(&l.space, &g) {
			l.addGlyph(l.space)
		}
	}
	if strings.TrimSpace(g.text) == "" && !g.vertical {
		l.space, l.hasSpace = g, true
		return
	}
	l.addGlyph(g)
}

// drawnBack reports whether g starts less than half of space's advance
// after space's start, on its line.
func drawnBack(space, g *placed) bool {
	adv := (space.ex-space.x)*space.dx + (space.ey-space.y)*space.dy
	along := (g.x-space.x)*space.dx + (g.y-space.y)*space.dy
	across := -(g.x-space.x)*space.dy + (g.y-space.y)*space.dx
	return adv > 0 && along < 0.5*adv && along > -adv && math.Abs(across) < 0.3*math.Max(space.size, g.size)
}

// addGlyph lays out glyph g. A spacing accent is held until the next glyph:
// TeX's \accent draws the accent, then the letter under it (Fleischerfachgesch¨aft
// in OT1-encoded fonts); the two become one accented letter.
func (l *layouter) addGlyph(g placed) {
	if l.hasAccent {
		a := l.accent
		l.hasAccent = false
		if c, ok := accented(&a, &g); ok {
			g.text = c
			l.place(g)
			return
		}
		l.place(a)
	}
	if _, ok := combiningOf(g.text); ok {
		l.accent, l.hasAccent = g, true
		return
	}
	l.place(g)
}

// flush places a held space and accent.
func (l *layouter) flush() {
	if l.hasSpace {
		l.hasSpace = false
		l.addGlyph(l.space)
	}
	if l.hasAccent {
		l.hasAccent = false
		l.place(l.accent)
	}
	l.placeMarks(nil)
}

// spacingAccents maps spacing accents to their combining marks.
var spacingAccents = map[string]rune{
	"\u00a8": '\u0308', "\u00b4": '\u0301', "`": '\u0300', "\u02c6": '\u0302', "\u02dc": '\u0303',
	"\u00b8": '\u0327', "\u02da": '\u030a', "\u02c7": '\u030c', "\u00af": '\u0304', "\u02d8": '\u0306',
	"\u02d9": '\u0307', "\u02dd": '\u030b', "\u02db": '\u0328',
}

func combiningOf(s string) (rune, bool) {
	r, ok := spacingAccents[s]
	return r, ok
}

// accented returns the letter of g with accent a when a sits over (or
// under) it: their advances overlap on one line. A modifier letter (a
// spacing caron, circumflex, prime: music fonts draw note heads as
// carons) takes no accent: an accent over one is a second accent.
func accented(a, g *placed) (string, bool) {
	mark, _ := combiningOf(a.text)
	first, n := utf8.DecodeRuneInString(g.text)
	if !unicode.IsLetter(first) || unicode.Is(unicode.Lm, first) || a.vertical || g.vertical {
		return "", false
	}
	size := math.Max(math.Max(a.size, g.size), 1)
	// positions along g's baseline
	along := func(x, y float64) float64 { return (x-g.x)*g.dx + (y-g.y)*g.dy }
	across := -(a.x-g.x)*g.dy + (a.y-g.y)*g.dx
	as, ae, ge := along(a.x, a.y), along(a.ex, a.ey), along(g.ex, g.ey)
	if math.Abs(across) > size || ae <= 0.05*size || as >= ge-0.05*size {
		return "", false
	}
	return norm.NFC.String(string(first)+string(mark)) + g.text[n:], true
}

// maxHeldMarks bounds the marks held for the glyph after them.
const maxHeldMarks = 8

// place writes glyph g after what was laid out before it. A combining
// mark is held until the next glyph: a producer drawing each mark before
// the letter it sits on (XeTeX, which lays an Arabic word out in visual
// order) places it past the end of the letter before, and that offset is
// no word space ("الحَمدُ", not "الحَ مدُ"). A mark never opens a word on
// its own: what separates the glyph before it from what follows is
// measured between those two glyphs (placeMarks).
func (l *layouter) place(g placed) {
	if isMarkGlyph(&g) && l.hasPrev && len(l.marks) < maxHeldMarks {
		l.marks = append(l.marks, g)
		return
	}
	l.put(g, l.placeMarks(&g))
}

// sep is what separates a glyph from the one before it when decided
// ahead of positions (set): a line break, a space, or nothing.
type sep struct{ set, brk, sp bool }

// placeMarks writes the marks held before glyph next (nil at the end)
// and returns what must separate next from the last of them. The marks
// belong to next when they sit over it, or when nothing separates the
// glyph before them from next (they are inside a word): then the glyph
// before and next are measured against each other, and the marks and
// next follow without a gap. Otherwise they belong to the glyph before
// them and are laid out as any glyph.
func (l *layouter) placeMarks(next *placed) sep {
	if len(l.marks) == 0 {
		return sep{}
	}
	defer func() { l.marks = l.marks[:0] }()
	if next == nil || !marksBelongToNext(&l.prev, &l.marks[0], next) {
		for _, m := range l.marks {
			l.put(m, sep{})
		}
		return sep{}
	}
	brk, sp := l.separation(next)
	s := sep{set: true, brk: brk, sp: sp}
	for _, m := range l.marks {
		l.put(m, s)
		s = sep{set: true}
	}
	return s
}

// isMarkGlyph reports whether g draws combining marks only (Unicode Mn,
// Mc, Me: a vowel sign, a shadda, a point) without an advance of its own
// (a spacing vowel sign with one is laid out as a letter).
func isMarkGlyph(g *placed) bool {
	if g.text == "" || g.vertical || math.Hypot(g.ex-g.x, g.ey-g.y) > 0.1*g.size {
		return false
	}
	for _, r := range g.text {
		if !unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me) {
			return false
		}
	}
	return true
}

// marksBelongToNext reports whether mark m, drawn after glyph p, belongs
// to the glyph next drawn after it rather than to p: next is a letter
// (not a space) that m sits over (m starts inside next's advance, on its
// line), one following p in the same word (no space nor line break
// between them) whose start m is nearer than p's, or one after a word
// space that a right-to-left m stands in, past p's end and off its
// middle, on a line laid out rightwards.
// A producer drawing a mark before its letter (XeTeX) sets it near that
// letter's start, even a little inside the letter or the space before;
// one drawing it after its letter (LuaTeX) at that letter's start.
func marksBelongToNext(p, m, next *placed) bool {
	if r, _ := utf8.DecodeRuneInString(next.text); unicode.IsSpace(r) || next.vertical {
		return false
	}
	size := math.Max(math.Max(m.size, next.size), 1)
	a := (m.x-next.x)*next.dx + (m.y-next.y)*next.dy
	across := -(m.x-next.x)*next.dy + (m.y-next.y)*next.dx
	width := (next.ex-next.x)*next.dx + (next.ey-next.y)*next.dy
	if math.Abs(across) < 0.6*size && a > -0.05*size && a < width {
		return true
	}
	brk, sp := gapBetween(p, next)
	switch {
	case brk:
		return false
	case sp:
		// a right-to-left mark in the word space of a line laid out
		// rightwards (visually, each mark before its letter), past
		// p's end, but not in its middle: a sign set between two
		// words (a Quranic pause mark) has as much space on either
		// side
		r, _ := utf8.DecodeRuneInString(m.text)
		pastP := (m.x-p.ex)*next.dx + (m.y-p.ey)*next.dy
		centred := math.Abs(pastP+a) < 0.1*(pastP-a)
		return isRTL(r) && (next.x-p.x)*next.dx+(next.y-p.y)*next.dy > 0 && pastP > 0.05*size && a < 0 && !centred
	}
	fromP := (m.x-p.x)*next.dx + (m.y-p.y)*next.dy
	return math.Abs(a) < math.Abs(fromP)
}

// separation decides what separates glyph g from the glyph laid out
// before it: a line break, a space, or nothing.
func (l *layouter) separation(g *placed) (brk, sp bool) {
	if !l.hasPrev {
		return false, false
	}
	brk, sp = gapBetween(&l.prev, g)
	if brk && stackedScript(&l.base, &l.prev, g) {
		brk, sp = false, false
	}
	return brk, sp
}

// put writes glyph g after what was laid out before it, separated as s
// says when set, else as their positions say.
func (l *layouter) put(g placed, s sep) {
	newLine := false
	if l.hasPrev {
		brk, sp := s.brk, s.sp
		if !s.set {
			brk, sp = l.separation(&g)
		}
		first, _ := utf8.DecodeRuneInString(g.text)
		if !brk && isRTL(first) && isRTL(l.last) {
			switch along := (g.x-l.prev.x)*l.prev.dx + (g.y-l.prev.y)*l.prev.dy; {
			case along > 0:
				l.rtlRight++
			case along < 0:
				l.rtlLeft++
			}
		}
		newLine = brk
		switch {
		case brk:
			if !(isCJK(l.last) && isCJK(first)) || g.afterShortLine {
				l.endLine()
				l.w.WriteByte('\n')
				l.lineStart = l.w.Len()
				l.endsBlank = true
			}
		case sp && !l.endsBlank && !unicode.IsSpace(first):
			l.w.WriteByte(' ')
			l.endsBlank = true
		}
	}
	at := l.w.Len()
	l.w.WriteString(g.text)
	l.keepWhole(g, at, !s.set)
	if r, _ := utf8.DecodeLastRuneInString(g.text); !unicode.IsSpace(r) {
		l.last, l.endsBlank = r, false
	} else {
		l.endsBlank = true
	}
	if l.hasPrev && !newLine && overlay(&g) {
		// A mark set over or under a letter (Devanagari vowel signs,
		// Hebrew points) does not move the end of the word: the next
		// letter is measured from the end of the letter under it (on
		// its line: a glyph without advance that begins a line ends
		// where it stands).
		if (l.prev.ex-g.ex)*g.dx+(l.prev.ey-g.ey)*g.dy > 0 {
			g.ex, g.ey = l.prev.ex, l.prev.ey
		}
	}
	if !l.hasPrev || !scriptOf(&l.base, &g) || along(&l.base, g.x, g.y) > l.base.size {
		l.base = g
	}
	l.prev, l.hasPrev, l.prevAt = g, true, at
}

// overOrUnder reports whether mark g starts inside the advance of glyph p
// (or a little before its end: a mark after a mark).
func overOrUnder(p, g *placed) bool {
	size := math.Max(math.Max(p.size, g.size), 1)
	a := along(p, g.x, g.y)
	return a < -0.05*size && a > -2*size
}

// keepWhole records glyph g, written at byte at, as one piece for a
// visual line's reversal when its text is several right-to-left
// characters, or when it is a mark set over the glyph before it (a
// producer drawing the letter, then its mark: the mark stays after its
// letter; one drawing the mark first, as XeTeX does, is reversed into
// the same order glyph by glyph). free is false for a mark found to
// belong to the glyph after it (placeMarks): it is never joined to the
// glyph before.
func (l *layouter) keepWhole(g placed, at int, free bool) {
	end := l.w.Len()
	first, n := utf8.DecodeRuneInString(g.text)
	switch {
	case end <= at:
	case free && unicode.In(first, unicode.Mn, unicode.Me) && l.hasPrev && isRTL(l.last) && l.prevAt < at &&
		overOrUnder(&l.prev, &g):
		if k := len(l.atoms); k > l.lineAtoms && l.atoms[k-1][1] == at {
			l.atoms[k-1][1] = end
		} else {
			l.atoms = append(l.atoms, [2]int{l.prevAt, end})
		}
	case n < len(g.text) && isRTL(first):
		l.atoms = append(l.atoms, [2]int{at, end})
	}
}

// overlay reports whether g is drawn over another glyph rather than after
// it: a non-spacing mark, or a glyph without advance.
func overlay(g *placed) bool {
	r, _ := utf8.DecodeRuneInString(g.text)
	// no mark comes before U+0300 (unicode.In is slow on every glyph)
	return r >= 0x300 && unicode.In(r, unicode.Mn, unicode.Me) || (g.x == g.ex && g.y == g.ey && !g.vertical)
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
	// Distances along the baseline of p and across it: a page rotated
	// by a matrix (landscape pages, rotated labels) runs its lines
	// along any direction.
	if p.dx*g.dx+p.dy*g.dy < 0.9 {
		return true, false // the direction changed
	}
	ox, oy := g.x-p.ex, g.y-p.ey
	along := ox*p.dx + oy*p.dy
	across := -ox*p.dy + oy*p.dx
	if math.Abs(across) > 0.6*size {
		return true, false
	}
	if r, _ := utf8.DecodeRuneInString(g.text); isRTL(r) && along < 0 {
		// Right-to-left glyphs placed leftwards (logical order): the
		// gap is from the end of g to the start of p.
		back := (p.x-g.ex)*p.dx + (p.y-g.ey)*p.dy
		return false, back > 0.15*size && along > -40*size
	}
	if sizeOrBaselineChange(p, g, across) {
		if width := (p.ex-p.x)*p.dx + (p.ey-p.y)*p.dy; along+width < -0.1*size {
			// A glyph of another size or baseline set back before
			// the start of p is no letter of p's word: the limit
			// under "lim" or "∑", a fraction's denominator.
			return false, true
		}
		if scriptOf(p, g) {
			// x₀, y³: a script is set against its base, a superscript
			// after the base's italic correction (y′ 0.036 em after
			// an italic y); from 0.05 em on, both pdftotext and MuPDF
			// read a word space (u n, XeTeX's uₙ 0.057 em apart).
			return false, along > 0.05*p.size || along < -2*size
		}
		return false, along > 0.03*size || along < -2*size
	}
	along -= trackingBetween(p, g)
	return false, along > 0.1*size || along < -2*size
}

// sizeOrBaselineChange reports whether g is drawn at another size than p
// or off p's baseline (a footnote mark, a superscript, a heading's large
// letters followed by text), both with their fonts' own advances. There
// the slightest gap is a word space, as pdftotext reads it: no letter of
// a word changes size, while "¹There" or "2ε" set apart by 0.06 em are
// two words.
func sizeOrBaselineChange(p, g *placed, across float64) bool {
	size := math.Max(p.size, g.size)
	return p.measured && g.measured && (math.Abs(p.size-g.size) > 0.05*size || math.Abs(across) > 0.05*size)
}

// scriptOf reports whether g is set as a subscript or a superscript of
// glyph p: smaller (at most 0.85 of its size), off its baseline by more
// than a tenth of its size and at most half, in its direction.
func scriptOf(p, g *placed) bool {
	if p.vertical || g.vertical || g.size > 0.85*p.size || p.dx*g.dx+p.dy*g.dy < 0.99 {
		return false
	}
	across := math.Abs(-(g.x-p.x)*p.dy + (g.y-p.y)*p.dx)
	return across > 0.1*p.size && across <= 0.5*p.size
}

// stackedScript reports whether g, a script of base as prev is, is set
// under or over prev (ds²ᵣ): it starts where base ends, before prev
// does.
func stackedScript(base, prev, g *placed) bool {
	if !scriptOf(base, prev) || !scriptOf(base, g) {
		return false
	}
	start := along(base, g.x, g.y)
	return start > -0.1*base.size && start < 0.3*base.size && start < along(base, prev.ex, prev.ey)
}

// along returns how far (x, y) is from the end of p along its baseline.
func along(p *placed, x, y float64) float64 {
	return (x-p.ex)*p.dx + (y-p.ey)*p.dy
}

// isRTL reports whether r is a letter of a right-to-left script.
func isRTL(r rune) bool {
	return (r >= 0x0590 && r <= 0x08ff) || (r >= 0xfb1d && r <= 0xfdff) || (r >= 0xfe70 && r <= 0xfeff)
}

// mirrorPairs are the characters a right-to-left line shows mirrored
// (Unicode's Bidi_Mirroring_Glyph pairs of punctuation and common
// relations): their glyph on the page is the other one of the pair.
// The ornate parentheses ﴾ ﴿ are not among them: they are not mirrored
// but written in their own direction. (An array, not a map: nothing
// to build when the package loads.)
var mirrorPairs = [...][2]rune{{'(', ')'}, {'<', '>'}, {'[', ']'}, {'{', '}'}, {'«', '»'}, {'‹', '›'},
	{'⁅', '⁆'}, {'⁽', '⁾'}, {'₍', '₎'}, {'≤', '≥'}, {'≪', '≫'}, {'⊂', '⊃'}, {'⊆', '⊇'}, {'∈', '∋'},
	{'⟨', '⟩'}, {'⟦', '⟧'}, {'⟮', '⟯'}, {'⦃', '⦄'}, {'〈', '〉'}, {'《', '》'}, {'「', '」'}, {'『', '』'},
	{'【', '】'}, {'〔', '〕'}, {'〖', '〗'}, {'〘', '〙'}, {'〚', '〛'}, {'（', '）'}, {'＜', '＞'},
	{'［', '］'}, {'｛', '｝'}, {'｢', '｣'}}

// mirrored swaps paired punctuation, as a right-to-left line shows it.
func mirrored(r rune) rune {
	for _, p := range mirrorPairs {
		switch r {
		case p[0]:
			return p[1]
		case p[1]:
			return p[0]
		}
	}
	return r
}

// visualToLogical turns a line laid out left to right on the page into
// the order it is read, each character a glyph of its own.
func visualToLogical(line string) string { return visualToLogicalGlyphs(line, nil) }

// visualToLogicalGlyphs turns a line laid out left to right on the page
// into the order it is read (the inverse of the Unicode bidirectional
// algorithm for the common cases): a line whose letters are mostly
// right-to-left is reversed, then each run of left-to-right letters and
// digits in it is turned back; in a mostly left-to-right line each run of
// right-to-left words is reversed in place, digits kept. Paired
// punctuation reversed into a right-to-left run is mirrored. What is
// reversed is glyphs, not characters: each byte range in whole (sorted,
// apart, inside line) is one glyph whose text stays as it is, a ligature
// that stands for several letters in logical order (lam-alef "لا"), or a
// letter with its marks. The result has the same bytes in another order.
func visualToLogicalGlyphs(line string, whole [][2]int) string {
	return glyphsToLogical(glyphsOf(line, whole))
}

// glyphsOf splits line into its glyphs: each byte range in whole (sorted,
// apart, inside line) is one glyph, each other character one glyph.
func glyphsOf(line string, whole [][2]int) []string {
	var gs []string
	for i := 0; i < len(line); {
		if len(whole) > 0 && whole[0][0] == i {
			gs = append(gs, line[i:whole[0][1]])
			i = whole[0][1]
			whole = whole[1:]
			continue
		}
		for len(whole) > 0 && whole[0][0] < i {
			whole = whole[1:]
		}
		_, n := utf8.DecodeRuneInString(line[i:])
		gs = append(gs, line[i:i+n])
		i += n
	}
	return gs
}

// glyphsToLogical puts the glyphs of a line laid out left to right in the
// order they are read (visualToLogicalGlyphs); gs is reordered in place.
func glyphsToLogical(gs []string) string {
	head := func(g string) rune { r, _ := utf8.DecodeRuneInString(g); return r }
	rtl, ltr := 0, 0
	for _, g := range gs {
		for _, r := range g {
			switch {
			case isRTL(r) && unicode.IsLetter(r):
				rtl++
			case unicode.IsLetter(r):
				ltr++
			}
		}
	}
	if rtl == 0 {
		return strings.Join(gs, "")
	}
	strongLTR := func(r rune) bool { return unicode.IsDigit(r) || (unicode.IsLetter(r) && !isRTL(r)) }
	reverse := func(a []string, mirror bool) {
		for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
			a[i], a[j] = a[j], a[i]
		}
		if mirror {
			for i, g := range a {
				if r := head(g); len(g) == utf8.RuneLen(r) {
					a[i] = string(mirrored(r))
				}
			}
		}
	}
	// runs calls fn on each maximal run that starts and ends with a glyph
	// in(r) and holds no glyph in stop(r), r each glyph's first rune.
	runs := func(in, stop func(rune) bool, fn func(a []string)) {
		for i := 0; i < len(gs); i++ {
			if !in(head(gs[i])) {
				continue
			}
			j, last := i, i
			for ; j < len(gs) && !stop(head(gs[j])); j++ {
				if in(head(gs[j])) {
					last = j
				}
			}
			fn(gs[i : last+1])
			i = last
		}
	}
	if rtl >= ltr {
		reverse(gs, true)
		runs(strongLTR, func(r rune) bool { return isRTL(r) && !unicode.IsDigit(r) }, func(a []string) {
			for _, g := range a {
				if r := head(g); unicode.IsLetter(r) && !isRTL(r) {
					reverse(a, true) // a left-to-right phrase, its numbers in it
					return
				}
			}
			// Numbers alone: each reads left to right, and they follow
			// each other right to left ("(١٩٢٤ - ١٩٢٨)" is drawn
			// "(١٩٢٨ - ١٩٢٤)"), as the bidirectional algorithm
			// orders numbers between which no letter stands.
			for i := 0; i < len(a); i++ {
				if j := numberEnd(a, i); j > i {
					reverse(a[i:j], false)
					i = j - 1
				}
			}
		})
	} else {
		rtlLetter := func(r rune) bool { return isRTL(r) && unicode.IsLetter(r) }
		runs(rtlLetter, func(r rune) bool { return unicode.IsLetter(r) && !isRTL(r) }, func(a []string) {
			reverse(a, true)
			for i := 0; i < len(a); i++ { // numbers read left to right
				if unicode.IsDigit(head(a[i])) {
					j := i
					for j+1 < len(a) && (unicode.IsDigit(head(a[j+1])) || a[j+1] == "." || a[j+1] == ",") {
						j++
					}
					reverse(a[i:j+1], false)
					i = j
				}
			}
		})
	}
	return strings.Join(gs, "")
}

// numberEnd returns the end of the number that starts at glyph i of a
// (i when none does): digits, with a single separator between two of them
// (a comma, period, slash or colon; for European digits also a plus or
// minus: "1924-1928", "12:30", "3.5"), and for European digits the
// percent, degree or currency signs next to them, as the bidirectional
// algorithm joins them (its rules W4 and W5).
func numberEnd(a []string, i int) int {
	head := func(k int) rune { r, _ := utf8.DecodeRuneInString(a[k]); return r }
	digit := func(k int) bool { return k < len(a) && unicode.IsDigit(head(k)) }
	european := func(k int) bool { return head(k) <= '9' }
	terminator := func(k int) bool {
		r := head(k)
		return len(a[k]) == utf8.RuneLen(r) && (r == '%' || r == '°' || r == '#' || unicode.Is(unicode.Sc, r))
	}
	j := i
	for j < len(a) && terminator(j) && digit(j+1) && european(j+1) {
		j++
	}
	if !digit(j) {
		return i
	}
	for {
		switch {
		case digit(j):
			j++
		case j+1 < len(a) && digit(j+1) && digit(j-1) && len(a[j]) == 1 && strings.ContainsRune(",./:", rune(a[j][0])):
			j++
		case j+1 < len(a) && digit(j+1) && digit(j-1) && european(j-1) && european(j+1) && (a[j] == "-" || a[j] == "+"):
			j++
		case j < len(a) && digit(j-1) && european(j-1) && terminator(j):
			j++
		default:
			return j
		}
	}
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
