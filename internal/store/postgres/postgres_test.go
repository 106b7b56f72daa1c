package postgres

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
	"github.com/gds-cli/gds/migrations"
)

// testURL returns GDS_TEST_DATABASE_URL. Without it the test is skipped,
// except under CI, where a silently skipped Postgres suite is a failure.
func testURL(t *testing.T) string {
	t.Helper()
	url := os.Getenv("GDS_TEST_DATABASE_URL")
	if url != "" {
		return url
	}
	msg := "GDS_TEST_DATABASE_URL is not set; start PGlite with: export GDS_TEST_DATABASE_URL=\"$(scripts/pglite.sh start)\""
	if os.Getenv("CI") != "" {
		t.Fatal(msg + " (CI is set: the Postgres suite must not be skipped)")
	}
	t.Skip(msg)
	return ""
}

func openTest(t testing.TB, url, schema string) *Store {
	t.Helper()
	s, err := Open(context.Background(), url, WithSchema(schema))
	if err != nil {
		t.Fatalf("Open(schema %s): %v", schema, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	url := testURL(t)
	storetest.Run(t, func(t *testing.T) store.Store {
		return openTest(t, url, storetest.FreshSchema(t, url, "gds_test_"))
	})
}

func TestGraphContract(t *testing.T) {
	url := testURL(t)
	storetest.RunGraph(t, func(t *testing.T) store.GraphStore {
		return openTest(t, url, storetest.FreshSchema(t, url, "gds_test_"))
	})
}

func TestConcurrentOpenMigratesOnce(t *testing.T) {
	url := testURL(t)
	schema := storetest.FreshSchema(t, url, "gds_test_")
	const n = 4
	var wg sync.WaitGroup
	stores := make([]*Store, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			stores[i], errs[i] = Open(context.Background(), url, WithSchema(schema))
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("concurrent Open %d: %v", i, errs[i])
		}
		defer stores[i].Close()
	}
	ms, err := migrations.Postgres()
	if err != nil {
		t.Fatal(err)
	}
	var rows, distinct, top int
	err = stores[0].pool.QueryRow(context.Background(), stores[0].q(
		"SELECT count(*), count(DISTINCT version), COALESCE(max(version), 0) FROM {schema}.gds_schema_migrations")).Scan(&rows, &distinct, &top)
	if err != nil {
		t.Fatal(err)
	}
	if rows != len(ms) || distinct != len(ms) || top != migrations.Latest(ms) {
		t.Errorf("after %d concurrent Opens gds_schema_migrations has %d rows (%d distinct, max %d); want each of the %d migrations once",
			n, rows, distinct, top, len(ms))
	}
	// A further Migrate is a no-op.
	if err := stores[1].Migrate(context.Background()); err != nil {
		t.Errorf("Migrate on an up-to-date schema: %v", err)
	}
}

func TestSchemaTooNew(t *testing.T) {
	url := testURL(t)
	schema := storetest.FreshSchema(t, url, "gds_test_")
	s := openTest(t, url, schema)
	ctx := context.Background()
	if _, err := s.pool.Exec(ctx, s.q("INSERT INTO {schema}.gds_schema_migrations (version, name) VALUES (9999, 'future')")); err != nil {
		t.Fatal(err)
	}
	_, err := Open(ctx, url, WithSchema(schema))
	if !errors.Is(err, store.ErrSchemaTooNew) {
		t.Errorf("Open on a schema from a newer gds = %v, want ErrSchemaTooNew", err)
	}
}

func TestHNSWIndexAfterEnsureEmbeddingSpace(t *testing.T) {
	url := testURL(t)
	s := openTest(t, url, storetest.FreshSchema(t, url, "gds_test_"))
	ctx := context.Background()
	indexdefs := func() []string {
		rows, err := s.pool.Query(ctx, "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexdef ILIKE '%hnsw%' ORDER BY indexname", s.Schema())
		if err != nil {
			t.Fatal(err)
		}
		defs, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return defs
	}
	if defs := indexdefs(); len(defs) != 0 {
		t.Fatalf("HNSW indexes before any embedding space: %q", defs)
	}
	if err := s.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: "m", Dim: 3}); err != nil {
		t.Fatal(err)
	}
	defs := indexdefs()
	if len(defs) != 2 {
		t.Fatalf("HNSW indexes after EnsureEmbeddingSpace(dim 3) = %q, want one on files and one on chunks", defs)
	}
	for _, d := range defs {
		if !strings.Contains(d, "vector(3)") || !strings.Contains(d, "vector_cosine_ops") {
			t.Errorf("index %q is not a cosine HNSW index on embedding::vector(3)", d)
		}
	}
	// The planner uses the index for an unrestricted search.
	vec := "[1,0,0]"
	var plan strings.Builder
	rows, err := s.pool.Query(ctx, s.q("EXPLAIN SELECT file_id FROM {schema}.drive_file_index f ORDER BY f.embedding::vector(3) <=> $1::vector(3) LIMIT 5"), vec)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		plan.WriteString(l + "\n")
	}
	if !strings.Contains(plan.String(), "drive_file_index_embedding_hnsw") {
		t.Errorf("unrestricted vector search does not use the HNSW index; plan:\n%s", plan.String())
	}
	// Reset drops the indexes so another dimension can be recorded.
	if err := s.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if defs := indexdefs(); len(defs) != 0 {
		t.Errorf("HNSW indexes after Reset: %q", defs)
	}
	if err := s.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: "m2", Dim: 5}); err != nil {
		t.Fatal(err)
	}
	for _, d := range indexdefs() {
		if !strings.Contains(d, "vector(5)") {
			t.Errorf("after Reset and dim 5, index %q is not on vector(5)", d)
		}
	}
}

