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
	metaModel           = "embedding_model"
	metaDim             = "embedding_dim"
	metaSyncFingerprint = "sync_fingerprint"
	metaSyncUpdatedAt   = "sync_updated_at"
	syncID              = "global"
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

// mismatch is the error for mixing embedding spaces.
func mismatch(have, want store.EmbeddingSpace) error {
	return fmt.Errorf("%w: the index holds embeddings of %s (%d dimensions) but %s (%d dimensions) was requested; re-crawl with `gds crawl --full` to rebuild the index with the new model",
		store.ErrEmbeddingMismatch, have.Model, have.Dim, want.Model, want.Dim)
}

// EnsureEmbeddingSpace records the model and dimension on first use, creating
// the HNSW cosine indexes for that dimension, and fails with an error wrapping
// store.ErrEmbeddingMismatch when another space is recorded.
func (s *Store) EnsureEmbeddingSpace(ctx context.Context, want store.EmbeddingSpace) error {
	if want.Model == "" || want.Dim <= 0 {
		return fmt.Errorf("postgres: invalid embedding space %+v: need a model name and a positive dimension", want)
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", s.lockKey()); err != nil {
			return fmt.Errorf("taking the index lock: %w", err)
		}
		have, err := s.loadSpace(ctx, tx)
		if err != nil {
			return err
		}
		if have.Dim > 0 {
			if have != want {
				return mismatch(have, want)
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

// SyncState returns the crawl checkpoint; the zero value when there is none.
func (s *Store) SyncState(ctx context.Context) (store.SyncState, error) {
	var (
		mod     *time.Time
		fp, upd *string
		st      store.SyncState
	)
	err := s.pool.QueryRow(ctx, s.q(`SELECT
		(SELECT drive_modified_at FROM {schema}.drive_sync_state WHERE id = $1),
		(SELECT value FROM {schema}.gds_meta WHERE key = $2),
		(SELECT value FROM {schema}.gds_meta WHERE key = $3)`),
		syncID, metaSyncFingerprint, metaSyncUpdatedAt).Scan(&mod, &fp, &upd)
	if err != nil {
		return st, fmt.Errorf("postgres: reading the sync state: %w", err)
	}
	if mod == nil {
		return st, nil
	}
	st.ModifiedAt = mod.UTC()
	if fp != nil {
		st.Fingerprint = *fp
	}
	if upd != nil {
		t, err := time.Parse(time.RFC3339Nano, *upd)
		if err != nil {
			return st, fmt.Errorf("postgres: gds_meta %s holds %q, not a time: %w", metaSyncUpdatedAt, *upd, err)
		}
		st.UpdatedAt = t.UTC()
	}
	return st, nil
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

// SetSyncState stores the checkpoint; a zero UpdatedAt stores the current time.
func (s *Store) SetSyncState(ctx context.Context, st store.SyncState) error {
	upd := st.UpdatedAt
	if upd.IsZero() {
		upd = time.Now()
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, s.q(`INSERT INTO {schema}.drive_sync_state (id, drive_modified_at) VALUES ($1, $2)
			ON CONFLICT (id) DO UPDATE SET drive_modified_at = EXCLUDED.drive_modified_at`), syncID, ceilMicro(st.ModifiedAt).UTC()); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, s.q(`INSERT INTO {schema}.gds_meta (key, value) VALUES ($1, $2), ($3, $4)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`),
			metaSyncFingerprint, st.Fingerprint, metaSyncUpdatedAt, upd.UTC().Format(time.RFC3339Nano))
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: storing the sync state: %w", err)
	}
	return nil
}

// Reset deletes every file, chunk, checkpoint and the embedding space, and
// drops the HNSW indexes of the old dimension.
func (s *Store) Reset(ctx context.Context) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for _, stmt := range []string{
			"SELECT pg_advisory_xact_lock($1)",
			"DELETE FROM {schema}.drive_file_chunks",
			"DELETE FROM {schema}.drive_file_index",
			"DELETE FROM {schema}.gds_document",
			"DELETE FROM {schema}.drive_sync_state",
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
