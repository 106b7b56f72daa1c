package crawl_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// A real PNG has no text to extract: it is indexed by name only (no
// summary, embedding or chunks; the reason kept), found by name through
// keyword search, not written again by a crawl that finds it unchanged
// (incremental or --full), and kept by a full scan's pruning.
func TestNameOnlyEntries(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	photo := filepath.Join(dir, "team-photo-2024.png")
	if err := os.WriteFile(photo, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("Minutes of the team meeting."), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{photo, filepath.Join(dir, "notes.txt")} {
		os.Chtimes(p, old, old)
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	src, err := crawl.NewLocalSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := &countingProvider{Provider: offline.New()}
	opts := crawl.Options{Source: src, Index: st, Provider: p, SummaryMaxLength: 120, Concurrency: 2}
	sum, err := crawl.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum.New != 1 || len(sum.Skipped) != 1 || len(sum.Failed) != 0 ||
		!strings.HasSuffix(sum.Skipped[0].Reason, crawl.NameOnlySuffix) || !strings.Contains(sum.Skipped[0].Reason, "image/png") {
		t.Fatalf("first crawl: %+v; want the text new and the PNG's content skipped, indexed by name only", sum)
	}
	if got := p.summaries.Load(); got != 1 {
		t.Errorf("%d summaries, want 1 (none for the PNG)", got)
	}
	id := crawl.LocalID(dir, "team-photo-2024.png")
	files, err := st.GetFiles(ctx, []string{id})
	if err != nil || len(files) != 1 {
		t.Fatalf("GetFiles(png) = %v, %v", files, err)
	}
	f := files[0]
	if !f.NameOnly() || !strings.Contains(f.SkipReason, "image/png") || f.Summary != "" || len(f.Embedding) != 0 ||
		f.MimeType != "image/png" || f.Name != "team-photo-2024.png" || f.ModifiedAt.IsZero() {
		t.Errorf("png entry = %+v; want name-only with its reason, type and date", f)
	}
	if cs, err := st.FileChunks(ctx, id, 0); err != nil || len(cs) != 0 {
		t.Errorf("png chunks = %v, %v; want none", cs, err)
	}
	res, err := st.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{"team", "photo"}})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].ID != id {
		t.Errorf("KeywordSearch(team photo) = %+v, %v; want the PNG", res, err)
	}
	indexedAt := f.IndexedAt

	// --full lists everything again: the PNG is unchanged (not rewritten,
	// not reported as skipped again) and not pruned.
	full := opts
	full.Full = true
	full.Now = func() time.Time { return time.Now().Add(time.Hour) }
	sum, err = crawl.Run(ctx, full)
	if err != nil || sum.Unchanged != 2 || len(sum.Skipped) != 0 || sum.Removed != 0 {
		t.Fatalf("full re-crawl: %+v, %v; want both unchanged, nothing skipped or removed", sum, err)
	}
	files, err = st.GetFiles(ctx, []string{id})
	if err != nil || len(files) != 1 || !files[0].IndexedAt.Equal(indexedAt) {
		t.Errorf("after --full the png entry = %+v, %v; want it untouched (indexed at %v)", files, err, indexedAt)
	}

	// A changed image is written again.
	now := time.Now()
	os.Chtimes(photo, now, now)
	sum, err = crawl.Run(ctx, opts)
	if err != nil || sum.Processed != 1 || len(sum.Skipped) != 1 {
		t.Fatalf("crawl after touching the png: %+v, %v", sum, err)
	}
}
