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

// ErrGone is wrapped, with ErrSkip, by a Source's Open error when the file
// no longer exists (deleted since it was listed): it is skipped and left
// out of the index, where another skip records the file by name only with
// its reason, so that the next listing knows it and does not try again
// until it changes.
var ErrGone = errors.New("gone")

// Stop wraps a Source's Open error that every other file would meet too
// (the Google sign-in was revoked): Run starts no further file, lets the
// files already open finish, and returns the error, with the checkpoint
// still before every file not committed. Without it a crawl would fail
// each remaining file in turn.
func Stop(err error) error { return stopError{err} }

type stopError struct{ err error }

func (e stopError) Error() string { return e.err.Error() }
func (e stopError) Unwrap() error { return e.err }

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
	// the file for good (until it changes; it is indexed by name only with
	// the reason, unless the error also wraps ErrGone); an error made by
	// Stop stops the crawl; any other error fails the file.
	Open(ctx context.Context, e Entry) (io.ReadCloser, error)
}
