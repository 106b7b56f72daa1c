package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/gds-cli/gds/internal/store"
)

// RecordFailures inserts or replaces the failure of each file, counting
// its attempts.
func (s *Store) RecordFailures(ctx context.Context, fs []store.Failure) (err error) {
	defer s.classify(&err)
	if len(fs) == 0 {
		return nil
	}
	return s.inWriteTx(ctx, "record crawl failures", func(tx *sql.Tx) error {
		for _, f := range fs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO gds_crawl_failure
				(source, file_id, file_name, path, mime_type, modified_at, kind, message, failed_at, attempts)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
				ON CONFLICT (source, file_id) DO UPDATE SET file_name = excluded.file_name, path = excluded.path,
					mime_type = excluded.mime_type, modified_at = excluded.modified_at, kind = excluded.kind,
					message = excluded.message, failed_at = excluded.failed_at, attempts = gds_crawl_failure.attempts + 1`,
				f.Source, f.FileID, f.Name, f.Path, f.MimeType, formatTime(f.ModifiedAt), f.Kind, f.Message, formatTime(f.FailedAt)); err != nil {
				return err
			}
		}
		return nil
	})
}

// ClearFailures removes the failures of ids in source.
func (s *Store) ClearFailures(ctx context.Context, source string, ids []string) (err error) {
	defer s.classify(&err)
	if len(ids) == 0 {
		return nil
	}
	return s.inWriteTx(ctx, "clear crawl failures", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM gds_crawl_failure WHERE source = ? AND file_id IN (SELECT value FROM json_each(?))`,
			source, jsonIDs(ids))
		return err
	})
}

// SourceFailures returns the failures of source sorted by file ID.
func (s *Store) SourceFailures(ctx context.Context, source string) (_ []store.Failure, err error) {
	defer s.classify(&err)
	rows, err := s.read.QueryContext(ctx, `SELECT file_id, file_name, path, mime_type, modified_at, kind, message, failed_at, attempts
		FROM gds_crawl_failure WHERE source = ? ORDER BY file_id`, source)
	if err != nil {
		return nil, fmt.Errorf("sqlite index %s: read crawl failures: %w", s.path, err)
	}
	defer rows.Close()
	var out []store.Failure
	for rows.Next() {
		f := store.Failure{Source: source}
		var mod, at string
		if err := rows.Scan(&f.FileID, &f.Name, &f.Path, &f.MimeType, &mod, &f.Kind, &f.Message, &at, &f.Attempts); err != nil {
			return nil, fmt.Errorf("sqlite index %s: read crawl failures: %w", s.path, err)
		}
		if f.ModifiedAt, err = parseTime(mod); err != nil {
			return nil, fmt.Errorf("sqlite index %s: crawl failure of %s: %w", s.path, f.FileID, err)
		}
		if f.FailedAt, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("sqlite index %s: crawl failure of %s: %w", s.path, f.FileID, err)
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite index %s: read crawl failures: %w", s.path, err)
	}
	return out, nil
}
