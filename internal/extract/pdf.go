package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/ledongthuc/pdf"
)

// maxPDFPages bounds the pages read from one PDF.
const maxPDFPages = 5000

// extractPDF returns the text of each page of a PDF, numbered from 1.
//
// Parsing (object model, filters, encryption with an empty password) is
// github.com/ledongthuc/pdf, behind gds's own cross-reference pre-pass
// (pdfxref.go: the library would loop or blow up on hostile tables) and
// an io.ReaderAt that ends the library's loops when the context is done or
// its reads exceed a budget (pdfguard.go). Content streams, text decoding
// and layout are gds's own (pdftext.go, pdffont.go): the library's text
// functions drop word spaces of TeX output and cannot decode CID fonts
// without a ToUnicode map (Japanese PDFs from dvipdfmx, predefined JIS
// CMaps), and its interpreter has no bound on operands or nested forms.
//
// The limits of pdfBudget cover the whole document; when one runs out,
// the pages read so far are returned with Truncated set (ErrTooComplex
// when none had text).
func extractPDF(ctx context.Context, data []byte) (Doc, error) {
	data, err := preparePDF(data)
	if err != nil {
		return Doc{}, err
	}
	r, src, err := openPDF(ctx, data)
	if err != nil {
		return Doc{}, err
	}
	budget := newPDFBudget(ctx, newTextBudget())
	var pages []pdf.Value
	if err := safely(func() { pages = pdfPages(r.Trailer().Key("Root")) }); err != nil {
		if ctx.Err() != nil {
			return Doc{}, ctx.Err()
		}
		if src.over {
			return Doc{}, fmt.Errorf("%w: PDF page tree: more than %d MiB of reads", ErrTooComplex, src.limit>>20)
		}
		return Doc{}, fmt.Errorf("%w: PDF page tree: %v", ErrMalformed, err)
	}
	if len(pages) == 0 {
		return Doc{}, fmt.Errorf("%w: PDF has no pages", ErrMalformed)
	}
	pd := newPDFDoc(budget, src)
	doc := Doc{Pages: make([]Page, 0, len(pages))}
	hasText := false
	for i, pg := range pages {
		if err := ctx.Err(); err != nil {
			return Doc{}, err
		}
		pt := newPageText(pd)
		pt.box = newPageBox(pd.boxOf(pg, "MediaBox"))
		err := safely(func() { pt.run(pg.Key("Contents"), pd.inherited(pg, "Resources"), identity, 0) })
		if ctx.Err() != nil {
			return Doc{}, ctx.Err()
		}
		// A page that breaks (an unsupported filter, a damaged stream)
		// keeps what it yielded and leaves the others.
		text := pt.text()
		hasText = hasText || text != ""
		doc.Pages = append(doc.Pages, Page{Number: i + 1, Text: text})
		if err == nil {
			continue
		}
		limit := budget.exhausted
		if src.over {
			limit = "reads"
		}
		if limit == "" {
			continue
		}
		if !hasText {
			return Doc{}, fmt.Errorf("%w: PDF exceeds the %s limit", ErrTooComplex, limit)
		}
		doc.Truncated = true
		break
	}
	dehyphenatePages(doc.Pages)
	return doc, nil
}

