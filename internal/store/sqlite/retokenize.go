package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// retokenizeBatch is the number of files examined per write transaction.
var retokenizeBatch = 200

// retokenize runs the re-tokenising pass a migration queued
// (store.Retokenize): the full-text rows of files and chunks rewritten,
// in batches of retokenizeBatch files, one write transaction each.
func (s *Store) retokenize(ctx context.Context) error {
	if err := store.Retokenize(ctx, passes{s}, retokenizeBatch, s.backfill); err != nil {
		return fmt.Errorf("sqlite index %s: %w", s.path, err)
	}
	return nil
}

// passes is the store as its data passes (store.Retokenize,
// store.BackfillChunkFTS) need it.
type passes struct{ s *Store }

func (r passes) Meta(ctx context.Context, key string) (string, bool, error) {
	return metaValue(r.s.write.QueryRowContext(ctx, `SELECT value FROM gds_meta WHERE key = ?`, key))
}

// metaValue is the value of a gds_meta row read by row.
func metaValue(row *sql.Row) (string, bool, error) {
	var v string
	switch err := row.Scan(&v); {
	case errors.Is(err, sql.ErrNoRows):
		return "", false, nil
	case err != nil:
		return "", false, err
	}
	return v, true, nil
}

func (r passes) CountRetokenized(ctx context.Context) (done, total int, err error) {
	err = r.s.write.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM drive_file_index WHERE file_id <= ifnull((SELECT value FROM gds_meta WHERE key = ?), '')),
		(SELECT count(*) FROM drive_file_index)`, store.MetaRetokenize).Scan(&done, &total)
	return done, total, err
}

func (r passes) InRetokenizeTx(ctx context.Context, fn func(store.RetokenizeTx) error) error {
	return r.s.inWriteTx(ctx, "re-tokenise stored text", func(tx *sql.Tx) error {
		return fn(&passTx{tx: tx, docs: map[string]int64{}})
	})
}

// passTx is one batch's write transaction as store.Retokenize needs
// it; docs holds the doc_id (full-text row) of each file Files returned.
type passTx struct {
	tx   *sql.Tx
	docs map[string]int64
}

func (t *passTx) Meta(ctx context.Context, key string) (string, bool, error) {
	return metaValue(t.tx.QueryRowContext(ctx, `SELECT value FROM gds_meta WHERE key = ?`, key))
}

func (t *passTx) SetMeta(ctx context.Context, key, value string) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE gds_meta SET value = ? WHERE key = ?`, value, key)
	return err
}

func (t *passTx) DeleteMeta(ctx context.Context, keys ...string) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM gds_meta WHERE key IN (SELECT value FROM json_each(?))`, jsonIDs(keys))
	return err
}

func (t *passTx) Files(ctx context.Context, after string, limit int) ([]store.File, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT file_id, file_name, keywords, summary, doc_id FROM drive_file_index
		WHERE file_id > ? ORDER BY file_id LIMIT ?`, after, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var files []store.File
	for rows.Next() {
		var f store.File
		var keywords string
		var doc int64
		if err := rows.Scan(&f.ID, &f.Name, &keywords, &f.Summary, &doc); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(keywords), &f.Keywords); err != nil {
			return nil, fmt.Errorf("file %q: keywords %q: %w", f.ID, keywords, err)
		}
		t.docs[f.ID] = doc
		files = append(files, f)
	}
	return files, rows.Close()
}

func (t *passTx) Chunks(ctx context.Context, f store.File) ([]store.Chunk, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT ordinal, page, text FROM drive_file_chunk WHERE file_id = ? ORDER BY ordinal`, f.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var chunks []store.Chunk
	for rows.Next() {
		var c store.Chunk
		if err := rows.Scan(&c.Ordinal, &c.Page, &c.Text); err != nil {
			return nil, err
		}
		chunks = append(chunks, c)
	}
	return chunks, rows.Close()
}

func (t *passTx) Rewrite(ctx context.Context, f store.File, text string, chunks []store.Chunk) error {
	doc, ok := t.docs[f.ID]
	if !ok {
		return fmt.Errorf("file %q was not read in this batch", f.ID)
	}
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM drive_file_fts WHERE rowid = ?`, doc); err != nil {
		return fmt.Errorf("delete the full-text row: %w", err)
	}
	if _, err := t.tx.ExecContext(ctx, `INSERT INTO drive_file_fts (rowid, name, keywords, summary, body) VALUES (?, ?, ?, ?, ?)`,
		doc, tokenize.IndexJoin(f.Name), tokenize.IndexJoin(jsonKeywordsText(f.Keywords)), tokenize.IndexJoin(f.Summary), tokenize.IndexJoin(text)); err != nil {
		return fmt.Errorf("write the full-text row: %w", err)
	}
	for _, c := range chunks {
		if _, err := t.tx.ExecContext(ctx, insertChunkFTS, chunkRowID(doc, c.Ordinal), tokenize.IndexJoin(c.Text)); err != nil {
			return fmt.Errorf("write chunk %d's full-text row: %w", c.Ordinal, err)
		}
	}
	// The full-text rankings cached by KeywordSearch are of the old tokens.
	return bumpGeneration(ctx, t.tx)
}
