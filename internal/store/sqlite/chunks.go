package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Chunk full text lives in drive_chunk_fts, a contentless FTS5 table whose
// rowid packs the file's doc_id and the chunk's ordinal.
const ordinalBits = 24

func chunkRowID(doc int64, ordinal int) int64 { return doc<<ordinalBits | int64(ordinal) }

func splitRowID(rowid int64) (doc int64, ordinal int) {
	return rowid >> ordinalBits, int(rowid & (1<<ordinalBits - 1))
}

// Statements on drive_chunk_fts. INSERT OR REPLACE makes writing a chunk's
// row idempotent (the backfill may meet chunks a crawl has just written).
const (
	insertChunkFTS = `INSERT OR REPLACE INTO drive_chunk_fts (rowid, body) VALUES (?, ?)`
	// deleteChunkFTS removes the full-text rows of the chunks of the files
	// in a JSON array of IDs; run it before deleting the chunks.
	deleteChunkFTS = `DELETE FROM drive_chunk_fts WHERE rowid IN (
		SELECT (f.doc_id << 24) + c.ordinal FROM drive_file_index f JOIN drive_file_chunk c ON c.file_id = f.file_id
		WHERE f.file_id IN (SELECT value FROM json_each(?)))`
)

// backfillBatch is the number of chunks tokenised per write transaction:
// small enough that a crawl or another writer waits only briefly.
var backfillBatch = 500

// backfillChunkFTS indexes the chunks stored before migration 0003 in the
// chunk full-text table (store.BackfillChunkFTS), in batches of
// backfillBatch chunks in (file_id, ordinal) order, one write transaction
// each. An index created at 0003 or later writes every chunk's row in
// UpsertFile.
func (s *Store) backfillChunkFTS(ctx context.Context) error {
	if err := store.BackfillChunkFTS(ctx, passes{s}, backfillBatch); err != nil {
		return fmt.Errorf("sqlite index %s: %w", s.path, err)
	}
	return nil
}

func (r passes) InChunkBackfillTx(ctx context.Context, fn func(store.ChunkBackfillTx) error) error {
	return r.s.inWriteTx(ctx, "index stored chunks for full-text search", func(tx *sql.Tx) error {
		return fn(&passTx{tx: tx})
	})
}

// IndexChunks writes the full-text rows of at most limit chunks after
// after (all of them: INSERT OR REPLACE makes a row already there harmless).
func (t *passTx) IndexChunks(ctx context.Context, after *store.ChunkCursor, limit int) (int, store.ChunkCursor, error) {
	var last store.ChunkCursor
	cond, args := "", []any{}
	if after != nil {
		cond = ` WHERE (c.file_id, c.ordinal) > (?, ?)`
		args = append(args, after.FileID, after.Ordinal)
	}
	rows, err := t.tx.QueryContext(ctx, `SELECT c.file_id, c.ordinal, f.doc_id, c.text
		FROM drive_file_chunk c JOIN drive_file_index f ON f.file_id = c.file_id`+cond+`
		ORDER BY c.file_id, c.ordinal LIMIT ?`, append(args, limit)...)
	if err != nil {
		return 0, last, fmt.Errorf("read chunks: %w", err)
	}
	type row struct {
		id   int64
		body string
	}
	var batch []row
	for rows.Next() {
		var doc int64
		var text string
		if err := rows.Scan(&last.FileID, &last.Ordinal, &doc, &text); err != nil {
			rows.Close()
			return 0, last, fmt.Errorf("read chunks: %w", err)
		}
		batch = append(batch, row{chunkRowID(doc, last.Ordinal), tokenize.IndexJoin(text)})
	}
	if err := rows.Close(); err != nil {
		return 0, last, fmt.Errorf("read chunks: %w", err)
	}
	for _, r := range batch {
		if _, err := t.tx.ExecContext(ctx, insertChunkFTS, r.id, r.body); err != nil {
			return 0, last, fmt.Errorf("write a chunk's full-text row: %w", err)
		}
	}
	return len(batch), last, nil
}

