package app

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/suggest"
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

// ResolveFolder is the folder path that name denotes among the index's
// folders (MatchFolder): "" for none (every folder), else a path as
// indexed. A name that denotes no folder is an apperr.NotFound error that
// names the closest folders.
func (d *Deps) ResolveFolder(ctx context.Context, name string) (string, error) {
	if store.CleanFolder(name) == "" {
		return "", nil
	}
	folders, err := d.Folders(ctx)
	if err != nil {
		return "", err
	}
	m := MatchFolder(name, folders)
	if m.OK {
		return m.Path, nil
	}
	shown := strings.TrimSpace(name)
	if len(m.Closest) == 0 {
		return "", apperr.L(apperr.NotFound, "folder.unknown.none", shown)
	}
	return "", apperr.L(apperr.NotFound, "folder.unknown", shown, strings.Join(quoteAll(m.Closest), ", "))
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
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

// FolderMatch is what MatchFolder decided.
type FolderMatch struct {
	OK      bool     // Path is the folder meant
	Path    string   // as indexed ("" with OK: every folder)
	Closest []string // when not OK: the paths nearest to the name, best first (at most MaxClosestFolders)
}

// MaxClosestFolders is the most folders an unknown folder's error names.
const MaxClosestFolders = 5

// MatchFolder decides which folder of folders name denotes: a blank name is
// every folder; a path as indexed is itself; otherwise a path equal to it
// but for case, when only one is. Anything else is no folder, with the
// closest paths: those whose path or last segment is within a few edits of
// the name (suggest.MaxDistance) or contains it, nearest first; when none
// is near, the folders holding most files, so the user sees what exists.
func MatchFolder(name string, folders []Folder) FolderMatch {
	want := store.CleanFolder(strings.TrimSpace(name))
	if want == "" {
		return FolderMatch{OK: true}
	}
	var folded []string
	for _, f := range folders {
		if f.Path == want {
			return FolderMatch{OK: true, Path: f.Path}
		}
		if strings.EqualFold(f.Path, want) && !slices.Contains(folded, f.Path) {
			folded = append(folded, f.Path)
		}
	}
	if len(folded) == 1 {
		return FolderMatch{OK: true, Path: folded[0]}
	}
	if len(folded) > 1 {
		return FolderMatch{Closest: limitFolders(folded)}
	}
	lw := strings.ToLower(want)
	type near struct {
		path string
		d    int
	}
	var nears []near
	seen := map[string]bool{}
	for _, f := range folders {
		if seen[f.Path] {
			continue
		}
		seen[f.Path] = true
		lp, ln := strings.ToLower(f.Path), strings.ToLower(f.Name)
		d := min(suggest.Distance(lw, lp), suggest.Distance(lw, ln))
		switch {
		case d <= suggest.MaxDistance(lw):
		case strings.Contains(lp, lw) || utf8.RuneCountInString(ln) >= 3 && strings.Contains(lw, ln):
			d = suggest.MaxDistance(lw) + 1
		default:
			continue
		}
		nears = append(nears, near{f.Path, d})
	}
	slices.SortStableFunc(nears, func(a, b near) int { return cmp.Compare(a.d, b.d) })
	var closest []string
	for _, n := range nears {
		closest = append(closest, n.path)
	}
	if len(closest) == 0 {
		byFiles := slices.Clone(folders)
		slices.SortStableFunc(byFiles, func(a, b Folder) int { return cmp.Compare(b.Files, a.Files) })
		for _, f := range byFiles {
			if !slices.Contains(closest, f.Path) {
				closest = append(closest, f.Path)
			}
		}
	}
	return FolderMatch{Closest: limitFolders(closest)}
}

func limitFolders(ps []string) []string {
	if len(ps) > MaxClosestFolders {
		return ps[:MaxClosestFolders]
	}
	return ps
}
