package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// encodeVec stores v as little-endian float32.
func encodeVec(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// decodeVec appends the vector in b to dst.
func decodeVec(dst []float32, b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return dst, fmt.Errorf("stored embedding has %d bytes, not a whole number of float32", len(b))
	}
	for i := 0; i < len(b); i += 4 {
		dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))
	}
	return dst, nil
}

func jsonList(xs []string) string {
	if len(xs) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(xs) // a []string always marshals
	return string(b)
}

func jsonIDs(ids []string) string {
	if ids == nil {
		ids = []string{}
	}
	b, _ := json.Marshal(ids)
	return string(b)
}

func checkDim(what string, v []float32, sp store.EmbeddingSpace) error {
	if sp.Dim != 0 && len(v) != sp.Dim {
		return fmt.Errorf("%s has %d dimensions but the index holds %d-dimensional %q embeddings; re-crawl with `gds crawl --full` after changing the embedding model: %w",
			what, len(v), sp.Dim, sp.Model, store.ErrEmbeddingMismatch)
	}
	return nil
}

// UpsertFile inserts or replaces f and all its chunks in one transaction.
func (s *Store) UpsertFile(ctx context.Context, f store.File, chunks []store.Chunk) (err error) {
	defer s.classify(&err)
	if f.ID == "" {
		return errors.New("upsert file: empty file ID")
	}
	op := fmt.Sprintf("upsert file %q", f.ID)
	if err := store.CheckOrdinals(chunks); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	chunkFTS := make([]string, len(chunks))
	for i, c := range chunks {
		chunkFTS[i] = tokenize.IndexJoin(c.Text)
	}
	fts := [4]string{tokenize.IndexJoin(f.Name), tokenize.IndexJoin(jsonKeywordsText(f.Keywords)), tokenize.IndexJoin(f.Summary), tokenize.IndexJoin(f.Text)}
	emb := encodeVec(f.Embedding)
	return s.inWriteTx(ctx, op, func(tx *sql.Tx) error {
		m, err := readMeta(ctx, tx)
		if err != nil {
			return err
		}
		// A name-only entry has no embedding (stored empty, left out of
		// vector search).
		if len(f.Embedding) > 0 {
			if err := checkDim(fmt.Sprintf("embedding of file %q", f.ID), f.Embedding, m.space); err != nil {
				return err
			}
		}
		for _, c := range chunks {
			if err := checkDim(fmt.Sprintf("embedding of chunk %d of file %q", c.Ordinal, f.ID), c.Embedding, m.space); err != nil {
				return err
			}
		}
		var docID int64
		err = tx.QueryRowContext(ctx, `SELECT doc_id FROM drive_file_index WHERE file_id = ?`, f.ID).Scan(&docID)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(doc_id), 0) + 1 FROM drive_file_index`).Scan(&docID); err != nil {
				return fmt.Errorf("allocate doc_id: %w", err)
			}
		case err != nil:
			return fmt.Errorf("look up file: %w", err)
		default:
			if _, err := tx.ExecContext(ctx, `DELETE FROM drive_file_fts WHERE rowid = ?`, docID); err != nil {
				return fmt.Errorf("delete old full-text row: %w", err)
			}
			if _, err := tx.ExecContext(ctx, deleteChunkFTS, jsonIDs([]string{f.ID})); err != nil {
				return fmt.Errorf("delete old chunks' full-text rows: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM drive_file_chunk WHERE file_id = ?`, f.ID); err != nil {
				return fmt.Errorf("delete old chunks: %w", err)
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO drive_file_index (file_id, file_name, summary, keywords, embedding,
				drive_modified_at, mime_type, doc_id, web_link, parents, path, size, content_hash, source, provider, indexed_at, skip_reason, ocr, extract_version)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (file_id) DO UPDATE SET file_name = excluded.file_name, summary = excluded.summary,
				keywords = excluded.keywords, embedding = excluded.embedding, drive_modified_at = excluded.drive_modified_at,
				mime_type = excluded.mime_type, web_link = excluded.web_link, parents = excluded.parents, path = excluded.path,
				size = excluded.size, content_hash = excluded.content_hash, source = excluded.source,
				provider = excluded.provider, indexed_at = excluded.indexed_at, skip_reason = excluded.skip_reason, ocr = excluded.ocr,
				extract_version = excluded.extract_version`,
			f.ID, f.Name, f.Summary, jsonList(f.Keywords), emb, formatTime(f.ModifiedAt), f.MimeType, docID,
			f.WebLink, jsonList(f.Parents), f.Path, f.Size, f.ContentHash, f.Source, f.Provider, formatTime(f.IndexedAt), f.SkipReason, f.OCR, f.ExtractVersion)
		if err != nil {
			return fmt.Errorf("write drive_file_index row: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO drive_file_fts (rowid, name, keywords, summary, body) VALUES (?, ?, ?, ?, ?)`,
			docID, fts[0], fts[1], fts[2], fts[3]); err != nil {
			return fmt.Errorf("write full-text row: %w", err)
		}
		if len(chunks) > 0 {
			stmt, err := tx.PrepareContext(ctx, `INSERT INTO drive_file_chunk (file_id, ordinal, page, text, embedding) VALUES (?, ?, ?, ?, ?)`)
			if err != nil {
				return fmt.Errorf("prepare chunk insert: %w", err)
			}
			defer stmt.Close()
			ftsStmt, err := tx.PrepareContext(ctx, insertChunkFTS)
			if err != nil {
				return fmt.Errorf("prepare chunk full-text insert: %w", err)
			}
			defer ftsStmt.Close()
			for i, c := range chunks {
				if _, err := stmt.ExecContext(ctx, f.ID, c.Ordinal, c.Page, c.Text, encodeVec(c.Embedding)); err != nil {
					return fmt.Errorf("write chunk %d: %w", c.Ordinal, err)
				}
				if _, err := ftsStmt.ExecContext(ctx, chunkRowID(docID, c.Ordinal), chunkFTS[i]); err != nil {
					return fmt.Errorf("write chunk %d's full-text row: %w", c.Ordinal, err)
				}
			}
		}
		return bumpGeneration(ctx, tx)
	})
}

