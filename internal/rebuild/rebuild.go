// Package rebuild holds what `gds db rebuild` decides without the rest of
// gds: how a damaged index file is set aside (renamed beside itself,
// never deleted, whole or not at all), which files of the upload directory
// are uploads gds stored, and the report of a rebuild with what it tells
// as it goes. app.Deps.Rebuild runs it; internal/render prints it.
package rebuild

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store"
)

// Report is the outcome of a rebuild.
type Report struct {
	// Index is the new index file.
	Index string
	// SetAside are the damaged index's files (the database, its WAL and
	// WAL index) under their new names, the database last; none when
	// there was no index.
	SetAside []string
	// Sources is the crawl of every configured source, in order.
	Sources []crawl.SourceResult
	// Uploads is the re-indexing of the upload directory.
	Uploads Uploads
	// Files is the number of files in the new index.
	Files int
}

// Uploads is what a rebuild did with the upload directory.
type Uploads struct {
	Found   int // uploads found (files gds stored under a UUID name)
	Indexed int
	// Failed are the uploads that could not be indexed (Name the name it
	// was uploaded under, Path its stored file's name), with the reason;
	// their files are kept.
	Failed []crawl.Problem
	// Ignored are the names of the entries of the directory that are not
	// uploads gds stored (left alone).
	Ignored []string
	// Named counts the uploads whose original file name was read back
	// from the damaged index, Described those whose title and tags were;
	// the others are named after their stored file, with no title or tags.
	Named, Described int
	// SalvageErr says why nothing could be read from the damaged index
	// ("" when it could, or there was none).
	SalvageErr string
}

// Progress is told the steps of a rebuild as they happen.
type Progress interface {
	// SetAside: the file from was renamed to to.
	SetAside(from, to string)
	// Uploads: n uploads are indexed next; salvaged of them had records
	// readable in the damaged index (err: why none could be read).
	Uploads(n, salvaged int, err error)
	// Upload: the i-th of n uploads was indexed (err nil) or not.
	Upload(name string, i, n int, err error)
}

// Move is one rename that sets an index file aside.
type Move struct{ From, To string }

// AsideSuffix is what a set-aside index's name adds to index.db.
const AsideSuffix = ".damaged-"

// Plan lists the renames that set the index at path aside at now: its
// WAL, WAL index and rollback journal first, the database last (a new
// database must never find the old WAL under its name), each to the name
// SQLite pairs with the set-aside database ("index.db.damaged-<UTC
// time>", "…-wal"), so the set-aside files open together. A name taken
// (two rebuilds in a second) gets "-2", "-3", …. Only the files exists
// reports are moved.
func Plan(path string, now time.Time, exists func(string) bool) []Move {
	stamp := now.UTC().Format("20060102T150405Z")
	base := path + AsideSuffix + stamp
	for n := 2; exists(base) || exists(base+"-wal") || exists(base+"-shm") || exists(base+"-journal"); n++ {
		base = fmt.Sprintf("%s%s%s-%d", path, AsideSuffix, stamp, n)
	}
	var out []Move
	for _, suffix := range []string{"-wal", "-shm", "-journal", ""} {
		if exists(path + suffix) {
			out = append(out, Move{path + suffix, base + suffix})
		}
	}
	return out
}

// Exists reports whether a file (of any kind) is at p.
func Exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// Apply renames every file of moves, in order; when one fails, the ones
// done are renamed back, so the index is either set aside whole or left
// as it was.
func Apply(moves []Move) error {
	for i, m := range moves {
		if err := os.Rename(m.From, m.To); err != nil {
			for _, done := range slices.Backward(moves[:i]) {
				_ = os.Rename(done.To, done.From)
			}
			return fmt.Errorf("set the damaged index aside: %w", err)
		}
	}
	return nil
}

// Upload is a file gds stored in the upload directory.
type Upload struct {
	ID     string // the UUID of its name: the document's file ID
	Stored string // the stored file's name
	Size   int64
	// Meta is its document metadata as far as the directory tells it:
	// FileID, StoredName, and the file's modification time (when it was
	// stored) as CreatedAt and UpdatedAt.
	Meta store.DocumentMeta
}

// storedUpload matches the names gds gives stored uploads: a UUID and the
// file's extension.
var storedUpload = regexp.MustCompile(`^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(\.[A-Za-z0-9]+)$`)

// ListUploads reads the upload directory: the uploads gds stored — regular
// files named by a UUID and an extension ext accepts — sorted by name, and
// the other entries' names. A missing directory has none.
func ListUploads(dir string, ext func(string) bool) (ups []Upload, ignored []string, err error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read the upload directory %s: %w", dir, err)
	}
	for _, e := range entries {
		m := storedUpload.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() || !ext(strings.ToLower(m[2])) {
			ignored = append(ignored, e.Name())
			continue
		}
		info, err := e.Info()
		if err != nil {
			ignored = append(ignored, e.Name())
			continue
		}
		t := info.ModTime().UTC()
		ups = append(ups, Upload{ID: m[1], Stored: e.Name(), Size: info.Size(),
			Meta: store.DocumentMeta{FileID: m[1], StoredName: e.Name(), CreatedAt: t, UpdatedAt: t}})
	}
	return ups, ignored, nil
}

// Asides returns the set-aside databases of the index at path (not their
// WAL, WAL index or journal), newest first: the names carry the UTC time
// of their rebuild in a fixed width, so the name order is the time order
// ("-2" after the plain name of the same second).
func Asides(path string) ([]string, error) {
	matches, err := filepath.Glob(globEscape(path) + AsideSuffix + "*")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range matches {
		if !strings.HasSuffix(m, "-wal") && !strings.HasSuffix(m, "-shm") && !strings.HasSuffix(m, "-journal") {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(asideKey(b), asideKey(a)) })
	return out, nil
}

// asideKey orders set-aside names: the time, then the number of a second
// one of the same second ("-2" after none, "-10" after "-9").
func asideKey(name string) string {
	i := strings.LastIndex(name, AsideSuffix)
	stamp, n, _ := strings.Cut(name[i+len(AsideSuffix):], "-")
	return fmt.Sprintf("%s %09s", stamp, n)
}

// globEscape escapes the characters filepath.Match treats specially.
func globEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[\`, r) && (r != '\\' || filepath.Separator != '\\') {
			b.WriteRune('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
