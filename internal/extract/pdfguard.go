package extract

import (
	"context"
	"errors"
	"io"
	"reflect"

	"github.com/ledongthuc/pdf"
)

// Limits on the work one PDF may cost, whatever its structure: they are
// shared by all its pages, Form XObjects and fonts, so that a content
// stream drawn by 10,000 pages or a form drawing itself cannot multiply
// the work beyond them.
var pdfLimits = struct {
	// work counts operators, glyphs, form calls and CMap entries.
	work int64
	// content counts inflated content-stream and CMap bytes.
	content int64
	// streams counts the streams opened (content streams, forms drawn,
	// CMaps): each costs a decompressor and object lookups.
	streams int
}{work: 50_000_000, content: 128 << 20, streams: 8192} // a variable only so that the race build of the tests can scale it down

const (
	// minPDFReadBytes and pdfReadFactor bound what the PDF library reads
	// from the file (every object lookup parses the object again; real
	// documents read about twice their size): max(min, factor × file
	// size).
	minPDFReadBytes = 128 << 20
	pdfReadFactor   = 16
	// maxPageTreeNodes bounds the page-tree nodes visited.
	maxPageTreeNodes = 4*maxPDFPages + 1024
)

// errPDFBudget is panicked when a limit of pdfBudget runs out; the page
// loop recovers it and keeps the text so far.
var errPDFBudget = errors.New("PDF work limit reached")

// pdfBudget is what remains of the limits for one document.
type pdfBudget struct {
	ctx     context.Context
	work    int64
	content int64
	streams int
	text    *textBudget
	ticks   int
	// exhausted names the limit that ran out first ("" while none did).
	exhausted string
}

func newPDFBudget(ctx context.Context, text *textBudget) *pdfBudget {
	return &pdfBudget{ctx: ctx, work: pdfLimits.work, content: pdfLimits.content, streams: pdfLimits.streams, text: text}
}

// open counts one stream opened.
func (b *pdfBudget) open() {
	if b.streams--; b.streams < 0 {
		b.stop("stream count")
	}
}

// stop records that limit what ran out and unwinds to the page loop.
func (b *pdfBudget) stop(what string) {
	if b.exhausted == "" {
		b.exhausted = what
	}
	panic(errPDFBudget)
}

// charge spends units of work; it checks the context every few thousand
// units and unwinds (panics with ctx.Err()) once it is done.
func (b *pdfBudget) charge(units int64) {
	b.work -= units
	if b.work < 0 {
		b.stop("work")
	}
	if b.ticks++; b.ticks&1023 == 0 {
		if err := b.ctx.Err(); err != nil {
			panic(err)
		}
	}
}

// chargeBytes spends inflated content bytes.
func (b *pdfBudget) chargeBytes(n int64) {
	b.content -= n
	if b.content < 0 {
		b.stop("content size")
	}
}

// budgetReader charges what is read from a stream to the content budget
// and checks the context on every read.
type budgetReader struct {
	r io.Reader
	b *pdfBudget
}

func (r budgetReader) Read(p []byte) (int, error) {
	if err := r.b.ctx.Err(); err != nil {
		panic(err)
	}
	if r.b.content <= 0 {
		r.b.stop("content size")
	}
	n, err := r.r.Read(p[:min(int64(len(p)), r.b.content)])
	r.b.chargeBytes(int64(n))
	return n, err
}

var errPDFReadBudget = errors.New("PDF read limit reached")

// pdfSource is the io.ReaderAt the PDF library reads the file through. The
// library has no context and no bound on how often it re-reads objects
// (it caches nothing); every one of its loops reads, so failing reads once
// the context is done or the read budget is spent ends any of them: the
// library panics on the error, and the page loop recovers.
type pdfSource struct {
	data  []byte
	ctx   context.Context
	left  int64
	limit int64
	// over is set once the read budget is spent.
	over bool
}

func newPDFSource(ctx context.Context, data []byte) *pdfSource {
	limit := max(minPDFReadBytes, pdfReadFactor*int64(len(data)))
	return &pdfSource{data: data, ctx: ctx, left: limit, limit: limit}
}

func (s *pdfSource) ReadAt(p []byte, off int64) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	s.left -= int64(len(p)) + 64 // a small read still costs a call
	if s.left < 0 {
		s.over = true
		return 0, errPDFReadBudget
	}
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= int64(len(s.data)) {
		return 0, io.EOF
	}
	n := copy(p, s.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Object identity. pdf.Value hides whether a dictionary entry or array
// element is an indirect reference, and to which object; cycle detection
// (a page tree or a Form XObject that contains itself) needs exactly that.
// These helpers read it from the library's unexported fields by reflection
// (reading only). Should a new library version rename them, they report
// "not a reference", the cycle checks see no identity, and the depth and
// work limits still bound the walk; TestPDFObjectIdentity fails loudly.

// dictRef reports the indirect reference stored under key in dictionary
// (or stream) v.
func dictRef(v pdf.Value, key string) (objRef, bool) {
	d := valueData(v)
	if d.Kind() == reflect.Struct { // a stream: its header dictionary
		d = d.FieldByName("hdr")
	}
	if d.Kind() != reflect.Map {
		return objRef{}, false
	}
	k := reflect.ValueOf(key)
	if !k.Type().ConvertibleTo(d.Type().Key()) {
		return objRef{}, false
	}
	return refOf(d.MapIndex(k.Convert(d.Type().Key())))
}

// arrayRef reports the indirect reference stored at index i of array v.
func arrayRef(v pdf.Value, i int) (objRef, bool) {
	d := valueData(v)
	if d.Kind() != reflect.Slice || i < 0 || i >= d.Len() {
		return objRef{}, false
	}
	return refOf(d.Index(i))
}

func valueData(v pdf.Value) reflect.Value {
	f := reflect.ValueOf(v).FieldByName("data")
	if f.Kind() != reflect.Interface || f.IsNil() {
		return reflect.Value{}
	}
	return f.Elem()
}

func refOf(e reflect.Value) (objRef, bool) {
	if e.Kind() == reflect.Interface {
		if e.IsNil() {
			return objRef{}, false
		}
		e = e.Elem()
	}
	if e.Kind() != reflect.Struct || e.Type().Name() != "objptr" {
		return objRef{}, false
	}
	id, gen := e.FieldByName("id"), e.FieldByName("gen")
	if !id.CanUint() || !gen.CanUint() {
		return objRef{}, false
	}
	return objRef{uint32(id.Uint()), uint16(gen.Uint())}, true
}
