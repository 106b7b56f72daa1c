package storetest

import (
	"slices"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

// testNameOnly checks name-only entries (a file whose content could not be
// extracted): stored without an embedding or chunks, read back with their
// skip reason, found by name and type through keyword search, and never a
// vector hit, in a filtered (IDs) or unfiltered vector search, next to
// files that have an embedding.
func testNameOnly(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	photo := file("photo", "team-photo-2024.png", "")
	photo.Embedding, photo.Provider, photo.MimeType = nil, "", "image/png"
	photo.SkipReason = "unsupported file type image/png"
	upsert(t, ctx, s, photo)
	doc := file("doc", "notes.txt", "team meeting notes")
	upsert(t, ctx, s, doc)

	got := getOne(t, ctx, s, "photo")
	if !got.NameOnly() || got.SkipReason != photo.SkipReason || len(got.Embedding) != 0 || got.MimeType != "image/png" {
		t.Errorf("name-only file read back as %+v, want skip reason %q, no embedding, image/png", got, photo.SkipReason)
	}
	if g := getOne(t, ctx, s, "doc"); g.NameOnly() || g.SkipReason != "" || len(g.Embedding) != Dim {
		t.Errorf("content file read back with skip reason %q, %d-dimensional embedding", g.SkipReason, len(g.Embedding))
	}
	wantKeyword(t, ctx, s, all("team", "photo"), "photo")
	wantKeyword(t, ctx, s, anyOf("team"), "doc", "photo")
	q := all("team")
	q.Filter.MimeTypes = []string{"image/png"}
	wantKeyword(t, ctx, s, q, "photo")
	for _, f := range []store.Filter{{IDs: []string{"photo", "doc"}}, {IDs: []string{"photo"}}, {}} {
		hits, err := s.VectorSearch(ctx, vec(1), f, 10)
		if err != nil {
			t.Fatalf("VectorSearch(%+v) with a name-only file: %v", f, err)
		}
		want := []string{"doc"}
		if len(f.IDs) == 1 {
			want = nil
		}
		if ids := hitIDs(hits); !slices.Equal(ids, want) {
			t.Errorf("VectorSearch(%+v) = %v, want %v (a name-only file has no embedding)", f, ids, want)
		}
	}
	if cs, err := s.FileChunks(ctx, "photo", 0); err != nil || len(cs) != 0 {
		t.Errorf("FileChunks(name-only) = %v, %v; want none", cs, err)
	}
	// Replacing it by a content entry read by OCR clears the reason and
	// keeps the engine; indexed again from extracted text, the engine goes.
	read := file("photo", "team-photo-2024.png", "now with text")
	read.OCR = "tesseract 5.3.0 jpn+eng"
	upsert(t, ctx, s, read)
	if g := getOne(t, ctx, s, "photo"); g.NameOnly() || g.OCR != read.OCR {
		t.Errorf("re-indexed with OCR text: skip reason %q, OCR %q; want none, %q", g.SkipReason, g.OCR, read.OCR)
	}
	upsert(t, ctx, s, file("photo", "team-photo-2024.png", "now with text"))
	if g := getOne(t, ctx, s, "photo"); g.OCR != "" {
		t.Errorf("re-indexed from extracted text, still OCR %q", g.OCR)
	}
}
