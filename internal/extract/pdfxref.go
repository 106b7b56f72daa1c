package extract

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"context"
	"encoding/ascii85"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// The PDF library (github.com/ledongthuc/pdf) follows cross-reference
// sections and object streams without any bound: a /Prev chain that loops
// never ends (readPrevXrefs has no cycle check), an /Extends chain that
// loops never ends, an object stream listed as stored in itself recurses
// until Go's stack overflow kills the process, a subsection starting at
// object 4,000,000,000 or a /Size of 2^40 allocates that many table rows
// (a fatal out-of-memory), and every lookup of an object in an object
// stream inflates the stream again up to that object (gigabytes per lookup
// for a stream padded with white space).
//
// normalizePDF therefore reads the cross-reference sections itself, with a
// visited set and caps, copies the objects out of object streams once
// (each stream inflated at most once, within a budget), and appends one
// fresh cross-reference stream without /Prev: the library then only ever
// reads that table and plain objects. An encrypted file keeps its object
// streams (their bytes are encrypted); their structure is checked instead.

// Limits of the cross-reference pre-pass.
const (
	maxXrefSections  = 256      // sections followed through /Prev and /XRefStm
	maxObjStmBytes   = 16 << 20 // one object stream, inflated
	minObjStmBudget  = 128 << 20
	objStmFactor     = 8 // all object streams: max(minObjStmBudget, factor × file size)
	maxObjStmObjects = 1 << 20
	maxExtendsHops   = 16
)

// maxPDFObjects bounds the object numbers kept from cross-reference
// sections (rows beyond it are dropped): the table costs about 40 bytes a
// row in gds and the library, so it must not grow with a number the file
// merely states.
func maxPDFObjects(size int) int { return min(1<<22, max(1<<16, size/8)) }

// Row types of the merged table. rowUnset means no section mentioned the
// object; the first section (newest) to mention it wins.
const (
	rowUnset byte = iota
	rowFree
	rowInFile   // at byte offset off
	rowInStream // in object stream number off
)

type xrefRow struct {
	typ byte
	gen uint16 // generation (in file) or index (in stream)
	off int64
}

type xrefTable struct {
	data    []byte
	rows    []xrefRow
	max     int               // rows beyond are dropped
	trailer map[string]pdfObj // of the newest section
}

func (t *xrefTable) set(n int64, r xrefRow) {
	if n < 0 || n >= int64(t.max) {
		return
	}
	if n >= int64(len(t.rows)) {
		t.rows = append(t.rows, make([]xrefRow, int(n)-len(t.rows)+1)...)
	}
	if t.rows[n].typ == rowUnset {
		t.rows[n] = r
	}
}

func (t *xrefTable) row(n uint32) xrefRow {
	if int(n) < len(t.rows) {
		return t.rows[n]
	}
	return xrefRow{}
}

// errXref means the cross-reference sections could not be read: the
// caller falls back to rebuilding the table by scanning for objects.
var errXref = errors.New("cross-reference sections unreadable")

// normalizePDF returns data with a fresh cross-reference stream appended
// (see above). It fails with errXref when the sections cannot be read
// (the caller then rebuilds the table from a scan), or with ErrTooComplex
// when an object stream is beyond the limits.
func normalizePDF(ctx context.Context, data []byte) ([]byte, error) {
	t, err := readXref(data)
	if err != nil {
		return nil, err
	}
	if _, ok := t.trailer["Root"]; !ok {
		return nil, fmt.Errorf("%w: no /Root", errXref)
	}
	_, encrypted := t.trailer["Encrypt"]
	out := make([]byte, 0, len(data)+len(t.rows)*11+1024)
	out = append(out, data...)
	out = append(out, '\n')
	if encrypted {
		if err := t.checkObjStms(); err != nil {
			return nil, err
		}
	} else if out, err = t.expandObjStms(ctx, out); err != nil {
		return nil, err
	}
	return t.appendXrefStream(out), nil
}