func TestSeedTables(t *testing.T) {
	url := testURL(t)
	s := openTest(t, url, storetest.FreshSchema(t, url, "gds_test_"))
	ctx := context.Background()
	rows, err := s.pool.Query(ctx, `SELECT table_name, column_name, data_type, udt_name, is_nullable
		FROM information_schema.columns WHERE table_schema = $1 AND table_name IN ('drive_file_index', 'drive_sync_state')`, s.Schema())
	if err != nil {
		t.Fatal(err)
	}
	type col struct{ Table, Name, Typ, UDT, Nullable string }
	cols, err := pgx.CollectRows(rows, pgx.RowToStructByPos[col])
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]col{}
	for _, c := range cols {
		got[c.Table+"."+c.Name] = c
	}
	for _, w := range []struct{ key, udt, nullable string }{
		{"drive_file_index.file_id", "text", "NO"},
		{"drive_file_index.file_name", "text", "NO"},
		{"drive_file_index.summary", "text", "NO"},
		{"drive_file_index.keywords", "_text", "YES"},
		{"drive_file_index.embedding", "vector", "NO"},
		{"drive_file_index.drive_modified_at", "timestamptz", "NO"},
		{"drive_file_index.mime_type", "text", "NO"},
		{"drive_sync_state.id", "text", "NO"},
		{"drive_sync_state.drive_modified_at", "timestamptz", "NO"},
	} {
		c, ok := got[w.key]
		if !ok {
			t.Errorf("seed column %s is missing", w.key)
			continue
		}
		if c.UDT != w.udt || c.Nullable != w.nullable {
			t.Errorf("seed column %s is %s nullable=%s, want %s nullable=%s", w.key, c.UDT, c.Nullable, w.udt, w.nullable)
		}
	}
	if n := len(cols) - len(got); n != 0 {
		t.Errorf("duplicate columns: %d", n)
	}
	var syncCols int
	for k := range got {
		if strings.HasPrefix(k, "drive_sync_state.") {
			syncCols++
		}
	}
	if syncCols != 2 {
		t.Errorf("drive_sync_state has %d columns, want exactly the seed's 2", syncCols)
	}
}

func TestMalformedURL(t *testing.T) {
	for _, url := range []string{
		"postgres://user:s3cret@host:notaport/db",
		"not a url at all = = =",
		"",
	} {
		_, err := Open(context.Background(), url)
		if err == nil {
			t.Errorf("Open(%q) succeeded, want an error", url)
			continue
		}
		if !strings.Contains(err.Error(), "DATABASE_URL") {
			t.Errorf("Open(%q) error %q does not name DATABASE_URL", url, err)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open(%q) error %q leaks the password", url, err)
		}
	}
}

func TestUnreachableServerNamesLocationWithoutPassword(t *testing.T) {
	// Port 1 on loopback: nothing listens there; the connection is refused at once.
	_, err := Open(context.Background(), "postgres://gds:s3cret@127.0.0.1:1/gds?sslmode=disable&connect_timeout=2")
	if err == nil {
		t.Fatal("Open against a closed port succeeded")
	}
	if !strings.Contains(err.Error(), "DATABASE_URL") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error %q should name DATABASE_URL and hide the password", err)
	}
}

func TestLongTextIsIndexed(t *testing.T) {
	url := testURL(t)
	s := openTest(t, url, storetest.FreshSchema(t, url, "gds_test_"))
	ctx := context.Background()
	if err := s.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: "m", Dim: 2}); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("opening phrase here ")
	for i := range 30000 {
		b.WriteString([]string{"lorem ", "ipsum ", "dolor ", "sit "}[i%4])
	}
	b.WriteString("tailword 議事録")
	f := store.File{ID: "long", Name: "long.txt", Embedding: []float32{1, 0}, MimeType: "text/plain", Text: b.String()}
	if err := s.UpsertFile(ctx, f, nil); err != nil {
		t.Fatalf("UpsertFile with 30,000 words: %v", err)
	}
	for _, term := range []string{"opening phrase", "tailword", "lorem"} {
		res, err := s.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{term}})
		if err != nil || res.Total != 1 {
			t.Errorf("KeywordSearch(%q) in a 30,000-word text = %+v, %v; want the file", term, res, err)
		}
	}
}

