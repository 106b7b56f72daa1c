package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/gds-cli/gds/internal/store"
)

// UpsertFile inserts or replaces a file and all its chunks in one transaction.
// Embeddings must have the recorded dimension.
func (s *Store) UpsertFile(ctx context.Context, f store.File, chunks []store.Chunk) (err error) {
	defer s.classify(&err)
	if f.ID == "" {
		return fmt.Errorf("postgres: UpsertFile: the file has no ID")
	}
	if err := store.CheckOrdinals(chunks); err != nil {
		return fmt.Errorf("postgres: indexing file %q: %w", f.ID, err)
	}
	chunkIDs := make([]string, len(chunks))
	ordinals := make([]int32, len(chunks))
	pages := make([]int32, len(chunks))
	texts := make([]string, len(chunks))
	vecs := make([]string, len(chunks))
	tsvs := make([]string, len(chunks))
	for i, c := range chunks {
		tsvs[i] = buildChunkTSVector(c.Text)
		chunkIDs[i] = f.ID
		ordinals[i] = int32(c.Ordinal)
		pages[i] = int32(c.Page)
		texts[i] = c.Text
		vecs[i] = pgvector.NewVector(c.Embedding).String()
	}
	tsv := buildTSVector(f)
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		sp, err := s.loadSpace(ctx, tx)
		if err != nil {
			return err
		}
		if sp.Dim == 0 {
			return fmt.Errorf("no embedding space is recorded yet (call EnsureEmbeddingSpace first)")
		}
		if len(f.Embedding) != 0 && len(f.Embedding) != sp.Dim {
			return fmt.Errorf("file embedding has %d dimensions, the index holds %d (%s); re-crawl with `gds crawl --full` after changing models", len(f.Embedding), sp.Dim, sp.Model)
		}
		for _, c := range chunks {
			if len(c.Embedding) != sp.Dim {
				return fmt.Errorf("chunk %d embedding has %d dimensions, the index holds %d (%s)", c.Ordinal, len(c.Embedding), sp.Dim, sp.Model)
			}
		}
		_, err = tx.Exec(ctx, s.q(`INSERT INTO {schema}.drive_file_index (
				file_id, file_name, summary, keywords, embedding, drive_modified_at, mime_type,
				web_link, parents, path, size, content_hash, source, provider, indexed_at, search_tsv, skip_reason, ocr, extract_version)
			VALUES ($1, $2, $3, $4, $5::vector, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::tsvector, $17, $18, $19)
			ON CONFLICT (file_id) DO UPDATE SET
				file_name = EXCLUDED.file_name, summary = EXCLUDED.summary, keywords = EXCLUDED.keywords,
				embedding = EXCLUDED.embedding, drive_modified_at = EXCLUDED.drive_modified_at,
				mime_type = EXCLUDED.mime_type, web_link = EXCLUDED.web_link, parents = EXCLUDED.parents,
				path = EXCLUDED.path, size = EXCLUDED.size, content_hash = EXCLUDED.content_hash,
				source = EXCLUDED.source, provider = EXCLUDED.provider, indexed_at = EXCLUDED.indexed_at,
				search_tsv = EXCLUDED.search_tsv, skip_reason = EXCLUDED.skip_reason, ocr = EXCLUDED.ocr,
				extract_version = EXCLUDED.extract_version`),
			f.ID, f.Name, f.Summary, textArray(f.Keywords), fileVector(f.Embedding, sp.Dim),
			f.ModifiedAt.UTC(), f.MimeType, f.WebLink, textArray(f.Parents), f.Path, f.Size, f.ContentHash,
			f.Source, f.Provider, indexedAt(f.IndexedAt), tsv, f.SkipReason, f.OCR, f.ExtractVersion)
		if err != nil {
			return fmt.Errorf("writing the file row: %w", err)
		}
		if _, err := tx.Exec(ctx, s.q("DELETE FROM {schema}.drive_file_chunks WHERE file_id = $1"), f.ID); err != nil {
			return fmt.Errorf("deleting old chunks: %w", err)
		}
		if len(chunks) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, s.q(`INSERT INTO {schema}.drive_file_chunks (file_id, ordinal, page, content, embedding, search_tsv)
			SELECT u.file_id, u.ordinal, u.page, u.content, u.embedding::vector, u.tsv::tsvector
			FROM unnest($1::text[], $2::int4[], $3::int4[], $4::text[], $5::text[], $6::text[]) AS u(file_id, ordinal, page, content, embedding, tsv)`),
			chunkIDs, ordinals, pages, texts, vecs, tsvs); err != nil {
			return fmt.Errorf("writing %d chunks: %w", len(chunks), err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: indexing file %q: %w", f.ID, err)
	}
	return nil
}

// fileVector is the vector literal of a file's embedding; a zero vector of
// the index's dimension for a name-only entry, which has none (the seed's
// column is NOT NULL; VectorSearch leaves out files with a skip reason and
// GetFiles returns no embedding for them).
func fileVector(v []float32, dim int) string {
	if len(v) == 0 {
		v = make([]float32, dim)
	}
	return pgvector.NewVector(v).String()
}

// textArray stores an empty list as NULL, as the seed's nullable TEXT[] allows.
func textArray(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	return xs
}