// openPDF hands the library a normalized file (one fresh cross-reference
// stream, object streams expanded); when the file's own sections cannot be
// read, a table rebuilt by scanning for objects.
func openPDF(ctx context.Context, data []byte) (*pdf.Reader, *pdfSource, error) {
	norm, err := normalizePDF(ctx, data)
	if err != nil && !errors.Is(err, errXref) {
		return nil, nil, err // beyond a limit, or the context is done
	}
	var firstErr error
	if err == nil {
		src := newPDFSource(ctx, norm)
		r, err := pdf.NewReader(src, int64(len(norm)))
		if err == nil {
			return r, src, nil
		}
		if errors.Is(err, pdf.ErrInvalidPassword) {
			return nil, nil, fmt.Errorf("%w: password-protected PDF", ErrUnsupported)
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		firstErr = err
	}
	// A broken or missing cross-reference table: rebuild it from the
	// objects in the file.
	fixed, ferr := rebuildXref(data)
	if ferr != nil {
		if firstErr == nil {
			firstErr = err
		}
		return nil, nil, fmt.Errorf("%w: PDF: %v", ErrMalformed, firstErr)
	}
	src := newPDFSource(ctx, fixed)
	r, err := pdf.NewReader(src, int64(len(fixed)))
	if err != nil {
		if errors.Is(err, pdf.ErrInvalidPassword) {
			return nil, nil, fmt.Errorf("%w: password-protected PDF", ErrUnsupported)
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, fmt.Errorf("%w: PDF: %v", ErrMalformed, err)
	}
	return r, src, nil
}

// preparePDF checks the header and the end of the file and adapts what
// the parser is strict about (a PDF 2.0 header, bytes after %%EOF).
func preparePDF(data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: empty file", ErrMalformed)
	}
	head := data[:min(len(data), 1024)]
	i := bytes.Index(head, []byte("%PDF-"))
	if i < 0 || len(data) < i+9 {
		return nil, fmt.Errorf("%w: not a PDF: no %%PDF header", ErrMalformed)
	}
	tail := data[max(0, len(data)-2048):]
	hasEOF := bytes.Contains(tail, []byte("%%EOF"))
	hasXref := bytes.Contains(data, []byte("startxref")) || bytes.Contains(data, []byte("trailer"))
	if !hasEOF && !hasXref {
		return nil, fmt.Errorf("%w: truncated PDF: no cross-reference table or trailer", ErrMalformed)
	}
	if !hasEOF {
		return nil, fmt.Errorf("%w: truncated PDF: no %%%%EOF marker", ErrMalformed)
	}
	if e := bytes.LastIndex(data, []byte("%%EOF")); e >= 0 {
		data = data[:e+5]
	}
	if i > 0 {
		// Junk before the header: offsets will not match, and the
		// cross-reference table gets rebuilt.
		data = data[i:]
	}
	if data[5] != '1' || data[6] != '.' || data[7] < '0' || data[7] > '7' || data[8] != '\n' && data[8] != '\r' {
		// The parser accepts only "%PDF-1.[0-7]" + end of line; PDF 2.0 and
		// headers followed by a comment on the same line are fine for us.
		fixed := append([]byte(nil), data...)
		copy(fixed, "%PDF-1.7\n")
		data = fixed
	}
	return data, nil
}

var objRe = lazyRegexp(`(?:^|[\r\n\s])(\d{1,10})\s+(\d{1,5})\s+obj\b`)
var trailerRe = lazyRegexp(`trailer\s*(<<(?s:.*?)>>)\s*(?:startxref|%%EOF)`)
var sizeRe = lazyRegexp(`/Size\s+\d+`)
var lengthRe = lazyRegexp(`/Length\s+(\d+)(\s*(?:/[^>]*)?>>\s*stream(?:\r\n|\n|\r))`)
var catalogRe = lazyRegexp(`/Type\s*/Catalog\b`)
var prevRe = lazyRegexp(`/(?:Prev|XRefStm)\s+\d+`)

// rebuildXref appends a fresh cross-reference table and trailer built by
// scanning the file for "N G obj" (later definitions win, as with
// incremental updates). It fails when no object or no catalog is found.
func rebuildXref(data []byte) ([]byte, error) {
	data = fixStreamLengths(data)
	offs := map[int]int{}
	maxObj := 0
	catalog := -1
	for _, m := range objRe().FindAllSubmatchIndex(data, -1) {
		n, err := strconv.Atoi(string(data[m[2]:m[3]]))
		if err != nil || n >= maxPDFObjects(len(data)) {
			continue
		}
		offs[n] = m[2]
		maxObj = max(maxObj, n)
	}
	if len(offs) == 0 {
		return nil, errors.New("no objects")
	}
	// Find the catalog: the object starting last before the last
	// /Type /Catalog that follows an object.
	type objAt struct{ off, n int }
	byOff := make([]objAt, 0, len(offs))
	for n, off := range offs {
		byOff = append(byOff, objAt{off, n})
	}
	sort.Slice(byOff, func(i, j int) bool { return byOff[i].off < byOff[j].off })
	cats := catalogRe().FindAllIndex(data, -1)
	for i := len(cats) - 1; i >= 0 && catalog < 0; i-- {
		if j := sort.Search(len(byOff), func(k int) bool { return byOff[k].off >= cats[i][0] }) - 1; j >= 0 {
			catalog = byOff[j].n
		}
	}
	var trailer []byte
	if ms := trailerRe().FindAllSubmatch(data, -1); len(ms) > 0 {
		trailer = ms[len(ms)-1][1]
	}
	trailer = sizeRe().ReplaceAll(trailer, []byte(fmt.Sprintf("/Size %d", maxObj+1)))
	// The old chain is what broke: the rebuilt table must be the only one.
	trailer = prevRe().ReplaceAll(trailer, nil)
	if !bytes.Contains(trailer, []byte("/Root")) {
		if catalog < 0 {
			return nil, errors.New("no catalog")
		}
		trailer = []byte(fmt.Sprintf("<< /Size %d /Root %d 0 R >>", maxObj+1, catalog))
	}
	var b bytes.Buffer
	b.Grow(len(data) + 20*(maxObj+1) + 256)
	b.Write(data)
	b.WriteString("\n")
	start := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n", maxObj+1)
	for n := 0; n <= maxObj; n++ {
		if off, ok := offs[n]; ok {
			fmt.Fprintf(&b, "%010d 00000 n\r\n", off)
		} else {
			b.WriteString("0000000000 65535 f\r\n")
		}
	}
	fmt.Fprintf(&b, "trailer\n%s\nstartxref\n%d\n%%%%EOF\n", trailer, start)
	return b.Bytes(), nil
}

// fixStreamLengths rewrites direct /Length values that do not match the
// distance to "endstream" (hand-written or damaged files). Offsets change,
// so it is only used before rebuilding the cross-reference table.
func fixStreamLengths(data []byte) []byte {
	var out []byte
	last := 0
	var ends []int // every "endstream", found once (not once per stream)
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("endstream"))
		if j < 0 {
			break
		}
		ends = append(ends, i+j)
		i += j + len("endstream")
	}
	for _, m := range lengthRe().FindAllSubmatchIndex(data, -1) {
		declared, err := strconv.Atoi(string(data[m[2]:m[3]]))
		start := m[1] // first byte of stream data
		if err != nil {
			continue
		}
		k := sort.SearchInts(ends, start)
		if k == len(ends) {
			continue
		}
		end := ends[k] - start
		actual := end
		for actual > 0 && (data[start+actual-1] == '\n' || data[start+actual-1] == '\r') {
			actual--
		}
		if declared == actual || declared == end {
			continue
		}
		out = append(out, data[last:m[2]]...)
		out = append(out, strconv.Itoa(actual)...)
		last = m[3]
	}
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}

