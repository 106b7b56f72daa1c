package postgres

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/gds-cli/gds/internal/store"
)

// backfillBatch is the number of chunks tokenised per transaction.
var backfillBatch = 500

// backfillChunkFTS fills search_tsv of the chunks stored before migration
// 0002 (store.BackfillChunkFTS), in batches of backfillBatch chunks in
// (file_id COLLATE "C", ordinal) order, one transaction each holding the
// gds_meta row of the position.
func (s *Store) backfillChunkFTS(ctx context.Context) error {
	if err := store.BackfillChunkFTS(ctx, passes{s}, backfillBatch); err != nil {
		return fmt.Errorf("postgres: %s: %w", s.location, err)
	}
	return nil
}

func (r passes) InChunkBackfillTx(ctx context.Context, fn func(store.ChunkBackfillTx) error) error {
	return pgx.BeginFunc(ctx, r.s.pool, func(tx pgx.Tx) error { return fn(passTx{r.s, tx}) })
}

// IndexChunks fills search_tsv of those of at most limit chunks after
// after that have none.
func (t passTx) IndexChunks(ctx context.Context, after *store.ChunkCursor, limit int) (int, store.ChunkCursor, error) {
	var last store.ChunkCursor
	cond, args := "TRUE", []any{}
	if after != nil {
		cond = `(c.file_id COLLATE "C", c.ordinal) > ($1 COLLATE "C", $2)`
		args = append(args, after.FileID, after.Ordinal)
	}
	args = append(args, limit)
	rows, err := t.tx.Query(ctx, t.s.q(`SELECT c.file_id, c.ordinal, c.content, c.search_tsv IS NULL
		FROM {schema}.drive_file_chunks c WHERE `+cond+`
		ORDER BY c.file_id COLLATE "C", c.ordinal LIMIT $`+strconv.Itoa(len(args))), args...)
	if err != nil {
		return 0, last, fmt.Errorf("reading chunks: %w", err)
	}
	var ids, tsvs []string
	var ords []int32
	n := 0
	for rows.Next() {
		var text string
		var missing bool
		if err := rows.Scan(&last.FileID, &last.Ordinal, &text, &missing); err != nil {
			rows.Close()
			return 0, last, fmt.Errorf("reading chunks: %w", err)
		}
		n++
		if missing {
			ids = append(ids, last.FileID)
			ords = append(ords, int32(last.Ordinal))
			tsvs = append(tsvs, buildChunkTSVector(text))
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, last, fmt.Errorf("reading chunks: %w", err)
	}
	if len(ids) > 0 {
		if _, err := t.tx.Exec(ctx, t.s.q(`UPDATE {schema}.drive_file_chunks c SET search_tsv = u.tsv::tsvector
			FROM unnest($1::text[], $2::int4[], $3::text[]) AS u(file_id, ordinal, tsv)
			WHERE c.file_id = u.file_id AND c.ordinal = u.ordinal AND c.search_tsv IS NULL`), ids, ords, tsvs); err != nil {
			return 0, last, fmt.Errorf("writing %d chunks' search tokens: %w", len(ids), err)
		}
	}
	return n, last, nil
}

// ChunkTextSearch runs a full-text query over the chunks' text, ranked by
// ts_rank_cd with length normalisation.
func (s *Store) ChunkTextSearch(ctx context.Context, q store.KeywordQuery) (_ []store.ChunkHit, err error) {
	defer s.classify(&err)
	out := []store.ChunkHit{}
	tsq := buildTSQuery(q.Terms, q.Match)
	if tsq == "" {
		return out, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	conds, args, none := where(q.Filter, []any{tsq})
	if none {
		return out, nil
	}
	conds = append([]string{"c.search_tsv @@ query"}, conds...)
	args = append(args, limit)
	sql := s.q(`SELECT c.file_id, c.ordinal, c.page, c.content, ts_rank_cd(c.search_tsv, query, 1) AS score
		FROM {schema}.drive_file_chunks c JOIN {schema}.drive_file_index f ON f.file_id = c.file_id,
			CAST($1 AS tsquery) AS query
		WHERE ` + and(conds) + `
		ORDER BY score DESC, c.file_id COLLATE "C", c.ordinal
		LIMIT $` + strconv.Itoa(len(args)))
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: chunk text search for %q: %w", q.Terms, err)
	}
	defer rows.Close()
	for rows.Next() {
		var h store.ChunkHit
		var score float32
		if err := rows.Scan(&h.FileID, &h.Ordinal, &h.Page, &h.Text, &score); err != nil {
			return nil, fmt.Errorf("postgres: reading chunk text hits: %w", err)
		}
		h.Score = float64(score)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: chunk text search for %q: %w", q.Terms, err)
	}
	return out, nil
}

// FileChunks returns the first limit chunks of a file in ordinal order.
func (s *Store) FileChunks(ctx context.Context, fileID string, limit int) (_ []store.Chunk, err error) {
	defer s.classify(&err)
	if limit <= 0 {
		limit = store.DefaultChunkPage
	}
	// The file row (LEFT JOIN) tells an unknown file from one without chunks.
	rows, err := s.pool.Query(ctx, s.q(`SELECT c.ordinal, c.page, c.content
		FROM {schema}.drive_file_index f LEFT JOIN LATERAL (
			SELECT ordinal, page, content FROM {schema}.drive_file_chunks
			WHERE file_id = f.file_id ORDER BY ordinal LIMIT $2) c ON TRUE
		WHERE f.file_id = $1
		ORDER BY c.ordinal`), fileID, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading the chunks of %q: %w", fileID, err)
	}
	defer rows.Close()
	out := []store.Chunk{}
	found := false
	for rows.Next() {
		found = true
		var ord, page *int
		var text *string
		if err := rows.Scan(&ord, &page, &text); err != nil {
			return nil, fmt.Errorf("postgres: reading the chunks of %q: %w", fileID, err)
		}
		if ord != nil {
			out = append(out, store.Chunk{Ordinal: *ord, Page: *page, Text: *text})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reading the chunks of %q: %w", fileID, err)
	}
	if !found {
		return nil, fmt.Errorf("postgres: reading the chunks of %q: %w", fileID, store.ErrNotFound)
	}
	return out, nil
}

// ScanChunks returns the next page of chunks in (file_id COLLATE "C",
// ordinal) order.
func (s *Store) ScanChunks(ctx context.Context, sc store.ChunkScan) (_ store.ChunkPage, err error) {
	defer s.classify(&err)
	page := store.ChunkPage{Chunks: []store.FileChunk{}, Next: sc.After}
	limit := sc.Limit
	if limit <= 0 {
		limit = store.DefaultChunkPage
	}
	var args []any
	var conds []string
	if sc.After != (store.ChunkCursor{}) {
		args = append(args, sc.After.FileID, sc.After.Ordinal)
		conds = append(conds, `(c.file_id COLLATE "C", c.ordinal) > ($1 COLLATE "C", $2)`)
	}
	if !sc.IndexedSince.IsZero() {
		args = append(args, sc.IndexedSince.UTC())
		conds = append(conds, "f.indexed_at >= $"+strconv.Itoa(len(args)))
	}
	fconds, args, none := where(sc.Filter, args)
	if none {
		page.Done = true
		return page, nil
	}
	conds = append(conds, fconds...)
	args = append(args, limit+1)
	rows, err := s.pool.Query(ctx, s.q(`SELECT c.file_id, c.ordinal, c.page, c.content
		FROM {schema}.drive_file_chunks c JOIN {schema}.drive_file_index f ON f.file_id = c.file_id
		WHERE `+and(conds)+`
		ORDER BY c.file_id COLLATE "C", c.ordinal
		LIMIT $`+strconv.Itoa(len(args))), args...)
	if err != nil {
		return page, fmt.Errorf("postgres: scanning chunks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		if len(page.Chunks) == limit {
			return page, nil // one more follows
		}
		var c store.FileChunk
		if err := rows.Scan(&c.FileID, &c.Ordinal, &c.Page, &c.Text); err != nil {
			return page, fmt.Errorf("postgres: scanning chunks: %w", err)
		}
		page.Chunks = append(page.Chunks, c)
		page.Next = c.Cursor()
	}
	if err := rows.Err(); err != nil {
		return page, fmt.Errorf("postgres: scanning chunks: %w", err)
	}
	page.Done = true
	return page, nil
}
