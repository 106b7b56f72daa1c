package ocr

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	_ "image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/extract"
)

// memoPNG is page 1 of testdata/realdocs/unstructured-fake-memo.pdf
// rendered at 150 dpi (testdata/README.md).
const memoPNG = "../../testdata/scans/unstructured-fake-memo-p1.png"

// requireTools returns the installed tesseract and pdftoppm. Locally the
// test skips without them (scripts/ocr.sh installs them); with CI=true it
// fails, as scripts/test.sh installs them there.
func requireTools(t *testing.T) (*Tesseract, *Poppler) {
	t.Helper()
	tess, err := FindTesseract(context.Background(), Limits{})
	pop, ok := FindPoppler(Limits{})
	if err == nil && ok {
		return tess, pop
	}
	msg := fmt.Sprintf("tesseract (%v) or pdftoppm (found: %v) missing; install them with `bash scripts/ocr.sh`", err, ok)
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return nil, nil
}

// Tesseract reads a real scanned page (a rendered page of a real PDF).
func TestTesseractReadsARealScan(t *testing.T) {
	tess, _ := requireTools(t)
	img, err := os.ReadFile(memoPNG)
	if err != nil {
		t.Fatal(err)
	}
	text, err := tess.Read(context.Background(), img)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"To Whom it May Concern", "20,000 bottles of water", "Mallori"} {
		if !strings.Contains(text, want) {
			t.Errorf("OCR text lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(tess.ID(), "tesseract") || !strings.Contains(tess.Langs, "eng") {
		t.Errorf("engine %q, languages %q", tess.ID(), tess.Langs)
	}
	// Not an image: tesseract's complaint makes it a malformed file.
	if _, err := tess.Read(context.Background(), []byte("\x89PNG\r\n\x1a\nbroken")); err == nil {
		t.Error("a broken PNG was read")
	}
}

// A scanned PDF (a JPEG page and no text) is rendered by pdftoppm and read
// by tesseract, numbered by page and marked as OCR; read again, it comes
// from the cache without an OCR call.
func TestScannedPDF(t *testing.T) {
	tess, pop := requireTools(t)
	pdf := scannedPDF(t, memoPNG)
	ctx := context.Background()
	if doc, err := extract.Extract(ctx, "application/pdf", bytes.NewReader(pdf), 0); err != nil || strings.TrimSpace(doc.Text()) != "" {
		t.Fatalf("the generated scan is not a PDF without text: %q, %v", doc.Text(), err)
	}
	x := &Extractor{Next: nextFunc(extract.Extract), Reader: tess, Render: pop, Cache: DirCache{Dir: filepath.Join(t.TempDir(), DirName)}}
	doc, err := x.Extract(ctx, "application/pdf", bytes.NewReader(pdf), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Pages) != 1 || doc.Pages[0].Number != 1 || !strings.Contains(doc.Text(), "bottles of water") ||
		doc.OCR != tess.ID() || x.Calls() != 1 {
		t.Errorf("doc %+v, %d calls; want page 1 with the memo's text, OCR %q, 1 call", doc, x.Calls(), tess.ID())
	}
	again, err := x.Extract(ctx, "application/pdf", bytes.NewReader(pdf), 0)
	if err != nil || again.Text() != doc.Text() || again.OCR != doc.OCR || x.Calls() != 1 {
		t.Errorf("read again: %d calls, %v; want the cached text and no call", x.Calls(), err)
	}
}

type nextFunc func(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (extract.Doc, error)

func (f nextFunc) Extract(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (extract.Doc, error) {
	return f(ctx, mimeType, r, maxBytes)
}

// scannedPDF wraps the image at path, as a JPEG, in a one-page PDF with
// no text: what a scanner writes.
func scannedPDF(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	gray := image.NewGray(img.Bounds())
	draw.Draw(gray, gray.Bounds(), img, img.Bounds().Min, draw.Src)
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, gray, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return ScanPDF(jb.Bytes(), img.Bounds().Dx(), img.Bounds().Dy(), 150)
}
