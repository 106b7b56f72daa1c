package crawl

import (
	"context"
	"errors"
	"io"
	"time"
)

// ErrSkip is wrapped by a Source's Open error when a file is deliberately
// not indexed (a refused type, a file over a size limit): the crawl reports
// it as skipped with the error's text instead of failed, so it does not hold
// the sync checkpoint back or fail the run.
var ErrSkip = errors.New("skipped")

// Entry is a file offered by a source.
type Entry struct {
	ID         string
	Name       string
	MimeType   string
	ModifiedAt time.Time
	Size       int64
	Path       string // folder path shown to users, "Projects/Alpha"
	Parents    []string
	WebLink    string
}

// Source lists and reads the files of one crawl target.
type Source interface {
	// Kind is "drive" or "local".
	Kind() string
	// Fingerprint identifies what is crawled (folder IDs, root path, ...);
	// when it changes, the next crawl is a full scan.
	Fingerprint() string
	// List calls fn for every file modified strictly after since (all files
	// when since is zero). It stops at the first error fn returns.
	List(ctx context.Context, since time.Time, fn func(Entry) error) error
	// Open returns the content of a file. An error wrapping ErrSkip skips
	// the file for good (until it changes); any other error fails it.
	Open(ctx context.Context, e Entry) (io.ReadCloser, error)
}
