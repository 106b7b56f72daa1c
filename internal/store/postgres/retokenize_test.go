package postgres

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
	"github.com/gds-cli/gds/migrations"
)

func keywordIDs(t *testing.T, s *Store, term string) []string {
	t.Helper()
	r, err := s.KeywordSearch(context.Background(), store.KeywordQuery{Terms: []string{term}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range r.Hits {
		out = append(out, h.ID)
	}
	slices.Sort(out)
	return out
}

// An index tokenised before accent folding (search_tsv holds "temür") is
// re-tokenised by the migration on open, in batches: afterwards "temur"
// finds the file (name and text rebuilt from its chunks) and its chunk.
func TestRetokenizeMigration(t *testing.T) {
	ctx := context.Background()
	s, url, schema, emb := retokenizeFixture(t)
	text := "Timur (Temür) was born near Kesh in 1336, and he ruled from Samarkand."
	for _, f := range []struct {
		id, name string
		chunks   []store.Chunk
	}{
		{"a", "plain.txt", []store.Chunk{{Ordinal: 0, Text: "nothing accented here", Embedding: emb}}},
		{"b", "Temür.txt", []store.Chunk{{Ordinal: 0, Text: text[:40], Embedding: emb}, {Ordinal: 1, Text: text[20:], Embedding: emb}}},
		{"c", "other.txt", []store.Chunk{{Ordinal: 0, Text: "plain words", Embedding: emb}}},
	} {
		file := store.File{ID: f.id, Name: f.name, Embedding: emb, MimeType: "text/plain", ModifiedAt: time.Now()}
		for _, c := range f.chunks {
			file.Text += c.Text
		}
		if err := s.UpsertFile(ctx, file, f.chunks); err != nil {
			t.Fatal(err)
		}
	}
	// b's tokens as the tokenizer before folding made them; then the
	// migration's own SQL, found by name (the integrator may renumber it).
	execAll(t, s,
		`UPDATE {schema}.drive_file_index SET search_tsv = 'temür:1A txt:2A timur:4 temür:5 born:7 kesh:9'::tsvector WHERE file_id = 'b'`,
		`UPDATE {schema}.drive_file_chunks SET search_tsv = 'timur:1 temür:2 born:4'::tsvector WHERE file_id = 'b' AND ordinal = 0`)
	runMigration(t, s, schema, "_fold_accents.sql")
	if got := keywordIDs(t, s, "temur"); len(got) != 0 {
		t.Fatalf("before re-tokenising KeywordSearch(temur) = %v; the test no longer starts from old tokens", got)
	}
	s.Close()

	s = openTest(t, url, schema)
	if got := keywordIDs(t, s, "temur"); !slices.Equal(got, []string{"b"}) {
		t.Errorf("after re-tokenising KeywordSearch(temur) = %v, want [b]", got)
	}
	if got := keywordIDs(t, s, "samarkand"); !slices.Equal(got, []string{"b"}) {
		t.Errorf("KeywordSearch(samarkand) = %v, want [b] (the text rebuilt from the chunks)", got)
	}
	if got := keywordIDs(t, s, "plain"); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("KeywordSearch(plain) = %v, want [a c]", got)
	}
	if got := chunkTextIDs(t, s, "temur"); !slices.Equal(got, []string{"b#0"}) {
		t.Errorf("ChunkTextSearch(temur) = %v, want [b#0]", got)
	}
	checkRetokenizeDone(t, s)
}

// runMigration runs the SQL of the migration whose name ends in suffix
// (found by name: the integrator may renumber it) in the schema.
func runMigration(t *testing.T, s *Store, schema, suffix string) {
	t.Helper()
	ctx := context.Background()
	ms, err := migrations.Postgres()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ms, func(m migrations.Migration) bool { return strings.HasSuffix(m.Name, suffix) })
	if i < 0 {
		t.Fatalf("no *%s migration", suffix)
	}
	if err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT set_config('search_path', quote_ident($1) || ', ' || current_setting('search_path'), true)", schema); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, ms[i].SQL)
		return err
	}); err != nil {
		t.Fatalf("%s: %v", ms[i].Name, err)
	}
}

