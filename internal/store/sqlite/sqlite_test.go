package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return openTemp(t, Options{}) })
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
			return ro.SetSyncState(ctx, store.SyncState{ModifiedAt: time.Now(), Fingerprint: "x"})
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
	fs, err := rw.GetFiles(ctx, []string{"a", "b"})
	if err != nil || len(fs) != 1 || fs[0].ID != "a" {
		t.Errorf("after refused writes the index holds %v, %v; want just a", fs, err)
	}
}

func TestReadOnlyMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.db")
	_, err := Open(context.Background(), path, Options{ReadOnly: true})
	if err == nil || !strings.Contains(err.Error(), "gds crawl") {
		t.Errorf("read-only Open of a missing file = %v, want an error telling the user to run gds crawl", err)
	}
	if _, statErr := os.Stat(path); !errors.Is(statErr, os.ErrNotExist) {
		t.Errorf("read-only Open created %s (stat: %v)", path, statErr)
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
	if err := s.SetSyncState(ctx, store.SyncState{ModifiedAt: mod, Fingerprint: "fp"}); err != nil {
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
	if _, err := s.write.ExecContext(ctx, `INSERT INTO gds_schema_migrations (version, name, applied_at) VALUES (9999, 'future.sql', '')`); err != nil {
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
