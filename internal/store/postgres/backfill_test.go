package postgres

import (
	"context"
	"testing"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// The chunk full-text backfill (store.BackfillChunkFTS) on this back end.
func TestChunkBackfill(t *testing.T) {
	url := testURL(t)
	storetest.RunChunkBackfill(t, storetest.ChunkBackfilling{
		New: func(t *testing.T) (store.Store, storetest.Reopen) {
			saved := backfillBatch
			backfillBatch = 2
			t.Cleanup(func() { backfillBatch = saved })
			schema := storetest.FreshSchema(t, url, "gds_test_")
			s := openTest(t, url, schema)
			return s, func(t *testing.T, backfill func(store.Backfill)) store.Store {
				s.Close()
				var err error
				if s, err = Open(context.Background(), url, WithSchema(schema), WithBackfill(backfill)); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				return s
			}
		},
		Downgrade: func(t *testing.T, st store.Store) {
			execAll(t, st.(*Store),
				"DROP INDEX {schema}.drive_file_chunks_search_tsv_gin",
				"DROP INDEX {schema}.drive_file_chunks_scan_idx",
				"ALTER TABLE {schema}.drive_file_chunks DROP COLUMN search_tsv",
				"DELETE FROM {schema}.gds_schema_migrations WHERE version >= 2")
		},
		Interrupt: func(t *testing.T, st store.Store, pos string) {
			s := st.(*Store)
			execAll(t, s, "UPDATE {schema}.drive_file_chunks SET search_tsv = NULL")
			if _, err := s.pool.Exec(context.Background(), s.q(`INSERT INTO {schema}.gds_meta (key, value) VALUES ($1, $2)
				ON CONFLICT (key) DO UPDATE SET value = excluded.value`), store.MetaChunkBackfill, pos); err != nil {
				t.Fatal(err)
			}
		},
		Indexed: func(t *testing.T, st store.Store) (entries, missing int) {
			s := st.(*Store)
			if err := s.pool.QueryRow(context.Background(), s.q(`SELECT count(search_tsv), count(*) - count(search_tsv)
				FROM {schema}.drive_file_chunks`)).Scan(&entries, &missing); err != nil {
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