// An index tokenised before stemming (search_tsv holds "runs" and
// "cities") is re-tokenised by the stemming migration on open: afterwards
// "running" and "city" find the file and its chunk.
func TestRetokenizeStemMigration(t *testing.T) {
	ctx := context.Background()
	s, url, schema, emb := retokenizeFixture(t)
	for _, f := range []struct{ id, name, text string }{
		{"a", "cat.txt", "cat sat on mat"},
		{"b", "runner.txt", "She runs every morning through the cities"},
		{"c", "議事録.txt", "議事録を共有"},
	} {
		file := store.File{ID: f.id, Name: f.name, Text: f.text, Embedding: emb, MimeType: "text/plain", ModifiedAt: time.Now()}
		if err := s.UpsertFile(ctx, file, []store.Chunk{{Ordinal: 0, Text: f.text, Embedding: emb}}); err != nil {
			t.Fatal(err)
		}
	}
	// b's tokens as the tokenizer before stemming made them.
	execAll(t, s,
		`UPDATE {schema}.drive_file_index SET search_tsv = 'runner:1A txt:2A she:4 runs:5 every:6 morning:7 through:8 the:9 cities:10'::tsvector WHERE file_id = 'b'`,
		`UPDATE {schema}.drive_file_chunks SET search_tsv = 'she:1 runs:2 every:3 morning:4 through:5 the:6 cities:7'::tsvector WHERE file_id = 'b' AND ordinal = 0`)
	runMigration(t, s, schema, "_stem_english.sql")
	if got := keywordIDs(t, s, "running"); len(got) != 0 {
		t.Fatalf("before re-tokenising KeywordSearch(running) = %v; the test no longer starts from old tokens", got)
	}
	s.Close()

	s = openTest(t, url, schema)
	for _, term := range []string{"running", "city", "runs"} {
		if got := keywordIDs(t, s, term); !slices.Equal(got, []string{"b"}) {
			t.Errorf("after re-tokenising KeywordSearch(%s) = %v, want [b]", term, got)
		}
		if got := chunkTextIDs(t, s, term); !slices.Equal(got, []string{"b#0"}) {
			t.Errorf("ChunkTextSearch(%s) = %v, want [b#0]", term, got)
		}
	}
	if got := keywordIDs(t, s, "cat"); !slices.Equal(got, []string{"a"}) {
		t.Errorf("KeywordSearch(cat) = %v, want [a]", got)
	}
	if got := keywordIDs(t, s, "議事録"); !slices.Equal(got, []string{"c"}) {
		t.Errorf("KeywordSearch(議事録) = %v, want [c]", got)
	}
	checkRetokenizeDone(t, s)
}

