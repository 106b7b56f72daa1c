package app

import (
	"context"
	"io"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/ocr"
)

// ocrTools are the OCR engine and PDF renderer installed on this machine,
// looked up once per process (a crawl's first scan pays for it).
type ocrTools struct {
	reader ocr.Reader   // nil: no tesseract
	render ocr.Renderer // nil: no pdftoppm
	sem    chan struct{}
}

var findOCRTools = sync.OnceValue(func() ocrTools {
	var t ocrTools
	if tess, err := ocr.FindTesseract(context.Background(), ocr.Limits{}); err == nil {
		t.reader = tess
	}
	if p, ok := ocr.FindPoppler(ocr.Limits{}); ok {
		t.render = p
	}
	// One image per processor at once, whatever the crawl's concurrency.
	t.sem = make(chan struct{}, max(1, runtime.NumCPU()))
	return t
})

// inProcess is extract.Extract as a crawl.Extractor (Deps.Extractor nil).
type inProcess struct{}

func (inProcess) Extract(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (extract.Doc, error) {
	return extract.Extract(ctx, mimeType, r, maxBytes)
}

// fileReader is the extractor of crawled and uploaded files: d.Extractor,
// with OCR in front of it unless GDS_OCR=off. A scan or photo is read by
// tesseract when it is installed (PDF pages rendered by pdftoppm), the text
// kept in the gds home's OCR cache; without tesseract it is indexed by name
// only with the reason in the user's language.
func (d *Deps) fileReader(cfg *config.Config) crawl.Extractor {
	if cfg == nil || cfg.OCR == config.OCROff {
		return d.Extractor
	}
	var next ocr.Next = inProcess{}
	if d.Extractor != nil {
		next = d.Extractor
	}
	t := findOCRTools()
	x := &ocr.Extractor{Next: next, Lang: d.Lang, Sem: t.sem}
	if t.reader != nil {
		x.Reader, x.Render = t.reader, t.render
		x.Cache = ocr.DirCache{Dir: filepath.Join(cfg.Home, ocr.DirName)}
	}
	return x
}
