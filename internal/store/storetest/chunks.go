package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
)

// Chunk retrieval: full text over chunks, a file's chunks, the paged scan of
// every chunk, hybrid retrieval, and deletion reaching all of them.

type chunkKey struct {
	file    string
	ordinal int
}

func (k chunkKey) String() string { return fmt.Sprintf("%s#%d", k.file, k.ordinal) }

func chunkKeys(hits []store.ChunkHit) []chunkKey {
	out := []chunkKey{}
	for _, h := range hits {
		out = append(out, chunkKey{h.FileID, h.Ordinal})
	}
	return out
}

func sortedKeys(ks []chunkKey) []chunkKey {
	out := slices.Clone(ks)
	slices.SortFunc(out, func(a, b chunkKey) int {
		if a.file != b.file {
			if a.file < b.file {
				return -1
			}
			return 1
		}
		return a.ordinal - b.ordinal
	})
	return out
}

func chunkText(t *testing.T, ctx context.Context, s store.Store, q store.KeywordQuery) []store.ChunkHit {
	t.Helper()
	hits, err := s.ChunkTextSearch(ctx, q)
	if err != nil {
		t.Fatalf("ChunkTextSearch(%q): %v", q.Terms, err)
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score {
			t.Errorf("ChunkTextSearch(%q): not ranked by descending score: %+v", q.Terms, hits)
			break
		}
	}
	return hits
}

// wantChunkText checks the set of matching chunks (order ignored).
func wantChunkText(t *testing.T, ctx context.Context, s store.Store, q store.KeywordQuery, want ...chunkKey) {
	t.Helper()
	got := sortedKeys(chunkKeys(chunkText(t, ctx, s, q)))
	if want == nil {
		want = []chunkKey{}
	}
	if !slices.Equal(got, sortedKeys(want)) {
		t.Errorf("ChunkTextSearch(%q, match %d, filter %+v) = %v, want %v", q.Terms, q.Match, q.Filter, got, sortedKeys(want))
	}
}

func chunk(ord, page int, text string, v ...float32) store.Chunk {
	return store.Chunk{Ordinal: ord, Page: page, Text: text, Embedding: vec(v...)}
}

// chunkCorpus writes three files with chunks in two folders.
func chunkCorpus(t *testing.T, ctx context.Context, s store.Store) {
	t.Helper()
	a := file("a", "contract.pdf", "")
	a.MimeType, a.Path = "application/pdf", "Legal"
	upsert(t, ctx, s, a,
		chunk(0, 1, "The contract renewal date is 1 April 2025.", 1),
		chunk(1, 2, "Payment terms: thirty days after the invoice.", 0, 1),
		chunk(2, 2, "本契約の更新日は2025年4月1日とする。", 0.6, 0.8),
	)
	b := file("b", "notes.txt", "")
	b.Path = "Legal/Drafts"
	upsert(t, ctx, s, b,
		chunk(0, 0, "Draft notes about renewal and renewal fees.", 0.8, 0.6),
		chunk(1, 0, "議事録：契約更新について協議した。", 0, 0, 1),
	)
	c := file("c", "recipes.txt", "")
	c.Path = "Home"
	upsert(t, ctx, s, c, chunk(0, 0, "Bake the bread for thirty minutes.", 0, 0, 0, 1))
}

