package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
)

// Dim is the embedding dimension the suite uses.
const Dim = 4

// Space is the embedding space the suite records before writing files.
var Space = store.EmbeddingSpace{Model: "storetest-embed-v1", Dim: Dim}

// Run runs the contract suite. newStore must return a fresh, empty, migrated
// store for every call and clean it up through t.Cleanup.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, newStore func(t *testing.T) store.Store)
	}{
		{"UpsertAndGetFiles", testUpsertAndGetFiles},
		{"GetFilesOrder", testGetFilesOrder},
		{"UpsertReplacesFileAndChunks", testUpsertReplaces},
		{"ContentHashes", testContentHashes},
		{"FilterIndexed", testFilterIndexed},
		{"IndexedIDs", testIndexedIDs},
		{"DeleteFiles", testDeleteFiles},
		{"Documents", testDocuments},
		{"KeywordSearchFields", testKeywordFields},
		{"KeywordSearchMatchModes", testKeywordMatchModes},
		{"KeywordSearchRanking", testKeywordRanking},
		{"KeywordSearchJapanese", testKeywordJapanese},
		{"KeywordSearchNormalization", testKeywordNormalization},
		{"AccentAndWidthFolding", testFolding},
		{"EnglishStemming", testStemming},
		{"KeywordAcrossCJKWordBoundary", testEdgeTokens},
		{"KeywordSearchFilters", testKeywordFilters},
		{"KeywordSearchTotalAndLimit", testKeywordTotalAndLimit},
		{"KeywordSearchTopOnlyRanking", testTopOnlyRanking},
		{"KeywordSearchFilterOnly", testKeywordFilterOnly},
		{"DocFreqs", testDocFreqs},
		{"KeywordSearchSyntaxIsLiteral", testKeywordSyntax},
		{"VectorSearch", testVectorSearch},
		{"VectorSearchFilters", testVectorFilters},
		{"NameOnlyEntries", testNameOnly},
		{"ExtractVersion", testExtractVersion},
		{"KeywordSearchTies", testKeywordTies},
		{"KeywordFacets", testKeywordFacets},
		{"ChunkSearch", testChunkSearch},
		{"ChunkTextSearch", testChunkTextSearch},
		{"ChunkTextSearchTies", testChunkTextTies},
		{"FileChunks", testFileChunks},
		{"ScanChunks", testScanChunks},
		{"RetrieveChunks", testRetrieveChunks},
		{"DeleteRemovesChunksEverywhere", testDeleteRemovesChunks},
		{"FolderFilter", testFolderFilter},
		{"FolderCounts", testFolderCounts},
		{"SourceFilter", testSourceFilter},
		{"SyncState", testSyncState},
		{"SyncStatePerSource", testSyncStatePerSource},
		{"SourceIDs", testSourceIDs},
		{"CrawlFailures", testFailures},
		{"EmbeddingSpace", testEmbeddingSpace},
		{"Reset", testReset},
		{"Stats", testStats},
		{"TimeZones", testTimeZones},
		{"Concurrency", testConcurrency},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore) })
	}
}

var (
	t0  = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	jst = time.FixedZone("JST", 9*3600)
	est = time.FixedZone("EST", -5*3600)
)

// open returns a fresh store with the suite's embedding space recorded.
func open(t *testing.T, newStore func(t *testing.T) store.Store) (context.Context, store.Store) {
	t.Helper()
	ctx := context.Background()
	s := newStore(t)
	if err := s.EnsureEmbeddingSpace(ctx, Space); err != nil {
		t.Fatalf("EnsureEmbeddingSpace(%v) on a fresh store: %v", Space, err)
	}
	return ctx, s
}

func vec(xs ...float32) []float32 {
	v := make([]float32, Dim)
	copy(v, xs)
	return v
}

// file returns a minimal valid file.
func file(id, name, text string) store.File {
	return store.File{
		ID:          id,
		Name:        name,
		Summary:     "",
		Keywords:    nil,
		Embedding:   vec(1),
		ModifiedAt:  t0,
		MimeType:    "text/plain",
		WebLink:     "file:///" + id,
		ContentHash: "hash-" + id,
		Source:      "local",
		Provider:    "offline",
		IndexedAt:   t0.Add(time.Hour),
		Text:        text,
	}
}

func upsert(t *testing.T, ctx context.Context, s store.Store, f store.File, chunks ...store.Chunk) {
	t.Helper()
	if err := s.UpsertFile(ctx, f, chunks); err != nil {
		t.Fatalf("UpsertFile(%q): %v", f.ID, err)
	}
}

func hitIDs(hits []store.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func sorted(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	if out == nil {
		out = []string{}
	}
	return out
}

func keyword(t *testing.T, ctx context.Context, s store.Store, q store.KeywordQuery) store.KeywordResult {
	t.Helper()
	res, err := s.KeywordSearch(ctx, q)
	if err != nil {
		t.Fatalf("KeywordSearch(%q): %v", q.Terms, err)
	}
	if res.Total < len(res.Hits) {
		t.Errorf("KeywordSearch(%q): Total %d < %d hits", q.Terms, res.Total, len(res.Hits))
	}
	for i := 1; i < len(res.Hits); i++ {
		if res.Hits[i].Score > res.Hits[i-1].Score {
			t.Errorf("KeywordSearch(%q): hits not ranked by descending score: %v", q.Terms, res.Hits)
			break
		}
	}
	return res
}

// wantKeyword checks the set of matching files (order ignored).
func wantKeyword(t *testing.T, ctx context.Context, s store.Store, q store.KeywordQuery, want ...string) {
	t.Helper()
	res := keyword(t, ctx, s, q)
	if got := sorted(hitIDs(res.Hits)); !slices.Equal(got, sorted(want)) {
		t.Errorf("KeywordSearch(terms %q, match %v, filter %+v) = %v, want %v", q.Terms, q.Match, q.Filter, got, sorted(want))
	}
	if res.Total != len(want) {
		t.Errorf("KeywordSearch(%q).Total = %d, want %d", q.Terms, res.Total, len(want))
	}
}

func all(terms ...string) store.KeywordQuery {
	return store.KeywordQuery{Terms: terms, Match: store.MatchAll}
}

func anyOf(terms ...string) store.KeywordQuery {
	return store.KeywordQuery{Terms: terms, Match: store.MatchAny}
}

func getOne(t *testing.T, ctx context.Context, s store.Store, id string) store.File {
	t.Helper()
	fs, err := s.GetFiles(ctx, []string{id})
	if err != nil {
		t.Fatalf("GetFiles(%q): %v", id, err)
	}
	if len(fs) != 1 {
		t.Fatalf("GetFiles(%q) returned %d files, want 1", id, len(fs))
	}
	return fs[0]
}

func sameInstantUTC(t *testing.T, what string, got, want time.Time) {
	t.Helper()
	if !got.Truncate(time.Microsecond).Equal(want.Truncate(time.Microsecond)) {
		t.Errorf("%s = %v, want the instant %v", what, got, want.UTC())
	}
	if got.Location() != time.UTC {
		t.Errorf("%s location = %v, want UTC", what, got.Location())
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-4 }

func testUpsertAndGetFiles(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	mod := time.Date(2024, 5, 6, 7, 8, 9, 123456000, time.UTC)
	a := store.File{
		ID:          "file-a",
		Name:        "Quarterly Report.pdf",
		Summary:     "売上の報告 and the quarterly numbers",
		Keywords:    []string{"売上", "Q3", "report"},
		Embedding:   vec(0.25, -0.5, 0.125, 1),
		ModifiedAt:  mod,
		MimeType:    "application/pdf",
		WebLink:     "https://drive.google.com/file/d/file-a/view",
		Parents:     []string{"folder-1", "folder-2"},
		Path:        "Projects/Alpha",
		Size:        123456789012,
		ContentHash: "sha256:abc",
		Source:      "drive",
		Provider:    "openai",
		IndexedAt:   mod.Add(90 * time.Minute),
		Text:        "the full extracted text",
	}
	b := file("file-b", "b.txt", "bee")
	upsert(t, ctx, s, a)
	upsert(t, ctx, s, b)

	got, err := s.GetFiles(ctx, []string{"file-b", "unknown", "file-a"})
	if err != nil {
		t.Fatalf("GetFiles: %v", err)
	}
	if len(got) != 2 || got[0].ID != "file-b" || got[1].ID != "file-a" {
		t.Fatalf("GetFiles(b, unknown, a) returned IDs %v, want [file-b file-a]", fileIDs(got))
	}
	g := got[1]
	if g.Text != "" {
		t.Errorf("GetFiles returned Text %q, want it left empty", g.Text)
	}
	if g.Name != a.Name || g.Summary != a.Summary || g.MimeType != a.MimeType || g.WebLink != a.WebLink ||
		g.Path != a.Path || g.Size != a.Size || g.ContentHash != a.ContentHash || g.Source != a.Source ||
		g.Provider != a.Provider {
		t.Errorf("GetFiles scalar fields differ:\n got %+v\nwant %+v", g, a)
	}
	if !slices.Equal(g.Keywords, a.Keywords) {
		t.Errorf("Keywords = %q, want %q", g.Keywords, a.Keywords)
	}
	if !slices.Equal(g.Parents, a.Parents) {
		t.Errorf("Parents = %q, want %q", g.Parents, a.Parents)
	}
	if !slices.Equal(g.Embedding, a.Embedding) {
		t.Errorf("Embedding = %v, want %v", g.Embedding, a.Embedding)
	}
	sameInstantUTC(t, "ModifiedAt", g.ModifiedAt, a.ModifiedAt)
	sameInstantUTC(t, "IndexedAt", g.IndexedAt, a.IndexedAt)
	if len(got[0].Keywords) != 0 || len(got[0].Parents) != 0 {
		t.Errorf("file without keywords/parents came back with %q / %q", got[0].Keywords, got[0].Parents)
	}

	for _, ids := range [][]string{nil, {}, {"unknown"}} {
		fs, err := s.GetFiles(ctx, ids)
		if err != nil || len(fs) != 0 {
			t.Errorf("GetFiles(%q) = %v, %v; want no files and no error", ids, fileIDs(fs), err)
		}
	}
}

// testGetFilesOrder: GetFiles returns the files in the order of the IDs
// asked for, whatever the order they were written in or their IDs sort
// in, and skips the IDs that are not indexed wherever they stand.
func testGetFilesOrder(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	for _, id := range []string{"m", "c", "x", "a", "q", "f"} {
		upsert(t, ctx, s, file(id, id+".txt", "text of "+id))
	}
	for _, c := range []struct{ ids, want []string }{
		{[]string{"a", "c", "f", "m", "q", "x"}, []string{"a", "c", "f", "m", "q", "x"}},
		{[]string{"x", "q", "m", "f", "c", "a"}, []string{"x", "q", "m", "f", "c", "a"}},
		{[]string{"q", "a", "x", "c", "m", "f"}, []string{"q", "a", "x", "c", "m", "f"}},
		{[]string{"gone", "f", "a", "lost", "x", "missing"}, []string{"f", "a", "x"}},
		{[]string{"gone", "lost"}, []string{}},
	} {
		got, err := s.GetFiles(ctx, c.ids)
		if err != nil {
			t.Fatalf("GetFiles(%q): %v", c.ids, err)
		}
		if ids := fileIDs(got); !slices.Equal(ids, c.want) {
			t.Errorf("GetFiles(%q) = %q, want %q", c.ids, ids, c.want)
		}
	}
}

func fileIDs(fs []store.File) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.ID
	}
	return out
}

