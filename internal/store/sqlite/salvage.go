package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/gds-cli/gds/internal/store"
)

// Salvaged is what a damaged index still says about one uploaded file.
type Salvaged struct {
	// Name is the file name it was uploaded under ("" when its record
	// could not be read).
	Name string
	// Meta is its document metadata: title, tags, stored name, times
	// (FileID "" when it could not be read; Tags nil when they could
	// not be decoded).
	Meta store.DocumentMeta
}

// Salvage reads what the index file at path — a damaged one, set aside —
// still holds about the files ids: each file's name and document metadata,
// one record at a time, so damage to one leaves the others readable. It
// opens the file read-only and never writes to it; a record that cannot be
// read is left out. The error says the file could not be read at all (not
// an SQLite database, its schema unreadable).
func Salvage(ctx context.Context, path string, ids []string) (map[string]Salvaged, error) {
	out := map[string]Salvaged{}
	u := "file:" + (&url.URL{Path: path}).EscapedPath()
	var db *sql.DB
	var err error
	// A file with its WAL beside it is read with the WAL; when that fails
	// (no WAL index can be made read-only), the main file alone.
	for _, q := range []string{"?mode=ro", "?mode=ro&immutable=1"} {
		if db, err = sql.Open("sqlite", u+q); err != nil {
			continue
		}
		var n int
		if err = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&n); err == nil {
			break
		}
		db.Close()
		db = nil
	}
	if db == nil {
		return out, damaged(fmt.Errorf("read the damaged index %s: %w", path, err), path)
	}
	defer db.Close()
	for _, id := range ids {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		var s Salvaged
		_ = db.QueryRowContext(ctx, `SELECT file_name FROM drive_file_index WHERE file_id = ?`, id).Scan(&s.Name)
		var tags, created, updated string
		m := store.DocumentMeta{}
		if db.QueryRowContext(ctx, `SELECT file_id, title, tags, stored_name, created_at, updated_at FROM gds_document WHERE file_id = ?`, id).
			Scan(&m.FileID, &m.Title, &tags, &m.StoredName, &created, &updated) == nil {
			if json.Unmarshal([]byte(tags), &m.Tags) != nil {
				m.Tags = nil
			}
			m.CreatedAt, _ = parseTime(created)
			m.UpdatedAt, _ = parseTime(updated)
			s.Meta = m
		}
		if s.Name != "" || s.Meta.FileID != "" {
			out[id] = s
		}
	}
	return out, nil
}
