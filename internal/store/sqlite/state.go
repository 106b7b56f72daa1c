package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gds-cli/gds/internal/store"
)

// Keys of gds_meta.
const (
	metaModel      = "embedding_model"
	metaDim        = "embedding_dim"
	metaGeneration = "generation"
)

// meta is the content of gds_meta.
type meta struct {
	space      store.EmbeddingSpace // zero when none recorded
	generation int64
}

func readMeta(ctx context.Context, q querier) (meta, error) {
	var m meta
	rows, err := q.QueryContext(ctx, `SELECT key, value FROM gds_meta`)
	if err != nil {
		return m, fmt.Errorf("read gds_meta: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return m, fmt.Errorf("read gds_meta: %w", err)
		}
		switch k {
		case metaModel:
			m.space.Model = v
		case metaDim:
			if m.space.Dim, err = strconv.Atoi(v); err != nil {
				return m, fmt.Errorf("read gds_meta: embedding_dim %q is not a number: %w", v, err)
			}
		case metaGeneration:
			if m.generation, err = strconv.ParseInt(v, 10, 64); err != nil {
				return m, fmt.Errorf("read gds_meta: generation %q is not a number: %w", v, err)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return m, fmt.Errorf("read gds_meta: %w", err)
	}
	return m, nil
}

// bumpGeneration marks a change of files or vectors for cache validation.
func bumpGeneration(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO gds_meta (key, value) VALUES ('generation', '1')
		ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`)
	if err != nil {
		return fmt.Errorf("bump index generation: %w", err)
	}
	return nil
}

// EnsureEmbeddingSpace records sp on first use and refuses a different one.
func (s *Store) EnsureEmbeddingSpace(ctx context.Context, sp store.EmbeddingSpace) (err error) {
	defer s.classify(&err)
	if sp.Model == "" || sp.Dim <= 0 {
		return fmt.Errorf("ensure embedding space: invalid model %q / dimension %d", sp.Model, sp.Dim)
	}
	m, err := readMeta(ctx, s.read)
	if err != nil {
		return fmt.Errorf("ensure embedding space in %s: %w", s.path, err)
	}
	if m.space == sp {
		return nil
	}
	if m.space != (store.EmbeddingSpace{}) {
		return store.EmbeddingMismatch(m.space, sp)
	}
	if err := s.refuseWrite("record the embedding space"); err != nil {
		return err
	}
	return s.inWriteTx(ctx, "record the embedding space", func(tx *sql.Tx) error {
		m, err := readMeta(ctx, tx)
		if err != nil {
			return err
		}
		if m.space == sp {
			return nil
		}
		if m.space != (store.EmbeddingSpace{}) {
			return store.EmbeddingMismatch(m.space, sp)
		}
		_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO gds_meta (key, value) VALUES (?, ?), (?, ?)`,
			metaModel, sp.Model, metaDim, strconv.Itoa(sp.Dim))
		return err
	})
}

// inWriteTx runs fn in an IMMEDIATE transaction and commits it.
func (s *Store) inWriteTx(ctx context.Context, op string, fn func(tx *sql.Tx) error) error {
	if err := s.refuseWrite(op); err != nil {
		return err
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s in %s: begin: %w", op, s.path, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		if errors.Is(err, store.ErrEmbeddingMismatch) {
			return err
		}
		return fmt.Errorf("%s in %s: %w", op, s.path, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s in %s: commit: %w", op, s.path, err)
	}
	return nil
}

const syncColumns = `id, drive_modified_at, fingerprint, page_token, updated_at, extract_version`

func scanSyncState(sc interface{ Scan(...any) error }) (store.SyncState, error) {
	var st store.SyncState
	var mod, upd string
	if err := sc.Scan(&st.Source, &mod, &st.Fingerprint, &st.PageToken, &upd, &st.ExtractVersion); err != nil {
		return st, err
	}
	var err error
	if st.ModifiedAt, err = parseTime(mod); err != nil {
		return st, &badRecord{"", "sync state of " + st.Source, err}
	}
	if st.UpdatedAt, err = parseTime(upd); err != nil {
		return st, &badRecord{"", "sync state of " + st.Source, err}
	}
	return st, nil
}

func syncStates(ctx context.Context, q querier) ([]store.SyncState, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+syncColumns+` FROM drive_sync_state ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("read drive_sync_state: %w", err)
	}
	defer rows.Close()
	out := []store.SyncState{}
	for rows.Next() {
		st, err := scanSyncState(rows)
		if err != nil {
			return nil, fmt.Errorf("read drive_sync_state: %w", err)
		}
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read drive_sync_state: %w", err)
	}
	return out, nil
}

// SyncState returns the checkpoint of source; the zero value with Source
// set when none is stored.
func (s *Store) SyncState(ctx context.Context, source string) (_ store.SyncState, err error) {
	defer s.classify(&err)
	st, err := scanSyncState(s.read.QueryRowContext(ctx, `SELECT `+syncColumns+` FROM drive_sync_state WHERE id = ?`, source))
	if errors.Is(err, sql.ErrNoRows) {
		return store.SyncState{Source: source}, nil
	}
	if err != nil {
		return store.SyncState{Source: source}, fmt.Errorf("sqlite index %s: read drive_sync_state: %w", s.path, err)
	}
	return st, nil
}

// SyncStates returns the checkpoint of every source, sorted by source key.
func (s *Store) SyncStates(ctx context.Context) (_ []store.SyncState, err error) {
	defer s.classify(&err)
	out, err := syncStates(ctx, s.read)
	if err != nil {
		return nil, fmt.Errorf("sqlite index %s: %w", s.path, err)
	}
	return out, nil
}

// SetSyncState stores the checkpoint of st.Source; a zero UpdatedAt stores
// the current time.
func (s *Store) SetSyncState(ctx context.Context, st store.SyncState) (err error) {
	defer s.classify(&err)
	if st.Source == "" {
		return fmt.Errorf("store the sync state in %s: no source key", s.path)
	}
	if st.UpdatedAt.IsZero() {
		st.UpdatedAt = time.Now()
	}
	return s.inWriteTx(ctx, "store the sync state", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO drive_sync_state (`+syncColumns+`)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET drive_modified_at = excluded.drive_modified_at,
				fingerprint = excluded.fingerprint, page_token = excluded.page_token,
				updated_at = excluded.updated_at, extract_version = excluded.extract_version`,
			st.Source, formatTime(st.ModifiedAt), st.Fingerprint, st.PageToken, formatTime(st.UpdatedAt), st.ExtractVersion)
		return err
	})
}

// Reset deletes every file, chunk, the checkpoint and the embedding space.
func (s *Store) Reset(ctx context.Context) (err error) {
	defer s.classify(&err)
	return s.inWriteTx(ctx, "reset the index", func(tx *sql.Tx) error {
		for _, q := range []string{
			`DELETE FROM drive_file_chunk`,
			`DELETE FROM drive_file_index`,
			`DELETE FROM gds_document`,
			`INSERT INTO drive_file_fts (drive_file_fts) VALUES ('delete-all')`,
			`INSERT INTO drive_chunk_fts (drive_chunk_fts) VALUES ('delete-all')`,
			`DELETE FROM gds_meta WHERE key = '` + store.MetaChunkBackfill + `'`,
			`DELETE FROM drive_sync_state`,
			`DELETE FROM gds_crawl_failure`,
			`DELETE FROM gds_meta WHERE key IN ('embedding_model', 'embedding_dim')`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		return bumpGeneration(ctx, tx)
	})
}