// ChunkTextSearch runs a full-text query over the chunks' text, ranked by
// bm25. As in KeywordSearch, the FTS5 table is queried on its own and the
// filter applied afterwards by doc_id.
func (s *Store) ChunkTextSearch(ctx context.Context, q store.KeywordQuery) (_ []store.ChunkHit, err error) {
	defer s.classify(&err)
	out := []store.ChunkHit{}
	match := ftsQuery(q.Terms, q.Match)
	where, args, none := filterSQL(q.Filter, "f")
	if none || match == "" {
		return out, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("chunk text search in %s: begin: %w", s.path, err)
	}
	defer tx.Rollback()
	query := `SELECT rowid, bm25(drive_chunk_fts) FROM drive_chunk_fts WHERE drive_chunk_fts MATCH ?`
	var cands []cand // doc holds the rowid here
	if where == "" {
		cands, err = topTiedMatches(ctx, tx, query, match, limit)
	} else {
		cands, err = chunkMatches(ctx, tx, query, match)
	}
	if err != nil {
		return nil, fmt.Errorf("chunk text search in %s: %w", s.path, err)
	}
	if len(cands) == 0 {
		return out, nil
	}
	ids, err := chunkFiles(ctx, tx, cands, where, args)
	if err != nil {
		return nil, fmt.Errorf("chunk text search in %s: resolve files: %w", s.path, err)
	}
	sortChunkMatches(cands, ids)
	out, err = chunkHits(ctx, tx, cands, ids, limit)
	if err != nil {
		return nil, fmt.Errorf("chunk text search in %s: %w", s.path, err)
	}
	return out, nil
}

// chunkFiles returns the file IDs, by doc_id, of the files of the matches
// (rowids in cands) that pass the filter where/args (all: where "").
func chunkFiles(ctx context.Context, tx *sql.Tx, cands []cand, where string, args []any) (map[int64]string, error) {
	docSet := map[int64]bool{}
	var docs []cand
	for _, c := range cands {
		if d, _ := splitRowID(c.doc); !docSet[d] {
			docSet[d] = true
			docs = append(docs, cand{doc: d})
		}
	}
	if where == "" || len(docs) <= resolveByList {
		return docIDs(ctx, tx, " AND f.doc_id IN (SELECT value FROM json_each(?))"+where, append([]any{docList(docs)}, args...))
	}
	return docIDs(ctx, tx, where, args)
}

// sortChunkMatches orders matches by score, equal scores in file ID (ids
// by doc_id) and ordinal order, whatever order the chunks were written in
// (a crawl writes files concurrently). Pure.
func sortChunkMatches(cands []cand, ids map[int64]string) {
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		da, oa := splitRowID(a.doc)
		db, ob := splitRowID(b.doc)
		if ida, idb := ids[da], ids[db]; ida != idb {
			return ida < idb
		}
		return oa < ob
	})
}

// chunkHits reads the chunks of the first limit matches whose file is in
// ids (the others are filtered out).
func chunkHits(ctx context.Context, tx *sql.Tx, cands []cand, ids map[int64]string, limit int) ([]store.ChunkHit, error) {
	out := []store.ChunkHit{}
	for _, c := range cands {
		if len(out) == limit {
			break
		}
		doc, ord := splitRowID(c.doc)
		id, ok := ids[doc]
		if !ok {
			continue // filtered out
		}
		h := store.ChunkHit{FileID: id, Score: -c.rank}
		h.Ordinal = ord
		err := tx.QueryRowContext(ctx, `SELECT page, text FROM drive_file_chunk WHERE file_id = ? AND ordinal = ?`, id, ord).
			Scan(&h.Page, &h.Text)
		if errors.Is(err, sql.ErrNoRows) {
			continue // cannot happen in one transaction; never report a chunk that is gone
		}
		if err != nil {
			return nil, fmt.Errorf("read chunk %d of %q: %w", ord, id, err)
		}
		out = append(out, h)
	}
	return out, nil
}

// chunkMatches reads every match of query (rowid, bm25) for match.
func chunkMatches(ctx context.Context, tx *sql.Tx, query, match string, extra ...any) ([]cand, error) {
	rows, err := tx.QueryContext(ctx, query, append([]any{match}, extra...)...)
	if err != nil {
		return nil, err
	}
	var cands []cand
	for rows.Next() {
		var c cand
		if err := rows.Scan(&c.doc, &c.rank); err != nil {
			rows.Close()
			return nil, err
		}
		cands = append(cands, c)
	}
	return cands, rows.Close()
}