// readXref follows the sections from startxref: newest first, /XRefStm of
// a hybrid file before its /Prev, each offset once.
func readXref(data []byte) (*xrefTable, error) {
	i := bytes.LastIndex(data[max(0, len(data)-1024):], []byte("startxref"))
	if i < 0 {
		return nil, fmt.Errorf("%w: no startxref", errXref)
	}
	lx := newBytesLexer(data[max(0, len(data)-1024)+i+len("startxref"):])
	tok := lx.next()
	if tok.kind != tNum || !tok.isInt {
		return nil, fmt.Errorf("%w: startxref without offset", errXref)
	}
	t := &xrefTable{data: data, max: maxPDFObjects(len(data))}
	visited := map[int64]bool{}
	queue := []int64{int64(tok.num)}
	for n := 0; len(queue) > 0 && n < maxXrefSections; n++ {
		off := queue[0]
		queue = queue[1:]
		if visited[off] {
			continue // a /Prev cycle: the section was read already
		}
		visited[off] = true
		trailer, err := t.section(off)
		if err != nil {
			if n == 0 {
				return nil, err
			}
			break // a broken older section: keep what the newer ones said
		}
		if n == 0 {
			t.trailer = trailer
		}
		if x, ok := trailer["XRefStm"].int(); ok && !visited[x] {
			// A hybrid file: the stream's rows come before /Prev's; its
			// own /Prev is not followed.
			visited[x] = true
			_, _ = t.section(x) // an unreadable stream leaves the table's rows
		}
		if p, ok := trailer["Prev"].int(); ok {
			queue = append(queue, p)
		}
	}
	return t, nil
}

// section reads the table or stream at off into t and returns its trailer
// dictionary.
func (t *xrefTable) section(off int64) (map[string]pdfObj, error) {
	if off < 0 || off >= int64(len(t.data)) {
		return nil, fmt.Errorf("%w: section offset %d outside the file", errXref, off)
	}
	p := &parser{lx: newBytesLexer(t.data[off:])}
	first := p.token()
	if first.kind == tKeyword && first.s == "xref" {
		return t.table(p, len(t.data)-int(off))
	}
	p.push(first)
	dict, start, err := streamAt(p, off)
	if err != nil || dict["Type"].s != "XRef" {
		return nil, fmt.Errorf("%w: no cross-reference section at %d", errXref, off)
	}
	body, err := t.streamData(dict, start, 64<<20)
	if err != nil {
		return nil, fmt.Errorf("%w: cross-reference stream: %v", errXref, err)
	}
	if err := t.streamRows(dict, body); err != nil {
		return nil, err
	}
	return dict, nil
}

// table reads the subsections of a classic table and its trailer.
func (t *xrefTable) table(p *parser, avail int) (map[string]pdfObj, error) {
	for {
		tok := p.token()
		if tok.kind == tKeyword && tok.s == "trailer" {
			tr, err := p.object(0)
			if err != nil || tr.kind != oDict {
				return nil, fmt.Errorf("%w: no trailer dictionary", errXref)
			}
			return tr.dict, nil
		}
		count := p.token()
		if tok.kind != tNum || !tok.isInt || count.kind != tNum || !count.isInt || tok.num < 0 || count.num < 0 || count.num > float64(avail/4) {
			return nil, fmt.Errorf("%w: bad subsection header", errXref)
		}
		start := int64(tok.num)
		for i := int64(0); i < int64(count.num); i++ {
			o, g, kw := p.token(), p.token(), p.token()
			if o.kind != tNum || g.kind != tNum || kw.kind != tKeyword || kw.s != "n" && kw.s != "f" {
				return nil, fmt.Errorf("%w: bad row", errXref)
			}
			if kw.s == "f" {
				t.set(start+i, xrefRow{typ: rowFree})
			} else {
				t.set(start+i, xrefRow{typ: rowInFile, gen: uint16(g.num), off: int64(o.num)})
			}
		}
	}
}

