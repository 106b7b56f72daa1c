package extract

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"

	"github.com/gds-cli/gds/internal/hostile"
)

// pdfOf builds a PDF from "N 0 obj ... endobj" bodies: rebuildXref writes
// the cross-reference table from where the objects are.
func pdfOf(t *testing.T, objs ...string) []byte {
	t.Helper()
	var b strings.Builder
	b.WriteString("%PDF-1.4\n")
	for i, o := range objs {
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	b.WriteString("%%EOF\n")
	data, err := rebuildXref([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// streamObj is a stream object body with its /Length.
func streamObj(dict, data string) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

const (
	catalogObj = "<< /Type /Catalog /Pages 2 0 R >>"
	pagesObj   = "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
	helvetica  = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
)

// onePage is a PDF whose page (object 3) draws content (object 4) with
// Helvetica as /F1 (object 5) and extra resources; more objects follow.
func onePage(t *testing.T, content, resources string, more ...string) []byte {
	t.Helper()
	objs := []string{catalogObj, pagesObj,
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> " + resources + " >> >>",
		streamObj("", content), helvetica}
	return pdfOf(t, append(objs, more...)...)
}

func extractPDFText(t *testing.T, data []byte) (Doc, string) {
	t.Helper()
	doc, err := Extract(context.Background(), "application/pdf", bytes.NewReader(data), 0)
	if err != nil {
		t.Fatal(err)
	}
	return doc, doc.Text()
}

// TestPDFObjectIdentity: the reflection behind cycle detection still
// finds the library's references. If this fails after a library update,
// the page-tree and form cycle checks have lost object identity.
func TestPDFObjectIdentity(t *testing.T) {
	data := onePage(t, "BT ET", "/XObject << /X 6 0 R >> /Direct << /A 1 >>", streamObj("/Subtype /Form /Length2 7 0 R", ""), "12")
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	catalog := r.Trailer().Key("Root")
	if ref, ok := dictRef(catalog, "Pages"); !ok || ref != (objRef{2, 0}) {
		t.Errorf("catalog /Pages: %v %v", ref, ok)
	}
	if _, ok := dictRef(catalog, "Type"); ok {
		t.Error("a name reads as a reference")
	}
	kids := catalog.Key("Pages").Key("Kids")
	if ref, ok := arrayRef(kids, 0); !ok || ref != (objRef{3, 0}) {
		t.Errorf("/Kids[0]: %v %v", ref, ok)
	}
	if _, ok := arrayRef(kids, 1); ok {
		t.Error("index beyond the array")
	}
	res := kids.Index(0).Key("Resources")
	if ref, ok := dictRef(res.Key("XObject"), "X"); !ok || ref != (objRef{6, 0}) {
		t.Errorf("/XObject /X: %v %v", ref, ok)
	}
	if _, ok := dictRef(res, "Direct"); ok {
		t.Error("a direct dictionary reads as a reference")
	}
	form := res.Key("XObject").Key("X")
	if ref, ok := dictRef(form, "Length2"); !ok || ref != (objRef{7, 0}) {
		t.Errorf("a stream's dictionary: %v %v", ref, ok)
	}
}

// TestFormsAndPageTree: a form drawn twice in a row draws twice (only a
// form on the current path is skipped); a page listed twice is read once.
func TestFormsAndPageTree(t *testing.T) {
	form := streamObj("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >>",
		"BT /F1 12 Tf 72 700 Td (form) Tj ET")
	data := onePage(t, "/X Do 1 0 0 1 0 -100 cm /X Do", "/XObject << /X 6 0 R >>", form)
	if _, text := extractPDFText(t, data); strings.Count(text, "form") != 2 {
		t.Errorf("form drawn twice: %q", text)
	}
	twice := pdfOf(t, catalogObj, "<< /Type /Pages /Kids [3 0 R 3 0 R 6 0 R] /Count 3 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		streamObj("", "BT /F1 12 Tf 72 700 Td (page) Tj ET"), helvetica,
		"<< /Type /Page /Parent 2 0 R /Contents 7 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		streamObj("", "BT /F1 12 Tf 72 700 Td (other) Tj ET"))
	doc, _ := extractPDFText(t, twice)
	if len(doc.Pages) != 2 || doc.Pages[0].Text != "page" || doc.Pages[1].Text != "other" {
		t.Errorf("pages: %+v", doc.Pages)
	}
}

// TestContentStreamSyntax: gds's interpreter skips inline images, keeps
// the text state across q/Q as PDF says (font restored, text position
// not), and abandons a stream that is a flood of operands.
func TestContentStreamSyntax(t *testing.T) {
	for _, c := range []struct {
		name, content, want string
	}{
		{"inline image", "BI /W 4 /H 1 /BPC 8 /CS /G ID \x00)(EI]> EI\nBT /F1 12 Tf 72 700 Td (after image) Tj ET", "after image"},
		{"q/Q font", "BT /F1 12 Tf q /F9 3 Tf Q 72 700 Td (kept font) Tj ET", "kept font"},
		{"strings", `BT /F1 12 Tf 72 700 Td (a\(b\) \101\102 c\
d) Tj <2045 46> Tj ET`, "a(b) AB cd EF"},
		{"operand flood", "BT /F1 12 Tf 72 700 Td (before) Tj " + strings.Repeat("1 ", maxOperandRun+1) + "(after) Tj ET", "before"},
		{"stray delimiters", "BT ] >> ) } /F1 12 Tf 72 700 Td (ok) Tj ET", "ok"},
	} {
		_, got := extractPDFText(t, onePage(t, c.content, ""))
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestPDFBudgetsTruncate: a document beyond the work limit keeps the
// pages read before it, marked Truncated; with no text at all it is
// ErrTooComplex.
func TestPDFBudgetsTruncate(t *testing.T) {
	saved := pdfLimits
	t.Cleanup(func() { pdfLimits = saved })
	pdfLimits.work = 10000
	many := onePage(t, strings.Repeat("BT /F1 12 Tf 72 700 Td (x) Tj ET\n", 5000), "")
	doc, err := Extract(context.Background(), "application/pdf", bytes.NewReader(many), 0)
	if err != nil || !doc.Truncated || !strings.HasPrefix(doc.Text(), "x") {
		t.Errorf("work limit: truncated %v, %d bytes, %v", doc.Truncated, len(doc.Text()), err)
	}
	none := onePage(t, strings.Repeat("0 0 m 1 1 l\n", 10000), "")
	if _, err := Extract(context.Background(), "application/pdf", bytes.NewReader(none), 0); !errors.Is(err, ErrTooComplex) {
		t.Errorf("no text before the limit: %v", err)
	}
}

// TestNormalizePDF: the library is handed one fresh cross-reference
// stream: no /Prev, no object left in an object stream.
func TestNormalizePDF(t *testing.T) {
	hello, err := os.ReadFile(filepath.Join(realdocs, "pdftools-hello.pdf")) // has object streams
	if err != nil {
		t.Fatal(err)
	}
	var prevSelf bytes.Buffer
	if f, ok := hostile.Get("pdf-xref-prev-self.pdf", hostile.Options{}); !ok || f.Write(&prevSelf) != nil {
		t.Fatal("no pdf-xref-prev-self.pdf")
	}
	for name, data := range map[string][]byte{"pdftools-hello.pdf": hello, "pdf-xref-prev-self.pdf": prevSelf.Bytes()} {
		norm, err := normalizePDF(context.Background(), data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.HasPrefix(norm, data) {
			t.Errorf("%s: the original bytes moved", name)
		}
		tail := norm[len(data):]
		if bytes.Contains(tail, []byte("/Prev")) {
			t.Errorf("%s: the appended section has /Prev", name)
		}
		tab, err := readXref(norm)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for id, r := range tab.rows {
			if r.typ == rowInStream {
				t.Errorf("%s: object %d still in an object stream", name, id)
			}
		}
		if _, err := pdf.NewReader(bytes.NewReader(norm), int64(len(norm))); err != nil {
			t.Errorf("%s: the library refuses it: %v", name, err)
		}
	}
}

// TestEncryptedObjStmChecks: an encrypted file keeps its object streams;
// their structure is checked instead of expanded.
func TestEncryptedObjStmChecks(t *testing.T) {
	const objStm = "7 0 obj\n<< /Type /ObjStm /N %d /First 4%s /Length 8 >>\nstream\n1 0 << >>\nendstream\nendobj\n"
	for _, c := range []struct {
		name    string
		n       int
		extends string
		row7    xrefRow // the object stream's own row
		err     error
		freed   bool // object 1 dropped
	}{
		{name: "sound", n: 1, row7: xrefRow{typ: rowInFile}},
		{name: "extends itself", n: 1, extends: " /Extends 7 0 R", row7: xrefRow{typ: rowInFile}, err: ErrTooComplex},
		{name: "stored in itself", n: 1, row7: xrefRow{typ: rowInStream, off: 7}, err: ErrTooComplex},
		{name: "N beyond the limit", n: maxObjStmObjects + 1, row7: xrefRow{typ: rowInFile}, err: ErrTooComplex},
		{name: "not an object stream", n: 1, row7: xrefRow{typ: rowFree}, freed: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := []byte("%PDF-1.7\n" + fmt.Sprintf(objStm, c.n, c.extends))
			if c.row7.typ == rowInFile {
				c.row7.off = 9
			}
			tab := &xrefTable{data: data, max: 100, rows: make([]xrefRow, 8)}
			tab.rows[1] = xrefRow{typ: rowInStream, off: 7}
			tab.rows[7] = c.row7
			err := tab.checkObjStms()
			if !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
				t.Fatalf("error %v, want %v", err, c.err)
			}
			if err == nil && (tab.rows[1].typ == rowFree) != c.freed {
				t.Errorf("object 1: %+v", tab.rows[1])
			}
		})
	}
}

func TestDecodePDFStream(t *testing.T) {
	flate := func(b []byte) []byte {
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		w.Write(b)
		w.Close()
		return z.Bytes()
	}
	num := func(v float64) pdfObj { return pdfObj{kind: oNum, num: v, isInt: true} }
	name := func(s string) pdfObj { return pdfObj{kind: oName, s: s} }
	parms := func(pred, cols float64) pdfObj {
		return pdfObj{kind: oDict, dict: map[string]pdfObj{"Predictor": num(pred), "Columns": num(cols)}}
	}
	for _, c := range []struct {
		name          string
		raw           []byte
		filter, parms pdfObj
		limit         int64
		want          string
		err           error
	}{
		{"none", []byte("abc"), pdfObj{}, pdfObj{}, 10, "abc", nil},
		{"flate", flate([]byte("hello")), name("FlateDecode"), pdfObj{}, 10, "hello", nil},
		{"flate over the limit", flate(bytes.Repeat([]byte("a"), 100)), name("FlateDecode"), pdfObj{}, 99, "", errObjTooBig},
		// PNG rows: filter byte then 2 columns; Up adds the row above.
		{"png up", flate([]byte{2, 1, 2, 2, 1, 1}), name("FlateDecode"), parms(12, 2), 10, "\x01\x02\x02\x03", nil},
		{"png sub", flate([]byte{1, 5, 1}), name("FlateDecode"), parms(11, 2), 10, "\x05\x06", nil},
		{"tiff", flate([]byte{5, 1, 1}), name("FlateDecode"), parms(2, 3), 10, "\x05\x06\x07", nil},
		{"hex", []byte("41 42 4>"), name("ASCIIHexDecode"), pdfObj{}, 10, "AB@", nil},
		{"ascii85", []byte("87cURD]i,\"Ebo80~>"), name("ASCII85Decode"), pdfObj{}, 20, "Hello World!", nil},
		{"chain", []byte("78DA"), pdfObj{kind: oArray, arr: []pdfObj{name("AHx"), name("LZWDecode")}}, pdfObj{}, 10, "", nil},
	} {
		got, err := decodePDFStream(c.raw, c.filter, c.parms, c.limit)
		switch {
		case c.name == "chain":
			if err == nil {
				t.Errorf("%s: an unsupported filter decoded", c.name)
			}
		case !errors.Is(err, c.err) || (c.err == nil && err != nil):
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		case err == nil && string(got) != c.want:
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestLexer(t *testing.T) {
	lx := newBytesLexer([]byte("% comment\n/Na#20me 12 -.5 +3 1.2.3 (a(b)c\\) \\n) <4142 3> << >> [ ] true R"))
	var got []string
	for tok := lx.next(); tok.kind != tEOF; tok = lx.next() {
		switch tok.kind {
		case tNum:
			got = append(got, fmt.Sprintf("num:%g:%v", tok.num, tok.isInt))
		case tName:
			got = append(got, "name:"+tok.s)
		case tStr:
			got = append(got, fmt.Sprintf("str:%q", tok.s))
		case tKeyword:
			got = append(got, "kw:"+tok.s)
		default:
			got = append(got, fmt.Sprintf("delim:%d", tok.kind))
		}
	}
	want := `name:Na me|num:12:true|num:-0.5:false|num:3:true|kw:1.2.3|str:"a(b)c) \n"|str:"AB0"|delim:7|delim:8|delim:5|delim:6|kw:true|kw:R`
	if strings.Join(got, "|") != want {
		t.Errorf("tokens:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	// A token beyond maxTokenBytes is consumed whole and kept cut.
	long := "(" + strings.Repeat("x", maxTokenBytes+10) + ") (next)"
	lx = newLexer(strings.NewReader(long))
	if tok := lx.next(); len(tok.s) != maxTokenBytes {
		t.Errorf("long string: %d bytes", len(tok.s))
	}
	if tok := lx.next(); tok.s != "next" {
		t.Errorf("after the long string: %q", tok.s)
	}
}

func TestTextBudget(t *testing.T) {
	b := &textBudget{left: 5}
	if got := b.fit("ab"); got != "ab" || b.full() {
		t.Errorf("fits: %q %v", got, b.full())
	}
	if got := b.fit("cあ"); got != "c" || !b.full() { // あ is 3 bytes: cut before it
		t.Errorf("cut at a rune: %q %v", got, b.full())
	}
	if got := b.fit("d"); got != "" {
		t.Errorf("after a cut: %q", got)
	}
	saved := textLimit
	textLimit = 6
	t.Cleanup(func() { textLimit = saved })
	d := capDoc(Doc{Pages: []Page{{Text: "abcd"}, {Text: "efgh"}, {Text: "ijkl"}}})
	if !d.Truncated || len(d.Pages) != 2 || d.Pages[1].Text != "ef" {
		t.Errorf("capDoc: %+v", d)
	}
}

func TestDecodeText(t *testing.T) {
	le := func(s string, units ...uint16) []byte {
		out := []byte{0xff, 0xfe}
		for _, r := range s {
			out = append(out, byte(r), byte(r>>8))
		}
		for _, u := range units {
			out = append(out, byte(u), byte(u>>8))
		}
		return out
	}
	for _, c := range []struct {
		name  string
		in    []byte
		limit int
		want  string
		trunc bool
		err   error
	}{
		{"utf-16le", le("hi\r\n"), 100, "hi\n", false, nil},
		{"utf-16be", []byte{0xfe, 0xff, 0, 'h', 0x30, 0x42}, 100, "hあ", false, nil},
		{"surrogate pair", le("", 0xd83d, 0xde00), 100, "😀", false, nil},
		{"lone surrogates", le("", 0xdc00, 'a', 0xd800), 100, "\ufffda\ufffd", false, nil},
		{"odd byte", append(le("a"), 'x'), 100, "a\ufffd", false, nil},
		{"utf-16 cut", le("abcd"), 3, "abc", true, nil},
		{"utf-16 NUL", le("a\x00"), 100, "", false, ErrUnsupported},
		{"utf-8 cut at a rune", []byte("aあい"), 5, "aあ", true, nil},
		{"shift_jis cut", []byte{0x82, 0xa0, 0x82, 0xa2}, 4, "あ", true, nil},
	} {
		got, trunc, err := decodeText(c.in, c.limit)
		if got != c.want || trunc != c.trunc || !errors.Is(err, c.err) {
			t.Errorf("%s: %q %v %v, want %q %v %v", c.name, got, trunc, err, c.want, c.trunc, c.err)
		}
	}
}

// TestSharedStringsBounded: the table stops at its bounds; a cell reading
// a string beyond them is empty and marks the sheet Truncated, the others
// do not.
func TestSharedStringsBounded(t *testing.T) {
	savedN, savedB := maxSharedStrings, maxSharedBytes
	maxSharedStrings, maxSharedBytes = 5, 1000
	t.Cleanup(func() { maxSharedStrings, maxSharedBytes = savedN, savedB })
	var sst strings.Builder
	sst.WriteString(`<sst>`)
	for i := range 10 {
		fmt.Fprintf(&sst, `<si><t>s%d</t></si>`, i)
	}
	sst.WriteString(`</sst>`)
	xlsx := func(cells ...int) []byte {
		var row strings.Builder
		for _, c := range cells {
			fmt.Fprintf(&row, `<c t="s"><v>%d</v></c>`, c)
		}
		return makeZip(t, map[string]string{
			"xl/workbook.xml":            `<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>`,
			"xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`,
			"xl/worksheets/sheet1.xml":   `<worksheet><sheetData><row>` + row.String() + `</row></sheetData></worksheet>`,
			"xl/sharedStrings.xml":       sst.String(),
		})
	}
	doc, err := Extract(context.Background(), MimeXLSX, bytes.NewReader(xlsx(0, 4)), 0)
	if err != nil || doc.Text() != "S\ns0\ts4" || doc.Truncated {
		t.Errorf("within the bounds: %q %v %v", doc.Text(), doc.Truncated, err)
	}
	doc, err = Extract(context.Background(), MimeXLSX, bytes.NewReader(xlsx(0, 7)), 0)
	if err != nil || doc.Text() != "S\ns0" || !doc.Truncated {
		t.Errorf("beyond the bounds: %q %v %v", doc.Text(), doc.Truncated, err)
	}
}

func TestHTMLTokens(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<p>one<p>two`, "one\ntwo"},
		{`<head><title>T</title><p>para`, "T\n\npara"},
		{`<head><meta charset="utf-8"><style>x{}</style></head><body>b`, "b"},
		{`<table><tr><td>a<td>b<tr><td>c</table>`, "a\tb\nc"},
		{`<template>hidden<p>x</p></template>shown`, "shown"},
		{`<svg/>after <img alt="pic"> <select><option>o</select>end`, "after pic end"},
		{`<ul><li>a</li><li>b</li></ul>`, "• a\n• b"},
		{"\xff\xfe<\x00p\x00>\x00u\x00t\x00f\x001\x006\x00", "utf16"},
	} {
		doc, err := Extract(context.Background(), "text/html", strings.NewReader(c.in), 0)
		if err != nil || doc.Text() != c.want {
			t.Errorf("%q: %q, %v; want %q", c.in, doc.Text(), err, c.want)
		}
	}
}

// TestCancelStopsParser: when the context ends during a costly
// extraction, Extract returns at once and the parser's goroutine stops
// too (the goroutine count comes back; waited for generously).
func TestCancelStopsParser(t *testing.T) {
	for _, name := range []string{"pdf-flate-bomb-operators.pdf", "pdf-shared-content.pdf", "html-many-elements.html", "docx-huge-part.docx"} {
		f, ok := hostile.Get(name, hostile.Options{HTMLBytes: 16 << 20})
		if !ok {
			t.Fatal(name)
		}
		var b bytes.Buffer
		f.Write(&b)
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := Extract(ctx, MimeTypeByName(f.Name), bytes.NewReader(b.Bytes()), 0)
			done <- err
		}()
		time.Sleep(time.Millisecond)
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v", f.Name, err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			t.Errorf("%s: %d goroutines still running after the cancel (%d before)", f.Name, n, before)
		}
	}
}
