package extract

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
)

// TestDOCXTextBoxOnce: Word writes a text box twice, as DrawingML in
// mc:Choice and as VML in mc:Fallback; its text is read once.
func TestDOCXTextBoxOnce(t *testing.T) {
	box := `<w:txbxContent><w:p><w:r><w:t>boxed text</w:t></w:r></w:p></w:txbxContent>`
	body := `<w:p><w:r><w:t>Before.</w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx xmlns:wps="wps">` + box +
		`</wps:txbx></w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox xmlns:v="v">` + box + `</v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`
	doc, err := Extract(context.Background(), MimeDOCX, bytes.NewReader(docxWithLists(t, body, "", "")), 0)
	if err != nil || doc.Text() != "Before.boxed text" {
		t.Errorf("generated: %q, %v", doc.Text(), err)
	}
	doc, err = extractFile(t, filepath.Join("..", "..", "testdata", "docx", "docxrs-textbox.docx"))
	if err != nil || doc.Text() != "Hello" {
		t.Errorf("docxrs-textbox.docx: %q, %v (LibreOffice's text: Hello)", doc.Text(), err)
	}
}
