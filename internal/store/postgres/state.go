package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gds-cli/gds/internal/store"
)

// gds_meta keys.
const (
	metaModel = "embedding_model"
	metaDim   = "embedding_dim"
)

// hnswMaxDim is pgvector's limit for HNSW indexes on vector columns.
const hnswMaxDim = 2000

// querier is what both the pool and a transaction offer.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// loadSpace reads the recorded embedding space; zero when none.
func (s *Store) loadSpace(ctx context.Context, q querier) (store.EmbeddingSpace, error) {
	rows, err := q.Query(ctx, s.q("SELECT key, value FROM {schema}.gds_meta WHERE key IN ($1, $2)"), metaModel, metaDim)
	if err != nil {
		return store.EmbeddingSpace{}, fmt.Errorf("postgres: reading the embedding space: %w", err)
	}
	var sp store.EmbeddingSpace
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return store.EmbeddingSpace{}, fmt.Errorf("postgres: reading the embedding space: %w", err)
		}
		switch k {
		case metaModel:
			sp.Model = v
		case metaDim:
			d, err := strconv.Atoi(v)
			if err != nil {
				rows.Close()
				return store.EmbeddingSpace{}, fmt.Errorf("postgres: gds_meta %s holds %q, not a number", metaDim, v)
			}
			sp.Dim = d
		}
	}
	if err := rows.Err(); err != nil {
		return store.EmbeddingSpace{}, fmt.Errorf("postgres: reading the embedding space: %w", err)
	}
	return sp, nil
}

// cachedSpace returns the recorded space, reading it when the cache is empty
// or refresh is set (another process may have reset the index).
func (s *Store) cachedSpace(ctx context.Context, refresh bool) (store.EmbeddingSpace, error) {
	s.mu.Lock()
	sp := s.space
	s.mu.Unlock()
	if sp.Dim > 0 && !refresh {
		return sp, nil
	}
	sp, err := s.loadSpace(ctx, s.pool)
	if err != nil {
		return sp, err
	}
	s.mu.Lock()
	s.space = sp
	s.mu.Unlock()
	return sp, nil
}

