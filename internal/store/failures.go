package store

import (
	"context"
	"time"
)

// Failure is a file its source listed that the last crawl to try it could
// not index: the download, export or reading failed after its retries, or
// the model or the store refused it. It is not a searchable record (no
// name, text or vector search reads it); the coverage check reports it
// as "failed" with its reason. The next crawl of the source tries the
// file again, clears the record when the file is indexed (or skipped on
// purpose), and keeps it, one attempt more, when the file fails again.
type Failure struct {
	Source     string // the source key (File.Source)
	FileID     string
	Name       string
	Path       string
	MimeType   string
	ModifiedAt time.Time // the listed modification time of the copy that failed
	// Kind is the apperr kind's code of the failure ("unavailable",
	// "rate_limited", "auth", "error", …).
	Kind string
	// Message says what failed, in English, at most MaxFailureMessage
	// bytes, without credentials or control characters.
	Message  string
	FailedAt time.Time
	// Attempts is the number of crawls in a row that failed the file
	// (RecordFailures counts it; the value given is ignored).
	Attempts int
}

// MaxFailureMessage is the longest Failure.Message a crawl records.
const MaxFailureMessage = 300

// Failures is the part of the contract that keeps the crawl's failed
// files, per source. Reset removes them all.
type Failures interface {
	// RecordFailures inserts or replaces the failure of each file (by
	// Source and FileID); Attempts becomes 1 for a new record and one
	// more than the stored one otherwise.
	RecordFailures(ctx context.Context, fs []Failure) error
	// ClearFailures removes the failures of these files of source;
	// unknown IDs are ignored.
	ClearFailures(ctx context.Context, source string, ids []string) error
	// SourceFailures returns the failures of source sorted by FileID (by
	// bytes).
	SourceFailures(ctx context.Context, source string) ([]Failure, error)
}
