package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gds-cli/gds/internal/store"
)

// RecordFailures inserts or replaces the failure of each file, counting
// its attempts.
func (s *Store) RecordFailures(ctx context.Context, fs []store.Failure) (err error) {
	defer s.classify(&err)
	if len(fs) == 0 {
		return nil
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for _, f := range fs {
			if _, err := tx.Exec(ctx, s.q(`INSERT INTO {schema}.gds_crawl_failure
				(source, file_id, file_name, path, mime_type, modified_at, kind, message, failed_at, attempts)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1)
				ON CONFLICT (source, file_id) DO UPDATE SET file_name = EXCLUDED.file_name, path = EXCLUDED.path,
					mime_type = EXCLUDED.mime_type, modified_at = EXCLUDED.modified_at, kind = EXCLUDED.kind,
					message = EXCLUDED.message, failed_at = EXCLUDED.failed_at, attempts = gds_crawl_failure.attempts + 1`),
				f.Source, f.FileID, f.Name, f.Path, f.MimeType, f.ModifiedAt.UTC(), f.Kind, f.Message, f.FailedAt.UTC()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: recording %d crawl failures: %w", len(fs), err)
	}
	return nil
}

// ClearFailures removes the failures of ids in source.
func (s *Store) ClearFailures(ctx context.Context, source string, ids []string) (err error) {
	defer s.classify(&err)
	if len(ids) == 0 {
		return nil
	}
	if _, err := s.pool.Exec(ctx, s.q(`DELETE FROM {schema}.gds_crawl_failure WHERE source = $1 AND file_id = ANY($2::text[])`), source, ids); err != nil {
		return fmt.Errorf("postgres: clearing crawl failures of %s: %w", source, err)
	}
	return nil
}

// SourceFailures returns the failures of source sorted by file ID (by
// bytes).
func (s *Store) SourceFailures(ctx context.Context, source string) (_ []store.Failure, err error) {
	defer s.classify(&err)
	rows, err := s.pool.Query(ctx, s.q(`SELECT file_id, file_name, path, mime_type, modified_at, kind, message, failed_at, attempts
		FROM {schema}.gds_crawl_failure WHERE source = $1 ORDER BY file_id COLLATE "C"`), source)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading the crawl failures of %s: %w", source, err)
	}
	defer rows.Close()
	var out []store.Failure
	for rows.Next() {
		f := store.Failure{Source: source}
		if err := rows.Scan(&f.FileID, &f.Name, &f.Path, &f.MimeType, &f.ModifiedAt, &f.Kind, &f.Message, &f.FailedAt, &f.Attempts); err != nil {
			return nil, fmt.Errorf("postgres: reading the crawl failures of %s: %w", source, err)
		}
		f.ModifiedAt, f.FailedAt = f.ModifiedAt.UTC(), f.FailedAt.UTC()
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reading the crawl failures of %s: %w", source, err)
	}
	return out, nil
}