func testChunkTextSearch(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	chunkCorpus(t, ctx, s)

	wantChunkText(t, ctx, s, anyOf("renewal"), chunkKey{"a", 0}, chunkKey{"b", 0})
	wantChunkText(t, ctx, s, anyOf("thirty"), chunkKey{"a", 1}, chunkKey{"c", 0})
	wantChunkText(t, ctx, s, all("thirty", "invoice"), chunkKey{"a", 1})
	wantChunkText(t, ctx, s, anyOf("renewal", "bread"), chunkKey{"a", 0}, chunkKey{"b", 0}, chunkKey{"c", 0})
	// A term is a phrase: words in that order, adjacent.
	wantChunkText(t, ctx, s, anyOf("payment terms"), chunkKey{"a", 1})
	wantChunkText(t, ctx, s, anyOf("terms payment"))
	// Japanese: substrings of compounds match through bigrams, in both chunks.
	wantChunkText(t, ctx, s, anyOf("契約"), chunkKey{"a", 2}, chunkKey{"b", 1})
	wantChunkText(t, ctx, s, anyOf("更新日"), chunkKey{"a", 2})
	wantChunkText(t, ctx, s, anyOf("議事録"), chunkKey{"b", 1})
	wantChunkText(t, ctx, s, anyOf("契約更新"), chunkKey{"b", 1})
	// Normalisation (case, full width) as in KeywordSearch.
	wantChunkText(t, ctx, s, anyOf("ＲＥＮＥＷＡＬ"), chunkKey{"a", 0}, chunkKey{"b", 0})
	// Not in any chunk (only in a file name) or no usable term: nothing.
	wantChunkText(t, ctx, s, anyOf("recipes"))
	wantChunkText(t, ctx, s, anyOf("%", `"`))
	wantChunkText(t, ctx, s, store.KeywordQuery{Filter: store.Filter{Folder: "Legal"}})
	// User text is never query syntax.
	for _, term := range []string{`renewal OR bread`, `NOT bread`, `renew*`, `"renewal`, `body:renewal`, `renewal & bread`, `'; DELETE FROM drive_file_chunk; --`} {
		got := chunkKeys(chunkText(t, ctx, s, anyOf(term)))
		for _, k := range got {
			if k.file == "c" {
				t.Errorf("ChunkTextSearch(%q) found %v: the term was read as syntax", term, k)
			}
		}
	}

	// Filters restrict to the chunks of the files passing them.
	q := anyOf("renewal", "thirty", "契約")
	q.Filter = store.Filter{Folder: "Legal"}
	wantChunkText(t, ctx, s, q, chunkKey{"a", 0}, chunkKey{"a", 1}, chunkKey{"a", 2}, chunkKey{"b", 0}, chunkKey{"b", 1})
	q.Filter = store.Filter{Folder: "Legal/Drafts"}
	wantChunkText(t, ctx, s, q, chunkKey{"b", 0}, chunkKey{"b", 1})
	q.Filter = store.Filter{IDs: []string{"c", "unknown"}}
	wantChunkText(t, ctx, s, q, chunkKey{"c", 0})
	q.Filter = store.Filter{IDs: []string{}}
	wantChunkText(t, ctx, s, q)
	q.Filter = store.Filter{MimeTypes: []string{"application/pdf"}}
	wantChunkText(t, ctx, s, q, chunkKey{"a", 0}, chunkKey{"a", 1}, chunkKey{"a", 2})
	q.Filter = store.Filter{ModifiedAfter: t0.Add(time.Hour)}
	wantChunkText(t, ctx, s, q)

	// Ranking: the chunk saying "renewal" twice ranks first; the limit keeps the best.
	hits := chunkText(t, ctx, s, store.KeywordQuery{Terms: []string{"renewal"}, Match: store.MatchAny, Limit: 1})
	if len(hits) != 1 || hits[0].FileID != "b" || hits[0].Ordinal != 0 {
		t.Errorf("ChunkTextSearch(renewal, limit 1) = %v, want [b#0]", chunkKeys(hits))
	}
	// Hits carry the text and page.
	hits = chunkText(t, ctx, s, anyOf("invoice"))
	if len(hits) != 1 || hits[0].Text != "Payment terms: thirty days after the invoice." || hits[0].Page != 2 || hits[0].Score <= 0 {
		t.Errorf("ChunkTextSearch(invoice) = %+v, want a#1 with its text, page 2 and a positive score", hits)
	}
}

