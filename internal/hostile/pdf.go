package hostile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
)

// pdfW writes a PDF object by object and remembers where each starts.
type pdfW struct {
	bytes.Buffer
	offs map[int]int
}

func newPDF() *pdfW {
	p := &pdfW{offs: map[int]int{}}
	p.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	return p
}

// obj writes "n 0 obj body endobj".
func (p *pdfW) obj(n int, body string) {
	p.offs[n] = p.Len()
	fmt.Fprintf(p, "%d 0 obj\n%s\nendobj\n", n, body)
}

// stream writes a stream object; dict holds the keys other than /Length.
func (p *pdfW) stream(n int, dict string, data []byte) {
	p.offs[n] = p.Len()
	fmt.Fprintf(p, "%d 0 obj\n<< %s /Length %d >>\nstream\n", n, dict, len(data))
	p.Write(data)
	p.WriteString("\nendstream\nendobj\n")
}

// xrefTable writes a classic cross-reference table for objects 0..size-1
// (those not written are free) and returns its offset.
func (p *pdfW) xrefTable(size int) int {
	at := p.Len()
	fmt.Fprintf(p, "xref\n0 %d\n", size)
	for n := 0; n < size; n++ {
		if off, ok := p.offs[n]; ok && n > 0 {
			fmt.Fprintf(p, "%010d 00000 n\r\n", off)
		} else {
			p.WriteString("0000000000 65535 f\r\n")
		}
	}
	return at
}

// trailer writes the trailer dictionary (its keys), startxref and %%EOF.
func (p *pdfW) trailer(keys string, startxref int) {
	fmt.Fprintf(p, "trailer\n<< %s >>\nstartxref\n%d\n%%%%EOF\n", keys, startxref)
}

// end writes startxref and %%EOF (for files whose cross-reference section
// is a stream).
func (p *pdfW) end(startxref int) {
	fmt.Fprintf(p, "startxref\n%d\n%%%%EOF\n", startxref)
}

// xrefEntry is one row of a cross-reference stream: type 0 (free), 1 (at
// offset f2) or 2 (object number f3... index f3 of object stream f2).
type xrefEntry struct {
	typ    byte
	f2, f3 uint32
}

// xrefStreamData encodes rows with /W [1 4 2], unfiltered.
func xrefStreamData(rows []xrefEntry) []byte {
	var b bytes.Buffer
	for _, r := range rows {
		var f [7]byte
		f[0] = r.typ
		binary.BigEndian.PutUint32(f[1:5], r.f2)
		binary.BigEndian.PutUint16(f[5:7], uint16(r.f3))
		b.Write(f[:])
	}
	return b.Bytes()
}

// pdfText is a content stream that shows s in Helvetica (/F1).
func pdfText(s string) string {
	return "BT /F1 12 Tf 72 700 Td (" + s + ") Tj ET\n"
}

const (
	pdfCatalog = "<< /Type /Catalog /Pages 2 0 R >>"
	pdfFont    = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
	pdfRes     = "<< /Font << /F1 5 0 R >> >>"
)

// pdfPage is a page dictionary with parent 2, content 4 and the given
// resources.
func pdfPage(res string) string {
	return "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources " + res + " >>"
}

// pdfSimple is a one-page PDF showing text, objects 1-5, without its
// cross-reference section.
func pdfSimple(text string) *pdfW {
	p := newPDF()
	p.obj(1, pdfCatalog)
	p.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	p.obj(3, pdfPage(pdfRes))
	p.stream(4, "", []byte(pdfText(text)))
	p.obj(5, pdfFont)
	return p
}

// pdfXrefPrevSelf: a classic table whose trailer's /Prev is the table
// itself (a 605-byte file met in the wild).
func pdfXrefPrevSelf() []byte {
	p := pdfSimple("Prev loop survived")
	x := p.xrefTable(6)
	p.trailer(fmt.Sprintf("/Size 6 /Root 1 0 R /Prev %d", x), x)
	return p.Bytes()
}

