package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
	"github.com/gds-cli/gds/migrations"
)

func openTemp(t *testing.T, opts Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "index.db"), opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestContract runs the store suite with the keystroke's top-k pruning
// (topAny) tried on every TopOnly query, however few its matches.
func TestContract(t *testing.T) {
	savedRows, savedMatches := pruneMinRows, pruneMinMatches
	pruneMinRows, pruneMinMatches = 0, 0
	t.Cleanup(func() { pruneMinRows, pruneMinMatches = savedRows, savedMatches })
	storetest.Run(t, func(t *testing.T) store.Store { return openTemp(t, Options{}) })
}

func TestGraphContract(t *testing.T) {
	storetest.RunGraph(t, func(t *testing.T) store.GraphStore { return openTemp(t, Options{}) })
}

// TestContractFilterByIndex runs the suite again with keyword filters always
// applied by reading the filter's files and intersecting (the path taken when
// a query matches many files).
func TestContractFilterByIndex(t *testing.T) {
	saved := resolveByList
	resolveByList = 0
	t.Cleanup(func() { resolveByList = saved })
	storetest.Run(t, func(t *testing.T) store.Store { return openTemp(t, Options{}) })
}

func testFile(id, text string, v ...float32) store.File {
	emb := make([]float32, storetest.Dim)
	copy(emb, v)
	return store.File{ID: id, Name: id + ".txt", Text: text, Embedding: emb, MimeType: "text/plain",
		ModifiedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), IndexedAt: time.Now()}
}

func mustOpen(t *testing.T, path string, opts Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("Open(%s, %+v): %v", filepath.Base(path), opts, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestReadOnlyRefusesWrites(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	rw := mustOpen(t, path, Options{})
	if err := rw.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
		t.Fatal(err)
	}
	if err := rw.UpsertFile(ctx, testFile("a", "kept", 1), nil); err != nil {
		t.Fatal(err)
	}
	ro := mustOpen(t, path, Options{ReadOnly: true})

	writes := map[string]func() error{
		"UpsertFile":  func() error { return ro.UpsertFile(ctx, testFile("b", "new", 1), nil) },
		"DeleteFiles": func() error { return ro.DeleteFiles(ctx, []string{"a"}) },
		"Reset":       func() error { return ro.Reset(ctx) },
		"SetSyncState": func() error {
			return ro.SetSyncState(ctx, store.SyncState{Source: "drive", ModifiedAt: time.Now(), Fingerprint: "x"})
		},
	}
	for name, w := range writes {
		err := w()
		if !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s on a read-only store = %v, want ErrReadOnly", name, err)
		} else if !strings.Contains(err.Error(), "read-only") {
			t.Errorf("%s error %q does not say the index is read-only", name, err)
		}
	}
	// Reads work and see the data; the recorded space is accepted, a new one is not written.
	if err := ro.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
		t.Errorf("EnsureEmbeddingSpace(recorded space) on a read-only store: %v", err)
	}
	if err := ro.Migrate(ctx); err != nil {
		t.Errorf("Migrate on a current read-only store: %v", err)
	}
	res, err := ro.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{"kept"}})
	if err != nil || len(res.Hits) != 1 {
		t.Errorf("KeywordSearch on a read-only store = %+v, %v; want the one file", res, err)
	}
	files, err := rw.GetFiles(ctx, []string{"a", "b"})
	if err != nil || len(files) != 1 || files[0].ID != "a" {
		t.Errorf("after refused writes the index holds %v, %v; want just a", files, err)
	}
}

func TestReadOnlyMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.db")
	_, err := Open(context.Background(), path, Options{ReadOnly: true})
	if err == nil || !strings.Contains(err.Error(), "gds crawl") {
		t.Errorf("read-only Open of a missing file = %v, want an error telling the user to run gds crawl", err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("read-only Open of a missing file = %v, want it to match fs.ErrNotExist (no index yet)", err)
	}
	if _, statErr := os.Stat(path); !errors.Is(statErr, os.ErrNotExist) {
		t.Errorf("read-only Open created %s (stat: %v)", path, statErr)
	}
}

// A file without a schema (a first crawl killed before its migration
// committed) is "no index yet" too, not a broken index.
func TestReadOnlyUninitialisedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path, Options{ReadOnly: true})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "gds crawl") {
		t.Errorf("read-only Open of an empty file = %v, want an error matching fs.ErrNotExist that says to run gds crawl", err)
	}
}

func TestReopenKeepsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "dir", "index.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertFile(ctx, testFile("a", "persistent words", 1), []store.Chunk{{Text: "c", Embedding: []float32{1, 0, 0, 0}}}); err != nil {
		t.Fatal(err)
	}
	mod := time.Date(2024, 7, 1, 2, 3, 4, 5000, time.UTC)
	if err := s.SetSyncState(ctx, store.SyncState{Source: "drive", ModifiedAt: mod, Fingerprint: "fp"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for _, opts := range []Options{{}, {ReadOnly: true}} {
		s2 := mustOpen(t, path, opts)
		st, err := s2.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		latest, _ := latestVersion()
		if st.Files != 1 || st.Chunks != 1 || st.Space != storetest.Space || !st.Sync.ModifiedAt.Equal(mod) ||
			st.SchemaVersion != latest || st.Backend != "sqlite" || st.Location != path {
			t.Errorf("reopened (%+v) Stats = %+v", opts, st)
		}
		res, err := s2.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{"persistent"}})
		if err != nil || len(res.Hits) != 1 {
			t.Errorf("reopened (%+v) KeywordSearch = %+v, %v", opts, res, err)
		}
		if err := s2.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: "other", Dim: 8}); !errors.Is(err, store.ErrEmbeddingMismatch) {
			t.Errorf("reopened (%+v) EnsureEmbeddingSpace(other) = %v, want ErrEmbeddingMismatch", opts, err)
		}
	}
}

func TestConcurrentOpenMigratesOnce(t *testing.T) {
	ctx := context.Background()
	for round := range 3 {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("fresh%d.db", round))
		const n = 4
		var wg sync.WaitGroup
		stores := make([]*Store, n)
		errs := make([]error, n)
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				stores[i], errs[i] = Open(ctx, path, Options{})
			}()
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d: concurrent Open #%d: %v", round, i, err)
			}
			defer stores[i].Close()
		}
		var count, distinct int
		if err := stores[0].read.QueryRowContext(ctx, `SELECT count(*), count(DISTINCT version) FROM gds_schema_migrations`).Scan(&count, &distinct); err != nil {
			t.Fatal(err)
		}
		ms, _ := migrations.SQLite()
		if count != len(ms) || distinct != len(ms) {
			t.Errorf("round %d: gds_schema_migrations has %d rows (%d versions), want %d", round, count, distinct, len(ms))
		}
		var mode string
		if err := stores[1].read.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("journal_mode = %q, %v; want wal", mode, err)
		}
	}
}

func TestSchemaTooNew(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	s := mustOpen(t, path, Options{})
	if _, err := s.write.ExecContext(ctx, `INSERT INTO gds_schema_migrations (version, name, applied_at) VALUES (9999, '9999_future.sql', '')`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, opts := range []Options{{}, {ReadOnly: true}} {
		_, err := Open(ctx, path, opts)
		if !errors.Is(err, store.ErrSchemaTooNew) {
			t.Errorf("Open(%+v) of a newer schema = %v, want ErrSchemaTooNew", opts, err)
		}
	}
}

// Two handles on one file behave like two processes: one crawler writing,
// others reading and writing, none sees "database is locked", and a reader's
// vector cache follows the other handle's writes.
func TestTwoHandles(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	a := mustOpen(t, path, Options{})
	b := mustOpen(t, path, Options{})
	ro := mustOpen(t, path, Options{ReadOnly: true})
	if err := a.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
		t.Fatal(err)
	}
	if err := a.UpsertFile(ctx, testFile("first", "x", 1), nil); err != nil {
		t.Fatal(err)
	}
	hits, err := ro.VectorSearch(ctx, []float32{0, 1, 0, 0}, store.Filter{}, 5)
	if err != nil || len(hits) != 1 {
		t.Fatalf("VectorSearch = %v, %v; want one hit", hits, err)
	}
	if err := b.UpsertFile(ctx, testFile("second", "y", 0, 1), nil); err != nil {
		t.Fatal(err)
	}
	hits, err = ro.VectorSearch(ctx, []float32{0, 1, 0, 0}, store.Filter{}, 5)
	if err != nil || len(hits) != 2 || hits[0].ID != "second" {
		t.Fatalf("VectorSearch after another handle wrote = %v, %v; want [second first]", hits, err)
	}

	var wg sync.WaitGroup
	errc := make(chan error, 100)
	for w, s := range []*Store{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				if err := s.UpsertFile(ctx, testFile(fmt.Sprintf("w%d-%d", w, i), "bulk words", 1, float32(i)), nil); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 40 {
				if _, err := ro.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{"bulk"}, Match: store.MatchAny}); err != nil {
					errc <- err
					return
				}
				if _, err := ro.VectorSearch(ctx, []float32{1, 0, 0, 0}, store.Filter{}, 3); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Errorf("concurrent use of two handles: %v", err)
	}
	st, err := ro.Stats(ctx)
	if err != nil || st.Files != 82 {
		t.Errorf("Stats = %+v, %v; want 82 files", st, err)
	}
}