func testFileChunks(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	// Written out of order; read in ordinal order.
	upsert(t, ctx, s, file("a", "a.pdf", ""), chunk(2, 3, "two", 1), chunk(0, 1, "zero", 1), chunk(1, 2, "one", 1))
	upsert(t, ctx, s, file("b", "b.txt", "")) // no chunks

	got, err := s.FileChunks(ctx, "a", 0)
	if err != nil {
		t.Fatalf("FileChunks(a): %v", err)
	}
	want := []store.Chunk{{Ordinal: 0, Page: 1, Text: "zero"}, {Ordinal: 1, Page: 2, Text: "one"}, {Ordinal: 2, Page: 3, Text: "two"}}
	if len(got) != len(want) {
		t.Fatalf("FileChunks(a) = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Ordinal != want[i].Ordinal || got[i].Page != want[i].Page || got[i].Text != want[i].Text || got[i].Embedding != nil {
			t.Errorf("FileChunks(a)[%d] = %+v, want %+v without embedding", i, got[i], want[i])
		}
	}
	if got, err := s.FileChunks(ctx, "a", 2); err != nil || len(got) != 2 || got[1].Text != "one" {
		t.Errorf("FileChunks(a, 2) = %+v, %v; want zero, one", got, err)
	}
	if got, err := s.FileChunks(ctx, "b", 10); err != nil || got == nil || len(got) != 0 {
		t.Errorf("FileChunks(b without chunks) = %#v, %v; want an empty list", got, err)
	}
	if _, err := s.FileChunks(ctx, "unknown", 10); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("FileChunks(unknown) error = %v, want ErrNotFound", err)
	}

	// More than DefaultChunkPage chunks: the default limit applies.
	many := make([]store.Chunk, store.DefaultChunkPage+3)
	for i := range many {
		many[i] = chunk(i, 0, fmt.Sprintf("chunk %d", i), 1)
	}
	upsert(t, ctx, s, file("m", "m.txt", ""), many...)
	if got, err := s.FileChunks(ctx, "m", 0); err != nil || len(got) != store.DefaultChunkPage || got[len(got)-1].Ordinal != store.DefaultChunkPage-1 {
		t.Errorf("FileChunks(m, default) = %d chunks, %v; want the first %d", len(got), err, store.DefaultChunkPage)
	}
	if got, err := s.FileChunks(ctx, "m", store.DefaultChunkPage+1); err != nil || len(got) != store.DefaultChunkPage+1 {
		t.Errorf("FileChunks(m, %d) = %d chunks, %v", store.DefaultChunkPage+1, len(got), err)
	}

	// Ordinals outside 0..MaxChunkOrdinal are refused, and nothing is written.
	for _, ord := range []int{-1, store.MaxChunkOrdinal + 1} {
		if err := s.UpsertFile(ctx, file("bad", "bad.txt", ""), []store.Chunk{chunk(ord, 0, "x", 1)}); err == nil {
			t.Errorf("UpsertFile with chunk ordinal %d accepted", ord)
		}
	}
	if fs, err := s.GetFiles(ctx, []string{"bad"}); err != nil || len(fs) != 0 {
		t.Errorf("after refused upserts GetFiles(bad) = %v, %v; want none", fileIDs(fs), err)
	}
	upsert(t, ctx, s, file("top", "top.txt", ""), chunk(store.MaxChunkOrdinal, 0, "highest ordinal", 1))
	wantChunkText(t, ctx, s, anyOf("highest"), chunkKey{"top", store.MaxChunkOrdinal})
}

// scanAll pages through ScanChunks, checking each page's cursor and Done.
func scanAll(t *testing.T, ctx context.Context, s store.Store, sc store.ChunkScan) []store.FileChunk {
	t.Helper()
	var out []store.FileChunk
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatalf("ScanChunks(%+v) does not end", sc)
		}
		p, err := s.ScanChunks(ctx, sc)
		if err != nil {
			t.Fatalf("ScanChunks(%+v): %v", sc, err)
		}
		if sc.Limit > 0 && len(p.Chunks) > sc.Limit {
			t.Fatalf("ScanChunks(limit %d) returned %d chunks", sc.Limit, len(p.Chunks))
		}
		if len(p.Chunks) > 0 && p.Next != p.Chunks[len(p.Chunks)-1].Cursor() || len(p.Chunks) == 0 && p.Next != sc.After {
			t.Errorf("ScanChunks page Next = %+v, want the last chunk's position", p.Next)
		}
		if !p.Done && len(p.Chunks) == 0 {
			t.Fatalf("ScanChunks returned an empty page that is not Done")
		}
		out = append(out, p.Chunks...)
		if p.Done {
			return out
		}
		sc.After = p.Next
	}
}

func fileChunkKeys(cs []store.FileChunk) []chunkKey {
	out := []chunkKey{}
	for _, c := range cs {
		out = append(out, chunkKey{c.FileID, c.Ordinal})
	}
	return out
}

