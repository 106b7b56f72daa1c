package ocr

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/i18n"
)

// Next is the extractor OCR stands in front of (*isolate.Pool in gds).
type Next interface {
	Extract(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (extract.Doc, error)
}

// Extractor reads a file's text with Next, and by OCR when the file is an
// image or a PDF without text. It has Next's contract (crawl.Extractor);
// a Doc read by OCR names its engine (extract.Doc.OCR).
type Extractor struct {
	Next Next
	// Reader reads page images; nil: no OCR engine, and a scan is refused
	// with ErrScanned.
	Reader Reader
	// Render renders a PDF's pages; nil: no renderer, and a scanned PDF
	// is refused with ErrScanned.
	Render Renderer
	// Cache keeps what was read by content hash; nil: none.
	Cache Cache
	// MaxPages is the most pages of one PDF read by OCR (<= 0:
	// DefaultMaxPages); a longer one is indexed by its first pages
	// (Doc.Truncated).
	MaxPages int
	// Lang is the language of the reason a scan is not read.
	Lang string
	// Sem bounds the files read by OCR at once (nil: no bound). A file
	// holds its place from its first page to its last, so the files in
	// flight finish instead of all advancing a page at a time.
	Sem chan struct{}

	calls atomic.Int64
}

// DefaultMaxPages is the default Extractor.MaxPages: about a minute of
// tesseract, within a crawl's two minutes for one file.
const DefaultMaxPages = 40

// Calls is the number of page images the extractor has read by OCR (cache
// hits are not calls).
func (x *Extractor) Calls() int64 { return x.calls.Load() }

// ErrScanned means the file is a scan or a photo and no OCR engine could
// read it; it matches extract.ErrUnsupported, so a crawl indexes the file
// by name only with the error's text as the reason.
var ErrScanned = errors.New("scanned")

type scannedError struct{ msg string }

func (e *scannedError) Error() string   { return e.msg }
func (e *scannedError) Unwrap() []error { return []error{ErrScanned, extract.ErrUnsupported} }

// kind is what a file is to OCR.
type kind int

const (
	kindNone  kind = iota // not for OCR
	kindImage             // an image: OCR of the image itself
	kindPDF               // a PDF: OCR of its rendered pages when it has no text
)

// mayNeed reports whether a file of mimeType may need OCR, so that its
// bytes are read here rather than streamed to Next.
func mayNeed(mimeType string) bool {
	mt, _, _ := strings.Cut(strings.ToLower(mimeType), ";")
	mt = strings.TrimSpace(mt)
	return strings.HasPrefix(mt, "image/") || mt == "application/pdf" || mt == "application/octet-stream" || mt == ""
}

// sniff decides from the first bytes whether the content is an image OCR
// reads (PNG, JPEG, GIF, BMP, WebP, TIFF) or a PDF.
func sniff(data []byte) kind {
	head := data[:min(len(data), 512)]
	if bytes.HasPrefix(head, []byte("II*\x00")) || bytes.HasPrefix(head, []byte("MM\x00*")) {
		return kindImage
	}
	switch http.DetectContentType(head) {
	case "image/png", "image/jpeg", "image/gif", "image/bmp", "image/webp":
		return kindImage
	}
	if bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-")) {
		return kindPDF
	}
	return kindNone
}

