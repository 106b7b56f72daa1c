package extract

import (
	"bytes"
	"context"
	"testing"
)

// TestDOCXParagraphsInACell: the paragraphs of a table cell are separated
// by a space even when each has its properties (w:pPr, w:rPr) — as in the
// DOCX LibreOffice makes of an HTML page whose tips are boxes, where
// "#!/bin/sh" and "GLFW_IM_MODULE=ibus" were stored as "#!/bin/shGLFW_IM_MODULE=ibus".
func TestDOCXParagraphsInACell(t *testing.T) {
	para := func(text string) string {
		return `<w:p><w:pPr><w:pStyle w:val="PreformattedText"/><w:rPr></w:rPr></w:pPr><w:r><w:rPr></w:rPr><w:t>` + text + `</w:t></w:r></w:p>`
	}
	doc := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` +
		`<w:tbl><w:tr><w:tc><w:tcPr><w:tcW w:w="5000"/></w:tcPr>` + para("as follows.") + para("#!/bin/sh") + para("GLFW_IM_MODULE=ibus") +
		`</w:tc><w:tc>` + para("second cell") + `</w:tc></w:tr></w:tbl>` + para("after") + `</w:body></w:document>`
	got, err := Extract(context.Background(), MimeDOCX, bytes.NewReader(makeZip(t, map[string]string{"word/document.xml": doc})), 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := "as follows. #!/bin/sh GLFW_IM_MODULE=ibus\tsecond cell\nafter"; got.Text() != want {
		t.Errorf("text %q, want %q", got.Text(), want)
	}
}
