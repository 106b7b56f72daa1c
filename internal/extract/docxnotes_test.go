package extract

import (
	"bytes"
	"context"
	"testing"
)

// TestDOCXNoteMarks: the footnote and endnote numbers Word shows, which
// the file does not hold, are written in the body and before each note's
// text; a custom mark stays as written.
func TestDOCXNoteMarks(t *testing.T) {
	run := func(inner string) string {
		return `<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>` + inner + `</w:r>`
	}
	body := `<w:p><w:r><w:t>First claim</w:t></w:r>` + run(`<w:footnoteReference w:id="7"/>`) +
		`<w:r><w:t xml:space="preserve"> and a second, </w:t></w:r>` + run(`<w:footnoteReference w:id="3"/>`) +
		`<w:r><w:t>ended</w:t></w:r>` + run(`<w:endnoteReference w:id="2"/>`) +
		`<w:r><w:t>; starred</w:t></w:r>` + run(`<w:footnoteReference w:customMarkFollows="1" w:id="9"/><w:t>*</w:t>`) + `</w:p>`
	note := func(kind, id, text string) string {
		return `<w:` + kind + ` w:id="` + id + `"><w:p>` + run(`<w:`+kind+`Ref/>`) + `<w:r><w:t xml:space="preserve"> ` + text + `</w:t></w:r></w:p></w:` + kind + `>`
	}
	docx := makeZip(t, map[string]string{
		"word/document.xml":            `<w:document ` + wordNS + `><w:body>` + body + `</w:body></w:document>`,
		"word/_rels/document.xml.rels": `<Relationships><Relationship Id="rId1" Target="footnotes.xml"/><Relationship Id="rId2" Target="endnotes.xml"/></Relationships>`,
		"word/footnotes.xml": `<w:footnotes ` + wordNS + `><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>` +
			note("footnote", "3", "The second.") + note("footnote", "7", "The first.") +
			`<w:footnote w:id="9"><w:p><w:r><w:t>* Starred.</w:t></w:r></w:p></w:footnote></w:footnotes>`,
		"word/endnotes.xml": `<w:endnotes ` + wordNS + `>` + note("endnote", "2", "The end.") + `</w:endnotes>`,
	})
	doc, err := Extract(context.Background(), MimeDOCX, bytes.NewReader(docx), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "First claim 1 and a second, 2 ended i; starred*\n\ni The end.\n\n2 The second.\n1 The first.\n* Starred."
	if got := doc.Text(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