// pdfXrefPrevCycle: two tables whose /Prev entries point at each other.
// The offsets are zero-padded so that they can be written before they are
// known.
func pdfXrefPrevCycle() []byte {
	p := pdfSimple("Prev cycle survived")
	a := p.xrefTable(6)
	prevAt := p.Len() + len("trailer\n<< /Size 6 /Root 1 0 R /Prev ")
	p.trailer("/Size 6 /Root 1 0 R /Prev 0000000000", a) // patched below
	b := p.Len()
	p.WriteString("xref\n0 1\n0000000000 65535 f\r\n")
	p.WriteString(fmt.Sprintf("trailer\n<< /Size 6 /Prev %010d >>\n", a))
	p.end(a)
	out := p.Bytes()
	copy(out[prevAt:], fmt.Sprintf("%010d", b))
	return out
}

// pdfXrefStreamPrevSelf: a cross-reference stream whose /Prev is itself.
func pdfXrefStreamPrevSelf() []byte {
	p := pdfSimple("XRef stream Prev loop survived")
	x := p.Len()
	rows := []xrefEntry{{0, 0, 65535}}
	for n := 1; n <= 5; n++ {
		rows = append(rows, xrefEntry{1, uint32(p.offs[n]), 0})
	}
	rows = append(rows, xrefEntry{1, uint32(x), 0})
	p.stream(6, fmt.Sprintf("/Type /XRef /Size 7 /W [1 4 2] /Root 1 0 R /Prev %d", x), xrefStreamData(rows))
	p.end(x)
	return p.Bytes()
}

// pdfXrefHugeSubsection: a classic table with a subsection starting at
// object 4,000,000,000 (a parser that sizes its table by the highest
// object number allocates 128 GB).
func pdfXrefHugeSubsection() []byte {
	p := pdfSimple("huge subsection survived")
	x := p.xrefTable(6)
	p.WriteString("4000000000 1\n0000000009 00000 n\r\n")
	p.trailer("/Size 6 /Root 1 0 R", x)
	return p.Bytes()
}

// pdfXrefStreamHugeSize: a cross-reference stream declaring /Size 2^40.
func pdfXrefStreamHugeSize() []byte {
	p := pdfSimple("huge Size survived")
	x := p.Len()
	rows := []xrefEntry{{0, 0, 65535}}
	for n := 1; n <= 5; n++ {
		rows = append(rows, xrefEntry{1, uint32(p.offs[n]), 0})
	}
	rows = append(rows, xrefEntry{1, uint32(x), 0})
	p.stream(6, "/Type /XRef /Size 1099511627776 /Index [0 7] /W [1 4 2] /Root 1 0 R", xrefStreamData(rows))
	p.end(x)
	return p.Bytes()
}

// pdfFormRecursive: a Form XObject that draws itself 30 times (and some
// text), which a depth limit of 8 turns into 30^8 invocations.
func pdfFormRecursive() []byte {
	p := newPDF()
	p.obj(1, pdfCatalog)
	p.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	p.obj(3, pdfPage("<< /Font << /F1 5 0 R >> /XObject << /X 6 0 R >> >>"))
	p.stream(4, "", []byte("/X Do\n"))
	p.obj(5, pdfFont)
	form := pdfText("recursive form") + strings.Repeat("/X Do\n", 30)
	p.stream(6, "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /X 6 0 R >> >>", []byte(form))
	x := p.xrefTable(7)
	p.trailer("/Size 7 /Root 1 0 R", x)
	return p.Bytes()
}

// pdfFormFanout: eight distinct Form XObjects, each drawing the next 30
// times (no cycle: 30^7 invocations of the last, which shows text).
func pdfFormFanout() []byte {
	const first, levels = 6, 8
	p := newPDF()
	p.obj(1, pdfCatalog)
	p.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	p.obj(3, pdfPage(fmt.Sprintf("<< /Font << /F1 5 0 R >> /XObject << /N %d 0 R >> >>", first)))
	p.stream(4, "", []byte("/N Do\n"))
	p.obj(5, pdfFont)
	for i := 0; i < levels; i++ {
		n := first + i
		if i == levels-1 {
			p.stream(n, "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >>", []byte(pdfText("fan-out")))
			continue
		}
		p.stream(n, fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /N %d 0 R >> >>", n+1),
			[]byte(strings.Repeat("/N Do\n", 30)))
	}
	x := p.xrefTable(first + levels)
	p.trailer(fmt.Sprintf("/Size %d /Root 1 0 R", first+levels), x)
	return p.Bytes()
}