// pdfPages lists the leaf pages of the page tree under the catalog, in
// order: each node is visited once (a node listed twice, or a cycle, is
// skipped), at most maxPageTreeNodes nodes and maxPDFPages pages.
func pdfPages(catalog pdf.Value) []pdf.Value {
	var out []pdf.Value
	visited := map[objRef]bool{}
	if ref, ok := dictRef(catalog, "Pages"); ok {
		visited[ref] = true
	}
	nodes := 0
	var walk func(v pdf.Value, depth int)
	walk = func(v pdf.Value, depth int) {
		if len(out) >= maxPDFPages || depth > 64 || nodes >= maxPageTreeNodes || v.Kind() != pdf.Dict {
			return
		}
		nodes++
		kids := v.Key("Kids")
		if kids.Kind() != pdf.Array {
			if v.Key("Type").Name() == "Page" || v.Key("Contents").Kind() != pdf.Null {
				out = append(out, v)
			}
			return
		}
		for i := 0; i < kids.Len() && len(out) < maxPDFPages && nodes < maxPageTreeNodes; i++ {
			if ref, ok := arrayRef(kids, i); ok {
				if visited[ref] {
					continue
				}
				visited[ref] = true
			}
			walk(kids.Index(i), depth+1)
		}
	}
	walk(catalog.Key("Pages"), 0)
	return out
}

// boxOf returns the page's rectangle key (inherited), nil when it is not
// an array of four numbers.
func (d *pdfDoc) boxOf(pg pdf.Value, key string) []float64 {
	v := d.inherited(pg, key)
	if v.Kind() != pdf.Array || v.Len() != 4 {
		return nil
	}
	r := make([]float64, 4)
	for i := range r {
		x := v.Index(i)
		if k := x.Kind(); k != pdf.Integer && k != pdf.Real {
			return nil
		}
		r[i] = x.Float64()
	}
	return r
}

// inherited looks key up on the page and its ancestors (Resources,
// MediaBox... are inheritable), at most 64 levels. Ancestors and the
// values found are taken from the document's cache of shared objects: a
// page tree node or resource dictionary read for one page is not parsed
// again for the next.
func (d *pdfDoc) inherited(v pdf.Value, key string) pdf.Value {
	for i := 0; i < 64 && !v.IsNull(); i++ {
		if x := d.shared(v, key); !x.IsNull() {
			return x
		}
		v = d.shared(v, "Parent")
	}
	return pdf.Value{}
}
