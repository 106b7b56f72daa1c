package sqlite

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
	"github.com/gds-cli/gds/internal/tokenize"
	"github.com/gds-cli/gds/migrations"
)

// foldMigration is the SQL of the accent-folding migration, found by name
// (the integrator may renumber it).
func foldMigration(t *testing.T) string {
	t.Helper()
	return migrationSQL(t, "_fold_accents.sql")
}

// migrationSQL is the SQL of the migration whose name ends in suffix.
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

// An index tokenised before accent folding (its full-text rows hold
// "temür") is re-tokenised by the migration on a read-write open, in
// batches: afterwards "temur" finds the file (name and text rebuilt from
// its chunks) and its chunks; files without an accent keep their rows.
func TestRetokenizeMigration(t *testing.T) {
	ctx := context.Background()
	s, path, emb := retokenizeFixture(t)
	files := []struct{ id, name, text string }{
		{"a", "plain.txt", "nothing accented here"},
		{"b", "Temür.txt", "Timur (Temür) was born near Kesh in 1336, and he ruled from Samarkand."},
		{"c", "other.txt", "plain words"},
		{"d", "café.txt", ""},
	}
	for _, f := range files {
		var cs []store.Chunk
		switch {
		case len(f.text) > 40:
			// Two overlapping chunks, as the crawler writes them.
			cs = []store.Chunk{{Ordinal: 0, Text: f.text[:40], Embedding: emb}, {Ordinal: 1, Text: f.text[20:], Embedding: emb}}
		case f.text != "":
			cs = []store.Chunk{{Ordinal: 0, Text: f.text, Embedding: emb}}
		}
		tf := testFile(f.id, f.text, 1)
		tf.Name = f.name
		if err := s.UpsertFile(ctx, tf, cs); err != nil {
			t.Fatal(err)
		}
	}
	// Rewrite b's and d's rows as the tokenizer before folding made them.
	var docB, docD int64
	s.read.QueryRow(`SELECT doc_id FROM drive_file_index WHERE file_id = 'b'`).Scan(&docB)
	s.read.QueryRow(`SELECT doc_id FROM drive_file_index WHERE file_id = 'd'`).Scan(&docD)
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM drive_file_fts WHERE rowid IN (?, ?)`, []any{docB, docD}},
		{`INSERT INTO drive_file_fts (rowid, name, keywords, summary, body) VALUES (?, 'temür txt', '', '', 'timur temür was born near kesh')`, []any{docB}},
		{`INSERT INTO drive_file_fts (rowid, name, keywords, summary, body) VALUES (?, 'café txt', '', '', '')`, []any{docD}},
		{`INSERT OR REPLACE INTO drive_chunk_fts (rowid, body) VALUES (?, 'timur temür was born near kesh')`, []any{chunkRowID(docB, 0)}},
		{foldMigration(t), nil},
	} {
		if _, err := s.write.Exec(q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
	if got := keywordIDs(t, s, "temur"); len(got) != 0 {
		t.Fatalf("before re-tokenising KeywordSearch(temur) = %v; the test no longer starts from old tokens", got)
	}
	s.Close()

	s = mustOpen(t, path, Options{})
	if got := keywordIDs(t, s, "temur"); !slices.Equal(got, []string{"b"}) {
		t.Errorf("after re-tokenising KeywordSearch(temur) = %v, want [b]", got)
	}
	if got := keywordIDs(t, s, "samarkand"); !slices.Equal(got, []string{"b"}) {
		t.Errorf("KeywordSearch(samarkand) = %v, want [b] (the text rebuilt from the chunks)", got)
	}
	if got := keywordIDs(t, s, "cafe"); !slices.Equal(got, []string{"d"}) {
		t.Errorf("KeywordSearch(cafe) = %v, want [d] (a name-only file's name)", got)
	}
	if got := keywordIDs(t, s, "plain"); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("KeywordSearch(plain) = %v, want [a c]", got)
	}
	if got := chunkTextIDs(t, s, "temur"); !slices.Equal(got, []string{"b#0"}) {
		t.Errorf("ChunkTextSearch(temur) = %v, want [b#0]", got)
	}
	checkRetokenizeDone(t, s)
	if n := chunkFTSRows(t, s); n != 4 {
		t.Errorf("chunk full-text rows = %d, want 4 (a, b#0, b#1, c)", n)
	}
}

// An index tokenised before stemming (its full-text rows hold "runs" and
// "cities") is re-tokenised by the stemming migration on a read-write
// open: afterwards "running" and "city" find the file and its chunk.
func TestRetokenizeStemMigration(t *testing.T) {
	ctx := context.Background()
	s, path, emb := retokenizeFixture(t)
	text := "She runs every morning through the cities"
	for _, f := range []struct{ id, name, text string }{
		{"a", "cat.txt", "cat sat on mat"},
		{"b", "runner.txt", text},
		{"c", "議事録.txt", "議事録を共有"},
	} {
		tf := testFile(f.id, f.text, 1)
		tf.Name = f.name
		if err := s.UpsertFile(ctx, tf, []store.Chunk{{Ordinal: 0, Text: f.text, Embedding: emb}}); err != nil {
			t.Fatal(err)
		}
	}
	// b's rows as the tokenizer before stemming made them.
	var docB int64
	s.read.QueryRow(`SELECT doc_id FROM drive_file_index WHERE file_id = 'b'`).Scan(&docB)
	old := "she runs every morning through the cities"
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM drive_file_fts WHERE rowid = ?`, []any{docB}},
		{`INSERT INTO drive_file_fts (rowid, name, keywords, summary, body) VALUES (?, 'runner txt', '', '', ?)`, []any{docB, old}},
		{`INSERT OR REPLACE INTO drive_chunk_fts (rowid, body) VALUES (?, ?)`, []any{chunkRowID(docB, 0), old}},
		{migrationSQL(t, "_stem_english.sql"), nil},
	} {
		if _, err := s.write.Exec(q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
	if got := keywordIDs(t, s, "running"); len(got) != 0 {
		t.Fatalf("before re-tokenising KeywordSearch(running) = %v; the test no longer starts from old tokens", got)
	}
	s.Close()

	s = mustOpen(t, path, Options{})
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

// An index tokenised before edge characters (its rows hold の第 45 回衆,
// no 第 or 回 alone) is re-tokenised by the edge-token migration on a
// read-write open: afterwards the keyword 第45回 finds the file and its
// chunk; a Japanese file without digits or Latin words keeps its rows.
func TestRetokenizeEdgeMigration(t *testing.T) {
	ctx := context.Background()
	s, path, emb := retokenizeFixture(t)
	text := "2009年の第45回衆議院議員総選挙"
	for _, f := range []struct{ id, name, text string }{
		{"a", "議事録.txt", "議事録を共有"},
		{"b", "選挙.txt", text},
		{"c", "cat.txt", "cat sat on mat"},
	} {
		tf := testFile(f.id, f.text, 1)
		tf.Name = f.name
		if err := s.UpsertFile(ctx, tf, []store.Chunk{{Ordinal: 0, Text: f.text, Embedding: emb}}); err != nil {
			t.Fatal(err)
		}
	}
	// b's rows as the tokenizer before edge characters made them.
	var docB int64
	s.read.QueryRow(`SELECT doc_id FROM drive_file_index WHERE file_id = 'b'`).Scan(&docB)
	old := tokenize.Join(text)
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM drive_file_fts WHERE rowid = ?`, []any{docB}},
		{`INSERT INTO drive_file_fts (rowid, name, keywords, summary, body) VALUES (?, ?, '', '', ?)`, []any{docB, tokenize.Join("選挙.txt"), old}},
		{`INSERT OR REPLACE INTO drive_chunk_fts (rowid, body) VALUES (?, ?)`, []any{chunkRowID(docB, 0), old}},
		{migrationSQL(t, "_edge_tokens.sql"), nil},
	} {
		if _, err := s.write.Exec(q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
	if got := keywordIDs(t, s, "第45回"); len(got) != 0 {
		t.Fatalf("before re-tokenising KeywordSearch(第45回) = %v; the test no longer starts from old tokens", got)
	}
	s.Close()

	// The pass reports its progress: from 0 of the 3 files, in batches of
	// 2, to all 3.
	var reports []store.Backfill
	s = mustOpen(t, path, Options{Backfill: func(b store.Backfill) { reports = append(reports, b) }})
	if want := []store.Backfill{{Done: 0, Total: 3}, {Done: 2, Total: 3}, {Done: 3, Total: 3}}; !slices.Equal(reports, want) {
		t.Errorf("backfill reports = %v, want %v", reports, want)
	}
	reports = nil
	s.Close()
	s = mustOpen(t, path, Options{Backfill: func(b store.Backfill) { reports = append(reports, b) }})
	if reports != nil {
		t.Errorf("an index with nothing to re-tokenise reported %v", reports)
	}
	for _, term := range []string{"第45回", "第45回衆議院", "年の第45"} {
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
	if got := keywordIDs(t, s, "cat"); !slices.Equal(got, []string{"c"}) {
		t.Errorf("KeywordSearch(cat) = %v, want [c]", got)
	}
	checkRetokenizeDone(t, s)
}

// The edge-token migration rewrites only what changed since version 3 when
// no pass is pending: a file whose stored tokens are (as a test fixture)
// unstemmed keeps them, while the file with an edge run is rewritten. With
// the stemming pass still pending when it runs, the pass keeps its start
// and rewrites both.
func TestRetokenizeFromVersion(t *testing.T) {
	for _, pending := range []bool{false, true} {
		ctx := context.Background()
		s, path, emb := retokenizeFixture(t)
		for _, f := range []struct{ id, text string }{
			{"e", "の第45回衆議院"},
			{"r", "She runs every morning"},
		} {
			if err := s.UpsertFile(ctx, testFile(f.id, f.text, 1), []store.Chunk{{Ordinal: 0, Text: f.text, Embedding: emb}}); err != nil {
				t.Fatal(err)
			}
		}
		var docE, docR int64
		s.read.QueryRow(`SELECT doc_id FROM drive_file_index WHERE file_id = 'e'`).Scan(&docE)
		s.read.QueryRow(`SELECT doc_id FROM drive_file_index WHERE file_id = 'r'`).Scan(&docR)
		type step struct {
			sql  string
			args []any
		}
		steps := []step{
			{`DELETE FROM drive_file_fts WHERE rowid IN (?, ?)`, []any{docE, docR}},
			{`INSERT INTO drive_file_fts (rowid, name, keywords, summary, body) VALUES (?, '', '', '', ?)`, []any{docE, tokenize.Join("の第45回衆議院")}},
			{`INSERT INTO drive_file_fts (rowid, name, keywords, summary, body) VALUES (?, '', '', '', 'she runs every morning')`, []any{docR}},
		}
		if pending {
			steps = append(steps, step{migrationSQL(t, "_stem_english.sql"), nil})
		}
		steps = append(steps, step{migrationSQL(t, "_edge_tokens.sql"), nil})
		for _, q := range steps {
			if _, err := s.write.Exec(q.sql, q.args...); err != nil {
				t.Fatalf("%s: %v", q.sql, err)
			}
		}
		s.Close()

		s = mustOpen(t, path, Options{})
		if got := keywordIDs(t, s, "第45回"); !slices.Equal(got, []string{"e"}) {
			t.Errorf("pending %v: KeywordSearch(第45回) = %v, want [e]", pending, got)
		}
		want := []string(nil)
		if pending {
			want = []string{"r"}
		}
		if got := keywordIDs(t, s, "running"); !slices.Equal(got, want) {
			t.Errorf("pending %v: KeywordSearch(running) = %v, want %v (rewritten only when the stemming pass was pending)", pending, got, want)
		}
		checkRetokenizeDone(t, s)
		var left int
		s.read.QueryRow(`SELECT count(*) FROM gds_meta WHERE key = ?`, metaRetokenizeFrom).Scan(&left)
		if left != 0 {
			t.Errorf("pending %v: the version to re-tokenise from is still stored", pending)
		}
	}
}

// retokenizeFixture opens a store in a fresh file with re-tokenising
// batches of 2 (so a migration's pass takes several) and an embedding
// space, and returns the file's path and a unit embedding for its files.
func retokenizeFixture(t *testing.T) (s *Store, path string, emb []float32) {
	t.Helper()
	saved := retokenizeBatch
	retokenizeBatch = 2
	t.Cleanup(func() { retokenizeBatch = saved })
	path = filepath.Join(t.TempDir(), "index.db")
	s = mustOpen(t, path, Options{})
	if err := s.EnsureEmbeddingSpace(context.Background(), storetest.Space); err != nil {
		t.Fatal(err)
	}
	return s, path, testFile("", "", 1).Embedding
}

// checkRetokenizeDone fails when the re-tokenising position is still
// stored (the pass did not finish).
func checkRetokenizeDone(t *testing.T, s *Store) {
	t.Helper()
	var left int
	if err := s.read.QueryRow(`SELECT count(*) FROM gds_meta WHERE key = ?`, metaRetokenize).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("the re-tokenising position is still stored after it finished")
	}
}
