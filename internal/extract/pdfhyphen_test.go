package extract

import "testing"

// TestPDFCompoundHyphens: a compound broken at its hyphen keeps it when
// the document writes the compound whole elsewhere (here on another page),
// or when the hyphen is a hard one (U+2010); a word a typesetter broke is
// joined, also where its parts are words the document writes.
func TestPDFCompoundHyphens(t *testing.T) {
	page := func(content string) string {
		return streamObj("", "BT /F1 10 Tf /F2 10 Tf 50 700 Td 12 TL "+content+" ET")
	}
	res := "/Resources << /Font << /F1 5 0 R /F2 8 0 R >> >>"
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Differences [200 /uni2010] >> >>"
	data := pdfOf(t, catalogObj,
		"<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R "+res+" >>",
		page("(A chat-optimized model.) ' (The data are trans-) ' (mitted; we chat, optimized) ' (and data-) ' (base is a database.) '"),
		helvetica,
		"<< /Type /Page /Parent 2 0 R /Contents 7 0 R "+res+" >>",
		page("(The chat-) ' (optimized one, its step\\310) ' (wise bits.) '"),
		font)
	doc, _ := extractPDFText(t, data)
	want := []string{
		"A chat-optimized model.\nThe data are transmitted; we chat, optimized\nand database is a database.",
		"The chat-\noptimized one, its step\u2010\nwise bits.",
	}
	for i, p := range doc.Pages {
		if i >= len(want) || p.Text != want[i] {
			t.Errorf("page %d: %q", i+1, p.Text)
		}
	}
}