// An index tokenised before edge characters (search_tsv holds の第 45 回衆,
// no 第 or 回 alone) is re-tokenised by the edge-token migration on open:
// afterwards the keyword 第45回 finds the file and its chunk.
func TestRetokenizeEdgeMigration(t *testing.T) {
	ctx := context.Background()
	s, url, schema, emb := retokenizeFixture(t)
	for _, f := range []struct{ id, name, text string }{
		{"a", "議事録.txt", "議事録を共有"},
		{"b", "選挙.txt", "の第45回衆議院"},
	} {
		file := store.File{ID: f.id, Name: f.name, Text: f.text, Embedding: emb, MimeType: "text/plain", ModifiedAt: time.Now()}
		if err := s.UpsertFile(ctx, file, []store.Chunk{{Ordinal: 0, Text: f.text, Embedding: emb}}); err != nil {
			t.Fatal(err)
		}
	}
	// b's tokens as the tokenizer before edge characters made them
	// (tokenize.Join: の第 45 回衆 衆議 議院).
	execAll(t, s,
		`UPDATE {schema}.drive_file_index SET search_tsv = '選挙:1A txt:2A の第:4 45:5 回衆:6 衆議:7 議院:8'::tsvector WHERE file_id = 'b'`,
		`UPDATE {schema}.drive_file_chunks SET search_tsv = 'の第:1 45:2 回衆:3 衆議:4 議院:5'::tsvector WHERE file_id = 'b' AND ordinal = 0`)
	runMigration(t, s, schema, "_edge_tokens.sql")
	if got := keywordIDs(t, s, "第45回"); len(got) != 0 {
		t.Fatalf("before re-tokenising KeywordSearch(第45回) = %v; the test no longer starts from old tokens", got)
	}
	s.Close()

	// The pass reports its progress: from 0 of the 2 files to both (one
	// full batch of 2, then an empty one that ends the pass).
	var reports []store.Backfill
	s, err := Open(ctx, url, WithSchema(schema), WithBackfill(func(b store.Backfill) { reports = append(reports, b) }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if want := []store.Backfill{{Done: 0, Total: 2}, {Done: 2, Total: 2}, {Done: 2, Total: 2}}; !slices.Equal(reports, want) {
		t.Errorf("backfill reports = %v, want %v", reports, want)
	}
	for _, term := range []string{"第45回", "第45回衆議院", "45回"} {
		if got := keywordIDs(t, s, term); !slices.Equal(got, []string{"b"}) {
			t.Errorf("after re-tokenising KeywordSearch(%s) = %v, want [b]", term, got)
		}
		if got := chunkTextIDs(t, s, term); !slices.Equal(got, []string{"b#0"}) {
			t.Errorf("ChunkTextSearch(%s) = %v, want [b#0]", term, got)
		}
	}
	if got := keywordIDs(t, s, "議事録"); !slices.Equal(got, []string{"a"}) {
		t.Errorf("KeywordSearch(議事録) = %v, want [a]", got)
	}
	checkRetokenizeDone(t, s)
}

// With no pass pending, the edge-token migration rewrites only what
// changed since version 3: a file whose stored tokens are (as a test
// fixture) unstemmed keeps them; the file with an edge run is rewritten.
func TestRetokenizeFromVersion(t *testing.T) {
	ctx := context.Background()
	s, url, schema, emb := retokenizeFixture(t)
	for _, f := range []struct{ id, text string }{
		{"e", "の第45回衆議院"},
		{"r", "She runs every morning"},
	} {
		file := store.File{ID: f.id, Name: f.id + ".txt", Text: f.text, Embedding: emb, MimeType: "text/plain", ModifiedAt: time.Now()}
		if err := s.UpsertFile(ctx, file, []store.Chunk{{Ordinal: 0, Text: f.text, Embedding: emb}}); err != nil {
			t.Fatal(err)
		}
	}
	execAll(t, s,
		`UPDATE {schema}.drive_file_index SET search_tsv = 'e:1A txt:2A の第:4 45:5 回衆:6 衆議:7 議院:8'::tsvector WHERE file_id = 'e'`,
		`UPDATE {schema}.drive_file_index SET search_tsv = 'r:1A txt:2A she:4 runs:5 every:6 morning:7'::tsvector WHERE file_id = 'r'`)
	runMigration(t, s, schema, "_edge_tokens.sql")
	s.Close()

	s = openTest(t, url, schema)
	if got := keywordIDs(t, s, "第45回"); !slices.Equal(got, []string{"e"}) {
		t.Errorf("KeywordSearch(第45回) = %v, want [e]", got)
	}
	if got := keywordIDs(t, s, "running"); len(got) != 0 {
		t.Errorf("KeywordSearch(running) = %v, want none: a file without an edge run was rewritten", got)
	}
	checkRetokenizeDone(t, s)
}

// retokenizeFixture opens a store on a fresh schema with re-tokenising
// batches of 2 (so a migration's pass takes several) and an embedding
// space, and returns a unit embedding for its files.
func retokenizeFixture(t *testing.T) (s *Store, url, schema string, emb []float32) {
	t.Helper()
	saved := retokenizeBatch
	retokenizeBatch = 2
	t.Cleanup(func() { retokenizeBatch = saved })
	url = testURL(t)
	schema = storetest.FreshSchema(t, url, "gds_test_")
	s = openTest(t, url, schema)
	if err := s.EnsureEmbeddingSpace(context.Background(), storetest.Space); err != nil {
		t.Fatal(err)
	}
	emb = make([]float32, storetest.Dim)
	emb[0] = 1
	return s, url, schema, emb
}

// checkRetokenizeDone fails when the re-tokenising position is still
// stored (the pass did not finish).
func checkRetokenizeDone(t *testing.T, s *Store) {
	t.Helper()
	var left int
	if err := s.pool.QueryRow(context.Background(), s.q(`SELECT count(*) FROM {schema}.gds_meta WHERE key = 'retokenize_backfill'`)).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("the re-tokenising position is still stored after it finished")
	}
}
