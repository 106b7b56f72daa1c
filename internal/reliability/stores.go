package reliability

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/gds-cli/gds/internal/store/postgres"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// Opener opens the index a gds child writes, for the checks. It returns a
// nil Index (and no error) while the index does not exist yet.
type Opener func(ctx context.Context) (Index, func() error, error)

// SQLiteIndex opens the SQLite index file read-only.
func SQLiteIndex(path string) Opener {
	return func(ctx context.Context) (Index, func() error, error) {
		s, err := sqlite.Open(ctx, path, sqlite.Options{ReadOnly: true})
		if errors.Is(err, fs.ErrNotExist) {
			// No file yet, or one whose first migration has not committed
			// (a crawl stopped during start-up).
			return nil, nil, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("open the SQLite index: %w", err)
		}
		return s, s.Close, nil
	}
}

// PostgresIndex opens the Postgres index in schema.
func PostgresIndex(url, schema string) Opener {
	return func(ctx context.Context) (Index, func() error, error) {
		s, err := postgres.Open(ctx, url, postgres.WithSchema(schema))
		if err != nil {
			return nil, nil, fmt.Errorf("open the Postgres index: %w", err)
		}
		return s, func() error { s.Close(); return nil }, nil
	}
}

// NewSchemaName returns a fresh schema name with the given prefix.
func NewSchemaName(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// DropSchema removes a schema and everything in it.
func DropSchema(ctx context.Context, url, schema string) error {
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	conn, err := pgx.Connect(ctx, url+sep+"default_query_exec_mode=simple_protocol")
	if err != nil {
		return fmt.Errorf("drop schema %s: %w", schema, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
		return fmt.Errorf("drop schema %s: %w", schema, err)
	}
	return nil
}

// withIndex opens the index, runs fn on it (nil when it does not exist yet)
// and closes it.
func withIndex(ctx context.Context, open Opener, fn func(Index) error) (err error) {
	idx, closeFn, err := open(ctx)
	if err != nil {
		return err
	}
	if closeFn != nil {
		defer func() {
			if cerr := closeFn(); err == nil {
				err = cerr
			}
		}()
	}
	return fn(idx)
}
