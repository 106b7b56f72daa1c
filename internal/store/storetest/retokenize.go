package storetest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Retokenizing is what RunRetokenize needs of a back end beyond the
// contract: an index it can write old tokens into, queue a re-tokenising
// migration in and open again.
type Retokenizing struct {
	// New returns a fresh, migrated store whose re-tokenising passes take
	// batches of 2 files, and a function that closes it and opens the same
	// index again, running a pending pass and telling backfill (nil: none)
	// its progress. Both clean up through t.Cleanup.
	New func(t *testing.T) (store.Store, Reopen)
	// SetTokens replaces the full-text tokens stored for file id by the
	// ones given, as an older tokenisation made them: those of its name
	// and of its text (keywords and summary none), and those of the chunks
	// in chunks by ordinal (the others keep theirs).
	SetTokens func(t *testing.T, s store.Store, id string, name, text []string, chunks map[int][]string)
	// Migrate runs the SQL of the migration whose name ends in suffix
	// against the open index, queueing its pass as an upgrade would.
	Migrate func(t *testing.T, s store.Store, suffix string)
	// Meta reports whether gds_meta holds key.
	Meta func(t *testing.T, s store.Store, key string) bool
}

// Reopen closes a store and opens its index again.
type Reopen func(t *testing.T, backfill func(store.Backfill)) store.Store

// RunRetokenize runs the suite of the re-tokenising pass
// (store.Retokenize): an index whose stored tokens an older tokenisation
// made is re-tokenised on open after the migration that changed the
// tokenisation, in batches, rewriting only what changed.
func RunRetokenize(t *testing.T, r Retokenizing) {
	t.Helper()
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, r Retokenizing)
	}{
		{"FoldMigration", testRetokenizeFold},
		{"StemMigration", testRetokenizeStem},
		{"EdgeMigration", testRetokenizeEdge},
		{"FromVersion", testRetokenizeFrom},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, r) })
	}
}

// fresh returns a fresh store of r with the suite's embedding space.
func (r Retokenizing) fresh(t *testing.T) (context.Context, store.Store, Reopen) {
	t.Helper()
	s, reopen := r.New(t)
	ctx := context.Background()
	if err := s.EnsureEmbeddingSpace(ctx, Space); err != nil {
		t.Fatal(err)
	}
	return ctx, s, reopen
}

// checkDone fails when the pass left its position or starting version.
func (r Retokenizing) checkDone(t *testing.T, s store.Store) {
	t.Helper()
	for _, key := range []string{store.MetaRetokenize, store.MetaRetokenizeFrom} {
		if r.Meta(t, s, key) {
			t.Errorf("gds_meta still holds %s after the pass", key)
		}
	}
}

// oldWords are the tokens of s before accent folding and stemming:
// lower-case words.
func oldWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
}

// wantChunkIDs checks the chunks a full-text search of term finds.
func wantChunkIDs(t *testing.T, ctx context.Context, s store.Store, term string, want ...chunkKey) {
	t.Helper()
	wantChunkText(t, ctx, s, anyOf(term), want...)
}

// An index tokenised before accent folding (its rows hold "temür") is
// re-tokenised by the migration on open, in batches: afterwards "temur"
// finds the file (name and text rebuilt from its chunks) and its chunk,
// and a file without chunks by its name; files without an accent keep
// theirs, and every chunk is found once.
func testRetokenizeFold(t *testing.T, r Retokenizing) {
	ctx, s, reopen := r.fresh(t)
	text := "Timur (Temür) was born near Kesh in 1336, and he ruled from Samarkand."
	upsert(t, ctx, s, file("a", "plain.txt", "nothing accented here"), chunk(0, 0, "nothing accented here", 1))
	// Two overlapping chunks, as the crawler writes them.
	upsert(t, ctx, s, file("b", "Temür.txt", text), chunk(0, 0, text[:40], 1), chunk(1, 0, text[20:], 1))
	upsert(t, ctx, s, file("c", "other.txt", "plain words"), chunk(0, 0, "plain words", 1))
	upsert(t, ctx, s, file("d", "café.txt", ""))
	old := oldWords("Timur (Temür) was born near Kesh")
	r.SetTokens(t, s, "b", oldWords("Temür.txt"), old, map[int][]string{0: old})
	r.SetTokens(t, s, "d", oldWords("café.txt"), nil, nil)
	r.Migrate(t, s, "_fold_accents.sql")
	if got := keyword(t, ctx, s, anyOf("temur")); len(got.Hits) != 0 {
		t.Fatalf("before re-tokenising KeywordSearch(temur) = %v; the test no longer starts from old tokens", hitIDs(got.Hits))
	}

	s = reopen(t, nil)
	wantKeyword(t, ctx, s, anyOf("temur"), "b")
	wantKeyword(t, ctx, s, anyOf("samarkand"), "b") // the text rebuilt from the chunks
	wantKeyword(t, ctx, s, anyOf("cafe"), "d")      // a file without chunks: its name
	wantKeyword(t, ctx, s, anyOf("plain"), "a", "c")
	wantChunkIDs(t, ctx, s, "temur", chunkKey{"b", 0})
	wantChunkText(t, ctx, s, anyOf("nothing", "temur", "samarkand", "words"),
		chunkKey{"a", 0}, chunkKey{"b", 0}, chunkKey{"b", 1}, chunkKey{"c", 0})
	r.checkDone(t, s)
}

