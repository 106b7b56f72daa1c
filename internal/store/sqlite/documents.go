package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gds-cli/gds/internal/store"
)

// PutDocumentMeta inserts or replaces the metadata of m.FileID.
func (s *Store) PutDocumentMeta(ctx context.Context, m store.DocumentMeta) (err error) {
	defer s.classify(&err)
	if m.FileID == "" {
		return errors.New("put document metadata: empty file ID")
	}
	return s.inWriteTx(ctx, fmt.Sprintf("put document %q", m.FileID), func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO gds_document (file_id, title, tags, stored_name, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (file_id) DO UPDATE SET title = excluded.title, tags = excluded.tags,
				stored_name = excluded.stored_name, created_at = excluded.created_at, updated_at = excluded.updated_at`,
			m.FileID, m.Title, jsonList(m.Tags), m.StoredName, formatTime(m.CreatedAt), formatTime(m.UpdatedAt))
		if err != nil {
			return err
		}
		return bumpGeneration(ctx, tx)
	})
}

func scanMeta(sc interface{ Scan(...any) error }, m *store.DocumentMeta) error {
	var tags, created, updated string
	if err := sc.Scan(&m.FileID, &m.Title, &tags, &m.StoredName, &created, &updated); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(tags), &m.Tags); err != nil {
		return &badRecord{m.FileID, "document tags", err}
	}
	var err error
	if m.CreatedAt, err = parseTime(created); err != nil {
		return &badRecord{m.FileID, "document creation time", err}
	}
	if m.UpdatedAt, err = parseTime(updated); err != nil {
		return &badRecord{m.FileID, "document update time", err}
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
	rows, err := s.read.QueryContext(ctx, `SELECT file_id, title, tags, stored_name, created_at, updated_at
		FROM gds_document WHERE file_id IN (SELECT value FROM json_each(?))`, jsonIDs(ids))
	if err != nil {
		return nil, fmt.Errorf("read documents from %s: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var m store.DocumentMeta
		if err := scanMeta(rows, &m); err != nil {
			return nil, fmt.Errorf("read documents from %s: %w", s.path, err)
		}
		out[m.FileID] = m
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read documents from %s: %w", s.path, err)
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
	where := `WHERE (? = '' OR EXISTS (SELECT 1 FROM json_each(d.tags) WHERE value = ?))`
	from := ` FROM drive_file_index f LEFT JOIN gds_document d ON d.file_id = f.file_id `
	if err := s.read.QueryRowContext(ctx, `SELECT count(*)`+from+where, q.Tag, q.Tag).Scan(&page.Total); err != nil {
		return page, fmt.Errorf("count documents in %s: %w", s.path, err)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT f.file_id, f.file_name, f.summary, f.keywords, f.drive_modified_at, f.mime_type,
			f.web_link, f.parents, f.path, f.size, f.content_hash, f.source, f.provider, f.indexed_at,
			coalesce(d.file_id, ''), coalesce(d.title, ''), coalesce(d.tags, '[]'), coalesce(d.stored_name, ''),
			coalesce(d.created_at, f.indexed_at), coalesce(d.updated_at, f.indexed_at),
			(SELECT count(*) FROM drive_file_chunk c WHERE c.file_id = f.file_id)`+from+where+`
		ORDER BY f.indexed_at DESC, f.file_id LIMIT ? OFFSET ?`, q.Tag, q.Tag, q.Limit, q.Offset)
	if err != nil {
		return page, fmt.Errorf("list documents in %s: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			doc                         store.Document
			f                           = &doc.File
			kw, parents, mod, idx, tags string
			created, updated            string
		)
		if err := rows.Scan(&f.ID, &f.Name, &f.Summary, &kw, &mod, &f.MimeType, &f.WebLink, &parents, &f.Path, &f.Size,
			&f.ContentHash, &f.Source, &f.Provider, &idx,
			&doc.Meta.FileID, &doc.Meta.Title, &tags, &doc.Meta.StoredName, &created, &updated, &doc.Chunks); err != nil {
			return page, fmt.Errorf("list documents in %s: %w", s.path, err)
		}
		var err error
		for _, dec := range []struct {
			what, src string
			dst       *[]string
		}{{"keywords", kw, &f.Keywords}, {"parents", parents, &f.Parents}, {"document tags", tags, &doc.Meta.Tags}} {
			if err = json.Unmarshal([]byte(dec.src), dec.dst); err != nil {
				return page, &badRecord{f.ID, dec.what, err}
			}
		}
		for _, t := range []struct {
			what, src string
			dst       *time.Time
		}{{"modified time", mod, &f.ModifiedAt}, {"indexed time", idx, &f.IndexedAt},
			{"document creation time", created, &doc.Meta.CreatedAt}, {"document update time", updated, &doc.Meta.UpdatedAt}} {
			if *t.dst, err = parseTime(t.src); err != nil {
				return page, &badRecord{f.ID, t.what, err}
			}
		}
		if doc.Meta.FileID == "" {
			doc.Meta = store.DocumentMeta{}
		}
		page.Items = append(page.Items, doc)
	}
	if err := rows.Err(); err != nil {
		return page, fmt.Errorf("list documents in %s: %w", s.path, err)
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
	rows, err := s.read.QueryContext(ctx, `SELECT DISTINCT d.file_id FROM gds_document d
		JOIN drive_file_index f ON f.file_id = d.file_id
		WHERE EXISTS (SELECT 1 FROM json_each(d.tags) t WHERE t.value IN (SELECT value FROM json_each(?)))
		ORDER BY d.file_id`, jsonIDs(tags))
	if err != nil {
		return nil, fmt.Errorf("find tagged documents in %s: %w", s.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("find tagged documents in %s: %w", s.path, err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("find tagged documents in %s: %w", s.path, err)
	}
	return out, nil
}

// FolderCounts counts the indexed files by source and folder.
func (s *Store) FolderCounts(ctx context.Context) (_ []store.FolderCount, err error) {
	defer s.classify(&err)
	rows, err := s.read.QueryContext(ctx, `SELECT source, path, count(*) FROM drive_file_index
		GROUP BY source, path ORDER BY source, path`)
	if err != nil {
		return nil, fmt.Errorf("count the folders in %s: %w", s.path, err)
	}
	defer rows.Close()
	out := []store.FolderCount{}
	for rows.Next() {
		var c store.FolderCount
		if err := rows.Scan(&c.Source, &c.Path, &c.Files); err != nil {
			return nil, fmt.Errorf("count the folders in %s: %w", s.path, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count the folders in %s: %w", s.path, err)
	}
	return out, nil
}