// jsonKeywordsText is the keyword list as searchable text, one keyword per line.
func jsonKeywordsText(kw []string) string { return strings.Join(kw, "\n") }

// DeleteFiles removes files, their chunks and their full-text rows.
func (s *Store) DeleteFiles(ctx context.Context, ids []string) (err error) {
	defer s.classify(&err)
	if len(ids) == 0 {
		return s.refuseWrite("delete files")
	}
	return s.inWriteTx(ctx, fmt.Sprintf("delete %d files", len(ids)), func(tx *sql.Tx) error {
		arg := jsonIDs(ids)
		for _, q := range []string{
			deleteChunkFTS,
			`DELETE FROM drive_file_fts WHERE rowid IN (SELECT doc_id FROM drive_file_index WHERE file_id IN (SELECT value FROM json_each(?)))`,
			`DELETE FROM drive_file_chunk WHERE file_id IN (SELECT value FROM json_each(?))`,
			`DELETE FROM drive_file_index WHERE file_id IN (SELECT value FROM json_each(?))`,
			`DELETE FROM gds_document WHERE file_id IN (SELECT value FROM json_each(?))`,
		} {
			if _, err := tx.ExecContext(ctx, q, arg); err != nil {
				return err
			}
		}
		return bumpGeneration(ctx, tx)
	})
}

const fileColumns = `file_id, file_name, summary, keywords, embedding, drive_modified_at, mime_type,
	web_link, parents, path, size, content_hash, source, provider, indexed_at, skip_reason, ocr, extract_version`

func scanFile(rows *sql.Rows) (store.File, error) {
	var f store.File
	var kw, parents, mod, idx string
	var emb []byte
	if err := rows.Scan(&f.ID, &f.Name, &f.Summary, &kw, &emb, &mod, &f.MimeType,
		&f.WebLink, &parents, &f.Path, &f.Size, &f.ContentHash, &f.Source, &f.Provider, &idx, &f.SkipReason, &f.OCR, &f.ExtractVersion); err != nil {
		return f, err
	}
	var err error
	if err = json.Unmarshal([]byte(kw), &f.Keywords); err != nil {
		return f, &badRecord{f.ID, "keywords", err}
	}
	if err = json.Unmarshal([]byte(parents), &f.Parents); err != nil {
		return f, &badRecord{f.ID, "parents", err}
	}
	if f.Embedding, err = decodeVec(make([]float32, 0, len(emb)/4), emb); err != nil {
		return f, &badRecord{f.ID, "embedding", err}
	}
	if f.ModifiedAt, err = parseTime(mod); err != nil {
		return f, &badRecord{f.ID, "modified time", err}
	}
	if f.IndexedAt, err = parseTime(idx); err != nil {
		return f, &badRecord{f.ID, "indexed time", err}
	}
	return f, nil
}