// EnsureEmbeddingSpace records the model and dimension on first use, creating
// the HNSW cosine indexes for that dimension, and fails with an error wrapping
// store.ErrEmbeddingMismatch when another space is recorded.
func (s *Store) EnsureEmbeddingSpace(ctx context.Context, want store.EmbeddingSpace) (err error) {
	defer s.classify(&err)
	if want.Model == "" || want.Dim <= 0 {
		return fmt.Errorf("postgres: invalid embedding space %+v: need a model name and a positive dimension", want)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", s.lockKey()); err != nil {
			return fmt.Errorf("taking the index lock: %w", err)
		}
		have, err := s.loadSpace(ctx, tx)
		if err != nil {
			return err
		}
		if have.Dim > 0 {
			if have != want {
				return store.EmbeddingMismatch(have, want)
			}
			return nil
		}
		if _, err := tx.Exec(ctx, s.q(`INSERT INTO {schema}.gds_meta (key, value) VALUES ($1, $2), ($3, $4)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`),
			metaModel, want.Model, metaDim, strconv.Itoa(want.Dim)); err != nil {
			return fmt.Errorf("recording the embedding space: %w", err)
		}
		if want.Dim <= hnswMaxDim {
			// The dimension is an int from the caller, formatted by us.
			for _, ix := range []string{
				"CREATE INDEX IF NOT EXISTS drive_file_index_embedding_hnsw ON {schema}.drive_file_index USING hnsw ((embedding::vector(%d)) vector_cosine_ops)",
				"CREATE INDEX IF NOT EXISTS drive_file_chunks_embedding_hnsw ON {schema}.drive_file_chunks USING hnsw ((embedding::vector(%d)) vector_cosine_ops)",
			} {
				if _, err := tx.Exec(ctx, s.q(fmt.Sprintf(ix, want.Dim))); err != nil {
					return fmt.Errorf("creating the HNSW index for %d dimensions: %w", want.Dim, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, store.ErrEmbeddingMismatch) {
			return err
		}
		return fmt.Errorf("postgres: recording the embedding space: %w", err)
	}
	s.mu.Lock()
	s.space = want
	s.mu.Unlock()
	return nil
}

// syncSelect reads the sync states: drive_sync_state keeps the seed's two
// columns, gds_sync_state the rest (a row without one reads as zero).
const syncSelect = `SELECT d.id, d.drive_modified_at, COALESCE(g.fingerprint, ''), COALESCE(g.page_token, ''),
	COALESCE(g.updated_at, 'epoch'::timestamptz), COALESCE(g.extract_version, 0)
	FROM {schema}.drive_sync_state d LEFT JOIN {schema}.gds_sync_state g ON g.source = d.id`

func scanSyncState(sc pgx.Row) (store.SyncState, error) {
	var st store.SyncState
	if err := sc.Scan(&st.Source, &st.ModifiedAt, &st.Fingerprint, &st.PageToken, &st.UpdatedAt, &st.ExtractVersion); err != nil {
		return st, err
	}
	st.ModifiedAt, st.UpdatedAt = st.ModifiedAt.UTC(), st.UpdatedAt.UTC()
	if st.UpdatedAt.Equal(time.Unix(0, 0)) {
		st.UpdatedAt = time.Time{}
	}
	return st, nil
}

// SyncState returns the checkpoint of source; the zero value with Source
// set when there is none.
func (s *Store) SyncState(ctx context.Context, source string) (_ store.SyncState, err error) {
	defer s.classify(&err)
	st, err := scanSyncState(s.pool.QueryRow(ctx, s.q(syncSelect+` WHERE d.id = $1`), source))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.SyncState{Source: source}, nil
	}
	if err != nil {
		return store.SyncState{Source: source}, fmt.Errorf("postgres: reading the sync state of %s: %w", source, err)
	}
	return st, nil
}

// SyncStates returns the checkpoint of every source, sorted by source key
// (byte order).
func (s *Store) SyncStates(ctx context.Context) (_ []store.SyncState, err error) {
	defer s.classify(&err)
	rows, err := s.pool.Query(ctx, s.q(syncSelect+` ORDER BY d.id COLLATE "C"`))
	if err != nil {
		return nil, fmt.Errorf("postgres: reading the sync states: %w", err)
	}
	defer rows.Close()
	out := []store.SyncState{}
	for rows.Next() {
		st, err := scanSyncState(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: reading the sync states: %w", err)
		}
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reading the sync states: %w", err)
	}
	return out, nil
}

// ceilMicro rounds t up to the microsecond, the precision of timestamptz:
// truncating would store a checkpoint earlier than the newest file's
// nanosecond modification time, and every incremental crawl would list
// that file again.
func ceilMicro(t time.Time) time.Time {
	c := t.Truncate(time.Microsecond)
	if c.Before(t) {
		c = c.Add(time.Microsecond)
	}
	return c
}

// SetSyncState stores the checkpoint of st.Source; a zero UpdatedAt stores
// the current time.
func (s *Store) SetSyncState(ctx context.Context, st store.SyncState) (err error) {
	defer s.classify(&err)
	if st.Source == "" {
		return errors.New("postgres: storing the sync state: no source key")
	}
	upd := st.UpdatedAt
	if upd.IsZero() {
		upd = time.Now()
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, s.q(`INSERT INTO {schema}.drive_sync_state (id, drive_modified_at) VALUES ($1, $2)
			ON CONFLICT (id) DO UPDATE SET drive_modified_at = EXCLUDED.drive_modified_at`),
			st.Source, ceilMicro(st.ModifiedAt).UTC()); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, s.q(`INSERT INTO {schema}.gds_sync_state (source, fingerprint, page_token, updated_at, extract_version)
			VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (source) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, page_token = EXCLUDED.page_token,
				updated_at = EXCLUDED.updated_at, extract_version = EXCLUDED.extract_version`),
			st.Source, st.Fingerprint, st.PageToken, upd.UTC(), st.ExtractVersion)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: storing the sync state of %s: %w", st.Source, err)
	}
	return nil
}

// Reset deletes every file, chunk, checkpoint and the embedding space, and
// drops the HNSW indexes of the old dimension.
func (s *Store) Reset(ctx context.Context) (err error) {
	defer s.classify(&err)
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for _, stmt := range []string{
			"SELECT pg_advisory_xact_lock($1)",
			"DELETE FROM {schema}.drive_file_chunks",
			"DELETE FROM {schema}.drive_file_index",
			"DELETE FROM {schema}.gds_document",
			"DELETE FROM {schema}.drive_sync_state",
			"DELETE FROM {schema}.gds_crawl_failure",
			"DELETE FROM {schema}.gds_meta",
			"DROP INDEX IF EXISTS {schema}.drive_file_index_embedding_hnsw",
			"DROP INDEX IF EXISTS {schema}.drive_file_chunks_embedding_hnsw",
		} {
			var args []any
			if stmt == "SELECT pg_advisory_xact_lock($1)" {
				args = []any{s.lockKey()}
			}
			if _, err := tx.Exec(ctx, s.q(stmt), args...); err != nil {
				return fmt.Errorf("%s: %w", stmt, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: resetting the index: %w", err)
	}
	s.mu.Lock()
	s.space = store.EmbeddingSpace{}
	s.mu.Unlock()
	return nil
}