func testUpsertReplaces(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	f := file("doc", "old name.txt", "pineapple orchard")
	f.Keywords = []string{"old"}
	upsert(t, ctx, s, f,
		store.Chunk{Ordinal: 0, Text: "old zero", Embedding: vec(1)},
		store.Chunk{Ordinal: 1, Text: "old one", Embedding: vec(0, 1)},
		store.Chunk{Ordinal: 2, Text: "old two", Embedding: vec(0, 0, 1)},
	)
	f2 := file("doc", "new name.txt", "mango plantation")
	f2.Keywords = []string{"new", "fresh"}
	f2.Embedding = vec(0, 1)
	f2.ContentHash = "hash-2"
	upsert(t, ctx, s, f2, store.Chunk{Ordinal: 0, Page: 3, Text: "new zero", Embedding: vec(0, 0, 0, 1)})

	g := getOne(t, ctx, s, "doc")
	if g.Name != "new name.txt" || g.ContentHash != "hash-2" || !slices.Equal(g.Keywords, f2.Keywords) ||
		!slices.Equal(g.Embedding, f2.Embedding) {
		t.Errorf("after replace GetFiles = %+v, want the new version", g)
	}
	hits, err := s.ChunkSearch(ctx, vec(1, 1, 1, 1), store.Filter{}, 10)
	if err != nil {
		t.Fatalf("ChunkSearch: %v", err)
	}
	if len(hits) != 1 || hits[0].Text != "new zero" || hits[0].Page != 3 || hits[0].FileID != "doc" {
		t.Errorf("after replace ChunkSearch = %+v, want only the new chunk", hits)
	}
	wantKeyword(t, ctx, s, anyOf("pineapple"))
	wantKeyword(t, ctx, s, anyOf("old"))
	wantKeyword(t, ctx, s, anyOf("mango"), "doc")
	wantKeyword(t, ctx, s, anyOf("fresh"), "doc")

	// Replacing with no chunks removes them all.
	upsert(t, ctx, s, f2)
	hits, err = s.ChunkSearch(ctx, vec(1, 1, 1, 1), store.Filter{}, 10)
	if err != nil || len(hits) != 0 {
		t.Errorf("after replace without chunks ChunkSearch = %+v, %v; want none", hits, err)
	}
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatalf("Stats: %v", err)
	}
	if st.Files != 1 || st.Chunks != 0 {
		t.Errorf("Stats after replacing one file = %d files, %d chunks; want 1, 0", st.Files, st.Chunks)
	}
}

func testContentHashes(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	upsert(t, ctx, s, file("a", "a", "x"))
	b := file("b", "b", "y")
	b.ContentHash = "custom"
	upsert(t, ctx, s, b)
	got, err := s.ContentHashes(ctx, []string{"b", "missing", "a"})
	if err != nil {
		t.Fatalf("ContentHashes: %v", err)
	}
	want := map[string]string{"a": "hash-a", "b": "custom"}
	if len(got) != len(want) || got["a"] != want["a"] || got["b"] != want["b"] {
		t.Errorf("ContentHashes = %v, want %v", got, want)
	}
	got, err = s.ContentHashes(ctx, nil)
	if err != nil || len(got) != 0 {
		t.Errorf("ContentHashes(nil) = %v, %v; want empty", got, err)
	}
}

func testFilterIndexed(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	for _, id := range []string{"a", "b", "c"} {
		upsert(t, ctx, s, file(id, id, id))
	}
	got, err := s.FilterIndexed(ctx, []string{"x", "c", "a", "y", "b"})
	if err != nil {
		t.Fatalf("FilterIndexed: %v", err)
	}
	if !slices.Equal(got, []string{"c", "a", "b"}) {
		t.Errorf("FilterIndexed(x c a y b) = %v, want [c a b]", got)
	}
	got, err = s.FilterIndexed(ctx, []string{})
	if err != nil || len(got) != 0 {
		t.Errorf("FilterIndexed(empty) = %v, %v; want empty", got, err)
	}
}

func testIndexedIDs(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	got, err := s.IndexedIDs(ctx)
	if err != nil {
		t.Fatalf("IndexedIDs on an empty store: %v", err)
	}
	if got == nil || len(got) != 0 {
		t.Errorf("IndexedIDs on an empty store = %#v, want empty non-nil", got)
	}
	// Upper case sorts before lower case and "a" before "a-1" in byte order,
	// which a locale-aware collation would not give.
	for _, id := range []string{"b", "a", "C", "a-1"} {
		upsert(t, ctx, s, file(id, id, id))
	}
	got, err = s.IndexedIDs(ctx)
	if err != nil {
		t.Fatalf("IndexedIDs: %v", err)
	}
	if want := []string{"C", "a", "a-1", "b"}; !slices.Equal(got, want) {
		t.Errorf("IndexedIDs = %q, want %q", got, want)
	}
	if err := s.DeleteFiles(ctx, []string{"a"}); err != nil {
		t.Fatalf("DeleteFiles(a): %v", err)
	}
	got, err = s.IndexedIDs(ctx)
	if err != nil {
		t.Fatalf("IndexedIDs after delete: %v", err)
	}
	if want := []string{"C", "a-1", "b"}; !slices.Equal(got, want) {
		t.Errorf("IndexedIDs after DeleteFiles(a) = %q, want %q", got, want)
	}
}

func testDeleteFiles(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	a := file("a", "apple.txt", "shared words")
	upsert(t, ctx, s, a, store.Chunk{Ordinal: 0, Text: "a0", Embedding: vec(1)}, store.Chunk{Ordinal: 1, Text: "a1", Embedding: vec(1, 1)})
	b := file("b", "banana.txt", "shared words")
	upsert(t, ctx, s, b, store.Chunk{Ordinal: 0, Text: "b0", Embedding: vec(1)})

	if err := s.DeleteFiles(ctx, []string{"a", "unknown"}); err != nil {
		t.Fatalf("DeleteFiles(a, unknown): %v", err)
	}
	if err := s.DeleteFiles(ctx, nil); err != nil {
		t.Fatalf("DeleteFiles(nil): %v", err)
	}
	fs, err := s.GetFiles(ctx, []string{"a", "b"})
	if err != nil || len(fs) != 1 || fs[0].ID != "b" {
		t.Errorf("GetFiles after delete = %v, %v; want [b]", fileIDs(fs), err)
	}
	wantKeyword(t, ctx, s, anyOf("shared"), "b")
	wantKeyword(t, ctx, s, anyOf("apple"))
	vh, err := s.VectorSearch(ctx, vec(1), store.Filter{}, 10)
	if err != nil || !slices.Equal(hitIDs(vh), []string{"b"}) {
		t.Errorf("VectorSearch after delete = %v, %v; want [b]", hitIDs(vh), err)
	}
	ch, err := s.ChunkSearch(ctx, vec(1), store.Filter{}, 10)
	if err != nil || len(ch) != 1 || ch[0].FileID != "b" {
		t.Errorf("ChunkSearch after delete = %+v, %v; want only b's chunk", ch, err)
	}
	st, err := s.Stats(ctx)
	if err != nil || st.Files != 1 || st.Chunks != 1 {
		t.Errorf("Stats after delete = %+v, %v; want 1 file, 1 chunk", st, err)
	}
}