// pdfPageTreeCycle: the root's first kid is a Pages node whose /Kids list
// itself twice (a walk without a visited set doubles at every level), the
// second kid a real page.
func pdfPageTreeCycle() []byte {
	p := newPDF()
	p.obj(1, pdfCatalog)
	p.obj(2, "<< /Type /Pages /Kids [6 0 R 3 0 R] /Count 1 >>")
	p.obj(3, pdfPage(pdfRes))
	p.stream(4, "", []byte(pdfText("page after a cyclic page tree")))
	p.obj(5, pdfFont)
	p.obj(6, "<< /Type /Pages /Parent 2 0 R /Kids [6 0 R 6 0 R] /Count 1 >>")
	x := p.xrefTable(7)
	p.trailer("/Size 7 /Root 1 0 R", x)
	return p.Bytes()
}

// pdfPageTreeDAG: no cycle, but 60 levels of Pages nodes listing the next
// level twice and no page at the bottom: 2^60 paths to walk.
func pdfPageTreeDAG() []byte {
	const first, levels = 6, 60
	p := newPDF()
	p.obj(1, pdfCatalog)
	p.obj(2, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R 3 0 R] /Count 1 >>", first))
	p.obj(3, pdfPage(pdfRes))
	p.stream(4, "", []byte(pdfText("page after a doubling page tree")))
	p.obj(5, pdfFont)
	for i := 0; i < levels; i++ {
		n := first + i
		kids := ""
		if i < levels-1 {
			kids = fmt.Sprintf("%d 0 R %d 0 R", n+1, n+1)
		}
		p.obj(n, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count 0 >>", kids))
	}
	x := p.xrefTable(first + levels)
	p.trailer(fmt.Sprintf("/Size %d /Root 1 0 R", first+levels), x)
	return p.Bytes()
}

// pdfDeepContent: a content stream opening a million nested arrays
// between two pieces of text.
func pdfDeepContent() []byte {
	const depth = 1000000
	r := content{once(pdfText("before the nesting")), times("[", depth), times("]", depth),
		once("\nBT /F1 12 Tf 72 680 Td (after the nesting) Tj ET\n")}
	p := newPDF()
	p.obj(1, pdfCatalog)
	p.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	p.obj(3, pdfPage(pdfRes))
	p.stream(4, "/Filter /FlateDecode", r.zlib())
	p.obj(5, pdfFont)
	x := p.xrefTable(6)
	p.trailer("/Size 6 /Root 1 0 R", x)
	return p.Bytes()
}

// pdfDeepObject: a page dictionary holding arrays nested 100,000 deep.
func pdfDeepObject() []byte {
	const depth = 100000
	p := newPDF()
	p.obj(1, pdfCatalog)
	p.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	p.obj(3, "<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources "+pdfRes+" /Annots "+
		strings.Repeat("[", depth)+strings.Repeat("]", depth)+" >>")
	p.stream(4, "", []byte(pdfText("deep object")))
	p.obj(5, pdfFont)
	x := p.xrefTable(6)
	p.trailer("/Size 6 /Root 1 0 R", x)
	return p.Bytes()
}

// pdfFlateBomb: a page content stream of a few MB that inflates to
// bomb bytes of operands ("0 0 0 ...", or with operators "0 0 m 1 1 l
// ...") after one line of text.
func pdfFlateBomb(bomb int64, operators bool) []byte {
	r := content{once(pdfText("before the bomb")), times("0 ", bomb/2)}
	if operators {
		r = content{once(pdfText("before the bomb")), times("0 0 m 1 1 l ", bomb/12)}
	}
	p := newPDF()
	p.obj(1, pdfCatalog)
	p.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	p.obj(3, pdfPage(pdfRes))
	p.stream(4, "/Filter /FlateDecode", r.zlib())
	p.obj(5, pdfFont)
	x := p.xrefTable(6)
	p.trailer("/Size 6 /Root 1 0 R", x)
	return p.Bytes()
}

// objStm is the data of an object stream holding bodies, listed in its
// header under the numbers nums, preceded by pad bytes of white space
// before the first object.
func objStm(nums []int, bodies []string, pad int64) (header string, data content) {
	var h strings.Builder
	var objs strings.Builder
	for i, n := range nums {
		fmt.Fprintf(&h, "%d %d ", n, pad+int64(objs.Len()))
		objs.WriteString(bodies[i])
		objs.WriteString("\n")
	}
	return h.String(), content{once(h.String()), times(" ", pad), once(objs.String())}
}

// pdfWithObjStm writes catalog, pages, page and font (1, 2, 3, 5) into
// object stream 7 after pad bytes of white space (listed in its header as
// objects 1+shift, 2+shift, ...), the content (4) as a plain object, and a
// cross-reference stream (8). stmDict adds keys to the object stream's
// dictionary; fix may change the cross-reference rows.
func pdfWithObjStm(pad int64, shift int, stmDict string, fix func(rows []xrefEntry)) []byte {
	nums := []int{1, 2, 3, 5}
	listed := make([]int, len(nums))
	for i, n := range nums {
		listed[i] = n + shift
	}
	bodies := []string{pdfCatalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", pdfPage(pdfRes), pdfFont}
	header, r := objStm(listed, bodies, pad)
	p := newPDF()
	p.stream(4, "", []byte(pdfText("object stream text")))
	p.stream(7, fmt.Sprintf("/Type /ObjStm /N %d /First %d /Filter /FlateDecode%s", len(nums), len(header), stmDict), r.zlib())
	x := p.Len()
	rows := make([]xrefEntry, 9)
	rows[0] = xrefEntry{0, 0, 65535}
	for i, n := range nums {
		rows[n] = xrefEntry{2, 7, uint32(i)}
	}
	rows[4] = xrefEntry{1, uint32(p.offs[4]), 0}
	rows[6] = xrefEntry{0, 0, 65535}
	rows[7] = xrefEntry{1, uint32(p.offs[7]), 0}
	rows[8] = xrefEntry{1, uint32(x), 0}
	if fix != nil {
		fix(rows)
	}
	p.stream(8, "/Type /XRef /Size 9 /W [1 4 2] /Root 1 0 R", xrefStreamData(rows))
	p.end(x)
	return p.Bytes()
}

// pdfObjStmBomb: the catalog, page tree and font sit in an object stream
// after bomb bytes of white space: every lookup inflates gigabytes.
func pdfObjStmBomb(bomb int64) []byte { return pdfWithObjStm(bomb, 0, "", nil) }

// pdfObjStmExtendsCycle: the object stream does not hold the objects the
// cross-reference stream says it holds (its header lists 11, 12, ...), and
// its /Extends names itself: a lookup searches it again and again.
func pdfObjStmExtendsCycle() []byte { return pdfWithObjStm(0, 10, " /Extends 7 0 R", nil) }

// pdfObjStmSelf: the object stream is itself listed as stored inside
// itself (a lookup recurses without end: Go's stack overflow is fatal).
func pdfObjStmSelf() []byte {
	return pdfWithObjStm(0, 0, "", func(rows []xrefEntry) { rows[7] = xrefEntry{2, 7, 0} })
}

// pdfSharedContent: pages pages, all drawing the same content stream of
// about 1 MB of text.
func pdfSharedContent(pages int) []byte {
	const line = "(the same content stream on every page) ' \n"
	r := content{once("BT /F1 10 Tf 72 760 Td 12 TL\n"), times(line, 1<<20/int64(len(line))), once("ET\n")}
	p := newPDF()
	p.obj(1, pdfCatalog)
	var kids strings.Builder
	for i := 0; i < pages; i++ {
		fmt.Fprintf(&kids, "%d 0 R ", 6+i)
	}
	p.obj(2, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), pages))
	p.stream(4, "/Filter /FlateDecode", r.zlib())
	p.obj(5, pdfFont)
	for i := 0; i < pages; i++ {
		p.obj(6+i, pdfPage(pdfRes))
	}
	x := p.xrefTable(6 + pages)
	p.trailer(fmt.Sprintf("/Size %d /Root 1 0 R", 6+pages), x)
	return p.Bytes()
}

