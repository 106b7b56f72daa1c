package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
)

// testDocuments: uploaded documents' metadata is kept, listed with every
// indexed file (newest indexed first, with chunk counts), filtered by tag,
// removed with its file, and uploads are not offered to a crawl's prune.
func testDocuments(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	crawled := file("c1", "crawled.txt", "crawled text")
	up1 := file("u1", "a.pdf", "uploaded one")
	up1.Source, up1.IndexedAt = store.SourceUpload, t0.Add(3*time.Hour)
	up2 := file("u2", "b.md", "uploaded two")
	up2.Source, up2.IndexedAt = store.SourceUpload, t0.Add(2*time.Hour)
	upsert(t, ctx, s, crawled, chunk(0, 0, "crawled text", 1))
	upsert(t, ctx, s, up1, chunk(0, 1, "uploaded one", 1), chunk(1, 2, "page two", 0, 1))
	upsert(t, ctx, s, up2)
	m1 := store.DocumentMeta{FileID: "u1", Title: "規程", Tags: []string{"hr", "規則"}, StoredName: "u1.pdf", CreatedAt: t0.In(jst), UpdatedAt: t0.Add(time.Minute)}
	m2 := store.DocumentMeta{FileID: "u2", Title: "B", Tags: []string{"eng"}, StoredName: "u2.md", CreatedAt: t0, UpdatedAt: t0}
	for _, m := range []store.DocumentMeta{m1, m2} {
		if err := s.PutDocumentMeta(ctx, m); err != nil {
			t.Fatalf("PutDocumentMeta(%q): %v", m.FileID, err)
		}
	}

	metas, err := s.DocumentMetas(ctx, []string{"u1", "c1", "nope"})
	if err != nil {
		t.Fatal(err)
	}
	if len(metas) != 1 || metas["u1"].Title != "規程" || !slices.Equal(metas["u1"].Tags, m1.Tags) || metas["u1"].StoredName != "u1.pdf" {
		t.Fatalf("DocumentMetas = %+v, want u1 only with its fields", metas)
	}
	sameInstantUTC(t, "CreatedAt", metas["u1"].CreatedAt, m1.CreatedAt)

	page, err := s.ListDocuments(ctx, store.DocumentQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range page.Items {
		ids = append(ids, d.File.ID)
	}
	if page.Total != 3 || !slices.Equal(ids, []string{"u1", "u2", "c1"}) {
		t.Fatalf("ListDocuments = %v (total %d), want [u1 u2 c1] (3): newest indexed first", ids, page.Total)
	}
	if d := page.Items[0]; d.Chunks != 2 || d.Meta.Title != "規程" || d.File.Name != "a.pdf" || d.File.Source != store.SourceUpload {
		t.Fatalf("first item = %+v, want u1 with 2 chunks and its metadata", d)
	}
	if d := page.Items[2]; d.Meta.FileID != "" || d.Chunks != 1 {
		t.Fatalf("crawled item = %+v, want no metadata and 1 chunk", d)
	}
	page, err = s.ListDocuments(ctx, store.DocumentQuery{Offset: 1, Limit: 1})
	if err != nil || page.Total != 3 || len(page.Items) != 1 || page.Items[0].File.ID != "u2" {
		t.Fatalf("second page of 1 = %+v, %v; want u2 of 3", page, err)
	}
	page, err = s.ListDocuments(ctx, store.DocumentQuery{Tag: "規則"})
	if err != nil || page.Total != 1 || len(page.Items) != 1 || page.Items[0].File.ID != "u1" {
		t.Fatalf("tag 規則 = %+v, %v; want u1 only", page, err)
	}

	tagged, err := s.TaggedFileIDs(ctx, []string{"eng", "hr", "none"})
	if err != nil || !slices.Equal(tagged, []string{"u1", "u2"}) {
		t.Fatalf("TaggedFileIDs = %v, %v; want [u1 u2]", tagged, err)
	}
	indexed, err := s.IndexedIDs(ctx)
	if err != nil || !slices.Equal(indexed, []string{"c1"}) {
		t.Fatalf("IndexedIDs = %v, %v; want [c1]: uploads are not the crawl's", indexed, err)
	}

	if err := s.DeleteFiles(ctx, []string{"u1"}); err != nil {
		t.Fatal(err)
	}
	metas, err = s.DocumentMetas(ctx, []string{"u1", "u2"})
	if err != nil || len(metas) != 1 {
		t.Fatalf("after delete: DocumentMetas = %v, %v; want u2 only", metas, err)
	}
	if _, err := s.FileChunks(ctx, "u1", 0); err == nil {
		t.Fatal("FileChunks of a deleted upload: want ErrNotFound")
	}
	if tagged, _ := s.TaggedFileIDs(ctx, []string{"hr"}); len(tagged) != 0 {
		t.Fatalf("tag of a deleted upload still found: %v", tagged)
	}
	if err := s.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if metas, err = s.DocumentMetas(ctx, []string{"u2"}); err != nil || len(metas) != 0 {
		t.Fatalf("after Reset: DocumentMetas = %v, %v; want none", metas, err)
	}

	// An upload without tags (or title) is stored with none.
	up3 := file("u3", "c.txt", "uploaded three")
	up3.Source = store.SourceUpload
	if err := s.EnsureEmbeddingSpace(ctx, Space); err != nil { // Reset forgot it
		t.Fatal(err)
	}
	upsert(t, ctx, s, up3)
	if err := s.PutDocumentMeta(ctx, store.DocumentMeta{FileID: "u3", StoredName: "u3.txt", CreatedAt: t0, UpdatedAt: t0}); err != nil {
		t.Fatalf("PutDocumentMeta without tags: %v", err)
	}
	if metas, err = s.DocumentMetas(ctx, []string{"u3"}); err != nil || len(metas) != 1 || len(metas["u3"].Tags) != 0 {
		t.Fatalf("without tags: DocumentMetas = %v, %v", metas, err)
	}
}
