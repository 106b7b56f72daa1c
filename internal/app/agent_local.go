package app

import (
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/gds-cli/gds/internal/agent"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/store"
)

// localRoot is the folder a local crawl started from, read off an indexed
// local file: its link is file://ROOT/PATH/NAME.
func localRoot(f store.File) (string, bool) {
	if store.SourceKindOf(f.Source) != "local" {
		return "", false
	}
	u, err := url.Parse(f.WebLink)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	p := filepath.Clean(filepath.FromSlash(u.Path))
	rel := string(filepath.Separator) + filepath.Join(filepath.FromSlash(f.Path), f.Name)
	if !strings.HasSuffix(p, rel) {
		return "", false
	}
	return strings.TrimSuffix(p, rel), true
}

// skippedFiles lists the files under root/folder that the index does not
// hold (added since the last crawl, or skipped by it), as the crawl's local
// source would list them (hidden files and folders left out), by ID.
func skippedFiles(ctx context.Context, root, folder string, indexed map[string]bool) (map[string]agent.Doc, error) {
	out := map[string]agent.Doc{}
	start := filepath.Join(root, filepath.FromSlash(folder))
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start {
				return nil // the folder is gone: nothing skipped
			}
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p != start && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		id := crawl.LocalID(root, rel)
		if indexed[id] {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		if dir == "." {
			dir = ""
		}
		out[id] = agent.Doc{ID: id, Name: d.Name(), Folder: dir, MimeType: extract.MimeTypeByName(d.Name()), Status: agent.StatusNotIndexed,
			Source: "local", Link: (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()}
		return nil
	})
	return out, err
}

// readSkipped extracts a file the index does not hold and cuts it into the
// crawl's chunks.
func readSkipped(ctx context.Context, xr crawl.Extractor, doc agent.Doc, limit int) ([]agent.Passage, bool, error) {
	u, err := url.Parse(doc.Link)
	if err != nil {
		return nil, false, err
	}
	f, err := os.Open(filepath.FromSlash(u.Path))
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", doc.Name, err)
	}
	defer f.Close()
	x, err := crawl.Extract(ctx, xr, doc.MimeType, f, DefaultMaxUpload)
	if err != nil {
		return nil, false, fmt.Errorf("extract %s: %w", doc.Name, err)
	}
	chunks := crawl.Chunks(x)
	more := len(chunks) > limit
	if more {
		chunks = chunks[:limit]
	}
	out := make([]agent.Passage, len(chunks))
	for i, c := range chunks {
		out[i] = agent.Passage{Ordinal: c.Ordinal, Evidence: agent.Evidence{
			FileID: doc.ID, Name: doc.Name, ChunkID: store.ChunkID(doc.ID, c.Ordinal), Page: c.Page, Text: c.Text, Link: doc.Link}}
	}
	return out, more, nil
}