func testKeywordFields(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	n := file("n", "Zephyr plan.txt", "")
	sm := file("s", "s.txt", "")
	sm.Summary = "A summary about zephyr winds"
	k := file("k", "k.txt", "")
	k.Keywords = []string{"Zephyr"}
	x := file("x", "x.txt", "body text mentions zephyr once")
	none := file("none", "none.txt", "nothing relevant here")
	none.Summary = "also nothing"
	for _, f := range []store.File{n, sm, k, x, none} {
		upsert(t, ctx, s, f)
	}
	wantKeyword(t, ctx, s, anyOf("zephyr"), "n", "s", "k", "x")
	wantKeyword(t, ctx, s, all("zephyr"), "n", "s", "k", "x")
	wantKeyword(t, ctx, s, anyOf("relevant"), "none")
	wantKeyword(t, ctx, s, anyOf("absent"))
	// Terms are words, not Latin substrings.
	wantKeyword(t, ctx, s, anyOf("zeph"))
	// A term of several words is a phrase.
	wantKeyword(t, ctx, s, anyOf("mentions zephyr"), "x")
	wantKeyword(t, ctx, s, anyOf("zephyr mentions"))
	// Empty queries match nothing.
	wantKeyword(t, ctx, s, anyOf())
	wantKeyword(t, ctx, s, all())
	wantKeyword(t, ctx, s, all(""))
}

func testKeywordMatchModes(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	upsert(t, ctx, s, file("ab", "ab.txt", "alpha and beta together"))
	upsert(t, ctx, s, file("a", "a.txt", "alpha alone here"))
	upsert(t, ctx, s, file("b", "b.txt", "beta alone here"))
	upsert(t, ctx, s, file("g", "g.txt", "gamma alone here"))
	wantKeyword(t, ctx, s, all("alpha", "beta"), "ab")
	wantKeyword(t, ctx, s, all("alpha", "beta", "gamma"))
	wantKeyword(t, ctx, s, anyOf("alpha", "beta"), "ab", "a", "b")
	res := keyword(t, ctx, s, anyOf("alpha", "beta"))
	if len(res.Hits) == 0 || res.Hits[0].ID != "ab" {
		t.Errorf("MatchAny(alpha, beta) ranking = %v, want the file with both terms first", hitIDs(res.Hits))
	}
	wantKeyword(t, ctx, s, anyOf("alpha", "delta"), "ab", "a")
}

func testKeywordRanking(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	name := file("name", "Roadmap 2025.pdf", "plans for next year and budget lines")
	var long strings.Builder
	words := []string{"budget", "meeting", "design", "review", "customer", "launch", "quality", "support"}
	for i := range 300 {
		long.WriteString(words[i%len(words)])
		long.WriteString(fmt.Sprintf(" item%d ", i))
		if i == 150 {
			long.WriteString("roadmap ")
		}
	}
	body := file("body", "notes.txt", long.String())
	upsert(t, ctx, s, body)
	upsert(t, ctx, s, name)
	for _, q := range []store.KeywordQuery{anyOf("roadmap"), all("roadmap"), anyOf("roadmap", "nothingmatches")} {
		res := keyword(t, ctx, s, q)
		if !slices.Equal(hitIDs(res.Hits), []string{"name", "body"}) {
			t.Errorf("KeywordSearch(%q) = %v, want [name body]: a name match outranks one mention in a long text", q.Terms, hitIDs(res.Hits))
		}
		if len(res.Hits) == 2 && !(res.Hits[0].Score > res.Hits[1].Score) {
			t.Errorf("KeywordSearch(%q) scores %v not strictly decreasing", q.Terms, res.Hits)
		}
	}
}

func testKeywordJapanese(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	upsert(t, ctx, s, file("minutes", "2024年5月 定例会議事録.docx", "出席者: 山田、佐藤"))
	upsert(t, ctx, s, file("body", "memo.txt", "第3回の定例会議事録を共有します。"))
	upsert(t, ctx, s, file("decoy", "decoy.txt", "議事の録音と事録という語"))
	upsert(t, ctx, s, file("kabu", "kabu.txt", "株式会社サンプルの売上 表 です"))
	upsert(t, ctx, s, file("mixed", "mixed.txt", "Q3ロードマップ資料"))

	wantKeyword(t, ctx, s, anyOf("議事録"), "minutes", "body")
	wantKeyword(t, ctx, s, anyOf("定例会"), "minutes", "body")
	wantKeyword(t, ctx, s, all("議事録", "山田"), "minutes")
	wantKeyword(t, ctx, s, anyOf("録音"), "decoy")
	wantKeyword(t, ctx, s, anyOf("会議録"))
	wantKeyword(t, ctx, s, anyOf("ロードマップ"), "mixed")
	wantKeyword(t, ctx, s, all("q3", "ロードマップ"), "mixed")
	// One-character terms: standing alone or at the start of a CJK run.
	wantKeyword(t, ctx, s, anyOf("株"), "kabu")
	wantKeyword(t, ctx, s, anyOf("表"), "kabu")
	wantKeyword(t, ctx, s, anyOf("猫"))
	// Full-width forms are normalised.
	wantKeyword(t, ctx, s, anyOf("Ｑ３"), "mixed")
}

func testKeywordNormalization(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	upsert(t, ctx, s, file("pdf", "Budget FINAL.PDF", "Ｃｏｍｐａｎｙ overview"))
	wantKeyword(t, ctx, s, anyOf("budget final"), "pdf")
	wantKeyword(t, ctx, s, anyOf("ＢＵＤＧＥＴ"), "pdf")
	wantKeyword(t, ctx, s, anyOf("company"), "pdf")
	wantKeyword(t, ctx, s, anyOf("final.pdf"), "pdf")
}

func testKeywordFilters(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	t1 := t0.AddDate(0, 1, 0)
	mk := func(id string, mod time.Time, mime string) {
		f := file(id, id+".txt", "quarterly report")
		f.ModifiedAt = mod
		f.MimeType = mime
		upsert(t, ctx, s, f)
	}
	mk("before", t0.Add(-time.Second), "application/pdf")
	mk("start", t0, "text/plain")
	mk("inside", t0.Add(10*24*time.Hour), "application/pdf")
	mk("end", t1, "application/vnd.google-apps.document")
	mk("after", t1.Add(time.Second), "text/plain")

	q := func(f store.Filter) store.KeywordQuery {
		return store.KeywordQuery{Terms: []string{"report"}, Match: store.MatchAll, Filter: f}
	}
	wantKeyword(t, ctx, s, q(store.Filter{}), "before", "start", "inside", "end", "after")
	wantKeyword(t, ctx, s, q(store.Filter{ModifiedAfter: t0, ModifiedBefore: t1}), "start", "inside")
	wantKeyword(t, ctx, s, q(store.Filter{ModifiedAfter: t0}), "start", "inside", "end", "after")
	wantKeyword(t, ctx, s, q(store.Filter{ModifiedBefore: t1}), "before", "start", "inside")
	wantKeyword(t, ctx, s, q(store.Filter{MimeTypes: []string{"application/pdf"}}), "before", "inside")
	wantKeyword(t, ctx, s, q(store.Filter{MimeTypes: []string{"application/pdf", "text/plain"}}), "before", "start", "inside", "after")
	wantKeyword(t, ctx, s, q(store.Filter{MimeTypes: []string{"image/png"}}))
	wantKeyword(t, ctx, s, q(store.Filter{MimeTypes: []string{}}), "before", "start", "inside", "end", "after")
	wantKeyword(t, ctx, s, q(store.Filter{IDs: []string{"inside", "after", "unknown"}}), "inside", "after")
	wantKeyword(t, ctx, s, q(store.Filter{IDs: []string{}}))
	wantKeyword(t, ctx, s, q(store.Filter{IDs: []string{"inside", "after", "start"}, MimeTypes: []string{"text/plain"}, ModifiedBefore: t1}), "start")
	wantKeyword(t, ctx, s, store.KeywordQuery{Terms: []string{"report", "nothing"}, Match: store.MatchAny,
		Filter: store.Filter{ModifiedAfter: t0, ModifiedBefore: t1, MimeTypes: []string{"application/pdf"}}}, "inside")
}

func testKeywordTotalAndLimit(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	const n = 120
	for i := range n {
		text := "common"
		if i%10 == 0 {
			text = "common rare"
		}
		upsert(t, ctx, s, file(fmt.Sprintf("f%03d", i), fmt.Sprintf("f%03d.txt", i), text))
	}
	res := keyword(t, ctx, s, store.KeywordQuery{Terms: []string{"common"}, Match: store.MatchAny, Limit: 7})
	if len(res.Hits) != 7 || res.Total != n {
		t.Errorf("Limit 7: %d hits, Total %d; want 7 hits, Total %d", len(res.Hits), res.Total, n)
	}
	res = keyword(t, ctx, s, store.KeywordQuery{Terms: []string{"common"}, Match: store.MatchAll})
	if len(res.Hits) != 100 || res.Total != n {
		t.Errorf("Limit 0: %d hits, Total %d; want the default 100 hits, Total %d", len(res.Hits), res.Total, n)
	}
	res = keyword(t, ctx, s, store.KeywordQuery{Terms: []string{"common", "rare"}, Match: store.MatchAll, Limit: 5})
	if len(res.Hits) != 5 || res.Total != n/10 {
		t.Errorf("common AND rare, Limit 5: %d hits, Total %d; want 5, %d", len(res.Hits), res.Total, n/10)
	}
	res = keyword(t, ctx, s, store.KeywordQuery{Terms: []string{"common", "rare"}, Match: store.MatchAny, Limit: 12})
	if len(res.Hits) != 12 || res.Total != n {
		t.Fatalf("common OR rare, Limit 12: %d hits, Total %d; want 12, %d", len(res.Hits), res.Total, n)
	}
	for _, h := range res.Hits {
		var i int
		if _, err := fmt.Sscanf(h.ID, "f%03d", &i); err != nil || i%10 != 0 {
			t.Errorf("common OR rare ranked %s among the top 12; files with both terms (every 10th) should come first", h.ID)
		}
	}
	res = keyword(t, ctx, s, store.KeywordQuery{Terms: []string{"common"}, Match: store.MatchAny, Limit: 5,
		Filter: store.Filter{IDs: []string{"f001", "f002", "f003"}}})
	if len(res.Hits) != 3 || res.Total != 3 {
		t.Errorf("restricted to 3 IDs: %d hits, Total %d; want 3, 3", len(res.Hits), res.Total)
	}
}