// streamRows decodes the rows of a cross-reference stream.
func (t *xrefTable) streamRows(dict map[string]pdfObj, body []byte) error {
	w := dict["W"].arr
	if len(w) != 3 {
		return fmt.Errorf("%w: /W is not three widths", errXref)
	}
	var ws [3]int
	for i, x := range w {
		v, ok := x.int()
		if !ok || v < 0 || v > 8 {
			return fmt.Errorf("%w: bad /W", errXref)
		}
		ws[i] = int(v)
	}
	rowLen := ws[0] + ws[1] + ws[2]
	if rowLen == 0 {
		return fmt.Errorf("%w: bad /W", errXref)
	}
	index := dict["Index"].arr
	if index == nil {
		size, _ := dict["Size"].int()
		index = []pdfObj{{kind: oNum, isInt: true}, {kind: oNum, isInt: true, num: float64(size)}}
	}
	field := func(b []byte, def uint64) uint64 {
		if len(b) == 0 {
			return def
		}
		var v uint64
		for _, c := range b {
			v = v<<8 | uint64(c)
		}
		return v
	}
	for i := 0; i+1 < len(index); i += 2 {
		start, ok1 := index[i].int()
		count, ok2 := index[i+1].int()
		if !ok1 || !ok2 || start < 0 || count < 0 {
			return fmt.Errorf("%w: bad /Index", errXref)
		}
		for j := int64(0); j < count && len(body) >= rowLen; j++ {
			r := body[:rowLen]
			body = body[rowLen:]
			typ := field(r[:ws[0]], 1)
			f2 := field(r[ws[0]:ws[0]+ws[1]], 0)
			f3 := field(r[ws[0]+ws[1]:], 0)
			switch typ {
			case 0:
				t.set(start+j, xrefRow{typ: rowFree})
			case 1:
				t.set(start+j, xrefRow{typ: rowInFile, gen: uint16(f3), off: int64(min(f2, 1<<62))})
			case 2:
				t.set(start+j, xrefRow{typ: rowInStream, gen: uint16(f3), off: int64(min(f2, 1<<32))})
			}
		}
	}
	return nil
}

// streamAt parses "N G obj << dict >> stream" and returns the dictionary
// and the offset of the stream's data.
func streamAt(p *parser, base int64) (map[string]pdfObj, int64, error) {
	n, g, kw := p.token(), p.token(), p.token()
	if n.kind != tNum || g.kind != tNum || kw.kind != tKeyword || kw.s != "obj" {
		return nil, 0, errPDFSyntax
	}
	d, err := p.object(0)
	if err != nil || d.kind != oDict {
		return nil, 0, errPDFSyntax
	}
	if tok := p.token(); tok.kind != tKeyword || tok.s != "stream" || len(p.pending) > 0 {
		return nil, 0, errPDFSyntax
	}
	// The keyword is followed by CRLF or LF (a lone CR is tolerated).
	start := base + p.lx.offset()
	if c, ok := p.lx.readByte(); ok && c == '\r' {
		start++
		if c, ok := p.lx.readByte(); ok && c == '\n' {
			start++
		}
	} else if ok && c == '\n' {
		start++
	}
	return d.dict, start, nil
}

// streamData returns the decoded data of a stream whose data starts at
// start, at most limit bytes (errObjTooBig beyond). /Length may be an
// indirect reference to an integer object in the file.
func (t *xrefTable) streamData(dict map[string]pdfObj, start int64, limit int64) ([]byte, error) {
	length, ok := dict["Length"].int()
	if !ok && dict["Length"].kind == oRef {
		length, ok = t.intObject(dict["Length"].ref)
	}
	if !ok || length < 0 || start+length > int64(len(t.data)) {
		return nil, errors.New("bad /Length")
	}
	return decodePDFStream(t.data[start:start+length], dict["Filter"], dict["DecodeParms"], limit)
}