// Extract implements crawl.Extractor.
func (x *Extractor) Extract(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (extract.Doc, error) {
	if !mayNeed(mimeType) {
		return x.Next.Extract(ctx, mimeType, r, maxBytes)
	}
	// Read as octet-stream: extract refuses image types unread.
	data, err := extract.ReadInput("application/octet-stream", r, maxBytes)
	if err != nil {
		return extract.Doc{}, err
	}
	k := sniff(data)
	if k == kindNone {
		return x.Next.Extract(ctx, mimeType, bytes.NewReader(data), maxBytes)
	}
	pages := 1
	if k == kindPDF {
		doc, err := x.Next.Extract(ctx, "application/pdf", bytes.NewReader(data), maxBytes)
		if err != nil || strings.TrimSpace(doc.Text()) != "" {
			return doc, err
		}
		pages = max(len(doc.Pages), 1)
	}
	return x.ocr(ctx, k, data, pages)
}

// ocr reads the file's images, or takes what was read before from the
// cache: the whole file's text by the file's hash, else each page's by
// its image's hash (page).
func (x *Extractor) ocr(ctx context.Context, k kind, data []byte, pages int) (extract.Doc, error) {
	if x.Reader == nil {
		return extract.Doc{}, &scannedError{msg: i18n.T(x.Lang, "ocr.scanned")}
	}
	if k == kindPDF && x.Render == nil {
		return extract.Doc{}, &scannedError{msg: i18n.T(x.Lang, "ocr.scanned_pdf")}
	}
	key := CacheKey(data, x.Reader.ID())
	if x.Cache != nil {
		if doc, ok := x.Cache.Get(key); ok {
			return doc, nil
		}
	}
	if x.Sem != nil {
		select {
		case x.Sem <- struct{}{}:
			defer func() { <-x.Sem }()
		case <-ctx.Done():
			return extract.Doc{}, ctx.Err()
		}
	}
	maxPages := x.MaxPages
	if maxPages <= 0 {
		maxPages = DefaultMaxPages
	}
	images := [][]byte{data}
	if k == kindPDF {
		var err error
		if images, err = x.Render.Render(ctx, data, maxPages); err != nil {
			return extract.Doc{}, fmt.Errorf("render the scanned PDF's pages: %w", err)
		}
	}
	doc := extract.Doc{OCR: x.Reader.ID(), Truncated: k == kindPDF && pages > maxPages}
	budget := extract.MaxTextBytes
	for i, img := range images {
		read := x.read
		if k == kindPDF {
			read = x.page
		}
		text, err := read(ctx, img)
		if err != nil {
			return extract.Doc{}, fmt.Errorf("OCR: %w", err)
		}
		if len(text) > budget {
			text, doc.Truncated = cut(text, budget), true
		}
		budget -= len(text)
		n := 0
		if k == kindPDF {
			n = i + 1
		}
		doc.Pages = append(doc.Pages, extract.Page{Number: n, Text: text})
		if budget <= 0 {
			doc.Truncated = true
			break
		}
	}
	if x.Cache != nil {
		// A cache that cannot be written costs the next crawl a reading,
		// nothing more.
		_ = x.Cache.Put(key, doc)
	}
	return doc, nil
}

// page reads one rendered page of a PDF, or takes its text from the cache
// by the page image's hash, and caches it as soon as it is read: a re-crawl
// of a scan that changed in part (a page added or replaced), or whose
// reading was interrupted, reads only the pages not read before. Page
// entries hold the whole text read; the file's entry, its budgeted pages.
func (x *Extractor) page(ctx context.Context, img []byte) (string, error) {
	if x.Cache == nil {
		return x.read(ctx, img)
	}
	key := CacheKey(img, x.Reader.ID())
	if doc, ok := x.Cache.Get(key); ok && len(doc.Pages) == 1 {
		return doc.Pages[0].Text, nil
	}
	text, err := x.read(ctx, img)
	if err != nil {
		return "", err
	}
	_ = x.Cache.Put(key, extract.Doc{OCR: x.Reader.ID(), Pages: []extract.Page{{Text: text}}})
	return text, nil
}

func (x *Extractor) read(ctx context.Context, img []byte) (string, error) {
	x.calls.Add(1)
	return x.Reader.Read(ctx, img)
}

// CacheKey is the cache key of a file's content read by the engine
// engineID (Reader.ID): the content's SHA-256 and a short hash of the
// engine.
func CacheKey(data []byte, engineID string) string {
	sum := sha256.Sum256(data)
	idSum := sha256.Sum256([]byte(engineID))
	return hex.EncodeToString(sum[:]) + "-" + hex.EncodeToString(idSum[:4])
}

// cut returns the first at most n bytes of s, whole characters only.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n]
}
