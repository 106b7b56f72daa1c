package sqlite

import (
	"context"
	"database/sql"

	"github.com/gds-cli/gds/internal/store"
)

// UpdateFileMeta rewrites the listing metadata of an indexed file whose
// name and text are unchanged (a file touched, or moved to another folder):
// modified time, MIME type, link, parents, path, size, source and indexed
// time. The summary, embeddings, chunks and full-text rows stay; none of
// them holds these fields. An unknown ID is ignored.
func (s *Store) UpdateFileMeta(ctx context.Context, f store.File) (err error) {
	defer s.classify(&err)
	return s.inWriteTx(ctx, "update file "+f.ID, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE drive_file_index SET drive_modified_at = ?, mime_type = ?, web_link = ?,
				parents = ?, path = ?, size = ?, source = ?, indexed_at = ?, extract_version = ? WHERE file_id = ?`,
			formatTime(f.ModifiedAt), f.MimeType, f.WebLink, jsonList(f.Parents), f.Path, f.Size, f.Source,
			formatTime(f.IndexedAt), f.ExtractVersion, f.ID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		return bumpGeneration(ctx, tx)
	})
}