func TestFTSQueryIsQuoted(t *testing.T) {
	cases := []struct {
		terms []string
		mode  store.MatchMode
		want  string
	}{
		{[]string{"alpha OR beta"}, store.MatchAll, `"alpha or beta"`},
		{[]string{"alpha", "beta"}, store.MatchAll, `"alpha" AND "beta"`},
		{[]string{"alpha", "beta"}, store.MatchAny, `"alpha" OR "beta"`},
		{[]string{`NEAR("x" y)`, "%", `"`}, store.MatchAny, `"near x y"`},
		{[]string{"議事録"}, store.MatchAll, `"議事 事録"`},
		{[]string{"株"}, store.MatchAll, `"株"*`},
		{[]string{"Q3 会"}, store.MatchAll, `"q3 会"*`},
		{[]string{"*", "-"}, store.MatchAll, ``},
		{nil, store.MatchAny, ``},
	}
	for _, c := range cases {
		if got := ftsQuery(c.terms, c.mode); got != c.want {
			t.Errorf("ftsQuery(%q, %v) = %s, want %s", c.terms, c.mode, got, c.want)
		}
	}
}

func TestOlderSchemaIsUpgraded(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	s := mustOpen(t, path, Options{})
	if err := s.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
		t.Fatal(err)
	}
	if err := s.UpsertFile(ctx, testFile("a", "survives the upgrade", 1), nil); err != nil {
		t.Fatal(err)
	}
	latest, _ := latestVersion()
	if latest < 2 {
		t.Skip("only one migration")
	}
	// Pretend the last migration has not run yet.
	if _, err := s.write.ExecContext(ctx, `DELETE FROM gds_schema_migrations WHERE version = ?`, latest); err != nil {
		t.Fatal(err)
	}
	for _, q := range undoMigration[latest] {
		if _, err := s.write.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()

	if _, err := Open(ctx, path, Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "gds db migrate") {
		t.Errorf("read-only Open of an older schema = %v, want an error telling the user to run `gds db migrate`", err)
	}
	s2 := mustOpen(t, path, Options{})
	st, err := s2.Stats(ctx)
	if err != nil || st.SchemaVersion != latest || st.Files != 1 {
		t.Errorf("after upgrade Stats = %+v, %v; want schema %d and the file kept", st, err, latest)
	}
	res, err := s2.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{"upgrade"}, Filter: store.Filter{MimeTypes: []string{"text/plain"}}})
	if err != nil || len(res.Hits) != 1 {
		t.Errorf("after upgrade KeywordSearch = %+v, %v", res, err)
	}
}