// An index tokenised before stemming (its rows hold "runs" and "cities")
// is re-tokenised by the stemming migration on open: afterwards "running"
// and "city" find the file and its chunk.
func testRetokenizeStem(t *testing.T, r Retokenizing) {
	ctx, s, reopen := r.fresh(t)
	text := "She runs every morning through the cities"
	for _, f := range []struct{ id, name, text string }{
		{"a", "cat.txt", "cat sat on mat"},
		{"b", "runner.txt", text},
		{"c", "議事録.txt", "議事録を共有"},
	} {
		upsert(t, ctx, s, file(f.id, f.name, f.text), chunk(0, 0, f.text, 1))
	}
	r.SetTokens(t, s, "b", oldWords("runner.txt"), oldWords(text), map[int][]string{0: oldWords(text)})
	r.Migrate(t, s, "_stem_english.sql")
	if got := keyword(t, ctx, s, anyOf("running")); len(got.Hits) != 0 {
		t.Fatalf("before re-tokenising KeywordSearch(running) = %v; the test no longer starts from old tokens", hitIDs(got.Hits))
	}

	s = reopen(t, nil)
	for _, term := range []string{"running", "city", "runs"} {
		wantKeyword(t, ctx, s, anyOf(term), "b")
		wantChunkIDs(t, ctx, s, term, chunkKey{"b", 0})
	}
	wantKeyword(t, ctx, s, anyOf("cat"), "a")
	wantKeyword(t, ctx, s, anyOf("議事録"), "c")
	r.checkDone(t, s)
}

// An index tokenised before edge characters (its rows hold の第 45 回衆,
// no 第 or 回 alone) is re-tokenised by the edge-token migration on open,
// reporting its progress batch by batch: afterwards the keyword 第45回
// finds the file and its chunk; a Japanese file without digits or Latin
// words keeps its rows.
func testRetokenizeEdge(t *testing.T, r Retokenizing) {
	ctx, s, reopen := r.fresh(t)
	text := "2009年の第45回衆議院議員総選挙"
	for _, f := range []struct{ id, name, text string }{
		{"a", "議事録.txt", "議事録を共有"},
		{"b", "選挙.txt", text},
		{"c", "cat.txt", "cat sat on mat"},
	} {
		upsert(t, ctx, s, file(f.id, f.name, f.text), chunk(0, 0, f.text, 1))
	}
	old := strings.Fields(tokenize.Join(text))
	r.SetTokens(t, s, "b", strings.Fields(tokenize.Join("選挙.txt")), old, map[int][]string{0: old})
	r.Migrate(t, s, "_edge_tokens.sql")
	if got := keyword(t, ctx, s, all("第45回")); len(got.Hits) != 0 {
		t.Fatalf("before re-tokenising KeywordSearch(第45回) = %v; the test no longer starts from old tokens", hitIDs(got.Hits))
	}

	// The pass reports its progress: from 0 of the 3 files, in batches of
	// 2, to all 3; opened again, there is nothing to report.
	var reports []store.Backfill
	reopen(t, func(b store.Backfill) { reports = append(reports, b) })
	if want := []store.Backfill{{Done: 0, Total: 3}, {Done: 2, Total: 3}, {Done: 3, Total: 3}}; !slices.Equal(reports, want) {
		t.Errorf("backfill reports = %v, want %v", reports, want)
	}
	reports = nil
	s = reopen(t, func(b store.Backfill) { reports = append(reports, b) })
	if reports != nil {
		t.Errorf("an index with nothing to re-tokenise reported %v", reports)
	}
	for _, term := range []string{"第45回", "第45回衆議院", "年の第45", "45回"} {
		wantKeyword(t, ctx, s, all(term), "b")
		wantChunkText(t, ctx, s, all(term), chunkKey{"b", 0})
	}
	wantKeyword(t, ctx, s, anyOf("議事録"), "a")
	wantKeyword(t, ctx, s, anyOf("cat"), "c")
	r.checkDone(t, s)
}

// The edge-token migration rewrites only what changed since version 3
// when no pass is pending: a file whose stored tokens are (as a test
// fixture) unstemmed keeps them, while the file with an edge run is
// rewritten. With the stemming pass still pending when it runs, the pass
// keeps its start and rewrites both.
func testRetokenizeFrom(t *testing.T, r Retokenizing) {
	for _, pending := range []bool{false, true} {
		ctx, s, reopen := r.fresh(t)
		upsert(t, ctx, s, file("e", "e.txt", "の第45回衆議院"), chunk(0, 0, "の第45回衆議院", 1))
		upsert(t, ctx, s, file("r", "r.txt", "She runs every morning"), chunk(0, 0, "She runs every morning", 1))
		r.SetTokens(t, s, "e", []string{"e", "txt"}, strings.Fields(tokenize.Join("の第45回衆議院")), nil)
		r.SetTokens(t, s, "r", []string{"r", "txt"}, oldWords("She runs every morning"), nil)
		if pending {
			r.Migrate(t, s, "_stem_english.sql")
		}
		r.Migrate(t, s, "_edge_tokens.sql")

		s = reopen(t, nil)
		if got := sorted(hitIDs(keyword(t, ctx, s, all("第45回")).Hits)); !slices.Equal(got, []string{"e"}) {
			t.Errorf("pending %v: KeywordSearch(第45回) = %v, want [e]", pending, got)
		}
		want := []string{}
		if pending {
			want = []string{"r"}
		}
		if got := sorted(hitIDs(keyword(t, ctx, s, anyOf("running")).Hits)); !slices.Equal(got, want) {
			t.Errorf("pending %v: KeywordSearch(running) = %v, want %v (rewritten only when the stemming pass was pending)", pending, got, want)
		}
		r.checkDone(t, s)
	}
}