// testKeywordFilterOnly: a query without usable terms but with a period or
// MIME-type filter lists every file passing the filter, newest first.
func testKeywordFilterOnly(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	mk := func(id string, mod time.Time, mime string) {
		f := file(id, id+".txt", "text of "+id)
		f.ModifiedAt = mod
		f.MimeType = mime
		upsert(t, ctx, s, f)
	}
	const pdf = "application/pdf"
	mk("old-pdf", t0.AddDate(0, -2, 0), pdf)
	mk("mar-pdf-a", t0.Add(48*time.Hour), pdf)
	mk("mar-pdf-b", t0.Add(48*time.Hour), pdf) // same instant as a: ID breaks the tie
	mk("mar-txt", t0.Add(72*time.Hour), "text/plain")
	mk("jst-pdf", t0.Add(24*time.Hour).In(jst), pdf)
	mk("apr-pdf", t0.AddDate(0, 1, 0), pdf)

	march := store.Filter{ModifiedAfter: t0, ModifiedBefore: t0.AddDate(0, 1, 0)}
	marchPDF := march
	marchPDF.MimeTypes = []string{pdf}
	cases := []struct {
		name  string
		q     store.KeywordQuery
		want  []string // in order
		total int
	}{
		{"period and type", store.KeywordQuery{Filter: marchPDF}, []string{"mar-pdf-a", "mar-pdf-b", "jst-pdf"}, 3},
		{"period only", store.KeywordQuery{Filter: march}, []string{"mar-txt", "mar-pdf-a", "mar-pdf-b", "jst-pdf"}, 4},
		{"type only, limit", store.KeywordQuery{Filter: store.Filter{MimeTypes: []string{pdf}}, Limit: 2}, []string{"apr-pdf", "mar-pdf-a"}, 5},
		{"terms without tokens", store.KeywordQuery{Terms: []string{"%", "  "}, Match: store.MatchAny, Filter: marchPDF}, []string{"mar-pdf-a", "mar-pdf-b", "jst-pdf"}, 3},
		{"with IDs", store.KeywordQuery{Filter: store.Filter{MimeTypes: []string{pdf}, IDs: []string{"old-pdf", "mar-txt", "apr-pdf"}}}, []string{"apr-pdf", "old-pdf"}, 2},
		{"nothing passes", store.KeywordQuery{Filter: store.Filter{MimeTypes: []string{"image/png"}}}, nil, 0},
		{"empty ID list", store.KeywordQuery{Filter: store.Filter{MimeTypes: []string{pdf}, IDs: []string{}}}, nil, 0},
		{"no filter", store.KeywordQuery{}, nil, 0},
		{"IDs alone", store.KeywordQuery{Filter: store.Filter{IDs: []string{"old-pdf"}}}, nil, 0},
	}
	for _, c := range cases {
		res := keyword(t, ctx, s, c.q)
		if got := hitIDs(res.Hits); !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%s: hits %v, want %v in this order", c.name, got, c.want)
		}
		if res.Total != c.total {
			t.Errorf("%s: Total %d, want %d", c.name, res.Total, c.total)
		}
	}
	// A real term still searches text: the filter-only listing is only for
	// queries without usable terms.
	wantKeyword(t, ctx, s, store.KeywordQuery{Terms: []string{"apr"}, Match: store.MatchAny, Filter: store.Filter{MimeTypes: []string{pdf}}}, "apr-pdf")
}

func testKeywordSyntax(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	upsert(t, ctx, s, file("x", "alpha.txt", "alpha only"))
	upsert(t, ctx, s, file("y", "y.txt", "beta only"))
	upsert(t, ctx, s, file("z", "z.txt", `near the "quoted" value: 100% done, it's back\slash time`))
	upsert(t, ctx, s, file("w", "w.txt", "alphabet soup"))

	cases := []struct {
		term string
		want []string
	}{
		{`alpha OR beta`, nil},
		{`alpha AND beta`, nil},
		{`alpha NOT beta`, nil},
		{`NOT alpha`, nil},
		{`alp*`, nil},
		{`alpha*`, []string{"x"}},
		{`"alpha`, []string{"x"}},
		{`alpha"`, []string{"x"}},
		{`"alpha" OR "beta"`, nil},
		{`-alpha`, []string{"x"}},
		{`alpha -beta`, nil},
		{`name:alpha`, nil},
		{`file_name:alpha`, nil},
		{`{file_name}: alpha`, nil},
		{`NEAR(alpha beta)`, nil},
		{`NEAR(`, []string{"z"}},
		{`^alpha`, []string{"x"}},
		{`alpha + beta`, nil},
		{`%`, nil},
		{`%alpha%`, []string{"x"}},
		{`_`, nil},
		{`*`, nil},
		{`"`, nil},
		{`'`, nil},
		{`''`, nil},
		{`\`, nil},
		{`:`, nil},
		{`-`, nil},
		{`(`, nil},
		{`)`, nil},
		{`AND`, nil},
		{`OR`, nil},
		{`'; DROP TABLE drive_file_index; --`, nil},
		{`alpha'); DELETE FROM drive_file_index; --`, nil},
		{`100%`, []string{"z"}},
		{`it's`, []string{"z"}},
		{`back\slash`, []string{"z"}},
		{`value:`, []string{"z"}},
		{`"quoted"`, []string{"z"}},
		{`near`, []string{"z"}},
	}
	for _, c := range cases {
		wantKeyword(t, ctx, s, anyOf(c.term), c.want...)
		wantKeyword(t, ctx, s, all(c.term), c.want...)
	}
	// Terms without tokens are ignored next to real terms.
	wantKeyword(t, ctx, s, all("%", "alpha", `"`), "x")
	wantKeyword(t, ctx, s, anyOf("*", "beta"), "y")
	// Nothing was injected: every file is still there.
	fs, err := s.GetFiles(ctx, []string{"x", "y", "z", "w"})
	if err != nil || len(fs) != 4 {
		t.Errorf("after syntax terms GetFiles = %v, %v; want all 4 files", fileIDs(fs), err)
	}
}

func testVectorSearch(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	mk := func(id string, v []float32) {
		f := file(id, id, id)
		f.Embedding = v
		upsert(t, ctx, s, f)
	}
	mk("v3", vec(0, 1))
	mk("v1", vec(1))
	mk("v4", vec(-1))
	mk("v2", vec(0.9, 0.3))
	mk("v5", vec(0.5, 0, 0.5, 0.5))

	hits, err := s.VectorSearch(ctx, vec(1), store.Filter{}, 10)
	if err != nil {
		t.Fatalf("VectorSearch: %v", err)
	}
	if want := []string{"v1", "v2", "v5", "v3", "v4"}; !slices.Equal(hitIDs(hits), want) {
		t.Fatalf("VectorSearch order = %v, want %v", hitIDs(hits), want)
	}
	wantScores := []float64{1, 0.9 / math.Sqrt(0.9), 0.5 / math.Sqrt(0.75), 0, -1}
	for i, h := range hits {
		if !near(h.Score, wantScores[i]) {
			t.Errorf("VectorSearch score of %s = %v, want cosine %v", h.ID, h.Score, wantScores[i])
		}
	}
	// Cosine ignores the query's length.
	hits2, err := s.VectorSearch(ctx, vec(7), store.Filter{}, 2)
	if err != nil {
		t.Fatalf("VectorSearch: %v", err)
	}
	if !slices.Equal(hitIDs(hits2), []string{"v1", "v2"}) || !near(hits2[0].Score, 1) {
		t.Errorf("VectorSearch(scaled query, k=2) = %v, want [v1 v2] with score 1 first", hits2)
	}
	hits3, err := s.VectorSearch(ctx, vec(0, 1), store.Filter{}, 1)
	if err != nil || !slices.Equal(hitIDs(hits3), []string{"v3"}) {
		t.Errorf("VectorSearch(e2, k=1) = %v, %v; want [v3]", hitIDs(hits3), err)
	}
	if _, err := s.VectorSearch(ctx, []float32{1, 0, 0}, store.Filter{}, 3); err == nil {
		t.Errorf("VectorSearch with a %d-dimensional query in a %d-dimensional index succeeded, want an error", 3, Dim)
	}
}

func testVectorFilters(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	t1 := t0.AddDate(0, 1, 0)
	mk := func(id string, v []float32, mod time.Time, mime string) {
		f := file(id, id, id)
		f.Embedding = v
		f.ModifiedAt = mod
		f.MimeType = mime
		upsert(t, ctx, s, f)
	}
	mk("a", vec(1), t0, "application/pdf")
	mk("b", vec(0.8, 0.2), t0.Add(-time.Microsecond), "application/pdf")
	mk("c", vec(0.6, 0.4), t1, "text/plain")
	mk("d", vec(0.4, 0.6), t0.Add(time.Hour), "text/plain")
	mk("e", vec(0.2, 0.8), t1.Add(-time.Microsecond), "application/pdf")

	cases := []struct {
		f    store.Filter
		k    int
		want []string
	}{
		{store.Filter{}, 10, []string{"a", "b", "c", "d", "e"}},
		{store.Filter{}, 3, []string{"a", "b", "c"}},
		{store.Filter{ModifiedAfter: t0, ModifiedBefore: t1}, 10, []string{"a", "d", "e"}},
		{store.Filter{MimeTypes: []string{"text/plain"}}, 10, []string{"c", "d"}},
		{store.Filter{IDs: []string{"e", "c", "zz"}}, 10, []string{"c", "e"}},
		{store.Filter{IDs: []string{"e", "c", "d"}}, 2, []string{"c", "d"}},
		{store.Filter{IDs: []string{}}, 10, nil},
		{store.Filter{IDs: []string{"a", "b", "e"}, MimeTypes: []string{"application/pdf"}, ModifiedAfter: t0}, 10, []string{"a", "e"}},
	}
	for _, c := range cases {
		hits, err := s.VectorSearch(ctx, vec(1), c.f, c.k)
		if err != nil {
			t.Errorf("VectorSearch(filter %+v, k %d): %v", c.f, c.k, err)
			continue
		}
		if got := hitIDs(hits); !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("VectorSearch(filter %+v, k %d) = %v, want %v", c.f, c.k, got, c.want)
		}
	}
}

