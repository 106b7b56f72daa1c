package app

import (
	"context"
	"io"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/gds-cli/gds/internal/ai"
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
	// Looked up once for the process, not for the first caller: a cancelled
	// first crawl must not leave later ones without OCR. ocr.Limits bound it.
	if tess, err := ocr.FindTesseract(context.Background(), ocr.Limits{}); err == nil {
		t.reader = tess
	}
	if p, ok := ocr.FindPoppler(ocr.Limits{}); ok {
		t.render = p
	}
	// One file per processor read at once, whatever the crawl's concurrency.
	t.sem = make(chan struct{}, max(1, runtime.NumCPU()))
	return t
})

// readsImages reports whether x reads images by OCR.
func readsImages(x crawl.Extractor) bool {
	o, ok := x.(*ocr.Extractor)
	return ok && o.Reader != nil
}

// inProcess is extract.Extract as a crawl.Extractor, and extract.ToPNG as
// an ocr.PNGConverter, in this process (Deps.Extractor nil or not a pool).
type inProcess struct{}

func (inProcess) ToPNG(_ context.Context, image []byte) ([]byte, error) { return extract.ToPNG(image) }

func (inProcess) Extract(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (extract.Doc, error) {
	return extract.Extract(ctx, mimeType, r, maxBytes)
}

// fileReader is the extractor of crawled and uploaded files: d.Extractor,
// with OCR in front of it unless GDS_OCR=off. A scan or photo (PDF pages
// rendered by pdftoppm) is read by prov's chat model when it has vision
// (the openai provider; GDS_OCR auto or model), else by tesseract when it
// is installed (auto or tesseract); the text is kept in the gds home's OCR
// cache. Without a reader it is indexed by name only with the reason in
// the user's language.
func (d *Deps) fileReader(cfg *config.Config, prov ai.Provider) crawl.Extractor {
	if cfg == nil || cfg.OCR == config.OCROff {
		return d.Extractor
	}
	var next ocr.Next = inProcess{}
	if d.Extractor != nil {
		next = d.Extractor
	}
	t := findOCRTools()
	x := &ocr.Extractor{Next: next, Lang: d.Lang, Sem: t.sem, Render: t.render}
	if m, ok := prov.(ocr.ImageModel); ok && (cfg.OCR == config.OCRModel || cfg.OCR == config.OCRAuto) {
		// TIFF and BMP go to the model as PNG, decoded in a parse worker.
		var conv ocr.PNGConverter = inProcess{}
		if c, ok := d.Extractor.(ocr.PNGConverter); ok {
			conv = c
		}
		x.Reader = ocr.Model{M: m, Convert: conv}
	} else if t.reader != nil && cfg.OCR != config.OCRModel {
		x.Reader = t.reader
	}
	if x.Reader != nil {
		x.Cache = ocr.DirCache{Dir: filepath.Join(cfg.Home, ocr.DirName)}
	}
	return x
}
