package ocr

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gds-cli/gds/internal/extract"
)

// Renderer renders a PDF's pages to images.
type Renderer interface {
	// Render returns the images of the first pages of pdf, at most
	// maxPages of them, in page order.
	Render(ctx context.Context, pdf []byte, maxPages int) ([][]byte, error)
}

// Poppler renders PDF pages with pdftoppm (poppler-utils), a limited
// child process per PDF.
type Poppler struct {
	Path   string // the pdftoppm executable
	DPI    int    // <= 0: 200
	Limits Limits
}

// FindPoppler returns the installed pdftoppm, or false.
func FindPoppler(l Limits) (*Poppler, bool) {
	p, ok := findTool("pdftoppm")
	if !ok {
		return nil, false
	}
	return &Poppler{Path: p, Limits: l}, true
}

// maxImageBytes bounds one rendered page read back (a grey 200 dpi A4 page
// is about 1 MB as PNG).
const maxImageBytes = 64 << 20

// Render implements Renderer: pdftoppm writes grey PNG pages into a
// temporary directory, removed before Render returns.
func (p *Poppler) Render(ctx context.Context, pdf []byte, maxPages int) ([][]byte, error) {
	dpi := p.DPI
	if dpi <= 0 {
		dpi = 200
	}
	dir, err := os.MkdirTemp("", "gds-ocr-*")
	if err != nil {
		return nil, fmt.Errorf("render PDF pages: %w", err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		return nil, fmt.Errorf("render PDF pages: %w", err)
	}
	args := []string{"-r", strconv.Itoa(dpi), "-gray", "-png", "-f", "1", "-l", strconv.Itoa(maxPages), "in.pdf", "page"}
	if _, err := run(ctx, p.Limits, p.Path, args, nil, dir); err != nil {
		return nil, err
	}
	names, err := pageFiles(dir)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, 0, len(names))
	for _, n := range names {
		fi, err := os.Stat(filepath.Join(dir, n))
		if err != nil {
			return nil, fmt.Errorf("render PDF pages: %w", err)
		}
		if fi.Size() > maxImageBytes {
			return nil, fmt.Errorf("%w: a rendered page is %d MiB, over %d MiB", extract.ErrTooComplex, fi.Size()>>20, maxImageBytes>>20)
		}
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, fmt.Errorf("render PDF pages: %w", err)
		}
		out = append(out, b)
	}
	return out, nil
}

// pageFiles lists pdftoppm's page-N.png files (N zero-padded to the page
// count's width) in page order.
func pageFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("render PDF pages: %w", err)
	}
	type pf struct {
		n    int
		name string
	}
	var pages []pf
	for _, e := range ents {
		name := e.Name()
		num, ok := strings.CutPrefix(strings.TrimSuffix(name, ".png"), "page-")
		if !ok || !strings.HasSuffix(name, ".png") {
			continue
		}
		n, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		pages = append(pages, pf{n, name})
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].n < pages[j].n })
	names := make([]string, len(pages))
	for i, p := range pages {
		names[i] = p.name
	}
	return names, nil
}