// topTiedMatches reads the limit best matches of query (rowid, score;
// full-text chunk or file matches), and every further match whose score
// ties with the last of them, so which of equally scored matches make the
// cut is decided by file ID (and ordinal), not by the order they were
// written in. It reads one match more than the limit; only when that one
// ties does it read on, a page at a time.
func topTiedMatches(ctx context.Context, tx *sql.Tx, query, match string, limit int) ([]cand, error) {
	page := limit + 1
	cands, err := chunkMatches(ctx, tx, query+` ORDER BY 2, 1 LIMIT ?`, match, page)
	for err == nil && len(cands) > limit && cands[len(cands)-1].rank == cands[limit-1].rank {
		var more []cand
		if more, err = chunkMatches(ctx, tx, query+` ORDER BY 2, 1 LIMIT ? OFFSET ?`, match, page, len(cands)); len(more) == 0 {
			break
		}
		cands = append(cands, more...)
	}
	n := min(limit, len(cands))
	for n < len(cands) && cands[n].rank == cands[limit-1].rank {
		n++
	}
	return cands[:n], err
}

// FileChunks returns the first limit chunks of a file in ordinal order.
func (s *Store) FileChunks(ctx context.Context, fileID string, limit int) (_ []store.Chunk, err error) {
	defer s.classify(&err)
	if limit <= 0 {
		limit = store.DefaultChunkPage
	}
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("read the chunks of %q in %s: begin: %w", fileID, s.path, err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT ordinal, page, text FROM drive_file_chunk WHERE file_id = ? ORDER BY ordinal LIMIT ?`, fileID, limit)
	if err != nil {
		return nil, fmt.Errorf("read the chunks of %q in %s: %w", fileID, s.path, err)
	}
	out := []store.Chunk{}
	for rows.Next() {
		var c store.Chunk
		if err := rows.Scan(&c.Ordinal, &c.Page, &c.Text); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read the chunks of %q in %s: %w", fileID, s.path, err)
		}
		out = append(out, c)
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("read the chunks of %q in %s: %w", fileID, s.path, err)
	}
	if len(out) == 0 {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM drive_file_index WHERE file_id = ?`, fileID).Scan(&n); err != nil {
			return nil, fmt.Errorf("read the chunks of %q in %s: %w", fileID, s.path, err)
		}
		if n == 0 {
			return nil, fmt.Errorf("read the chunks of %q in %s: %w", fileID, s.path, store.ErrNotFound)
		}
	}
	return out, nil
}

// ScanChunks returns the next page of chunks in (file_id, ordinal) order.
func (s *Store) ScanChunks(ctx context.Context, sc store.ChunkScan) (_ store.ChunkPage, err error) {
	defer s.classify(&err)
	page := store.ChunkPage{Chunks: []store.FileChunk{}, Next: sc.After}
	limit := sc.Limit
	if limit <= 0 {
		limit = store.DefaultChunkPage
	}
	where, args, none := filterSQL(sc.Filter, "f")
	if none {
		page.Done = true
		return page, nil
	}
	query := `SELECT c.file_id, c.ordinal, c.page, c.text FROM drive_file_chunk c`
	if where != "" || !sc.IndexedSince.IsZero() {
		query += ` JOIN drive_file_index f ON f.file_id = c.file_id`
	}
	query += ` WHERE 1`
	var qargs []any
	if sc.After != (store.ChunkCursor{}) {
		query += ` AND (c.file_id, c.ordinal) > (?, ?)`
		qargs = append(qargs, sc.After.FileID, sc.After.Ordinal)
	}
	if !sc.IndexedSince.IsZero() {
		query += ` AND f.indexed_at >= ?`
		qargs = append(qargs, formatTime(sc.IndexedSince))
	}
	query += where + ` ORDER BY c.file_id, c.ordinal LIMIT ?`
	qargs = append(append(qargs, args...), limit+1)
	rows, err := s.read.QueryContext(ctx, query, qargs...)
	if err != nil {
		return page, fmt.Errorf("scan chunks in %s: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		if len(page.Chunks) == limit {
			return page, nil // one more follows
		}
		var c store.FileChunk
		if err := rows.Scan(&c.FileID, &c.Ordinal, &c.Page, &c.Text); err != nil {
			return page, fmt.Errorf("scan chunks in %s: %w", s.path, err)
		}
		page.Chunks = append(page.Chunks, c)
		page.Next = c.Cursor()
	}
	if err := rows.Err(); err != nil {
		return page, fmt.Errorf("scan chunks in %s: %w", s.path, err)
	}
	page.Done = true
	return page, nil
}
