package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// The chunk full-text backfill (store.BackfillChunkFTS) on this back end.
func TestChunkBackfill(t *testing.T) {
	storetest.RunChunkBackfill(t, storetest.ChunkBackfilling{
		New: func(t *testing.T) (store.Store, storetest.Reopen) {
			saved := backfillBatch
			backfillBatch = 2
			t.Cleanup(func() { backfillBatch = saved })
			path := filepath.Join(t.TempDir(), "index.db")
			s := mustOpen(t, path, Options{})
			return s, func(t *testing.T, backfill func(store.Backfill)) store.Store {
				s.Close()
				s = mustOpen(t, path, Options{Backfill: backfill})
				return s
			}
		},
		Downgrade: func(t *testing.T, st store.Store) { asVersion2(t, st.(*Store)) },
		Interrupt: func(t *testing.T, st store.Store, pos string) {
			execAll(t, st.(*Store),
				`INSERT INTO drive_chunk_fts (drive_chunk_fts) VALUES ('delete-all')`, nil,
				`INSERT OR REPLACE INTO gds_meta (key, value) VALUES (?, ?)`, []any{store.MetaChunkBackfill, pos})
		},
		Indexed: func(t *testing.T, st store.Store) (entries, missing int) {
			s := st.(*Store)
			if err := s.read.QueryRowContext(context.Background(), `SELECT
				(SELECT count(*) FROM drive_chunk_fts),
				(SELECT count(*) FROM drive_file_chunk c JOIN drive_file_index f ON f.file_id = c.file_id
					WHERE (f.doc_id << 24) + c.ordinal NOT IN (SELECT rowid FROM drive_chunk_fts))`).Scan(&entries, &missing); err != nil {
				t.Fatal(err)
			}
			return entries, missing
		},
		Meta: func(t *testing.T, st store.Store, key string) bool {
			_, ok, err := passes{st.(*Store)}.Meta(context.Background(), key)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		},
	})
}