// intObject reads an integer object stored in the file.
func (t *xrefTable) intObject(ref objRef) (int64, bool) {
	r := t.row(ref.id)
	if r.typ != rowInFile || r.off < 0 || r.off >= int64(len(t.data)) {
		return 0, false
	}
	p := &parser{lx: newBytesLexer(t.data[r.off:])}
	n, _, kw := p.token(), p.token(), p.token()
	if n.kind != tNum || n.num != float64(ref.id) || kw.kind != tKeyword || kw.s != "obj" {
		return 0, false
	}
	v, err := p.object(0)
	if err != nil {
		return 0, false
	}
	return v.int()
}

var errObjTooBig = errors.New("stream inflates beyond the limit")

// decodePDFStream applies a stream's filters (FlateDecode with PNG or TIFF
// predictors, ASCII85Decode, ASCIIHexDecode) to raw, reading at most limit
// bytes of output.
func decodePDFStream(raw []byte, filter, parms pdfObj, limit int64) ([]byte, error) {
	var filters, params []pdfObj
	switch filter.kind {
	case oNull:
	case oName:
		filters, params = []pdfObj{filter}, []pdfObj{parms}
	case oArray:
		filters = filter.arr
		params = parms.arr
	default:
		return nil, errors.New("bad /Filter")
	}
	var r io.Reader = bytes.NewReader(raw)
	for i, f := range filters {
		var parm pdfObj
		if i < len(params) {
			parm = params[i]
		}
		switch f.s {
		case "FlateDecode", "Fl":
			zr, err := zlib.NewReader(r)
			switch {
			case err == nil:
				r = zr
			case i == 0:
				r = flate.NewReader(bytes.NewReader(raw)) // no zlib header
			default:
				return nil, err
			}
			if pred, ok := parm.dict["Predictor"].int(); ok && pred >= 2 {
				cols, ok := parm.dict["Columns"].int()
				if !ok {
					cols = 1
				}
				if cols < 1 || cols > 1<<16 {
					return nil, errors.New("bad /Columns")
				}
				r = &predictor{r: r, png: pred >= 10, cols: int(cols)}
			}
		case "ASCII85Decode", "A85":
			r = ascii85.NewDecoder(&a85Filter{r: r})
		case "ASCIIHexDecode", "AHx":
			r = &hexFilter{lx: newLexer(r)}
		default:
			return nil, fmt.Errorf("unsupported filter %s", f.s)
		}
	}
	out, err := io.ReadAll(io.LimitReader(r, limit+1))
	if int64(len(out)) > limit {
		return nil, errObjTooBig
	}
	if err != nil && len(out) == 0 {
		return nil, err
	}
	return out, nil // a truncated stream keeps what inflated
}

// hexFilter decodes ASCIIHexDecode data.
type hexFilter struct {
	lx   *lexer
	done bool
}