func testScanChunks(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	// IDs whose byte order differs from a case-insensitive or
	// punctuation-ignoring collation, and ordinals that sort differently as text.
	f := func(id, path string, indexed time.Time, n int) {
		fl := file(id, id+".txt", "")
		fl.Path, fl.IndexedAt = path, indexed
		var cs []store.Chunk
		for i := range n {
			cs = append(cs, chunk(i, i/2+1, fmt.Sprintf("%s chunk %d", id, i), 1))
		}
		upsert(t, ctx, s, fl, cs...)
	}
	f("b", "X", t0, 12)
	f("B", "X/Y", t0.Add(2*time.Hour), 2)
	f("a-c", "Z", t0.Add(time.Hour), 1)
	f("ab", "Z", t0, 3)
	f("none", "Z", t0, 0)

	var want []chunkKey
	for _, id := range []string{"B", "a-c", "ab", "b"} { // byte order
		n := map[string]int{"B": 2, "a-c": 1, "ab": 3, "b": 12}[id]
		for i := range n {
			want = append(want, chunkKey{id, i})
		}
	}
	for _, limit := range []int{0, 1, 4, 17, 18, 100} {
		got := scanAll(t, ctx, s, store.ChunkScan{Limit: limit})
		if !slices.Equal(fileChunkKeys(got), want) {
			t.Errorf("ScanChunks(limit %d) = %v, want %v", limit, fileChunkKeys(got), want)
		}
	}
	all := scanAll(t, ctx, s, store.ChunkScan{})
	if c := all[len(all)-1]; c.Text != "b chunk 11" || c.Page != 6 || c.Embedding != nil {
		t.Errorf("last scanned chunk = %+v, want b#11 with text and page 6, no embedding", c)
	}

	// A cursor resumes after its position, also in another "process" (a plain value).
	got := scanAll(t, ctx, s, store.ChunkScan{After: store.ChunkCursor{FileID: "ab", Ordinal: 1}, Limit: 5})
	if !slices.Equal(fileChunkKeys(got), want[5:]) {
		t.Errorf("ScanChunks(after ab#1) = %v, want %v", fileChunkKeys(got), want[5:])
	}
	// A cursor between files (a deleted one's position) still resumes correctly.
	got = scanAll(t, ctx, s, store.ChunkScan{After: store.ChunkCursor{FileID: "aa", Ordinal: 99}})
	if !slices.Equal(fileChunkKeys(got), want[3:]) {
		t.Errorf("ScanChunks(after aa#99) = %v, want %v", fileChunkKeys(got), want[3:])
	}

	// Only files (re)indexed since a time, or passing a filter.
	got = scanAll(t, ctx, s, store.ChunkScan{IndexedSince: t0.Add(time.Hour), Limit: 1})
	if want := []chunkKey{{"B", 0}, {"B", 1}, {"a-c", 0}}; !slices.Equal(fileChunkKeys(got), want) {
		t.Errorf("ScanChunks(indexed since t0+1h) = %v, want %v", fileChunkKeys(got), want)
	}
	got = scanAll(t, ctx, s, store.ChunkScan{Filter: store.Filter{IDs: []string{"ab", "B"}}, Limit: 2})
	if want := []chunkKey{{"B", 0}, {"B", 1}, {"ab", 0}, {"ab", 1}, {"ab", 2}}; !slices.Equal(fileChunkKeys(got), want) {
		t.Errorf("ScanChunks(IDs ab, B) = %v, want %v", fileChunkKeys(got), want)
	}
	got = scanAll(t, ctx, s, store.ChunkScan{Filter: store.Filter{Folder: "X"}, IndexedSince: t0})
	if len(got) != 14 || got[0].FileID != "B" || got[2].FileID != "b" {
		t.Errorf("ScanChunks(folder X) = %v, want B's 2 then b's 12 chunks", fileChunkKeys(got))
	}
	if got := scanAll(t, ctx, s, store.ChunkScan{Filter: store.Filter{IDs: []string{}}}); len(got) != 0 {
		t.Errorf("ScanChunks(IDs empty) = %v, want none", fileChunkKeys(got))
	}

	// Changes during a scan: a page never repeats or skips a chunk that
	// stays in place; chunks written ahead of the cursor are seen.
	p, err := s.ScanChunks(ctx, store.ChunkScan{Limit: 4})
	if err != nil || p.Done || p.Next != (store.ChunkCursor{FileID: "ab", Ordinal: 0}) {
		t.Fatalf("first page = %v (Next %+v, Done %v), %v", fileChunkKeys(p.Chunks), p.Next, p.Done, err)
	}
	if err := s.DeleteFiles(ctx, []string{"B", "ab"}); err != nil { // behind and at the cursor
		t.Fatal(err)
	}
	f("aa", "Z", t0, 1) // behind the cursor: not seen by this scan
	f("c", "Z", t0, 1)  // ahead: seen
	got = scanAll(t, ctx, s, store.ChunkScan{After: p.Next, Limit: 4})
	wantRest := append(slices.Clone(want[6:]), chunkKey{"c", 0})
	if !slices.Equal(fileChunkKeys(got), wantRest) {
		t.Errorf("rest of the scan after changes = %v, want %v", fileChunkKeys(got), wantRest)
	}
}