// pdfContentsArray: /Contents lists the same stream n times (a reader
// that opens every stream before reading allocates n decompressors).
func pdfContentsArray(n int) []byte {
	p := newPDF()
	p.obj(1, pdfCatalog)
	p.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	p.obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ["+strings.Repeat("4 0 R ", n)+"] /Resources "+pdfRes+" >>")
	r := content{once(pdfText("one of many content streams"))}
	p.stream(4, "/Filter /FlateDecode", r.zlib())
	p.obj(5, pdfFont)
	x := p.xrefTable(6)
	p.trailer("/Size 6 /Root 1 0 R", x)
	return p.Bytes()
}

// pdfCMapRanges: a ToUnicode CMap of ranges, each mapping all 65,536
// two-byte codes (billions of map updates for a few MB).
func pdfCMapRanges(ranges int) []byte {
	prefix := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" +
		"1 begincodespacerange <0000> <FFFF> endcodespacerange\n" +
		fmt.Sprintf("%d beginbfrange\n", ranges)
	r := content{once(prefix), times("<0000> <FFFF> <0000>\n", int64(ranges)),
		once("endbfrange\nendcmap CMapName currentdict /CMap defineresource pop end end\n")}
	p := newPDF()
	p.obj(1, pdfCatalog)
	p.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	p.obj(3, pdfPage(pdfRes))
	p.stream(4, "", []byte("BT /F1 12 Tf 72 700 Td <00410042> Tj ET\n"))
	p.obj(5, "<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>")
	p.obj(6, "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 1000 >>")
	p.stream(7, "/Filter /FlateDecode", r.zlib())
	x := p.xrefTable(8)
	p.trailer("/Size 8 /Root 1 0 R", x)
	return p.Bytes()
}

