package store

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// ErrDamaged matches an index whose stored data is damaged: the database
// reported corruption (SQLite's SQLITE_CORRUPT or SQLITE_NOTADB, Postgres's
// data_corrupted or index_corrupted), or a stored record cannot be
// decoded. It is an apperr.Index failure (exit 5). Back ends return it as
// a *DamagedError, whose hint names the fix.
var ErrDamaged = apperr.Mark(errors.New("the index is damaged"), apperr.Index)

// DamagedError is an index found damaged. It matches ErrDamaged (and so
// apperr.Index) and keeps the database's or the decoder's error as its
// cause.
type DamagedError struct {
	// Backend is the damaged store's back end: "sqlite" or "postgres"
	// (the hint depends on it).
	Backend string
	// Location is the index file, or the database without its password.
	Location string
	// FileID is the file whose stored record cannot be read; "" when the
	// damage is not tied to one record.
	FileID string
	// Err is what the database or the decoder reported.
	Err error
}

func (e *DamagedError) Error() string { return e.Message(i18n.En) }

// Unwrap returns the cause and ErrDamaged.
func (e *DamagedError) Unwrap() []error { return []error{e.Err, ErrDamaged} }

// Message is the error in lang (apperr.Messager).
func (e *DamagedError) Message(lang string) string {
	if e.FileID != "" {
		return i18n.T(lang, "store.damaged_record", printable(e.FileID), e.Location, printable(e.Err.Error()))
	}
	return i18n.T(lang, "store.damaged", e.Location, printable(e.Err.Error()))
}

// Hint is the one fix (apperr.Hinter): `gds db rebuild` for the embedded
// index; for Postgres, a repair by the database's administrator (gds does
// not own that database: it may hold other data, and uploads indexed from
// other machines).
func (e *DamagedError) Hint(lang string) string {
	if e.Backend == "postgres" {
		return i18n.T(lang, "store.damaged_hint_postgres")
	}
	return i18n.T(lang, "store.damaged_hint")
}

// Damaged returns err as a *DamagedError of backend at location when
// corruption(err) finds in it the database's report of damage (the error
// it returns becomes the DamagedError's Err); any other error (nil too)
// is returned as it is, and so is an error already marked damaged.
func Damaged(err error, backend, location string, corruption func(error) error) error {
	if err == nil || errors.Is(err, ErrDamaged) {
		return err
	}
	cause := corruption(err)
	if cause == nil {
		return err
	}
	var de *DamagedError
	if errors.As(cause, &de) {
		return err
	}
	return &DamagedError{Backend: backend, Location: location, Err: cause}
}

// printable is s with control characters and invalid UTF-8 escaped
// (\x1b, \x9d): a damaged file's bytes reach the message through the
// database's error (a token of a garbled schema) and must not drive the
// user's terminal.
func printable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
