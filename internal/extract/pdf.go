package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/ledongthuc/pdf"
)

// maxPDFPages bounds the pages read from one PDF.
const maxPDFPages = 5000

// extractPDF returns the text of each page of a PDF, numbered from 1.
//
// Parsing (object model, filters, encryption with an empty password) is
// github.com/ledongthuc/pdf; text decoding and layout are ours (pdftext.go,
// pdffont.go) because the library's own text functions drop word spaces of
// TeX output and cannot decode CID fonts without a ToUnicode map (Japanese
// PDFs from dvipdfmx, predefined JIS CMaps).
func extractPDF(ctx context.Context, data []byte) (Doc, error) {
	data, err := preparePDF(data)
	if err != nil {
		return Doc{}, err
	}
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if errors.Is(err, pdf.ErrInvalidPassword) {
			return Doc{}, fmt.Errorf("%w: password-protected PDF", ErrUnsupported)
		}
		// A broken or missing cross-reference table: rebuild it from the
		// objects in the file and try once more.
		fixed, ferr := rebuildXref(data)
		if ferr != nil {
			return Doc{}, fmt.Errorf("%w: PDF: %v", ErrMalformed, err)
		}
		r, err = pdf.NewReader(bytes.NewReader(fixed), int64(len(fixed)))
		if err != nil {
			if errors.Is(err, pdf.ErrInvalidPassword) {
				return Doc{}, fmt.Errorf("%w: password-protected PDF", ErrUnsupported)
			}
			return Doc{}, fmt.Errorf("%w: PDF: %v", ErrMalformed, err)
		}
	}
	pages := pdfPages(r.Trailer().Key("Root").Key("Pages"))
	if len(pages) == 0 {
		return Doc{}, fmt.Errorf("%w: PDF has no pages", ErrMalformed)
	}
	doc := Doc{Pages: make([]Page, 0, len(pages))}
	for i, pg := range pages {
		if err := ctx.Err(); err != nil {
			return Doc{}, err
		}
		pt := &pageText{ctx: ctx}
		res := inherited(pg, "Resources")
		if err := safely(func() { pt.run(pg.Key("Contents"), res, identity, 0) }); err != nil {
			if ctx.Err() != nil {
				return Doc{}, ctx.Err()
			}
			// One unreadable page (an unsupported filter, a damaged stream)
			// leaves the others; keep what the page yielded before.
		}
		doc.Pages = append(doc.Pages, Page{Number: i + 1, Text: layout(pt.glyphs)})
	}
	return doc, nil
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
		if err != nil || n > 1<<22 {
			continue
		}
		offs[n] = m[2]
		maxObj = max(maxObj, n)
	}
	if len(offs) == 0 {
		return nil, errors.New("no objects")
	}
	// Find the catalog: the last object starting before a /Type /Catalog.
	for _, c := range catalogRe().FindAllIndex(data, -1) {
		best, bestOff := -1, -1
		for n, off := range offs {
			if off < c[0] && off > bestOff {
				best, bestOff = n, off
			}
		}
		if best >= 0 {
			catalog = best
		}
	}
	var trailer []byte
	if ms := trailerRe().FindAllSubmatch(data, -1); len(ms) > 0 {
		trailer = ms[len(ms)-1][1]
	}
	trailer = sizeRe().ReplaceAll(trailer, []byte(fmt.Sprintf("/Size %d", maxObj+1)))
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
	for _, m := range lengthRe().FindAllSubmatchIndex(data, -1) {
		declared, err := strconv.Atoi(string(data[m[2]:m[3]]))
		start := m[1] // first byte of stream data
		if err != nil {
			continue
		}
		end := bytes.Index(data[start:], []byte("endstream"))
		if end < 0 {
			continue
		}
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

// pdfPages lists the leaf pages of a page tree in order, ignoring cycles
// and stopping at maxPDFPages.
func pdfPages(root pdf.Value) []pdf.Value {
	var out []pdf.Value
	var walk func(v pdf.Value, depth int)
	walk = func(v pdf.Value, depth int) {
		if len(out) >= maxPDFPages || depth > 64 || v.Kind() != pdf.Dict {
			return
		}
		kids := v.Key("Kids")
		if kids.Kind() != pdf.Array {
			if v.Key("Type").Name() == "Page" || v.Key("Contents").Kind() != pdf.Null {
				out = append(out, v)
			}
			return
		}
		for i := 0; i < kids.Len() && len(out) < maxPDFPages; i++ {
			walk(kids.Index(i), depth+1)
		}
	}
	walk(root, 0)
	return out
}

// inherited looks key up on the page and its ancestors (Resources,
// MediaBox... are inheritable), at most 64 levels.
func inherited(v pdf.Value, key string) pdf.Value {
	for i := 0; i < 64 && !v.IsNull(); i++ {
		if x := v.Key(key); !x.IsNull() {
			return x
		}
		v = v.Key("Parent")
	}
	return pdf.Value{}
}
