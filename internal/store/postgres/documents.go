package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/gds-cli/gds/internal/store"
)

// PutDocumentMeta inserts or replaces the metadata of m.FileID.
func (s *Store) PutDocumentMeta(ctx context.Context, m store.DocumentMeta) (err error) {
	defer s.classify(&err)
	if m.FileID == "" {
		return errors.New("put document metadata: empty file ID")
	}
	_, err = s.pool.Exec(ctx, s.q(`INSERT INTO {schema}.gds_document (file_id, title, tags, stored_name, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (file_id) DO UPDATE SET title = excluded.title, tags = excluded.tags,
			stored_name = excluded.stored_name, created_at = excluded.created_at, updated_at = excluded.updated_at`),
		m.FileID, m.Title, nonNil(m.Tags), m.StoredName, m.CreatedAt.UTC(), m.UpdatedAt.UTC())
	if err != nil {
		return fmt.Errorf("postgres: writing document %q: %w", m.FileID, err)
	}
	return nil
}

// DocumentMetas returns file ID → metadata for the ids that have any.
func (s *Store) DocumentMetas(ctx context.Context, ids []string) (_ map[string]store.DocumentMeta, err error) {
	defer s.classify(&err)
	out := map[string]store.DocumentMeta{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, s.q(`SELECT file_id, title, tags, stored_name, created_at, updated_at
		FROM {schema}.gds_document WHERE file_id = ANY($1::text[])`), ids)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading documents: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m store.DocumentMeta
		if err := rows.Scan(&m.FileID, &m.Title, &m.Tags, &m.StoredName, &m.CreatedAt, &m.UpdatedAt); err != nil {
			return nil, fmt.Errorf("postgres: reading documents: %w", err)
		}
		m.CreatedAt, m.UpdatedAt = m.CreatedAt.UTC(), m.UpdatedAt.UTC()
		out[m.FileID] = m
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: reading documents: %w", err)
	}
	return out, nil
}

// ListDocuments returns one page of the indexed files, most recently
// indexed first.
func (s *Store) ListDocuments(ctx context.Context, q store.DocumentQuery) (_ store.DocumentPage, err error) {
	defer s.classify(&err)
	page := store.DocumentPage{Items: []store.Document{}}
	if q.Limit <= 0 {
		q.Limit = store.DefaultDocumentPage
	}
	q.Offset = max(q.Offset, 0)
	from := ` FROM {schema}.drive_file_index f LEFT JOIN {schema}.gds_document d ON d.file_id = f.file_id
		WHERE ($1 = '' OR $1 = ANY(d.tags)) `
	if err := s.pool.QueryRow(ctx, s.q(`SELECT count(*)`+from), q.Tag).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("postgres: counting documents: %w", err)
	}
	rows, err := s.pool.Query(ctx, s.q(`SELECT f.file_id, f.file_name, f.summary, f.keywords, f.drive_modified_at, f.mime_type,
			f.web_link, f.parents, f.path, f.size, f.content_hash, f.source, f.provider, f.indexed_at,
			coalesce(d.file_id, ''), coalesce(d.title, ''), coalesce(d.tags, '{}'), coalesce(d.stored_name, ''),
			coalesce(d.created_at, f.indexed_at), coalesce(d.updated_at, f.indexed_at),
			(SELECT count(*) FROM {schema}.drive_file_chunks c WHERE c.file_id = f.file_id)`+from+`
		ORDER BY f.indexed_at DESC, f.file_id COLLATE "C" LIMIT $2 OFFSET $3`), q.Tag, q.Limit, q.Offset)
	if err != nil {
		return page, fmt.Errorf("postgres: listing documents: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc store.Document
		f := &doc.File
		if err := rows.Scan(&f.ID, &f.Name, &f.Summary, &f.Keywords, &f.ModifiedAt, &f.MimeType, &f.WebLink, &f.Parents,
			&f.Path, &f.Size, &f.ContentHash, &f.Source, &f.Provider, &f.IndexedAt,
			&doc.Meta.FileID, &doc.Meta.Title, &doc.Meta.Tags, &doc.Meta.StoredName, &doc.Meta.CreatedAt, &doc.Meta.UpdatedAt,
			&doc.Chunks); err != nil {
			return page, fmt.Errorf("postgres: listing documents: %w", err)
		}
		f.ModifiedAt, f.IndexedAt = f.ModifiedAt.UTC(), f.IndexedAt.UTC()
		if doc.Meta.FileID == "" {
			doc.Meta = store.DocumentMeta{}
		} else {
			doc.Meta.CreatedAt, doc.Meta.UpdatedAt = doc.Meta.CreatedAt.UTC(), doc.Meta.UpdatedAt.UTC()
		}
		page.Items = append(page.Items, doc)
	}
	if err := rows.Err(); err != nil {
		return page, fmt.Errorf("postgres: listing documents: %w", err)
	}
	return page, nil
}

// TaggedFileIDs returns the IDs of indexed files tagged with any of tags.
func (s *Store) TaggedFileIDs(ctx context.Context, tags []string) (_ []string, err error) {
	defer s.classify(&err)
	out := []string{}
	if len(tags) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, s.q(`SELECT d.file_id FROM {schema}.gds_document d
		JOIN {schema}.drive_file_index f ON f.file_id = d.file_id
		WHERE d.tags && $1::text[] ORDER BY d.file_id COLLATE "C"`), tags)
	if err != nil {
		return nil, fmt.Errorf("postgres: finding tagged documents: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("postgres: finding tagged documents: %w", err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: finding tagged documents: %w", err)
	}
	return out, nil
}

// nonNil is xs, or an empty array for nil: the tags column is NOT NULL.
func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// FolderCounts counts the indexed files by source and folder.
func (s *Store) FolderCounts(ctx context.Context) (_ []store.FolderCount, err error) {
	defer s.classify(&err)
	rows, err := s.pool.Query(ctx, s.q(`SELECT source, path, count(*) FROM {schema}.drive_file_index
		GROUP BY source, path ORDER BY source COLLATE "C", path COLLATE "C"`))
	if err != nil {
		return nil, fmt.Errorf("postgres: counting the folders: %w", err)
	}
	defer rows.Close()
	out := []store.FolderCount{}
	for rows.Next() {
		var c store.FolderCount
		if err := rows.Scan(&c.Source, &c.Path, &c.Files); err != nil {
			return nil, fmt.Errorf("postgres: counting the folders: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: counting the folders: %w", err)
	}
	return out, nil
}
