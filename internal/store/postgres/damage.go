package postgres

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gds-cli/gds/internal/store"
)

// The SQLSTATEs of Postgres's "internal error" class that report damaged
// storage: data_corrupted (a table's pages) and index_corrupted (an
// index's pages).
const (
	codeDataCorrupted  = "XX001"
	codeIndexCorrupted = "XX002"
)

// corruption returns the Postgres error in err whose SQLSTATE reports
// damaged storage (read from pgconn.PgError.Code, never from the text),
// or nil.
func corruption(err error) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return nil
	}
	switch pe.Code {
	case codeDataCorrupted, codeIndexCorrupted:
		return pe
	}
	return nil
}

// classify is deferred by every exported method that reads or writes the
// database: storage Postgres reports damaged becomes store.ErrDamaged
// (apperr.Index, with the hint to have the database repaired).
func (s *Store) classify(err *error) {
	*err = store.Damaged(*err, Backend, s.location, corruption)
}
