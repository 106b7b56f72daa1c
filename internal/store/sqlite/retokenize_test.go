package sqlite

import (
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
	"github.com/gds-cli/gds/migrations"
)

// The re-tokenising pass (store.Retokenize) on this back end.
func TestRetokenize(t *testing.T) {
	storetest.RunRetokenize(t, storetest.Retokenizing{
		New: func(t *testing.T) (store.Store, storetest.Reopen) {
			saved := retokenizeBatch
			retokenizeBatch = 2
			t.Cleanup(func() { retokenizeBatch = saved })
			path := filepath.Join(t.TempDir(), "index.db")
			s := mustOpen(t, path, Options{})
			return s, func(t *testing.T, backfill func(store.Backfill)) store.Store {
				s.Close()
				s = mustOpen(t, path, Options{Backfill: backfill})
				return s
			}
		},
		SetTokens: func(t *testing.T, st store.Store, id string, name, text []string, chunks map[int][]string) {
			s := st.(*Store)
			var doc int64
			if err := s.read.QueryRow(`SELECT doc_id FROM drive_file_index WHERE file_id = ?`, id).Scan(&doc); err != nil {
				t.Fatal(err)
			}
			execAll(t, s,
				`DELETE FROM drive_file_fts WHERE rowid = ?`, []any{doc},
				`INSERT INTO drive_file_fts (rowid, name, keywords, summary, body) VALUES (?, ?, '', '', ?)`,
				[]any{doc, strings.Join(name, " "), strings.Join(text, " ")})
			for ord, toks := range chunks {
				execAll(t, s, insertChunkFTS, []any{chunkRowID(doc, ord), strings.Join(toks, " ")})
			}
		},
		Migrate: func(t *testing.T, st store.Store, suffix string) {
			execAll(t, st.(*Store), migrationSQL(t, suffix), nil)
		},
		Meta: func(t *testing.T, st store.Store, key string) bool {
			var v string
			err := st.(*Store).read.QueryRow(`SELECT value FROM gds_meta WHERE key = ?`, key).Scan(&v)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				t.Fatal(err)
			}
			return err == nil
		},
	})
}

// execAll runs statements, each followed by its arguments.
func execAll(t *testing.T, s *Store, stmtArgs ...any) {
	t.Helper()
	for i := 0; i < len(stmtArgs); i += 2 {
		q := stmtArgs[i].(string)
		args, _ := stmtArgs[i+1].([]any)
		if _, err := s.write.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// migrationSQL is the SQL of the migration whose name ends in suffix
// (found by name: the integrator may renumber it).
func migrationSQL(t *testing.T, suffix string) string {
	t.Helper()
	ms, err := migrations.SQLite()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if strings.HasSuffix(m.Name, suffix) {
			return m.SQL
		}
	}
	t.Fatalf("no *%s migration", suffix)
	return ""
}
