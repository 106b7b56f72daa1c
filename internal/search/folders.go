package search

import (
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/suggest"
	"github.com/gds-cli/gds/internal/tokenize"
)

// FolderScope is where a search is limited: a folder path as the index
// stores it (store.Filter.Folder, "" for every folder) within some sources
// (store.Filter.Sources, none for all).
type FolderScope struct {
	Path    string
	Sources []string
}

// FolderMatch is the outcome of ResolveFolder: the scope, or the closest
// indexed folders when the typed one names none.
type FolderMatch struct {
	Scope FolderScope
	// Found is false when no indexed folder matches; Closest then holds
	// the folders nearest to what was typed (at most MaxClosestFolders),
	// as a user can type them.
	Found   bool
	Closest []string
}

// MaxClosestFolders is how many folders an unknown folder's error names.
const MaxClosestFolders = 3

// ResolveFolder finds the indexed folder a user typed (--folder, a
// launcher's folder setting, the HTTP and MCP folder fields), among the
// folders the index holds (store.Store.FolderCounts), in this order:
//
//  1. a source spec: "local:/abs/dir" (the source itself, or a folder
//     inside it), "drive:FOLDER_ID" or "drive" (a Drive source);
//  2. an absolute local path: inside a local source's folder;
//  3. a folder path as results show it ("Team/Specs"): exactly, else
//     case-insensitively (one such folder, else the first in byte order);
//  4. a local source's name as results label it ("Reports" for
//     local:/home/u/Reports), alone or followed by a path inside it.
//
// A folder with files only in its subfolders counts. "" is every folder.
func ResolveFolder(typed string, folders []store.FolderCount) FolderMatch {
	typed = strings.TrimSpace(typed)
	if typed == "" {
		return FolderMatch{Found: true}
	}
	paths := map[string]map[string]bool{} // source → every folder path in it (ancestors included)
	for _, f := range folders {
		if paths[f.Source] == nil {
			paths[f.Source] = map[string]bool{"": true}
		}
		p := store.CleanFolder(f.Path)
		for p != "" {
			paths[f.Source][p] = true
			i := strings.LastIndex(p, "/")
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	sources := make([]string, 0, len(paths))
	for s := range paths {
		sources = append(sources, s)
	}
	sort.Strings(sources)

	// inSource resolves a path inside one source (exactly, else
	// case-insensitively).
	inSource := func(src, rel string) (string, bool) {
		rel = store.CleanFolder(rel)
		if paths[src][rel] {
			return rel, true
		}
		return foldMatch(rel, keys(paths[src]))
	}
	// 1, 2: a spec or an absolute local path.
	if kind, rest, ok := strings.Cut(typed, ":"); ok && (kind == "local" || store.SourceKindOf(kind) == "drive") {
		if kind != "local" {
			for _, src := range sources {
				if src == typed {
					return FolderMatch{Found: true, Scope: FolderScope{Sources: []string{src}}}
				}
			}
		} else if m, ok := localPath(rest, sources, inSource); ok {
			return m
		}
	} else if store.SourceKindOf(typed) == "drive" && !strings.Contains(typed, "/") {
		// "drive" (the default account) or "drive@ACCOUNT": every Drive
		// source of that account.
		for _, src := range sources {
			if store.SourceKindOf(src) == "drive" && store.InSources(src, []string{typed}) {
				return FolderMatch{Found: true, Scope: FolderScope{Sources: []string{typed}}}
			}
		}
	} else if strings.HasPrefix(typed, "/") {
		if m, ok := localPath(typed, sources, inSource); ok {
			return m
		}
	}
	// 3: a folder path as shown, in any source.
	all := map[string]bool{}
	for _, src := range sources {
		for p := range paths[src] {
			if p != "" {
				all[p] = true
			}
		}
	}
	clean := store.CleanFolder(typed)
	if all[clean] {
		return FolderMatch{Found: true, Scope: FolderScope{Path: clean}}
	}
	if p, ok := foldMatch(clean, keys(all)); ok {
		return FolderMatch{Found: true, Scope: FolderScope{Path: p}}
	}
	// 4: a local source's name, then a path inside it.
	label, rel, _ := strings.Cut(clean, "/")
	for _, src := range sources {
		if store.SourceKindOf(src) != "local" || !strings.EqualFold(sourceName(src), label) {
			continue
		}
		if p, ok := inSource(src, rel); ok {
			return FolderMatch{Found: true, Scope: FolderScope{Path: p, Sources: []string{src}}}
		}
	}
	return FolderMatch{Closest: closestFolders(strings.TrimPrefix(typed, "local:"), folders)}
}

// localPath resolves an absolute path inside the longest local source
// folder holding it.
func localPath(p string, sources []string, inSource func(src, rel string) (string, bool)) (FolderMatch, bool) {
	p = path.Clean(p)
	best := ""
	for _, src := range sources {
		root := strings.TrimPrefix(src, "local:")
		if store.SourceKindOf(src) != "local" || root == src || root == "" {
			continue
		}
		if (p == root || strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/")) && len(src) > len(best) {
			best = src
		}
	}
	if best == "" {
		return FolderMatch{}, false
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(p, strings.TrimPrefix(best, "local:")), "/")
	folder, ok := inSource(best, rel)
	if !ok {
		return FolderMatch{}, false
	}
	return FolderMatch{Found: true, Scope: FolderScope{Path: folder, Sources: []string{best}}}, true
}

// sourceName is a local source's folder name ("local:/home/u/Reports" →
// "Reports"), as results label it.
func sourceName(src string) string {
	return path.Base(strings.TrimPrefix(src, "local:"))
}

// foldMatch finds p among paths case-insensitively (after Unicode
// normalisation): the one such path, else the first in byte order.
func foldMatch(p string, paths []string) (string, bool) {
	n := tokenize.Normalize(p)
	var hits []string
	for _, x := range paths {
		if x != "" && tokenize.Normalize(x) == n {
			hits = append(hits, x)
		}
	}
	if len(hits) == 0 {
		return "", false
	}
	sort.Strings(hits)
	return hits[0], true
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// closestFolders are the indexed folders (and local source names) a user
// most likely meant by typed, at most MaxClosestFolders: first those near
// it — within a few edits (suggest.MaxDistance, at least one),
// case-insensitive, of the whole path or of its last segment, or containing it (or, for a name of
// three characters or more, contained in it) — nearest first; then the
// folders holding the most files, so the user sees what exists. Ties in
// byte order.
func closestFolders(typed string, folders []store.FolderCount) []string {
	files := map[string]int{} // a folder path or a local source's name → files in it and below
	for _, f := range folders {
		if store.SourceKindOf(f.Source) == "local" {
			if n := sourceName(f.Source); n != "" && n != "." && n != "/" && f.Source != "local" {
				files[n] += f.Files
			}
		}
		p := store.CleanFolder(f.Path)
		for p != "" {
			files[p] += f.Files
			i := strings.LastIndex(p, "/")
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	t := tokenize.Normalize(typed)
	tBase := path.Base(t)
	limit := suggest.MaxDistance(tBase)
	type cand struct {
		name  string
		near  bool
		dist  int
		files int
	}
	cands := make([]cand, 0, len(files))
	for name, n := range files {
		c := tokenize.Normalize(name)
		cBase := path.Base(c)
		d := min(editDistance(t, c), editDistance(tBase, cBase)+1)
		near := d <= max(limit, 1)+1
		if !near && (strings.Contains(c, tBase) || len([]rune(cBase)) >= 3 && strings.Contains(tBase, cBase)) {
			near, d = true, limit+2
		}
		cands = append(cands, cand{name, near, d, n})
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		switch {
		case a.near != b.near:
			return a.near
		case a.near && a.dist != b.dist:
			return a.dist < b.dist
		case !a.near && a.files != b.files:
			return a.files > b.files
		}
		return a.name < b.name
	})
	out := make([]string, 0, MaxClosestFolders)
	for _, c := range cands[:min(len(cands), MaxClosestFolders)] {
		out = append(out, c.name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, by runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// maxListedFolders is how many indexed folders an unknown folder's hint
// lists.
const maxListedFolders = 12

// FolderError is a folder no indexed folder matches (a usage error: exit
// 2; the HTTP API answers 404): it names the closest indexed folders, and
// its hint lists the indexed ones.
type FolderError struct {
	Typed   string
	Closest []string
	Listed  []string // indexed folders as a user can type them, shallowest first (at most maxListedFolders)
	More    int      // folders not listed
}

// UnknownFolder is the error of a typed folder m did not find.
func UnknownFolder(typed string, m FolderMatch, folders []store.FolderCount) *FolderError {
	listed := ListedFolders(folders)
	return &FolderError{Typed: typed, Closest: m.Closest, Listed: listed[:min(len(listed), maxListedFolders)],
		More: max(0, len(listed)-maxListedFolders)}
}

func (e *FolderError) Error() string { return e.Message(i18n.En) }

// Message names the folder typed and the closest ones.
func (e *FolderError) Message(lang string) string {
	if len(e.Closest) == 0 {
		return i18n.T(lang, "search.folder.unknown.empty", e.Typed)
	}
	quoted := make([]string, len(e.Closest))
	for i, c := range e.Closest {
		quoted[i] = strconv.Quote(c)
	}
	return i18n.T(lang, "search.folder.unknown", e.Typed, strings.Join(quoted, ", "))
}

// Hint lists the indexed folders and how a folder may be written.
func (e *FolderError) Hint(lang string) string {
	if len(e.Listed) == 0 {
		return ""
	}
	list := strings.Join(e.Listed, ", ")
	if e.More > 0 {
		list += i18n.T(lang, "search.folder.more", e.More)
	}
	return i18n.T(lang, "search.folder.listed", list)
}

// Unwrap marks the error as a usage error.
func (e *FolderError) Unwrap() error { return apperr.Usage }

// ListedFolders are the indexed folders as a user can type them: each
// local source's name, then every folder path, shallowest first, then in
// byte order.
func ListedFolders(folders []store.FolderCount) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, f := range folders {
		if store.SourceKindOf(f.Source) == "local" && f.Source != "local" {
			add(sourceName(f.Source))
		}
	}
	var paths []string
	for _, f := range folders {
		p := store.CleanFolder(f.Path)
		for p != "" {
			paths = append(paths, p)
			i := strings.LastIndex(p, "/")
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	sort.Slice(paths, func(i, j int) bool {
		di, dj := strings.Count(paths[i], "/"), strings.Count(paths[j], "/")
		if di != dj {
			return di < dj
		}
		return paths[i] < paths[j]
	})
	for _, p := range paths {
		add(p)
	}
	return out
}
