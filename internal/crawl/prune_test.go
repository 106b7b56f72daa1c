package crawl_test

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// listSource lists the files named in files; Open fails for those in broken.
type listSource struct {
	files  []string
	broken map[string]bool
}

func (*listSource) Kind() string        { return "test" }
func (*listSource) Fingerprint() string { return "test" }
func (s *listSource) List(_ context.Context, since time.Time, fn func(crawl.Entry) error) error {
	for _, id := range s.files {
		mod := time.Date(2026, 1, 1, 0, 0, int(id[0]), 0, time.UTC) // fixed per file
		if mod.Before(since) {
			continue
		}
		if err := fn(crawl.Entry{ID: id, Name: id + ".txt", MimeType: "text/plain", ModifiedAt: mod}); err != nil {
			return err
		}
	}
	return nil
}
func (s *listSource) Open(_ context.Context, e crawl.Entry) (io.ReadCloser, error) {
	if s.broken[e.ID] {
		return nil, errors.New("connection reset")
	}
	return io.NopCloser(strings.NewReader("notes about " + e.ID)), nil
}

// A full scan removes the indexed files its listing no longer holds, keeps
// a listed file that failed this time, never prunes on an incremental run,
// and keeps everything when the listing is empty.
func TestFullScanRemovesUnlistedFiles(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	src := &listSource{files: []string{"a", "b", "c", "d"}}
	opts := crawl.Options{Source: src, Index: st, Provider: offline.New(), SummaryMaxLength: 100}
	if sum, err := crawl.Run(ctx, opts); err != nil || sum.New != 4 {
		t.Fatalf("first crawl: %+v, %v", sum, err)
	}
	indexed := func() []string {
		ids, err := st.IndexedIDs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}

	// b is deleted at the source; an incremental crawl (a listing
	// compared with the index) removes it without reading the others.
	src.files = []string{"a", "c", "d"}
	if sum, err := crawl.Run(ctx, opts); err != nil || sum.Removed != 1 || sum.Processed != 0 {
		t.Fatalf("incremental crawl: %+v, %v", sum, err)
	}
	if got, want := indexed(), []string{"a", "c", "d"}; !slices.Equal(got, want) {
		t.Fatalf("after an incremental crawl %v, want %v", got, want)
	}

	// d is deleted too. A dry full scan reports it; a full scan removes
	// it. c is listed but cannot be read this time: it stays.
	src.files = []string{"a", "c"}
	src.broken = map[string]bool{"c": true}
	full := opts
	full.Full, full.DryRun = true, true
	if sum, err := crawl.Run(ctx, full); err != nil || sum.Removed != 1 {
		t.Fatalf("dry full scan: %+v, %v", sum, err)
	}
	if got := indexed(); len(got) != 3 {
		t.Fatalf("a dry run removed files: %v", got)
	}
	full.DryRun = false
	sum, err := crawl.Run(ctx, full)
	if err != nil || sum.Removed != 1 || len(sum.Failed) != 1 {
		t.Fatalf("full scan: %+v, %v", sum, err)
	}
	if got, want := indexed(), []string{"a", "c"}; !slices.Equal(got, want) {
		t.Errorf("after the full scan %v, want %v", got, want)
	}

	// An empty listing removes nothing and says so, full or incremental.
	src.files = nil
	sum, err = crawl.Run(ctx, full)
	if err != nil || sum.Removed != 0 || sum.KeptUnlisted != 2 {
		t.Fatalf("empty full scan: %+v, %v", sum, err)
	}
	sum, err = crawl.Run(ctx, opts)
	if err != nil || sum.Removed != 0 || sum.KeptUnlisted != 2 {
		t.Fatalf("empty full scan: %+v, %v", sum, err)
	}
	if got := indexed(); len(got) != 2 {
		t.Errorf("an empty listing removed files: %v", got)
	}
}