func indexedAt(t time.Time) time.Time {
	if t.IsZero() {
		return time.Now().UTC()
	}
	return t.UTC()
}

// DeleteFiles removes files and (by cascade) their chunks; unknown IDs are ignored.
func (s *Store) DeleteFiles(ctx context.Context, ids []string) (err error) {
	defer s.classify(&err)
	if len(ids) == 0 {
		return nil
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for _, q := range []string{
			"DELETE FROM {schema}.gds_document WHERE file_id = ANY($1::text[])",
			"DELETE FROM {schema}.drive_file_index WHERE file_id = ANY($1::text[])",
		} {
			if _, err := tx.Exec(ctx, s.q(q), ids); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: deleting %d files: %w", len(ids), err)
	}
	return nil
}

// GetFiles returns the files with these IDs in the given order, skipping
// unknown IDs. Text is left empty.
func (s *Store) GetFiles(ctx context.Context, ids []string) (_ []store.File, err error) {
	defer s.classify(&err)
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, s.q(`SELECT file_id, file_name, summary, keywords, embedding, drive_modified_at,
			mime_type, web_link, parents, path, size, content_hash, source, provider, indexed_at, skip_reason, ocr, extract_version
		FROM {schema}.drive_file_index WHERE file_id = ANY($1::text[])`), ids)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading %d files: %w", len(ids), err)
	}
	defer rows.Close()
	var files []store.File
	for rows.Next() {
		var (
			f   store.File
			emb pgvector.Vector
		)
		if err := rows.Scan(&f.ID, &f.Name, &f.Summary, &f.Keywords, &emb, &f.ModifiedAt, &f.MimeType,
			&f.WebLink, &f.Parents, &f.Path, &f.Size, &f.ContentHash, &f.Source, &f.Provider, &f.IndexedAt, &f.SkipReason, &f.OCR, &f.ExtractVersion); err != nil {
			return nil, fmt.Errorf("postgres: reading a file row: %w", err)
		}
		if !f.NameOnly() {
			f.Embedding = emb.Slice() // a name-only entry's is a stored zero vector
		}
		f.ModifiedAt = f.ModifiedAt.UTC()
		f.IndexedAt = f.IndexedAt.UTC()
		files = append(files, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reading files: %w", err)
	}
	return store.InOrder(ids, files), nil
}

// ContentHashes returns file ID → content hash for the IDs that are indexed.
func (s *Store) ContentHashes(ctx context.Context, ids []string) (_ map[string]string, err error) {
	defer s.classify(&err)
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, s.q("SELECT file_id, content_hash FROM {schema}.drive_file_index WHERE file_id = ANY($1::text[])"), ids)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading content hashes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, h string
		if err := rows.Scan(&id, &h); err != nil {
			return nil, fmt.Errorf("postgres: reading content hashes: %w", err)
		}
		out[id] = h
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reading content hashes: %w", err)
	}
	return out, nil
}

// FilterIndexed returns the IDs that are indexed, in input order.
func (s *Store) FilterIndexed(ctx context.Context, ids []string) (_ []string, err error) {
	defer s.classify(&err)
	if len(ids) == 0 {
		return []string{}, nil
	}
	rows, err := s.pool.Query(ctx, s.q("SELECT file_id FROM {schema}.drive_file_index WHERE file_id = ANY($1::text[])"), ids)
	if err != nil {
		return nil, fmt.Errorf("postgres: filtering indexed IDs: %w", err)
	}
	defer rows.Close()
	have := make(map[string]bool, len(ids))
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("postgres: filtering indexed IDs: %w", err)
		}
		have[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: filtering indexed IDs: %w", err)
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
// (COLLATE "C", so the order matches Go's sort.Strings whatever the
// database's default collation).
func (s *Store) IndexedIDs(ctx context.Context) (_ []string, err error) {
	defer s.classify(&err)
	return s.listIDs(ctx, s.q(`SELECT file_id FROM {schema}.drive_file_index WHERE source <> '`+store.SourceUpload+`' ORDER BY file_id COLLATE "C"`))
}

// SourceIDs returns the IDs of the files of one source, sorted by bytes.
func (s *Store) SourceIDs(ctx context.Context, source string) (_ []string, err error) {
	defer s.classify(&err)
	return s.listIDs(ctx, s.q(`SELECT file_id FROM {schema}.drive_file_index WHERE source = $1 ORDER BY file_id COLLATE "C"`), source)
}

// ClaimFiles moves the files among ids whose source is from to source to.
func (s *Store) ClaimFiles(ctx context.Context, from, to string, ids []string) (_ int, err error) {
	defer s.classify(&err)
	if len(ids) == 0 || from == to {
		return 0, nil
	}
	tag, err := s.pool.Exec(ctx, s.q(`UPDATE {schema}.drive_file_index SET source = $1
		WHERE source = $2 AND file_id = ANY($3::text[])`), to, from, ids)
	if err != nil {
		return 0, fmt.Errorf("postgres: claiming files for %s: %w", to, err)
	}
	return int(tag.RowsAffected()), nil
}

func (s *Store) listIDs(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: listing indexed IDs: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("postgres: listing indexed IDs: %w", err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: listing indexed IDs: %w", err)
	}
	return out, nil
}
