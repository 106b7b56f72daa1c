package crawl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/extract"
)

// LocalSource crawls a folder tree on disk.
type LocalSource struct {
	root string // absolute, cleaned
	imgs bool   // SetReadImages
}

// NewLocalSource returns a source for the folder at root.
func NewLocalSource(root string) (*LocalSource, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("local source %q: %w", root, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("local source: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("local source %q is not a folder", root)
	}
	return &LocalSource{root: abs}, nil
}

// Kind implements Source.
func (s *LocalSource) Kind() string { return "local" }

// Fingerprint implements Source.
func (s *LocalSource) Fingerprint() string {
	if s.imgs {
		return "local:" + s.root + "\x00images"
	}
	return "local:" + s.root
}

// SetReadImages tells the source that the crawl reads images by OCR. The
// folder's files are listed alike, but the fingerprint changes, so the
// first crawl after a reader appears (or goes) is a full scan: scans and
// photos indexed by name only are read (files whose text is unchanged
// cost no model call).
func (s *LocalSource) SetReadImages(on bool) { s.imgs = on }

// LocalID returns the stable file ID of a path relative to root: the same
// file keeps its ID across crawls and processes.
func LocalID(root, rel string) string {
	h := sha256.Sum256([]byte(root + "\x00" + filepath.ToSlash(rel)))
	return "local-" + hex.EncodeToString(h[:12])
}

// List implements Source. Hidden files and folders are skipped.
func (s *LocalSource) List(ctx context.Context, since time.Time, fn func(Entry) error) error {
	return filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("walk %s: %w", p, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p != s.root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("stat %s: %w", p, err)
		}
		mod := info.ModTime().UTC()
		if !since.IsZero() && !mod.After(since) {
			return nil
		}
		rel, _ := filepath.Rel(s.root, p)
		dir := filepath.ToSlash(filepath.Dir(rel))
		if dir == "." {
			dir = ""
		}
		return fn(Entry{
			ID:         LocalID(s.root, rel),
			Name:       d.Name(),
			MimeType:   extract.MimeTypeByName(d.Name()),
			ModifiedAt: mod,
			Size:       info.Size(),
			Path:       dir,
			WebLink:    (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String(),
		})
	})
}

// Open implements Source.
func (s *LocalSource) Open(_ context.Context, e Entry) (io.ReadCloser, error) {
	u, err := url.Parse(e.WebLink)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", e.Name, err)
	}
	f, err := os.Open(filepath.FromSlash(u.Path))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", e.Name, err)
	}
	return f, nil
}