func (h *hexFilter) Read(p []byte) (int, error) {
	if h.done {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) {
		var v [2]int
		i := 0
		for i < 2 {
			c, ok := h.lx.readByte()
			if !ok || c == '>' {
				h.done = true
				break
			}
			if d := unhex(c); d >= 0 {
				v[i] = d
				i++
			}
		}
		if i == 0 {
			break
		}
		p[n] = byte(v[0]<<4 | v[1])
		n++
		if h.done {
			break
		}
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// a85Filter passes ASCII85 data up to its "~>" end marker.
type a85Filter struct {
	r    io.Reader
	done bool
	b    [1]byte
}

func (a *a85Filter) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && !a.done {
		if _, err := io.ReadFull(a.r, a.b[:]); err != nil {
			a.done = true
			break
		}
		if a.b[0] == '~' {
			a.done = true
			break
		}
		p[n] = a.b[0]
		n++
	}
	if n == 0 && a.done {
		return 0, io.EOF
	}
	return n, nil
}

// predictor undoes PNG (one filter-type byte per row) or TIFF predictor 2
// prediction for 8-bit, one-component rows of cols bytes.
type predictor struct {
	r    io.Reader
	png  bool
	cols int
	prev []byte
	cur  []byte
	pend []byte
}

func (p *predictor) Read(b []byte) (int, error) {
	if len(p.pend) == 0 {
		if p.prev == nil {
			p.prev = make([]byte, p.cols)
			p.cur = make([]byte, p.cols+1)
		}
		row := p.cur
		if !p.png {
			row = p.cur[1:]
		}
		if _, err := io.ReadFull(p.r, row); err != nil {
			return 0, err
		}
		line := p.cur[1:]
		if p.png {
			for i := range line {
				var left, upLeft byte
				if i > 0 {
					left, upLeft = line[i-1], p.prev[i-1]
				}
				up := p.prev[i]
				switch p.cur[0] {
				case 1:
					line[i] += left
				case 2:
					line[i] += up
				case 3:
					line[i] += byte((int(left) + int(up)) / 2)
				case 4:
					line[i] += paeth(left, up, upLeft)
				}
			}
		} else {
			for i := 1; i < len(line); i++ {
				line[i] += line[i-1]
			}
		}
		copy(p.prev, line)
		p.pend = p.prev
	}
	n := copy(b, p.pend)
	p.pend = p.pend[n:]
	return n, nil
}

func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// objStm is an inflated object stream.
type objStm struct {
	data    []byte
	first   int
	offsets map[uint32]int // object number → offset after First (first listed wins)
	extends objRef
	hasExt  bool
}

// objStmHeader reads an object stream's dictionary (at its row) and
// checks /N, /First and /Extends without inflating it.
func (t *xrefTable) objStmHeader(num uint32) (map[string]pdfObj, int64, error) {
	r := t.row(num)
	if r.typ != rowInFile || r.off < 0 || r.off >= int64(len(t.data)) {
		return nil, 0, fmt.Errorf("object stream %d is not an object of the file", num)
	}
	p := &parser{lx: newBytesLexer(t.data[r.off:])}
	dict, start, err := streamAt(p, r.off)
	if err != nil || dict["Type"].s != "ObjStm" {
		return nil, 0, fmt.Errorf("object %d is not an object stream", num)
	}
	n, ok := dict["N"].int()
	if !ok || n < 0 || n > maxObjStmObjects {
		return nil, 0, fmt.Errorf("%w: object stream %d declares %d objects", ErrTooComplex, num, n)
	}
	return dict, start, nil
}

// loadObjStm inflates object stream num, charging budget.
func (t *xrefTable) loadObjStm(num uint32, budget *int64) (*objStm, error) {
	dict, start, err := t.objStmHeader(num)
	if err != nil {
		return nil, err
	}
	data, err := t.streamData(dict, start, min(maxObjStmBytes, *budget))
	if errors.Is(err, errObjTooBig) {
		return nil, fmt.Errorf("%w: object streams inflate beyond %d MiB", ErrTooComplex, min(maxObjStmBytes, *budget)>>20)
	}
	if err != nil {
		return nil, fmt.Errorf("object stream %d: %v", num, err)
	}
	*budget -= int64(len(data))
	first, _ := dict["First"].int()
	n, _ := dict["N"].int()
	if first < 0 || first > int64(len(data)) {
		return nil, fmt.Errorf("object stream %d: bad /First", num)
	}
	s := &objStm{data: data, first: int(first), offsets: make(map[uint32]int, n)}
	hp := &parser{lx: newBytesLexer(data[:first])}
	for i := int64(0); i < n; i++ {
		id, off := hp.lx.next(), hp.lx.next()
		if id.kind != tNum || off.kind != tNum {
			break
		}
		if _, dup := s.offsets[uint32(id.num)]; !dup && off.num >= 0 && int(first)+int(off.num) < len(data) {
			s.offsets[uint32(id.num)] = int(off.num)
		}
	}
	if e := dict["Extends"]; e.kind == oRef {
		s.extends, s.hasExt = e.ref, true
	}
	return s, nil
}

// expandObjStms appends every object stored in an object stream to out as
// a plain object and turns its row into an in-file row. Objects that
// cannot be found are dropped (their references read as null). One object
// stream is inflated at a time, each once, within a budget for them all.
func (t *xrefTable) expandObjStms(ctx context.Context, out []byte) ([]byte, error) {
	budget := max(int64(minObjStmBudget), objStmFactor*int64(len(t.data)))
	byStream := map[uint32][]int{}
	for id, r := range t.rows {
		if r.typ == rowInStream {
			byStream[uint32(r.off)] = append(byStream[uint32(r.off)], id)
			t.rows[id] = xrefRow{typ: rowFree} // until found below
		}
	}
	containers := make([]uint32, 0, len(byStream))
	for num := range byStream {
		containers = append(containers, num)
	}
	sort.Slice(containers, func(i, j int) bool { return containers[i] < containers[j] })
	moved := map[int]int64{} // object number → offset of its copy in out
	for _, num := range containers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, err := t.loadObjStm(num, &budget)
		if errors.Is(err, ErrTooComplex) {
			return nil, err
		}
		if err != nil {
			continue // its objects read as null
		}
		for _, id := range byStream[num] {
			// Look the object up as the library does: in the stream the
			// row names, then along /Extends, each stream once.
			cur, seen := s, map[uint32]bool{num: true}
			off, ok := cur.offsets[uint32(id)]
			for hop := 0; !ok && cur.hasExt && hop < maxExtendsHops && !seen[cur.extends.id]; hop++ {
				seen[cur.extends.id] = true
				if cur, err = t.loadObjStm(cur.extends.id, &budget); err != nil {
					if errors.Is(err, ErrTooComplex) {
						return nil, err
					}
					break
				}
				off, ok = cur.offsets[uint32(id)]
			}
			if !ok {
				continue
			}
			p := &parser{lx: newBytesLexer(cur.data[cur.first+off:])}
			obj, err := p.object(0)
			if err != nil {
				continue
			}
			moved[id] = int64(len(out))
			out = strconv.AppendInt(out, int64(id), 10)
			out = append(out, " 0 obj\n"...)
			out = obj.appendPDF(out)
			out = append(out, "\nendobj\n"...)
		}
	}
	for id, off := range moved {
		t.rows[id] = xrefRow{typ: rowInFile, off: off}
	}
	return out, nil
}

