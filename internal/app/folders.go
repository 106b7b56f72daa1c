package app

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// Folder is a folder of the index that a search or an answer can be
// scoped to (store.Filter.Folder): its files and those of its subfolders.
type Folder struct {
	Name   string // the last segment of Path
	Path   string // as indexed and shown in results, "Reports/2024"
	Source string // the source key ("local:/abs/path", "drive:ID", ...)
	Files  int    // indexed files in the folder and below it
}

// Folders lists the folders of the index with their file counts (see
// FolderTree).
func (d *Deps) Folders(ctx context.Context) ([]Folder, error) {
	var out []Folder
	err := d.withStore(ctx, func(s store.Store) error {
		counts, err := s.FolderCounts(ctx)
		if err != nil {
			return fmt.Errorf("list the folders: %w", err)
		}
		out = FolderTree(counts)
		return nil
	})
	return out, err
}

// ResolveFolder resolves a folder as a client typed it (the HTTP API's
// folder fields) in the index, as every surface does (ResolveScope): any
// case, a path as results show it, a source folder's name or local path,
// a local:/drive: spec. An unknown folder is a *search.FolderError naming
// the closest indexed folders.
func (d *Deps) ResolveFolder(ctx context.Context, typed string) (search.FolderScope, error) {
	var scope search.FolderScope
	err := d.withStore(ctx, func(s store.Store) error {
		var err error
		scope, err = ResolveScope(ctx, s, typed)
		return err
	})
	return scope, err
}

// FolderTree turns per-folder counts into the folders a user can pick: every
// folder that holds files and every folder above one (a folder holding only
// subfolders is a scope too), each counting the files in it and below it,
// per source. A source's root (Path "") is left out: no folder means the
// whole index. Sorted by path (case-insensitively, then by bytes), then by
// source.
func FolderTree(counts []store.FolderCount) []Folder {
	type key struct{ source, path string }
	files := map[key]int{}
	for _, c := range counts {
		p := store.CleanFolder(c.Path)
		for p != "" {
			files[key{c.Source, p}] += c.Files
			i := strings.LastIndex(p, "/")
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	out := make([]Folder, 0, len(files))
	for k, n := range files {
		out = append(out, Folder{Name: k.path[strings.LastIndex(k.path, "/")+1:], Path: k.path, Source: k.source, Files: n})
	}
	slices.SortFunc(out, func(a, b Folder) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Path), strings.ToLower(b.Path)), cmp.Compare(a.Path, b.Path), cmp.Compare(a.Source, b.Source))
	})
	return out
}
