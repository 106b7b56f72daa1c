package extract

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/hostile"
)

// fuzzTimeout bounds one fuzz input; Extract must return by then.
const fuzzTimeout = 5 * time.Second

// smallHostile are the hostile corpus files whose hazard is their
// structure, not their volume: small and quick seeds for the fuzzers.
var smallHostile = sync.OnceValue(func() []hostile.File {
	var out []hostile.File
	for _, name := range []string{"pdf-xref-prev-self.pdf", "pdf-xref-prev-cycle.pdf", "pdf-xrefstream-prev-self.pdf",
		"pdf-xref-huge-subsection.pdf", "pdf-xrefstream-huge-size.pdf", "pdf-form-recursive.pdf", "pdf-page-tree-cycle.pdf",
		"pdf-page-tree-dag.pdf", "pdf-objstm-extends-cycle.pdf", "pdf-objstm-self.pdf", "xlsx-billion-laughs.xlsx",
		"docx-billion-laughs.docx", "text-utf16le-invalid.txt", "text-utf16be-invalid.txt"} {
		if f, ok := hostile.Get(name, hostile.Options{}); ok {
			out = append(out, f)
		}
	}
	return out
})

// seedFuzz adds the corpus files with the given extensions as seeds, and
// the small files of the hostile corpus.
func seedFuzz(f *testing.F, exts ...string) {
	f.Helper()
	for _, h := range smallHostile() {
		for _, ext := range exts {
			if strings.HasSuffix(h.Name, ext) {
				var b bytes.Buffer
				if err := h.Write(&b); err != nil {
					f.Fatal(err)
				}
				f.Add(b.Bytes())
			}
		}
	}
	for _, dir := range []string{realdocs, baddocs} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			f.Fatal(err)
		}
		for _, e := range entries {
			for _, ext := range exts {
				if strings.HasSuffix(e.Name(), ext) {
					b, err := os.ReadFile(filepath.Join(dir, e.Name()))
					if err != nil {
						f.Fatal(err)
					}
					f.Add(b)
				}
			}
		}
	}
}

// fuzzExtract runs Extract on data and checks the contract: it returns
// within the limit, and any error wraps a known sentinel or the context's.
func fuzzExtract(t *testing.T, mimeType string, data []byte) {
	ctx, cancel := context.WithTimeout(context.Background(), fuzzTimeout)
	defer cancel()
	doc, err := Extract(ctx, mimeType, bytes.NewReader(data), 1<<20)
	if err != nil {
		if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, context.DeadlineExceeded) {
			// (ErrTooComplex matches ErrMalformed)
			t.Fatalf("error without a known cause: %v", err)
		}
		return
	}
	_ = doc.Text()
}

// fuzzDirect calls an extractor without the panic guard so that panics in
// gds's own code reach the fuzzer.
func fuzzDirect(t *testing.T, f format, data []byte) {
	ctx, cancel := context.WithTimeout(context.Background(), fuzzTimeout)
	defer cancel()
	_, _ = extractBytes(ctx, f, data, 1<<20)
}

func FuzzExtractPDF(f *testing.F) {
	seedFuzz(f, ".pdf")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzExtract(t, "application/pdf", data) })
}

func FuzzExtractDOCX(f *testing.F) {
	seedFuzz(f, ".docx")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDirect(t, formatDOCX, data) })
}

func FuzzExtractXLSX(f *testing.F) {
	seedFuzz(f, ".xlsx")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDirect(t, formatXLSX, data) })
}

func FuzzExtractPPTX(f *testing.F) {
	seedFuzz(f, ".pptx")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDirect(t, formatPPTX, data) })
}

func FuzzExtractHTML(f *testing.F) {
	seedFuzz(f, ".html")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDirect(t, formatHTML, data) })
}

func FuzzExtractMarkdown(f *testing.F) {
	seedFuzz(f, ".md")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDirect(t, formatMarkdown, data) })
}

func FuzzExtractText(f *testing.F) {
	seedFuzz(f, ".txt", ".csv")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzExtract(t, "text/csv", data) })
}

// FuzzPDFContent feeds arbitrary content streams (with an Identity-H CID
// font and a simple font) through gds's own interpreter and layout.
func FuzzPDFContent(f *testing.F) {
	f.Add([]byte("BT /F1 12 Tf 72 700 Td (Hello) Tj [(W) 120 (orld)] TJ ET"))
	f.Add([]byte("BT /F2 10 Tf 0 1 -1 0 100 700 Tm <00410042> Tj T* (x) ' 1 2 (y) \" ET q 1 0 0 1 5 5 cm Q"))
	f.Fuzz(func(t *testing.T, content []byte) {
		body := "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" +
			"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
			"3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>\nendobj\n" +
			"4 0 obj\n<< /Length " + itoa(len(content)) + " >>\nstream\n" + string(content) + "\nendstream\nendobj\n" +
			"5 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n" +
			"6 0 obj\n<< /Type /Font /Subtype /Type0 /Encoding /Identity-V /DescendantFonts [<< /CIDSystemInfo << /Ordering (Japan1) >> /W [1 [500 600] 10 20 700] >>] >>\nendobj\n%%EOF\n"
		fuzzExtract(t, "application/pdf", []byte(body))
	})
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