// checkObjStms checks the object streams of an encrypted file, which stay
// in place: an object stream that is not a plain object of the file (the
// library would recurse without end looking it up) loses its objects; a
// /N beyond the limit or an /Extends chain that loops refuses the file.
func (t *xrefTable) checkObjStms() error {
	valid := map[uint32]bool{}
	for id, r := range t.rows {
		if r.typ != rowInStream {
			continue
		}
		num := uint32(r.off)
		ok, checked := valid[num]
		if !checked {
			var err error
			if ok, err = t.objStmChain(num); err != nil {
				return err
			}
			valid[num] = ok
		}
		if !ok {
			t.rows[id] = xrefRow{typ: rowFree}
		}
	}
	return nil
}

// objStmChain checks object stream num and its /Extends chain.
func (t *xrefTable) objStmChain(num uint32) (bool, error) {
	seen := map[uint32]bool{}
	for hop := 0; ; hop++ {
		if seen[num] || hop > maxExtendsHops {
			return false, fmt.Errorf("%w: object stream /Extends chain loops", ErrTooComplex)
		}
		seen[num] = true
		dict, _, err := t.objStmHeader(num)
		if errors.Is(err, ErrTooComplex) {
			return false, err
		}
		if err != nil && t.row(num).typ == rowInStream {
			// Looking it up would recurse without end in the library.
			return false, fmt.Errorf("%w: object stream %d is stored in an object stream", ErrTooComplex, num)
		}
		if err != nil {
			return hop > 0, nil // a broken link ends the chain; a broken stream loses its objects
		}
		e := dict["Extends"]
		if e.kind != oRef {
			return true, nil
		}
		num = e.ref.id
	}
}