// chunkFTSRows counts the rows of the chunk full-text table.
func chunkFTSRows(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.read.QueryRowContext(context.Background(), `SELECT count(*) FROM drive_chunk_fts`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// writeChunked writes files a, b and c with 3 chunks each, every chunk
// saying "common" and its own word "w<file><ordinal>".
func writeChunked(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	if err := s.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b", "c"} {
		var cs []store.Chunk
		for i := range 3 {
			cs = append(cs, store.Chunk{Ordinal: i, Text: fmt.Sprintf("common w%s%d", id, i), Embedding: testFile("", "", 1).Embedding})
		}
		if err := s.UpsertFile(ctx, testFile(id, "file text", 1), cs); err != nil {
			t.Fatal(err)
		}
	}
}

// undoMigration holds, by version, the statements that undo a migration
// that cannot be applied twice (SQLite has no ADD COLUMN IF NOT EXISTS), for
// the tests that replay migrations on an older index.
var undoMigration = map[int][]string{
	6:  {`ALTER TABLE drive_file_index DROP COLUMN skip_reason`},
	7:  {`DROP INDEX drive_file_index_source`, `ALTER TABLE drive_sync_state DROP COLUMN page_token`},
	12: {`ALTER TABLE drive_file_index DROP COLUMN ocr`},
	13: {`ALTER TABLE drive_file_index DROP COLUMN extract_version`, `ALTER TABLE drive_sync_state DROP COLUMN extract_version`},
	14: {`DROP TABLE gds_crawl_failure`},
}

// asVersion2 turns the index back into schema version 2 (before chunk full
// text) with its files and chunks kept, as an index written by an older gds.
func asVersion2(t *testing.T, s *Store) {
	t.Helper()
	for _, q := range []string{
		`DROP TABLE drive_chunk_fts`,
		`DELETE FROM gds_schema_migrations WHERE version >= 3`,
	} {
		if _, err := s.write.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, q := range undoSince(3) {
		if _, err := s.write.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// undoSince is the undo statements of the migrations from version v on,
// newest first.
func undoSince(v int) []string {
	versions := slices.Sorted(maps.Keys(undoMigration))
	slices.Reverse(versions)
	var out []string
	for _, u := range versions {
		if u >= v {
			out = append(out, undoMigration[u]...)
		}
	}
	return out
}

// An index from before sources had keys (one checkpoint row 'global',
// files of source "drive"/"local") keeps its files and its checkpoint,
// under the bare kind its fingerprint names.
func TestLegacySyncStateIsKeyed(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ fingerprint, kind string }{
		{"local:abc", "local"}, {"drive:def", "drive"}, {"", "drive"},
	} {
		path := filepath.Join(t.TempDir(), "index.db")
		s := mustOpen(t, path, Options{})
		if err := s.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
			t.Fatal(err)
		}
		f := testFile("a", "kept", 1)
		f.Source = tc.kind
		if err := s.UpsertFile(ctx, f, nil); err != nil {
			t.Fatal(err)
		}
		for _, q := range append(undoSince(7),
			`DELETE FROM gds_schema_migrations WHERE version >= 7`,
			`INSERT INTO drive_sync_state (id, drive_modified_at, fingerprint, updated_at)
				VALUES ('global', '2024-05-01T00:00:00.000000000Z', '`+tc.fingerprint+`', '2024-06-01T00:00:00.000000000Z')`) {
			if _, err := s.write.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		s.Close()

		s2 := mustOpen(t, path, Options{})
		states, err := s2.SyncStates(ctx)
		if err != nil || len(states) != 1 {
			t.Fatalf("fingerprint %q: SyncStates after the upgrade = %+v, %v; want one", tc.fingerprint, states, err)
		}
		want := store.SyncState{Source: tc.kind, Fingerprint: tc.fingerprint,
			ModifiedAt: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC), UpdatedAt: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)}
		if states[0] != want {
			t.Errorf("fingerprint %q: state after the upgrade = %+v, want %+v", tc.fingerprint, states[0], want)
		}
		if ids, err := s2.SourceIDs(ctx, tc.kind); err != nil || !slices.Equal(ids, []string{"a"}) {
			t.Errorf("fingerprint %q: SourceIDs(%s) after the upgrade = %q, %v; want [a]", tc.fingerprint, tc.kind, ids, err)
		}
	}
}

// Deleting and replacing files leaves no full-text row behind (a stale row
// would never be reported, but would skew ranking and take space).
func TestChunkFTSRowsFollowChunks(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, Options{})
	writeChunked(t, s)
	if n := chunkFTSRows(t, s); n != 9 {
		t.Fatalf("chunk full-text rows = %d, want 9", n)
	}
	if err := s.DeleteFiles(ctx, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if n := chunkFTSRows(t, s); n != 6 {
		t.Errorf("after deleting a: %d chunk full-text rows, want 6", n)
	}
	if err := s.UpsertFile(ctx, testFile("b", "file text", 1), []store.Chunk{{Ordinal: 0, Text: "only", Embedding: testFile("", "", 1).Embedding}}); err != nil {
		t.Fatal(err)
	}
	if n := chunkFTSRows(t, s); n != 4 {
		t.Errorf("after replacing b with one chunk: %d chunk full-text rows, want 4", n)
	}
	if err := s.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if n := chunkFTSRows(t, s); n != 0 {
		t.Errorf("after Reset: %d chunk full-text rows, want 0", n)
	}
}