// pdfSharedResources: pages pages whose (inherited) resource dictionary
// is one object of about 1 MB (a font table of 20,000 entries): a reader
// that parses an object again at every lookup reads it once per page.
func pdfSharedResources(pages int) []byte {
	p := newPDF()
	p.obj(1, pdfCatalog)
	var kids strings.Builder
	for i := 0; i < pages; i++ {
		fmt.Fprintf(&kids, "%d 0 R ", 7+i)
	}
	p.obj(2, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d /Resources 6 0 R >>", kids.String(), pages))
	p.stream(4, "", []byte(pdfText("a page with shared resources")))
	p.obj(5, pdfFont)
	var fonts strings.Builder
	fonts.WriteString("<< /Font << /F1 5 0 R ")
	for i := 0; fonts.Len() < 1<<20; i++ {
		fmt.Fprintf(&fonts, "/Unused%d << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> ", i)
	}
	fonts.WriteString(">> >>")
	p.obj(6, fonts.String())
	for i := 0; i < pages; i++ {
		p.obj(7+i, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>")
	}
	x := p.xrefTable(7 + pages)
	p.trailer(fmt.Sprintf("/Size %d /Root 1 0 R", 7+pages), x)
	return p.Bytes()
}

// pdfRebuildQuadratic: no usable cross-reference table (startxref points
// at the header), so a reader rebuilds one by scanning; n objects, each a
// catalog with a stream that never ends (a scan that matches every object
// against every catalog, or searches for "endstream" from every stream,
// is quadratic).
func pdfRebuildQuadratic(n int) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d 0 obj\n<< /Type /Catalog /Length 1 >>\nstream\n", i)
	}
	b.WriteString("startxref\n0\n%%EOF\n")
	return b.Bytes()
}
