package postgres

import (
	"context"
	"fmt"

	"github.com/gds-cli/gds/internal/store"
)

// UpdateFileMeta rewrites the listing metadata of an indexed file whose
// name and text are unchanged (a file touched, or moved to another folder):
// modified time, MIME type, link, parents, path, size, source and indexed
// time. The summary, embeddings, chunks and search_tsv stay; none of them
// holds these fields. An unknown ID is ignored.
func (s *Store) UpdateFileMeta(ctx context.Context, f store.File) (err error) {
	defer s.classify(&err)
	_, err = s.pool.Exec(ctx, s.q(`UPDATE {schema}.drive_file_index SET drive_modified_at = $1, mime_type = $2,
			web_link = $3, parents = $4, path = $5, size = $6, source = $7, indexed_at = $8, extract_version = $9
			WHERE file_id = $10`),
		f.ModifiedAt.UTC(), f.MimeType, f.WebLink, textArray(f.Parents), f.Path, f.Size, f.Source, indexedAt(f.IndexedAt), f.ExtractVersion, f.ID)
	if err != nil {
		return fmt.Errorf("postgres: updating file %q: %w", f.ID, err)
	}
	return nil
}