// GetFiles returns the indexed files among ids in the order given.
func (s *Store) GetFiles(ctx context.Context, ids []string) (_ []store.File, err error) {
	defer s.classify(&err)
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+fileColumns+` FROM drive_file_index
		WHERE file_id IN (SELECT value FROM json_each(?))`, jsonIDs(ids))
	if err != nil {
		return nil, fmt.Errorf("get %d files from %s: %w", len(ids), s.path, err)
	}
	defer rows.Close()
	var files []store.File
	for rows.Next() {
		f, err := scanFile(rows)
		if err != nil {
			return nil, fmt.Errorf("get files from %s: %w", s.path, err)
		}
		files = append(files, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("get files from %s: %w", s.path, err)
	}
	return store.InOrder(ids, files), nil
}

// ContentHashes returns file ID → content hash for the indexed ids.
func (s *Store) ContentHashes(ctx context.Context, ids []string) (_ map[string]string, err error) {
	defer s.classify(&err)
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.read.QueryContext(ctx, `SELECT file_id, content_hash FROM drive_file_index
		WHERE file_id IN (SELECT value FROM json_each(?))`, jsonIDs(ids))
	if err != nil {
		return nil, fmt.Errorf("read content hashes from %s: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, h string
		if err := rows.Scan(&id, &h); err != nil {
			return nil, fmt.Errorf("read content hashes from %s: %w", s.path, err)
		}
		out[id] = h
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read content hashes from %s: %w", s.path, err)
	}
	return out, nil
}

// FilterIndexed returns the indexed ids in input order.
func (s *Store) FilterIndexed(ctx context.Context, ids []string) (_ []string, err error) {
	defer s.classify(&err)
	if len(ids) == 0 {
		return []string{}, nil
	}
	rows, err := s.read.QueryContext(ctx, `SELECT file_id FROM drive_file_index
		WHERE file_id IN (SELECT value FROM json_each(?))`, jsonIDs(ids))
	if err != nil {
		return nil, fmt.Errorf("filter indexed IDs in %s: %w", s.path, err)
	}
	defer rows.Close()
	have := make(map[string]bool, len(ids))
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("filter indexed IDs in %s: %w", s.path, err)
		}
		have[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("filter indexed IDs in %s: %w", s.path, err)
	}
	out := make([]string, 0, len(have))
	for _, id := range ids {
		if have[id] {
			out = append(out, id)
		}
	}
	return out, nil
}

// IndexedIDs returns the ID of every indexed file, sorted by byte order
// (file_id uses SQLite's default BINARY collation, which compares bytes).
func (s *Store) IndexedIDs(ctx context.Context) (_ []string, err error) {
	defer s.classify(&err)
	return s.listIDs(ctx, `SELECT file_id FROM drive_file_index WHERE source <> '`+store.SourceUpload+`' ORDER BY file_id`)
}

// SourceIDs returns the IDs of the files of one source, sorted by bytes.
func (s *Store) SourceIDs(ctx context.Context, source string) (_ []string, err error) {
	defer s.classify(&err)
	return s.listIDs(ctx, `SELECT file_id FROM drive_file_index WHERE source = ? ORDER BY file_id`, source)
}

// ClaimFiles moves the files among ids whose source is from to source to.
func (s *Store) ClaimFiles(ctx context.Context, from, to string, ids []string) (_ int, err error) {
	defer s.classify(&err)
	if len(ids) == 0 || from == to {
		return 0, nil
	}
	var n int64
	err = s.inWriteTx(ctx, "claim files for "+to, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE drive_file_index SET source = ?
			WHERE source = ? AND file_id IN (SELECT value FROM json_each(?))`, to, from, jsonIDs(ids))
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		return bumpGeneration(ctx, tx)
	})
	return int(n), err
}

func (s *Store) listIDs(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list indexed IDs in %s: %w", s.path, err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("list indexed IDs in %s: %w", s.path, err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list indexed IDs in %s: %w", s.path, err)
	}
	return out, nil
}