func TestStatsLocationHidesPassword(t *testing.T) {
	url := testURL(t)
	withPW := strings.Replace(url, "postgres:postgres@", "postgres:s3cretpw@", 1)
	if withPW == url {
		t.Skip("GDS_TEST_DATABASE_URL is not in the form scripts/pglite.sh prints")
	}
	s := openTest(t, withPW, storetest.FreshSchema(t, url, "gds_test_"))
	st, err := s.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Backend != Backend || !strings.Contains(st.Location, "127.0.0.1") || strings.Contains(st.Location, "s3cretpw") {
		t.Errorf("Stats = %+v; want backend %q and a location naming the host without the password", st, Backend)
	}
}

func execAll(t *testing.T, s *Store, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if _, err := s.pool.Exec(context.Background(), s.q(q)); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// An index from before sources had keys (one checkpoint row 'global' with
// its fingerprint and commit time in gds_meta, files of source
// "drive"/"local") keeps its files and its checkpoint, under the bare kind
// its fingerprint names.
func TestLegacySyncStateIsKeyed(t *testing.T) {
	url := testURL(t)
	ctx := context.Background()
	ms, err := migrations.Postgres()
	if err != nil {
		t.Fatal(err)
	}
	// The keyed sync state's migration, found by name: later migrations
	// replay after it.
	i := slices.IndexFunc(ms, func(m migrations.Migration) bool { return strings.HasSuffix(m.Name, "_source_sync_state.sql") })
	if i < 0 {
		t.Fatal("no *_source_sync_state.sql migration")
	}
	latest := ms[i].Version
	for _, tc := range []struct{ fingerprint, kind string }{
		{"local:abc", "local"}, {"drive:def", "drive"},
	} {
		schema := storetest.FreshSchema(t, url, "gds_test_")
		s := openTest(t, url, schema)
		if err := s.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
			t.Fatal(err)
		}
		f := store.File{ID: "a", Name: "kept.txt", Embedding: []float32{1, 0, 0, 0}, ModifiedAt: time.Now(), MimeType: "text/plain", Source: tc.kind, Text: "kept"}
		if err := s.UpsertFile(ctx, f, nil); err != nil {
			t.Fatal(err)
		}
		execAll(t, s,
			"DROP INDEX {schema}.drive_file_index_source_idx",
			"DROP TABLE {schema}.gds_sync_state",
			"INSERT INTO {schema}.drive_sync_state (id, drive_modified_at) VALUES ('global', '2024-05-01T00:00:00Z')",
			"INSERT INTO {schema}.gds_meta (key, value) VALUES ('sync_fingerprint', '"+tc.fingerprint+"'), ('sync_updated_at', '2024-06-01T00:00:00.123456789Z')",
			fmt.Sprintf("DELETE FROM {schema}.gds_schema_migrations WHERE version >= %d", latest))
		s.Close()

		s = openTest(t, url, schema)
		states, err := s.SyncStates(ctx)
		if err != nil || len(states) != 1 {
			t.Fatalf("fingerprint %q: SyncStates after the upgrade = %+v, %v; want one", tc.fingerprint, states, err)
		}
		want := store.SyncState{Source: tc.kind, Fingerprint: tc.fingerprint,
			ModifiedAt: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC), UpdatedAt: time.Date(2024, 6, 1, 0, 0, 0, 123457000, time.UTC)}
		if got := states[0]; got.Source != want.Source || got.Fingerprint != want.Fingerprint ||
			!got.ModifiedAt.Equal(want.ModifiedAt) || got.UpdatedAt.Sub(want.UpdatedAt).Abs() > time.Microsecond {
			t.Errorf("fingerprint %q: state after the upgrade = %+v, want %+v", tc.fingerprint, got, want)
		}
		if ids, err := s.SourceIDs(ctx, tc.kind); err != nil || !slices.Equal(ids, []string{"a"}) {
			t.Errorf("fingerprint %q: SourceIDs(%s) after the upgrade = %q, %v; want [a]", tc.fingerprint, tc.kind, ids, err)
		}
		var left int
		if err := s.pool.QueryRow(ctx, s.q("SELECT count(*) FROM {schema}.gds_meta WHERE key LIKE 'sync_%'")).Scan(&left); err != nil || left != 0 {
			t.Errorf("gds_meta sync rows after the upgrade = %d, %v; want 0", left, err)
		}
	}
}
