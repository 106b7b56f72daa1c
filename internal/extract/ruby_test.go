package extract

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestDOCXRubyNotInBaseText: Word's ruby (w:ruby with w:rt over w:rubyBase)
// keeps the base text only.
func TestDOCXRubyNotInBaseText(t *testing.T) {
	ruby := func(rt, base string) string {
		return `<w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="distributeSpace"/><w:hps w:val="10"/><w:hpsRaise w:val="18"/><w:hpsBaseText w:val="21"/><w:lid w:val="ja-JP"/></w:rubyPr>` +
			`<w:rt><w:r><w:rPr><w:sz w:val="10"/></w:rPr><w:t>` + rt + `</w:t></w:r></w:rt>` +
			`<w:rubyBase><w:r><w:t>` + base + `</w:t></w:r></w:rubyBase></w:ruby></w:r>`
	}
	doc := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p>` +
		ruby("くん", "君") + ruby("し", "子") + `<w:r><w:t>は和して同ぜず</w:t></w:r></w:p></w:body></w:document>`
	data := makeZip(t, map[string]string{"word/document.xml": doc})
	got, err := Extract(context.Background(), MimeDOCX, bytes.NewReader(data), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got.Text() != "君子は和して同ぜず" {
		t.Errorf("text %q, want 君子は和して同ぜず", got.Text())
	}
}

// TestDOCXRubyLibreOffice: a DOCX whose ruby LibreOffice wrote keeps the
// base text only, as LibreOffice's own text export does.
func TestDOCXRubyLibreOffice(t *testing.T) {
	doc, err := extractFile(t, filepath.Join("..", "..", "testdata", "docx", "lo-ruby-ja.docx"))
	if err != nil || doc.Text() != "君子は和して同ぜず。漢字を読む。" {
		t.Errorf("%q, %v", doc.Text(), err)
	}
}

// TestHTMLRubyNotInBaseText: <rt> and <rp> are not base text, with their
// end tags or without.
func TestHTMLRubyNotInBaseText(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<p><ruby>君子<rp>(</rp><rt>くんし</rt><rp>)</rp></ruby>は和して同ぜず</p>`, "君子は和して同ぜず"},
		{`<p><ruby>君<rt>くん</rt>子<rt>し</rt></ruby>は和して同ぜず</p>`, "君子は和して同ぜず"},
		{`<p><ruby><rb>君<rt>くん<rb>子<rt>し</ruby>は和して同ぜず</p>`, "君子は和して同ぜず"},
		{`<p><ruby>漢字<rtc><rt>かん<rt>じ</rtc></ruby>です</p><p>next</p>`, "漢字です\nnext"},
		{`<p>no ruby: <rt>kept</rt></p>`, "no ruby: kept"},
	}
	for _, tt := range tests {
		doc, err := Extract(context.Background(), "text/html", strings.NewReader(tt.in), 0)
		if err != nil || doc.Text() != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.in, doc.Text(), err, tt.want)
		}
	}
}

// TestLigaturesFoldedEveryFormat: the stored text of every format has
// its ligatures folded.
func TestLigaturesFoldedEveryFormat(t *testing.T) {
	const lig, want = "the ﬁrst oﬀer", "the first offer"
	rels := `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Target="%s"/></Relationships>`
	files := map[string][]byte{
		"text/plain":    []byte(lig),
		"text/markdown": []byte("# " + lig),
		"text/html":     []byte("<p>" + lig + "</p>"),
		MimeDOCX:        makeZip(t, map[string]string{"word/document.xml": `<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>` + lig + `</w:t></w:r></w:p></w:body></w:document>`}),
		MimeXLSX: makeZip(t, map[string]string{
			"xl/workbook.xml":            `<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>`,
			"xl/_rels/workbook.xml.rels": fmt.Sprintf(rels, "worksheets/sheet1.xml"),
			"xl/worksheets/sheet1.xml":   `<worksheet><sheetData><row><c t="inlineStr"><is><t>` + lig + `</t></is></c></row></sheetData></worksheet>`,
		}),
		MimePPTX: makeZip(t, map[string]string{
			"ppt/presentation.xml":            `<p:presentation xmlns:p="p" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst><p:sldId r:id="rId1"/></p:sldIdLst></p:presentation>`,
			"ppt/_rels/presentation.xml.rels": fmt.Sprintf(rels, "slides/slide1.xml"),
			"ppt/slides/slide1.xml":           `<p:sld xmlns:p="p" xmlns:a="a"><a:p><a:r><a:t>` + lig + `</a:t></a:r></a:p></p:sld>`,
		}),
	}
	for mt, data := range files {
		doc, err := Extract(context.Background(), mt, bytes.NewReader(data), 0)
		if err != nil || !strings.Contains(doc.Text(), want) || strings.ContainsFunc(doc.Text(), isLigature) {
			t.Errorf("%s: %q, %v", mt, doc.Text(), err)
		}
	}
}

// TestLigaturesFolded: Latin ligature characters are stored as their
// letters, and folding never makes text longer.
func TestLigaturesFolded(t *testing.T) {
	in := "the ﬁrst ﬂow is eﬀective, ﬃ ﬄ ﬅ ﬆ Ĳssel; 日本語 ＡＢＣ ①"
	doc, err := Extract(context.Background(), "text/plain", strings.NewReader(in), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "the first flow is effective, ffi ffl st st IJssel; 日本語 ＡＢＣ ①"
	if doc.Text() != want {
		t.Errorf("%q, want %q (only ligatures fold)", doc.Text(), want)
	}
	if len(ligatures.Replace(in)) > len(in) {
		t.Error("folding made the text longer")
	}
}