func testChunkSearch(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	a := file("a", "a.pdf", "a")
	a.MimeType = "application/pdf"
	upsert(t, ctx, s, a,
		store.Chunk{Ordinal: 0, Page: 1, Text: "first chunk of a", Embedding: vec(1)},
		store.Chunk{Ordinal: 1, Page: 2, Text: "second chunk of a", Embedding: vec(0, 1)},
		store.Chunk{Ordinal: 2, Page: 2, Text: "third chunk of a", Embedding: vec(0.6, 0.8)},
	)
	upsert(t, ctx, s, file("b", "b.txt", "b"),
		store.Chunk{Ordinal: 0, Text: "only chunk of b", Embedding: vec(0.8, 0.6)},
	)
	upsert(t, ctx, s, file("c", "c.txt", "c")) // no chunks

	hits, err := s.ChunkSearch(ctx, vec(1), store.Filter{}, 10)
	if err != nil {
		t.Fatalf("ChunkSearch: %v", err)
	}
	type key struct {
		file    string
		ordinal int
	}
	var got []key
	for _, h := range hits {
		got = append(got, key{h.FileID, h.Ordinal})
	}
	want := []key{{"a", 0}, {"b", 0}, {"a", 2}, {"a", 1}}
	if !slices.Equal(got, want) {
		t.Fatalf("ChunkSearch order = %v, want %v", got, want)
	}
	wantScores := []float64{1, 0.8, 0.6, 0}
	for i, h := range hits {
		if !near(h.Score, wantScores[i]) {
			t.Errorf("ChunkSearch score of %v = %v, want %v", got[i], h.Score, wantScores[i])
		}
	}
	if h := hits[0]; h.Text != "first chunk of a" || h.Page != 1 {
		t.Errorf("ChunkSearch top hit = %+v, want text %q page 1", h, "first chunk of a")
	}
	if h := hits[2]; h.Text != "third chunk of a" || h.Page != 2 {
		t.Errorf("ChunkSearch third hit = %+v, want text %q page 2", h, "third chunk of a")
	}

	hits, err = s.ChunkSearch(ctx, vec(0, 1), store.Filter{}, 2)
	if err != nil || len(hits) != 2 || hits[0].Text != "second chunk of a" || hits[1].Text != "third chunk of a" {
		t.Errorf("ChunkSearch(e2, k=2) = %+v, %v; want a#1 then a#2", hits, err)
	}
	hits, err = s.ChunkSearch(ctx, vec(1), store.Filter{IDs: []string{"b", "c"}}, 10)
	if err != nil || len(hits) != 1 || hits[0].FileID != "b" || hits[0].Text != "only chunk of b" {
		t.Errorf("ChunkSearch(IDs b,c) = %+v, %v; want b's chunk only", hits, err)
	}
	hits, err = s.ChunkSearch(ctx, vec(1), store.Filter{MimeTypes: []string{"application/pdf"}}, 10)
	if err != nil || len(hits) != 3 {
		t.Errorf("ChunkSearch(pdf) = %d hits, %v; want a's 3 chunks", len(hits), err)
	}
	for _, h := range hits {
		if h.FileID != "a" {
			t.Errorf("ChunkSearch(pdf) returned a chunk of %s", h.FileID)
		}
	}
	hits, err = s.ChunkSearch(ctx, vec(1), store.Filter{IDs: []string{}}, 10)
	if err != nil || len(hits) != 0 {
		t.Errorf("ChunkSearch(IDs empty) = %+v, %v; want none", hits, err)
	}
	hits, err = s.ChunkSearch(ctx, vec(1), store.Filter{ModifiedAfter: t0.Add(time.Nanosecond * 1000)}, 10)
	if err != nil || len(hits) != 0 {
		t.Errorf("ChunkSearch(after every file) = %+v, %v; want none", hits, err)
	}
}

// testFolderFilter: Filter.Folder keeps the files in that folder or below
// it, compared whole segment by segment, case-sensitively and literally (no
// wildcards), after CleanFolder; it restricts every search and makes a
// query without terms a filter-only listing.
func testFolderFilter(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	paths := map[string]string{ // file ID → Path
		"root":      "",
		"rep":       "Reports",
		"rep-2024":  "Reports/2024",
		"rep-q1":    "Reports/2024/Q1",
		"rep-old":   "Reports-old",
		"rep-dot":   "Reports.x", // '.' sorts just before '/'
		"rep-0":     "Reports0",  // '0' sorts just after '/'
		"rep-lower": "reports",
		"other":     "Other/Reports",
		"a_b":       "a_b",
		"a_b-sub":   "a_b/c",
		"axb":       "axb",
		"axb-sub":   "axb/c",
		"pct":       "100%",
		"pct-x":     "100x",
		"pct-more":  "1000/x",
		"esc":       `x\y`,
		"esc-not":   `x\\y`,
	}
	ids := make([]string, 0, len(paths))
	for id := range paths {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for i, id := range ids {
		f := file(id, id+".txt", "quarterly report "+id)
		f.Path = paths[id]
		f.ModifiedAt = t0.Add(time.Duration(i) * time.Hour) // filter-only order: later IDs first
		f.MimeType = "text/plain"
		if id == "rep-2024" {
			f.MimeType = "application/pdf"
		}
		f.Embedding = vec(1, float32(i)/10)
		upsert(t, ctx, s, f, store.Chunk{Ordinal: 0, Text: "chunk of " + id, Embedding: vec(1, float32(i)/10)})
	}
	// newestFirst orders file IDs as a filter-only listing does.
	newestFirst := func(want []string) []string {
		out := slices.Clone(want)
		slices.Sort(out)
		slices.Reverse(out)
		return out
	}
	// check runs every search with the filter and wants exactly these files.
	check := func(f store.Filter, want ...string) {
		t.Helper()
		wantKeyword(t, ctx, s, store.KeywordQuery{Terms: []string{"report"}, Filter: f}, want...)
		wantKeyword(t, ctx, s, store.KeywordQuery{Terms: []string{"quarterly", "nothing"}, Match: store.MatchAny, Filter: f}, want...)

		res := keyword(t, ctx, s, store.KeywordQuery{Filter: f})
		if got := hitIDs(res.Hits); !slices.Equal(got, newestFirst(want)) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("KeywordSearch(no terms, filter %+v) = %v, want %v in this order", f, got, newestFirst(want))
		}
		if res.Total != len(want) {
			t.Errorf("KeywordSearch(no terms, filter %+v).Total = %d, want %d", f, res.Total, len(want))
		}

		hits, err := s.VectorSearch(ctx, vec(1), f, 100)
		if err != nil {
			t.Errorf("VectorSearch(filter %+v): %v", f, err)
		} else if got := sorted(hitIDs(hits)); !slices.Equal(got, sorted(want)) {
			t.Errorf("VectorSearch(filter %+v) = %v, want %v", f, got, sorted(want))
		}

		chunks, err := s.ChunkSearch(ctx, vec(1), f, 100)
		if err != nil {
			t.Errorf("ChunkSearch(filter %+v): %v", f, err)
		} else {
			var got []string
			for _, h := range chunks {
				got = append(got, h.FileID)
			}
			if got := sorted(got); !slices.Equal(got, sorted(want)) {
				t.Errorf("ChunkSearch(filter %+v) = files %v, want %v", f, got, sorted(want))
			}
		}
	}

	// Restricted to IDs first: the SQLite store then filters vectors in SQL
	// (no vector cache yet); the unrestricted searches below fill and use the
	// cache.
	check(store.Filter{Folder: "Reports", IDs: []string{"rep-2024", "rep-old", "root", "unknown"}}, "rep-2024")
	check(store.Filter{Folder: "Reports"}, "rep", "rep-2024", "rep-q1")
	check(store.Filter{Folder: "/Reports/"}, "rep", "rep-2024", "rep-q1")
	check(store.Filter{Folder: "/Reports/./2024//"}, "rep-2024", "rep-q1")
	check(store.Filter{Folder: "Reports/2024/Q1"}, "rep-q1")
	check(store.Filter{Folder: "Reports", MimeTypes: []string{"text/plain"}}, "rep", "rep-q1")
	check(store.Filter{Folder: "Reports", ModifiedBefore: t0.Add(time.Duration(slices.Index(ids, "rep-2024")) * time.Hour)}, "rep")
	check(store.Filter{Folder: "Report"})
	check(store.Filter{Folder: "reports"}, "rep-lower")
	check(store.Filter{Folder: "Other"}, "other")
	check(store.Filter{Folder: "a_b"}, "a_b", "a_b-sub")
	check(store.Filter{Folder: "100%"}, "pct")
	check(store.Filter{Folder: "10%"})
	check(store.Filter{Folder: `x\y`}, "esc")
	check(store.Filter{Folder: "nowhere"})
	check(store.Filter{Folder: "Reports", IDs: []string{}})

	// A folder that cleans to "" is no restriction: terms find every file,
	// and a query without terms is not a filter-only listing.
	for _, folder := range []string{"", "/", "/./"} {
		f := store.Filter{Folder: folder}
		wantKeyword(t, ctx, s, store.KeywordQuery{Terms: []string{"report"}, Filter: f}, ids...)
		wantKeyword(t, ctx, s, store.KeywordQuery{Filter: f})
		hits, err := s.VectorSearch(ctx, vec(1), f, 100)
		if err != nil || len(hits) != len(ids) {
			t.Errorf("VectorSearch(folder %q) = %d hits, %v; want all %d files", folder, len(hits), err, len(ids))
		}
	}

	// A write invalidates the SQLite vector cache: a moved file is found in
	// its new folder only.
	moved := file("rep-old", "rep-old.txt", "quarterly report rep-old")
	moved.Path = "Reports/old"
	moved.ModifiedAt = t0.Add(time.Duration(slices.Index(ids, "rep-old")) * time.Hour)
	upsert(t, ctx, s, moved, store.Chunk{Ordinal: 0, Text: "chunk of rep-old", Embedding: vec(1)})
	check(store.Filter{Folder: "Reports"}, "rep", "rep-2024", "rep-q1", "rep-old")
	check(store.Filter{Folder: "Reports-old"})
}