// appendXrefStream appends the merged table as a cross-reference stream
// (rows of /W [1 8 2], unfiltered) with the trailer keys the library uses,
// and no /Prev.
func (t *xrefTable) appendXrefStream(out []byte) []byte {
	self := max(len(t.rows), 1) // the stream's own number: after every row
	at := len(out)
	var body bytes.Buffer
	body.Grow((self + 1) * 11)
	var row [11]byte
	for id := 0; id <= self; id++ {
		var r xrefRow
		switch {
		case id == self:
			r = xrefRow{typ: rowInFile, off: int64(at)}
		case id < len(t.rows):
			r = t.rows[id]
		}
		clear(row[:])
		switch r.typ {
		case rowInFile:
			row[0] = 1
		case rowInStream:
			row[0] = 2
		default:
			if id == 0 {
				binary.BigEndian.PutUint16(row[9:], 65535)
			}
		}
		if r.typ == rowInFile || r.typ == rowInStream {
			binary.BigEndian.PutUint64(row[1:9], uint64(r.off))
			binary.BigEndian.PutUint16(row[9:], r.gen)
		}
		body.Write(row[:])
	}
	out = strconv.AppendInt(out, int64(self), 10)
	out = append(out, " 0 obj\n<< /Type /XRef /Size "...)
	out = strconv.AppendInt(out, int64(self+1), 10)
	out = append(out, " /W [1 8 2]"...)
	keys := []string{"Root", "Info", "Encrypt", "ID"}
	for _, k := range keys {
		if v, ok := t.trailer[k]; ok {
			out = append(out, " /"...)
			out = append(out, k...)
			out = append(out, ' ')
			out = v.appendPDF(out)
		}
	}
	out = append(out, " /Length "...)
	out = strconv.AppendInt(out, int64(body.Len()), 10)
	out = append(out, " >>\nstream\n"...)
	out = append(out, body.Bytes()...)
	out = append(out, "\nendstream\nendobj\nstartxref\n"...)
	out = strconv.AppendInt(out, int64(at), 10)
	return append(out, "\n%%EOF\n"...)
}

// appendPDF writes o in PDF syntax: strings as hex, names escaped.
func (o pdfObj) appendPDF(b []byte) []byte {
	switch o.kind {
	case oNull:
		return append(b, "null"...)
	case oNum:
		if o.isInt {
			return strconv.AppendInt(b, int64(o.num), 10)
		}
		return strconv.AppendFloat(b, o.num, 'f', -1, 64)
	case oName:
		b = append(b, '/')
		for i := 0; i < len(o.s); i++ {
			c := o.s[i]
			if c < '!' || c > '~' || c == '#' || isPDFDelim(c) {
				b = append(b, '#', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
			} else {
				b = append(b, c)
			}
		}
		return b
	case oStr:
		b = append(b, '<')
		for i := 0; i < len(o.s); i++ {
			b = append(b, "0123456789ABCDEF"[o.s[i]>>4], "0123456789ABCDEF"[o.s[i]&15])
		}
		return append(b, '>')
	case oKeyword:
		return append(b, o.s...)
	case oRef:
		b = strconv.AppendUint(b, uint64(o.ref.id), 10)
		b = append(b, ' ')
		b = strconv.AppendUint(b, uint64(o.ref.gen), 10)
		return append(b, " R"...)
	case oArray:
		b = append(b, '[')
		for i, v := range o.arr {
			if i > 0 {
				b = append(b, ' ')
			}
			b = v.appendPDF(b)
		}
		return append(b, ']')
	case oDict:
		keys := make([]string, 0, len(o.dict))
		for k := range o.dict {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, "<<"...)
		for _, k := range keys {
			b = pdfObj{kind: oName, s: k}.appendPDF(append(b, ' '))
			b = o.dict[k].appendPDF(append(b, ' '))
		}
		return append(b, " >>"...)
	}
	return b
}
