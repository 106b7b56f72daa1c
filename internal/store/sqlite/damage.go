package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"modernc.org/sqlite"

	"github.com/gds-cli/gds/internal/store"
)

// SQLite's primary result codes for a damaged file: SQLITE_CORRUPT (the
// file's structure is inconsistent; its extended codes are
// SQLITE_CORRUPT_VTAB, _SEQUENCE and _INDEX) and SQLITE_NOTADB (the file
// is not an SQLite database at all: garbage, or a header overwritten).
const (
	codeCorrupt = 11
	codeNotADB  = 26
)

// corruption returns the SQLite error in err whose primary code says the
// database file is damaged, or the undecodable record (badRecord) in it;
// nil when there is none. The code is read from the driver's error
// (sqlite.Error.Code is the extended code; its low byte is the primary
// one), never from the text.
func corruption(err error) error {
	var br *badRecord
	if errors.As(err, &br) {
		return br
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return nil
	}
	switch se.Code() & 0xff {
	case codeCorrupt, codeNotADB:
		return se
	}
	return nil
}

// damaged returns err as a *store.DamagedError of the index at path when
// SQLite reported the file damaged or a record could not be decoded, else
// err unchanged.
func damaged(err error, path string) error {
	err = store.Damaged(err, Backend, path, corruption)
	var de *store.DamagedError
	if errors.As(err, &de) && de.FileID == "" {
		var br *badRecord
		if errors.As(de.Err, &br) {
			de.FileID = br.fileID
		}
	}
	return err
}

// classify is deferred by every exported method that reads or writes the
// database: a damaged file becomes store.ErrDamaged (apperr.Index, with
// the `gds db rebuild` hint) whichever statement met it.
func (s *Store) classify(err *error) { *err = damaged(*err, s.path) }

// badRecord is a stored record of a file that cannot be decoded (a
// keywords list that is not JSON, a time that does not parse): SQLite read
// it, but it is not what gds wrote.
type badRecord struct {
	fileID string
	what   string // the column
	err    error
}

func (e *badRecord) Error() string { return e.what + ": " + e.err.Error() }
func (e *badRecord) Unwrap() error { return e.err }

// maxCheckProblems is how many problems CheckIntegrity reads at most.
const maxCheckProblems = 10

// CheckIntegrity runs SQLite's PRAGMA quick_check over the whole file —
// the structure of every page and the format of every record, not the
// agreement of indexes with their tables — under ctx, which bounds it: a
// caller gives it a deadline (`gds doctor` and `gds db status` a few
// seconds; it reads the whole file, 0.3 s for the 118 MB of a
// 10,000-file index, docs/RELIABILITY.md). complete is false, with no
// error, when ctx's deadline stopped it first. Damage found is a
// *store.DamagedError naming the first problems.
func (s *Store) CheckIntegrity(ctx context.Context) (complete bool, err error) {
	defer s.classify(&err)
	rows, err := s.read.QueryContext(ctx, "PRAGMA quick_check("+strconv.Itoa(maxCheckProblems)+")")
	if err == nil {
		var problems []string
		for rows.Next() {
			var line string
			if err = rows.Scan(&line); err != nil {
				break
			}
			if line != "ok" {
				problems = append(problems, line)
			}
		}
		if err == nil {
			err = rows.Err()
		}
		rows.Close()
		if err == nil && len(problems) > 0 {
			return true, &store.DamagedError{Backend: Backend, Location: s.path, Err: checkFailed(problems)}
		}
	}
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("check the sqlite index %s: %w", s.path, err)
	}
	return true, nil
}

// checkFailed is the report of a quick_check that found damage.
type checkFailed []string

// Error names the first few problems SQLite reported.
func (c checkFailed) Error() string {
	const show = 3
	var lines []string
	for _, row := range c {
		for _, l := range strings.Split(row, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "*** ") {
				lines = append(lines, l)
			}
		}
	}
	if len(lines) > show {
		lines = append(lines[:show], "…")
	}
	return "quick_check: " + strings.Join(lines, "; ")
}