func testSyncState(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx := context.Background()
	s := newStore(t)
	st, err := s.SyncState(ctx, "drive")
	if err != nil {
		t.Fatalf("SyncState on a fresh store: %v", err)
	}
	if st != (store.SyncState{Source: "drive"}) {
		t.Errorf("SyncState on a fresh store = %+v, want the zero value with Source set", st)
	}
	mod := time.Date(2024, 6, 1, 10, 20, 30, 123456000, jst)
	if err := s.SetSyncState(ctx, store.SyncState{Source: "drive", ModifiedAt: mod, Fingerprint: "fp-1"}); err != nil {
		t.Fatalf("SetSyncState: %v", err)
	}
	st, err = s.SyncState(ctx, "drive")
	if err != nil {
		t.Fatalf("SyncState: %v", err)
	}
	sameInstantUTC(t, "SyncState.ModifiedAt", st.ModifiedAt, mod)
	if st.Fingerprint != "fp-1" {
		t.Errorf("SyncState.Fingerprint = %q, want fp-1", st.Fingerprint)
	}
	if st.UpdatedAt.IsZero() {
		t.Errorf("SyncState.UpdatedAt is zero after SetSyncState with a zero UpdatedAt; want the time it was stored")
	}

	mod2 := time.Date(2025, 1, 2, 3, 4, 5, 999999000, est)
	upd := time.Date(2025, 1, 3, 0, 0, 0, 654321000, time.UTC)
	if err := s.SetSyncState(ctx, store.SyncState{Source: "drive", ModifiedAt: mod2, Fingerprint: "fp-2", UpdatedAt: upd}); err != nil {
		t.Fatalf("SetSyncState (overwrite): %v", err)
	}
	st, err = s.SyncState(ctx, "drive")
	if err != nil {
		t.Fatalf("SyncState: %v", err)
	}
	sameInstantUTC(t, "SyncState.ModifiedAt after overwrite", st.ModifiedAt, mod2)
	sameInstantUTC(t, "SyncState.UpdatedAt", st.UpdatedAt, upd)
	if st.Fingerprint != "fp-2" {
		t.Errorf("SyncState.Fingerprint = %q, want fp-2", st.Fingerprint)
	}

	// A local file's modification time has nanoseconds. The checkpoint read
	// back must not be earlier than the one written, or the next crawl
	// lists the newest file again (a back end keeping microseconds rounds
	// up, by less than a microsecond).
	nano := time.Date(2025, 2, 3, 4, 5, 6, 123456789, time.UTC)
	if err := s.SetSyncState(ctx, store.SyncState{Source: "drive", ModifiedAt: nano, Fingerprint: "fp-3"}); err != nil {
		t.Fatalf("SetSyncState (nanoseconds): %v", err)
	}
	if st, err = s.SyncState(ctx, "drive"); err != nil {
		t.Fatalf("SyncState: %v", err)
	}
	if st.ModifiedAt.Before(nano) || st.ModifiedAt.Sub(nano) >= time.Microsecond {
		t.Errorf("SyncState.ModifiedAt = %s after writing %s: want no earlier, and less than 1µs later",
			st.ModifiedAt.UTC().Format(time.RFC3339Nano), nano.Format(time.RFC3339Nano))
	}
}

func testEmbeddingSpace(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx := context.Background()
	s := newStore(t)
	if err := s.EnsureEmbeddingSpace(ctx, Space); err != nil {
		t.Fatalf("first EnsureEmbeddingSpace: %v", err)
	}
	if err := s.EnsureEmbeddingSpace(ctx, Space); err != nil {
		t.Fatalf("repeated EnsureEmbeddingSpace with the same space: %v", err)
	}
	for _, other := range []store.EmbeddingSpace{
		{Model: "another-model", Dim: Dim},
		{Model: Space.Model, Dim: Dim * 2},
	} {
		err := s.EnsureEmbeddingSpace(ctx, other)
		if !errors.Is(err, store.ErrEmbeddingMismatch) {
			t.Errorf("EnsureEmbeddingSpace(%+v) after %+v = %v, want an error wrapping ErrEmbeddingMismatch", other, Space, err)
			continue
		}
		if !strings.Contains(err.Error(), "gds crawl --full") {
			t.Errorf("mismatch error %q does not tell the user to run `gds crawl --full`", err)
		}
	}

	bad := file("bad", "bad.txt", "wrongdim")
	bad.Embedding = []float32{1, 0, 0}
	if err := s.UpsertFile(ctx, bad, nil); err == nil {
		t.Errorf("UpsertFile with a 3-dimensional embedding in a %d-dimensional index succeeded", Dim)
	}
	badChunk := file("badchunk", "badchunk.txt", "wrongdim")
	if err := s.UpsertFile(ctx, badChunk, []store.Chunk{
		{Ordinal: 0, Text: "ok", Embedding: vec(1)},
		{Ordinal: 1, Text: "bad", Embedding: []float32{1, 0, 0, 0, 0}},
	}); err == nil {
		t.Errorf("UpsertFile with a 5-dimensional chunk embedding in a %d-dimensional index succeeded", Dim)
	}
	fs, err := s.GetFiles(ctx, []string{"bad", "badchunk"})
	if err != nil || len(fs) != 0 {
		t.Errorf("GetFiles after rejected upserts = %v, %v; want nothing stored", fileIDs(fs), err)
	}
	wantKeyword(t, ctx, s, anyOf("wrongdim"))
	st, err := s.Stats(ctx)
	if err != nil || st.Space != Space || st.Chunks != 0 {
		t.Errorf("Stats after rejected upserts = %+v, %v; want space %+v and no chunks", st, err, Space)
	}

	if err := s.Reset(ctx); err != nil {
		t.Fatalf("Reset: %v", err)
	}
	other := store.EmbeddingSpace{Model: "another-model", Dim: 3}
	if err := s.EnsureEmbeddingSpace(ctx, other); err != nil {
		t.Fatalf("EnsureEmbeddingSpace(%+v) after Reset: %v", other, err)
	}
	bad.Embedding = []float32{1, 0, 0}
	if err := s.UpsertFile(ctx, bad, nil); err != nil {
		t.Errorf("UpsertFile with a 3-dimensional embedding after re-recording dim 3: %v", err)
	}
}

func testReset(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	upsert(t, ctx, s, file("a", "a.txt", "resettable"), store.Chunk{Ordinal: 0, Text: "c", Embedding: vec(1)})
	if err := s.SetSyncState(ctx, store.SyncState{Source: "drive", ModifiedAt: t0, Fingerprint: "fp"}); err != nil {
		t.Fatalf("SetSyncState: %v", err)
	}
	if err := s.Reset(ctx); err != nil {
		t.Fatalf("Reset: %v", err)
	}
	fs, err := s.GetFiles(ctx, []string{"a"})
	if err != nil || len(fs) != 0 {
		t.Errorf("GetFiles after Reset = %v, %v; want none", fileIDs(fs), err)
	}
	wantKeyword(t, ctx, s, anyOf("resettable"))
	ch, err := s.ChunkSearch(ctx, vec(1), store.Filter{}, 5)
	if err != nil || len(ch) != 0 {
		t.Errorf("ChunkSearch after Reset = %+v, %v; want none", ch, err)
	}
	sy, err := s.SyncState(ctx, "drive")
	if err != nil || !sy.ModifiedAt.IsZero() || sy.Fingerprint != "" {
		t.Errorf("SyncState after Reset = %+v, %v; want zero", sy, err)
	}
	st, err := s.Stats(ctx)
	if err != nil || st.Files != 0 || st.Chunks != 0 || st.Space != (store.EmbeddingSpace{}) || !st.Sync.ModifiedAt.IsZero() {
		t.Errorf("Stats after Reset = %+v, %v; want an empty index", st, err)
	}
	// The store is usable again.
	if err := s.EnsureEmbeddingSpace(ctx, Space); err != nil {
		t.Fatalf("EnsureEmbeddingSpace after Reset: %v", err)
	}
	upsert(t, ctx, s, file("b", "b.txt", "resettable"))
	wantKeyword(t, ctx, s, anyOf("resettable"), "b")
}

