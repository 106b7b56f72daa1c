package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gds-cli/gds/internal/store"
)

// retokenizeBatch is the number of files examined per transaction.
var retokenizeBatch = 200

// retokenize runs the re-tokenising pass a migration queued
// (store.Retokenize): search_tsv of files and chunks rebuilt, in batches
// in file_id COLLATE "C" order, one transaction each holding the gds_meta
// row of the position (so concurrent processes take turns).
func (s *Store) retokenize(ctx context.Context) error {
	if err := store.Retokenize(ctx, passes{s}, retokenizeBatch, s.backfill); err != nil {
		return fmt.Errorf("postgres: %s: %w", s.location, err)
	}
	return nil
}

// passes is the store as its data passes (store.Retokenize,
// store.BackfillChunkFTS) need it.
type passes struct{ s *Store }

func (r passes) Meta(ctx context.Context, key string) (string, bool, error) {
	return metaValue(r.s.pool.QueryRow(ctx, r.s.q("SELECT value FROM {schema}.gds_meta WHERE key = $1"), key))
}

// metaValue is the value of a gds_meta row read by row.
func metaValue(row pgx.Row) (string, bool, error) {
	var v string
	switch err := row.Scan(&v); {
	case errors.Is(err, pgx.ErrNoRows):
		return "", false, nil
	case err != nil:
		return "", false, err
	}
	return v, true, nil
}

func (r passes) CountRetokenized(ctx context.Context) (done, total int, err error) {
	err = r.s.pool.QueryRow(ctx, r.s.q(`SELECT
		(SELECT count(*) FROM {schema}.drive_file_index WHERE file_id COLLATE "C" <= COALESCE((SELECT value FROM {schema}.gds_meta WHERE key = $1), '') COLLATE "C"),
		(SELECT count(*) FROM {schema}.drive_file_index)`), store.MetaRetokenize).Scan(&done, &total)
	return done, total, err
}

func (r passes) InRetokenizeTx(ctx context.Context, fn func(store.RetokenizeTx) error) error {
	return pgx.BeginFunc(ctx, r.s.pool, func(tx pgx.Tx) error { return fn(passTx{r.s, tx}) })
}

// passTx is one batch's transaction as store.Retokenize needs it.
type passTx struct {
	s  *Store
	tx pgx.Tx
}

func (t passTx) Meta(ctx context.Context, key string) (string, bool, error) {
	return metaValue(t.tx.QueryRow(ctx, t.s.q("SELECT value FROM {schema}.gds_meta WHERE key = $1 FOR UPDATE"), key))
}

func (t passTx) SetMeta(ctx context.Context, key, value string) error {
	_, err := t.tx.Exec(ctx, t.s.q("UPDATE {schema}.gds_meta SET value = $1 WHERE key = $2"), value, key)
	return err
}

func (t passTx) DeleteMeta(ctx context.Context, keys ...string) error {
	_, err := t.tx.Exec(ctx, t.s.q("DELETE FROM {schema}.gds_meta WHERE key = ANY($1::text[])"), keys)
	return err
}

func (t passTx) Files(ctx context.Context, after string, limit int) ([]store.File, error) {
	rows, err := t.tx.Query(ctx, t.s.q(`SELECT file_id, file_name, COALESCE(keywords, '{}'), summary
		FROM {schema}.drive_file_index WHERE file_id COLLATE "C" > $1 COLLATE "C"
		ORDER BY file_id COLLATE "C" LIMIT $2`), after, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.File, error) {
		var f store.File
		err := row.Scan(&f.ID, &f.Name, &f.Keywords, &f.Summary)
		return f, err
	})
}

func (t passTx) Chunks(ctx context.Context, f store.File) ([]store.Chunk, error) {
	rows, err := t.tx.Query(ctx, t.s.q(`SELECT ordinal, page, content FROM {schema}.drive_file_chunks WHERE file_id = $1 ORDER BY ordinal`), f.ID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Chunk, error) {
		var c store.Chunk
		var o int32
		err := row.Scan(&o, &c.Page, &c.Text)
		c.Ordinal = int(o)
		return c, err
	})
}

func (t passTx) Rewrite(ctx context.Context, f store.File, text string, chunks []store.Chunk) error {
	f.Text = text
	if _, err := t.tx.Exec(ctx, t.s.q(`UPDATE {schema}.drive_file_index SET search_tsv = $2::tsvector WHERE file_id = $1`), f.ID, buildTSVector(f)); err != nil {
		return fmt.Errorf("writing the search tokens: %w", err)
	}
	for _, c := range chunks {
		if _, err := t.tx.Exec(ctx, t.s.q(`UPDATE {schema}.drive_file_chunks SET search_tsv = $3::tsvector WHERE file_id = $1 AND ordinal = $2`),
			f.ID, int32(c.Ordinal), buildChunkTSVector(c.Text)); err != nil {
			return fmt.Errorf("writing chunk %d's search tokens: %w", c.Ordinal, err)
		}
	}
	return nil
}
