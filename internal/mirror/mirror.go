// Package mirror finds the local copy of an indexed file: the file itself
// for a local-folder source, or the same file inside a Google Drive for
// desktop mirror (macOS: ~/Library/CloudStorage/GoogleDrive-*/), so a
// launcher can open or Quick Look it without a browser.
package mirror

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/gds-cli/gds/internal/store"
)

// LocalCopies maps each file that has a local copy to its path. home is
// the user's home directory ("" looks in no mirror).
func LocalCopies(files []store.File, home string) map[string]string {
	out := map[string]string{}
	var roots []string
	rootsDone := false
	for _, f := range files {
		if p := localSourcePath(f); p != "" {
			out[f.ID] = p
			continue
		}
		if !rootsDone {
			roots, rootsDone = Roots(home), true
		}
		for _, c := range Candidates(roots, f) {
			if _, err := os.Stat(c); err == nil {
				out[f.ID] = c
				break
			}
		}
	}
	return out
}

// localSourcePath is the path of a file:// link, "" for other links.
func localSourcePath(f store.File) string {
	if !strings.HasPrefix(f.WebLink, "file://") {
		return ""
	}
	u, err := url.Parse(f.WebLink)
	if err != nil || u.Path == "" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// Roots lists the folders under which a Drive file's folder path (which
// starts with the target folder's name) may appear in a Google Drive for
// desktop mirror: My Drive, its direct subfolders, and each Shared drive.
// Deeper target folders are not searched (it would cost a walk).
func Roots(home string) []string {
	if home == "" {
		return nil
	}
	var roots []string
	for _, pat := range []string{
		filepath.Join(home, "Library", "CloudStorage", "GoogleDrive-*", "My Drive"),
		filepath.Join(home, "Library", "CloudStorage", "GoogleDrive-*", "My Drive", "*"),
		filepath.Join(home, "Library", "CloudStorage", "GoogleDrive-*", "Shared drives", "*"),
		filepath.Join(home, "Google Drive", "My Drive"),
	} {
		m, _ := filepath.Glob(pat)
		roots = append(roots, m...)
	}
	return roots
}

// googleNativeExt is the extension Google Drive for desktop gives the
// placeholder files of Google-native documents.
var googleNativeExt = map[string]string{
	"application/vnd.google-apps.document":     ".gdoc",
	"application/vnd.google-apps.spreadsheet":  ".gsheet",
	"application/vnd.google-apps.presentation": ".gslides",
	"application/vnd.google-apps.drawing":      ".gdraw",
	"application/vnd.google-apps.form":         ".gform",
}

// Candidates are the paths a Drive file may have under the roots. A name
// or folder path that could leave a root ("/", "..", NUL) has none.
func Candidates(roots []string, f store.File) []string {
	if f.Name == "" || strings.ContainsAny(f.Name, "/\x00") || strings.Contains(f.Path, "..") {
		return nil
	}
	name := f.Name + googleNativeExt[f.MimeType]
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		out = append(out, filepath.Join(r, filepath.FromSlash(f.Path), name))
	}
	return out
}