func testStats(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx := context.Background()
	s := newStore(t)
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatalf("Stats on a fresh store: %v", err)
	}
	if st.Backend == "" || st.SchemaVersion <= 0 || st.Files != 0 || st.Chunks != 0 ||
		st.Space != (store.EmbeddingSpace{}) || !st.Sync.ModifiedAt.IsZero() {
		t.Errorf("Stats on a fresh store = %+v; want a backend name, a schema version and nothing indexed", st)
	}
	if err := s.EnsureEmbeddingSpace(ctx, Space); err != nil {
		t.Fatalf("EnsureEmbeddingSpace: %v", err)
	}
	upsert(t, ctx, s, file("a", "a", "a"), store.Chunk{Ordinal: 0, Text: "0", Embedding: vec(1)}, store.Chunk{Ordinal: 1, Text: "1", Embedding: vec(1)})
	upsert(t, ctx, s, file("b", "b", "b"), store.Chunk{Ordinal: 0, Text: "0", Embedding: vec(1)})
	upsert(t, ctx, s, file("c", "c", "c"))
	mod := time.Date(2024, 2, 3, 4, 5, 6, 7000, time.UTC)
	if err := s.SetSyncState(ctx, store.SyncState{Source: "drive", ModifiedAt: mod, Fingerprint: "fp"}); err != nil {
		t.Fatalf("SetSyncState: %v", err)
	}
	st, err = s.Stats(ctx)
	if err != nil {
		t.Fatalf("Stats: %v", err)
	}
	if st.Files != 3 || st.Chunks != 3 || st.Space != Space || st.Sync.Fingerprint != "fp" {
		t.Errorf("Stats = %+v; want 3 files, 3 chunks, space %+v, fingerprint fp", st, Space)
	}
	sameInstantUTC(t, "Stats.Sync.ModifiedAt", st.Sync.ModifiedAt, mod)
}

func testTimeZones(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	mod := time.Date(2024, 5, 1, 9, 0, 0, 123456000, jst) // 2024-05-01T00:00:00.123456Z
	f := file("tz", "tz.txt", "timezone")
	f.ModifiedAt = mod
	f.IndexedAt = time.Date(2024, 5, 1, 12, 0, 0, 500000000, est)
	upsert(t, ctx, s, f)
	g := getOne(t, ctx, s, "tz")
	sameInstantUTC(t, "ModifiedAt", g.ModifiedAt, mod)
	sameInstantUTC(t, "IndexedAt", g.IndexedAt, f.IndexedAt)

	instant := mod.In(est)
	cases := []struct {
		f    store.Filter
		want []string
	}{
		{store.Filter{ModifiedAfter: instant}, []string{"tz"}},
		{store.Filter{ModifiedAfter: instant.Add(time.Microsecond)}, nil},
		{store.Filter{ModifiedBefore: instant.In(time.UTC)}, nil},
		{store.Filter{ModifiedBefore: instant.Add(time.Microsecond)}, []string{"tz"}},
		{store.Filter{ModifiedAfter: time.Date(2024, 5, 1, 0, 0, 0, 0, jst), ModifiedBefore: time.Date(2024, 5, 1, 9, 0, 1, 0, jst)}, []string{"tz"}},
		{store.Filter{ModifiedBefore: time.Date(2024, 5, 1, 9, 0, 0, 0, jst)}, nil},
	}
	for _, c := range cases {
		wantKeyword(t, ctx, s, store.KeywordQuery{Terms: []string{"timezone"}, Filter: c.f}, c.want...)
		hits, err := s.VectorSearch(ctx, vec(1), c.f, 5)
		if err != nil {
			t.Errorf("VectorSearch(%+v): %v", c.f, err)
		} else if got := hitIDs(hits); len(got) != len(c.want) {
			t.Errorf("VectorSearch(filter %+v) = %v, want %v", c.f, got, c.want)
		}
	}
}

func testConcurrency(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	const (
		writers    = 3
		iterations = 12
		readers    = 3
		files      = 4
	)
	// Version v of a file has v%4+1 chunks whose texts all carry v.
	write := func(id string, v int) error {
		f := file(id, id+".txt", fmt.Sprintf("shared concurrent version%d", v))
		f.Summary = fmt.Sprintf("version %d", v)
		var chunks []store.Chunk
		for i := range v%4 + 1 {
			chunks = append(chunks, store.Chunk{Ordinal: i, Text: fmt.Sprintf("%s v%d p%d", id, v, i), Embedding: vec(1, float32(i))})
		}
		return s.UpsertFile(ctx, f, chunks)
	}
	for i := range files {
		if err := write(fmt.Sprintf("c%d", i), 0); err != nil {
			t.Fatalf("initial UpsertFile: %v", err)
		}
	}

	var (
		wg   sync.WaitGroup
		done = make(chan struct{})
		errc = make(chan error, 64)
	)
	report := func(err error) {
		select {
		case errc <- err:
		default:
		}
	}
	var writersWG sync.WaitGroup
	for w := range writers {
		writersWG.Add(1)
		go func() {
			defer writersWG.Done()
			for it := range iterations {
				id := fmt.Sprintf("c%d", (w+it)%files)
				v := w*1000 + it + 1
				if it%5 == 4 {
					if err := s.DeleteFiles(ctx, []string{id}); err != nil {
						report(fmt.Errorf("DeleteFiles(%s): %w", id, err))
					}
				}
				if err := write(id, v); err != nil {
					report(fmt.Errorf("UpsertFile(%s v%d): %w", id, v, err))
				}
			}
		}()
	}
	for r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				id := fmt.Sprintf("c%d", (r+i)%files)
				hits, err := s.ChunkSearch(ctx, vec(1), store.Filter{IDs: []string{id}}, 100)
				if err != nil {
					report(fmt.Errorf("ChunkSearch: %w", err))
					continue
				}
				if err := checkChunkSet(id, hits); err != nil {
					report(err)
				}
				res, err := s.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{"shared", "concurrent"}, Match: store.MatchAll})
				if err != nil {
					report(fmt.Errorf("KeywordSearch: %w", err))
					continue
				}
				if _, err := s.GetFiles(ctx, hitIDs(res.Hits)); err != nil {
					report(fmt.Errorf("GetFiles: %w", err))
				}
				if _, err := s.VectorSearch(ctx, vec(1), store.Filter{}, 3); err != nil {
					report(fmt.Errorf("VectorSearch: %w", err))
				}
			}
		}()
	}
	writersWG.Wait()
	close(done)
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatalf("Stats: %v", err)
	}
	if st.Files != files {
		t.Errorf("after concurrent writes Stats.Files = %d, want %d", st.Files, files)
	}
	for i := range files {
		id := fmt.Sprintf("c%d", i)
		hits, err := s.ChunkSearch(ctx, vec(1), store.Filter{IDs: []string{id}}, 100)
		if err != nil {
			t.Fatalf("ChunkSearch: %v", err)
		}
		if len(hits) == 0 {
			t.Errorf("file %s has no chunks after the concurrent writes", id)
		} else if err := checkChunkSet(id, hits); err != nil {
			t.Error(err)
		}
	}
}

// checkChunkSet verifies that the chunks seen for one file are exactly one
// complete version (or none, when the file was deleted at that moment).
func checkChunkSet(id string, hits []store.ChunkHit) error {
	if len(hits) == 0 {
		return nil
	}
	version := -1
	seen := map[int]bool{}
	for _, h := range hits {
		var gotID string
		var v, p int
		if _, err := fmt.Sscanf(h.Text, "%s v%d p%d", &gotID, &v, &p); err != nil || gotID != id || h.FileID != id {
			return fmt.Errorf("chunk %q of file %s does not belong to it", h.Text, h.FileID)
		}
		if version == -1 {
			version = v
		}
		if v != version {
			return fmt.Errorf("torn read: file %s shows chunks of versions %d and %d at once", id, version, v)
		}
		if p != h.Ordinal || seen[p] {
			return fmt.Errorf("file %s version %d: chunk %q has ordinal %d", id, v, h.Text, h.Ordinal)
		}
		seen[p] = true
	}
	if want := version%4 + 1; len(hits) != want {
		return fmt.Errorf("torn read: file %s version %d shows %d of its %d chunks", id, version, len(hits), want)
	}
	return nil
}