func testRetrieveChunks(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	chunkCorpus(t, ctx, s)

	// a#0 is the nearest vector and a full-text match: first, score 1.
	hits, err := store.RetrieveChunks(ctx, s, store.Retrieval{Query: "When is the contract renewal?", Vector: vec(1), TopK: 3})
	if err != nil {
		t.Fatalf("RetrieveChunks: %v", err)
	}
	if len(hits) != 3 || hits[0].FileID != "a" || hits[0].Ordinal != 0 || !near(hits[0].Score, 1) {
		t.Fatalf("RetrieveChunks = %+v, want a#0 first with score 1, 3 hits", hits)
	}
	if hits[0].Text != "The contract renewal date is 1 April 2025." || hits[0].Page != 1 || hits[0].Embedding != nil {
		t.Errorf("top hit = %+v, want a#0's text and page 1, no embedding", hits[0])
	}
	for i, h := range hits {
		if h.Score < 0 || h.Score > 1 || i > 0 && h.Score > hits[i-1].Score {
			t.Errorf("hit %d score %v: want 0–1, descending", i, h.Score)
		}
	}
	// b#0 is second in both rankings: ahead of chunks found by one only.
	if hits[1].FileID != "b" || hits[1].Ordinal != 0 {
		t.Errorf("second hit = %s#%d, want b#0", hits[1].FileID, hits[1].Ordinal)
	}

	// Japanese question, full text only: the chunks sharing its bigrams.
	hits, err = store.RetrieveChunks(ctx, s, store.Retrieval{Query: "契約の更新日はいつ？", TopK: 5})
	if err != nil || len(hits) == 0 || hits[0].FileID != "a" || hits[0].Ordinal != 2 {
		t.Errorf("RetrieveChunks(Japanese) = %v, %v; want a#2 first", chunkKeys(hits), err)
	}

	// The folder filter restricts both rankings.
	hits, err = store.RetrieveChunks(ctx, s, store.Retrieval{Query: "thirty renewal", Vector: vec(1), TopK: 20, Filter: store.Filter{Folder: "Home"}})
	if err != nil || !slices.Equal(chunkKeys(hits), []chunkKey{{"c", 0}}) {
		t.Errorf("RetrieveChunks(folder Home) = %v, %v; want [c#0]", chunkKeys(hits), err)
	}
	// The threshold keeps only chunks found by both rankings (above 0.5 here).
	hits, err = store.RetrieveChunks(ctx, s, store.Retrieval{Query: "renewal", Vector: vec(1), TopK: 20, ScoreThreshold: 0.51})
	if err != nil || !slices.Equal(sortedKeys(chunkKeys(hits)), []chunkKey{{"a", 0}, {"b", 0}}) {
		t.Errorf("RetrieveChunks(threshold 0.51) = %v, %v; want a#0 and b#0", chunkKeys(hits), err)
	}
}