// Every source has its own checkpoint: writing one leaves the others, and
// SyncStates lists them all sorted by source key; the page token round-trips.
func testSyncStatePerSource(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx := context.Background()
	s := newStore(t)
	all, err := s.SyncStates(ctx)
	if err != nil || all == nil || len(all) != 0 {
		t.Fatalf("SyncStates on a fresh store = %#v, %v; want empty non-nil", all, err)
	}
	if err := s.SetSyncState(ctx, store.SyncState{ModifiedAt: t0}); err == nil {
		t.Errorf("SetSyncState without a source key succeeded; want an error")
	}
	states := []store.SyncState{
		{Source: "local:/b", ModifiedAt: t0.Add(2 * time.Hour), Fingerprint: "fp-b", UpdatedAt: t0.Add(10 * time.Hour)},
		{Source: "drive:F1", ModifiedAt: t0.Add(time.Hour), Fingerprint: "fp-f1", PageToken: "token-1", UpdatedAt: t0.Add(30 * time.Hour)},
		{Source: "drive", ModifiedAt: t0, Fingerprint: "fp-d", UpdatedAt: t0.Add(20 * time.Hour)},
		{Source: "local:/a", ModifiedAt: t0.Add(3 * time.Hour), Fingerprint: "fp-a", UpdatedAt: t0.Add(5 * time.Hour)},
	}
	for _, st := range states {
		if err := s.SetSyncState(ctx, st); err != nil {
			t.Fatalf("SetSyncState(%s): %v", st.Source, err)
		}
	}
	// Overwrite one source: the others keep theirs.
	next := store.SyncState{Source: "drive:F1", ModifiedAt: t0.Add(4 * time.Hour), Fingerprint: "fp-f1", PageToken: "token-2", UpdatedAt: t0.Add(40 * time.Hour)}
	if err := s.SetSyncState(ctx, next); err != nil {
		t.Fatalf("SetSyncState(drive:F1) again: %v", err)
	}
	states[1] = next
	want := map[string]store.SyncState{}
	for _, st := range states {
		want[st.Source] = st
	}
	check := func(what string, got store.SyncState) {
		t.Helper()
		w := want[got.Source]
		if got.Fingerprint != w.Fingerprint || got.PageToken != w.PageToken {
			t.Errorf("%s %s = fingerprint %q, token %q; want %q, %q", what, got.Source, got.Fingerprint, got.PageToken, w.Fingerprint, w.PageToken)
		}
		sameInstantUTC(t, what+" "+got.Source+" ModifiedAt", got.ModifiedAt, w.ModifiedAt)
		sameInstantUTC(t, what+" "+got.Source+" UpdatedAt", got.UpdatedAt, w.UpdatedAt)
	}
	for _, key := range []string{"drive", "drive:F1", "local:/a", "local:/b"} {
		got, err := s.SyncState(ctx, key)
		if err != nil {
			t.Fatalf("SyncState(%s): %v", key, err)
		}
		if got.Source != key {
			t.Errorf("SyncState(%s).Source = %q", key, got.Source)
		}
		check("SyncState", got)
	}
	if got, err := s.SyncState(ctx, "local:/c"); err != nil || got != (store.SyncState{Source: "local:/c"}) {
		t.Errorf("SyncState of a source never crawled = %+v, %v; want the zero value with Source set", got, err)
	}
	all, err = s.SyncStates(ctx)
	if err != nil {
		t.Fatalf("SyncStates: %v", err)
	}
	var keys []string
	for _, st := range all {
		keys = append(keys, st.Source)
		check("SyncStates", st)
	}
	if wantKeys := []string{"drive", "drive:F1", "local:/a", "local:/b"}; !slices.Equal(keys, wantKeys) {
		t.Errorf("SyncStates sources = %q, want %q", keys, wantKeys)
	}
	stats, err := s.Stats(ctx)
	if err != nil {
		t.Fatalf("Stats: %v", err)
	}
	if stats.Sync.Source != "drive:F1" || len(stats.Syncs) != 4 {
		t.Errorf("Stats.Sync = %+v with %d states; want the last committed (drive:F1) of 4", stats.Sync, len(stats.Syncs))
	}
	if err := s.Reset(ctx); err != nil {
		t.Fatalf("Reset: %v", err)
	}
	if all, err = s.SyncStates(ctx); err != nil || len(all) != 0 {
		t.Errorf("SyncStates after Reset = %+v, %v; want none", all, err)
	}
}

// SourceIDs lists one source's files only, sorted by bytes; uploads and
// other sources are left out. ClaimFiles moves a legacy file to a source
// (a configured source re-claims it by ID), and only from the given source.
func testSourceIDs(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	got, err := s.SourceIDs(ctx, "local:/a")
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("SourceIDs on an empty store = %#v, %v; want empty non-nil", got, err)
	}
	put := func(id, source string) {
		f := file(id, id+".txt", "words")
		f.Source = source
		upsert(t, ctx, s, f)
	}
	put("b", "local:/a")
	put("a-1", "local:/a")
	put("C", "local:/a")
	put("x", "local:/b")
	put("d", "drive:F1")
	put("old", store.SourceLegacyLocal)
	put("up", store.SourceUpload)
	for source, want := range map[string][]string{
		"local:/a":              {"C", "a-1", "b"},
		"local:/b":              {"x"},
		"drive:F1":              {"d"},
		store.SourceLegacyLocal: {"old"},
		"local:/":               {},
	} {
		got, err := s.SourceIDs(ctx, source)
		if err != nil {
			t.Fatalf("SourceIDs(%s): %v", source, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("SourceIDs(%s) = %q, want %q", source, got, want)
		}
	}
	if n, err := s.ClaimFiles(ctx, store.SourceLegacyLocal, "local:/a", []string{"old", "x", "unknown"}); err != nil || n != 1 {
		t.Errorf("ClaimFiles(local → local:/a, old x unknown) = %d, %v; want 1 (x belongs to local:/b)", n, err)
	}
	if n, err := s.ClaimFiles(ctx, store.SourceLegacyLocal, "local:/a", nil); err != nil || n != 0 {
		t.Errorf("ClaimFiles with no IDs = %d, %v; want 0", n, err)
	}
	if got, _ := s.SourceIDs(ctx, "local:/a"); !slices.Equal(got, []string{"C", "a-1", "b", "old"}) {
		t.Errorf("SourceIDs(local:/a) after re-claiming old = %q", got)
	}
	if got, _ := s.SourceIDs(ctx, store.SourceLegacyLocal); len(got) != 0 {
		t.Errorf("SourceIDs(local) after re-claiming old = %q, want none", got)
	}
	wantKeyword(t, ctx, s, anyOf("words"), "C", "a-1", "b", "d", "old", "up", "x")
	put("x", "local:/c")
	if got, _ := s.SourceIDs(ctx, "local:/c"); !slices.Equal(got, []string{"x"}) {
		t.Errorf("SourceIDs(local:/c) after re-upserting x there = %q", got)
	}
	fs, err := s.GetFiles(ctx, []string{"old", "x"})
	if err != nil || len(fs) != 2 || fs[0].Source != "local:/a" || fs[1].Source != "local:/c" {
		t.Errorf("GetFiles(old, x) sources = %+v, %v; want local:/a, local:/c", fs, err)
	}
	ids, err := s.IndexedIDs(ctx)
	if err != nil || slices.Contains(ids, "up") || len(ids) != 6 {
		t.Errorf("IndexedIDs = %q, %v; want the 6 crawled files, not the upload", ids, err)
	}
}

// Filter.Sources keeps the files of the given source keys; a bare kind
// keeps every source of that kind, and nothing that merely starts with the
// same letters.
func testSourceFilter(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	sources := map[string]string{ // file ID → Source
		"a1":  "local:/a",
		"a2":  "local:/a",
		"ab":  "local:/a/b", // a nested folder is another source
		"a-2": "local:/a2",
		"d":   "drive",
		"f1":  "drive:F1",
		"dx":  "drivex:Z",
		"up":  store.SourceUpload,
	}
	ids := make([]string, 0, len(sources))
	for id := range sources {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for i, id := range ids {
		f := file(id, id+".txt", "quarterly report "+id)
		f.Source = sources[id]
		f.Path = "Reports"
		f.Embedding = vec(1, float32(i)/10)
		upsert(t, ctx, s, f, store.Chunk{Ordinal: 0, Text: "quarterly chunk of " + id, Embedding: vec(1, float32(i)/10)})
	}
	for _, tc := range []struct {
		sources []string
		want    []string
	}{
		{nil, ids},
		{[]string{}, ids},
		{[]string{"local:/a"}, []string{"a1", "a2"}},
		{[]string{"local:/a", "drive:F1"}, []string{"a1", "a2", "f1"}},
		{[]string{"drive"}, []string{"d", "f1"}},
		{[]string{"local"}, []string{"a1", "a2", "ab", "a-2"}},
		{[]string{"drive:F2"}, nil},
		{[]string{"local:/"}, nil},
	} {
		f := store.Filter{Sources: tc.sources}
		wantKeyword(t, ctx, s, store.KeywordQuery{Terms: []string{"report"}, Filter: f}, tc.want...)
		hits, err := s.VectorSearch(ctx, vec(1), f, 100)
		if err != nil {
			t.Fatalf("VectorSearch(sources %q): %v", tc.sources, err)
		}
		if got := sorted(hitIDs(hits)); !slices.Equal(got, sorted(tc.want)) {
			t.Errorf("VectorSearch(sources %q) = %v, want %v", tc.sources, got, sorted(tc.want))
		}
		for name, search := range map[string]func() ([]store.ChunkHit, error){
			"ChunkSearch": func() ([]store.ChunkHit, error) { return s.ChunkSearch(ctx, vec(1), f, 100) },
			"ChunkTextSearch": func() ([]store.ChunkHit, error) {
				return s.ChunkTextSearch(ctx, store.KeywordQuery{Terms: []string{"quarterly"}, Filter: f})
			},
		} {
			chunks, err := search()
			if err != nil {
				t.Fatalf("%s(sources %q): %v", name, tc.sources, err)
			}
			var got []string
			for _, h := range chunks {
				got = append(got, h.FileID)
			}
			if got := sorted(got); !slices.Equal(got, sorted(tc.want)) {
				t.Errorf("%s(sources %q) = files %v, want %v", name, tc.sources, got, sorted(tc.want))
			}
		}
		// With a folder, a query without terms lists the folder's files of
		// those sources.
		res := keyword(t, ctx, s, store.KeywordQuery{Filter: store.Filter{Folder: "Reports", Sources: tc.sources}})
		if got := sorted(hitIDs(res.Hits)); !slices.Equal(got, sorted(tc.want)) {
			t.Errorf("KeywordSearch(folder Reports, sources %q, no terms) = %v, want %v", tc.sources, got, sorted(tc.want))
		}
		for _, id := range ids {
			if got, want := store.InSources(sources[id], tc.sources), slices.Contains(tc.want, id); got != want {
				t.Errorf("InSources(%q, %q) = %v, want %v", sources[id], tc.sources, got, want)
			}
		}
	}
}