// testDeleteRemovesChunks: deleting or replacing a file removes its chunks
// from every way of reading chunks, the full-text index included.
func testDeleteRemovesChunks(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	chunkCorpus(t, ctx, s)
	if err := s.DeleteFiles(ctx, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	wantChunkText(t, ctx, s, anyOf("renewal"), chunkKey{"b", 0})
	wantChunkText(t, ctx, s, anyOf("invoice"))
	wantChunkText(t, ctx, s, anyOf("更新日"))
	if ch, err := s.ChunkSearch(ctx, vec(1), store.Filter{}, 10); err != nil || len(ch) != 3 || slices.ContainsFunc(ch, func(h store.ChunkHit) bool { return h.FileID == "a" }) {
		t.Errorf("ChunkSearch after delete = %v, %v; want b's and c's 3 chunks", chunkKeys(ch), err)
	}
	if _, err := s.FileChunks(ctx, "a", 10); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("FileChunks(deleted) error = %v, want ErrNotFound", err)
	}
	if got := scanAll(t, ctx, s, store.ChunkScan{}); !slices.Equal(fileChunkKeys(got), []chunkKey{{"b", 0}, {"b", 1}, {"c", 0}}) {
		t.Errorf("ScanChunks after delete = %v", fileChunkKeys(got))
	}
	hits, err := store.RetrieveChunks(ctx, s, store.Retrieval{Query: "contract renewal invoice", Vector: vec(1), TopK: 20})
	if err != nil || slices.ContainsFunc(hits, func(h store.ChunkHit) bool { return h.FileID == "a" }) {
		t.Errorf("RetrieveChunks after delete = %v, %v; want none of a", chunkKeys(hits), err)
	}

	// A file written after deleting the newest one (a back end may reuse
	// internal row numbers) does not inherit the deleted chunks' text.
	if err := s.DeleteFiles(ctx, []string{"c"}); err != nil {
		t.Fatal(err)
	}
	upsert(t, ctx, s, file("d", "d.txt", ""), chunk(0, 0, "Nothing about baking.", 1))
	wantChunkText(t, ctx, s, anyOf("bread"))
	wantChunkText(t, ctx, s, anyOf("thirty"))

	// A file indexed again under the same ID: only its new chunks are found.
	upsert(t, ctx, s, file("a", "contract.pdf", ""), chunk(0, 0, "A fresh start.", 1))
	wantChunkText(t, ctx, s, anyOf("renewal"), chunkKey{"b", 0})
	wantChunkText(t, ctx, s, anyOf("fresh"), chunkKey{"a", 0})
	// Replacing a file with fewer chunks drops the others from full text.
	upsert(t, ctx, s, file("b", "notes.txt", ""), chunk(0, 0, "Nothing left.", 1))
	wantChunkText(t, ctx, s, anyOf("renewal"))
	wantChunkText(t, ctx, s, anyOf("議事録"))
	wantChunkText(t, ctx, s, anyOf("left"), chunkKey{"b", 0})

	// Reset empties the chunk full text too.
	if err := s.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	wantChunkText(t, ctx, s, anyOf("fresh", "left", "bread"))
	if got := scanAll(t, ctx, s, store.ChunkScan{}); len(got) != 0 {
		t.Errorf("ScanChunks after Reset = %v, want none", fileChunkKeys(got))
	}
}

// testChunkTextTies checks that chunks of equal full-text relevance come
// in file ID, then ordinal order, whatever order their files were written
// in (a crawl writes files concurrently), also where the limit cuts among
// them and with a filter: two crawls of one corpus rank alike.
func testChunkTextTies(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	ids := []string{"t-e", "t-c", "t-a", "t-d", "t-b"}
	for _, id := range ids {
		f := file(id, id+".txt", "")
		f.Path = "Ties"
		upsert(t, ctx, s, f, chunk(1, 0, "walrus ledger entry", 1), chunk(0, 0, "walrus ledger entry", 1))
	}
	var all []chunkKey
	for _, id := range []string{"t-a", "t-b", "t-c", "t-d", "t-e"} {
		all = append(all, chunkKey{id, 0}, chunkKey{id, 1})
	}
	for _, limit := range []int{1, 3, 4, 9, 100} {
		for _, flt := range []store.Filter{{}, {Folder: "Ties"}} {
			got := chunkKeys(chunkText(t, ctx, s, store.KeywordQuery{Terms: []string{"walrus"}, Limit: limit, Filter: flt}))
			if want := all[:min(limit, len(all))]; !slices.Equal(got, want) {
				t.Errorf("limit %d, filter %+v: %v, want %v", limit, flt, got, want)
			}
		}
	}
}
