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

// Two sources in one index: each crawl writes its files and checkpoint
// under its key, and a full scan of one never removes the other's files.
func TestFullScanPrunesWithinItsSource(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := &listSource{files: []string{"a1", "a2"}}
	b := &listSource{files: []string{"b1"}}
	run := func(src *listSource, key string, full bool) crawl.Summary {
		t.Helper()
		sum, err := crawl.Run(ctx, crawl.Options{Source: src, Key: key, Index: st, Provider: offline.New(), SummaryMaxLength: 100, Full: full})
		if err != nil {
			t.Fatalf("crawl %s: %v", key, err)
		}
		return sum
	}
	run(a, "local:/a", false)
	run(b, "local:/b", false)
	a.files = []string{"a1"}
	if sum := run(a, "local:/a", true); sum.Removed != 1 {
		t.Errorf("full scan of A removed %d, want 1 (a2)", sum.Removed)
	}
	for key, want := range map[string][]string{"local:/a": {"a1"}, "local:/b": {"b1"}} {
		if got, err := st.SourceIDs(ctx, key); err != nil || !slices.Equal(got, want) {
			t.Errorf("SourceIDs(%s) = %v, %v; want %v", key, got, err, want)
		}
	}
	states, err := st.SyncStates(ctx)
	if err != nil || len(states) != 2 || states[0].Source != "local:/a" || states[1].Source != "local:/b" {
		t.Errorf("sync states = %+v, %v; want one per source", states, err)
	}
}

// An index from before sources had keys holds its files under the bare
// kind. The first crawl of a keyed source claims the files it lists
// without re-indexing them, and its full scan then prunes within its key.
func TestKeyedSourceClaimsLegacyFiles(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	src := &listSource{files: []string{"x", "y", "z"}}
	legacy := crawl.Options{Source: src, Key: "local", Index: st, Provider: offline.New(), SummaryMaxLength: 100}
	if _, err := crawl.Run(ctx, legacy); err != nil {
		t.Fatal(err)
	}
	src.files = []string{"x", "y"}
	keyed := legacy
	keyed.Key = "local:/docs"
	sum, err := crawl.Run(ctx, keyed)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Full || sum.New != 0 || sum.Updated != 0 || sum.Unchanged != 2 {
		t.Errorf("first keyed crawl = %+v; want a full scan that re-indexes nothing", sum)
	}
	if got, _ := st.SourceIDs(ctx, "local:/docs"); !slices.Equal(got, []string{"x", "y"}) {
		t.Errorf("SourceIDs(local:/docs) = %v, want the claimed x, y", got)
	}
	// z was not listed: it stays under the legacy key, searchable, not
	// removed by the keyed source's scan.
	if got, _ := st.SourceIDs(ctx, "local"); !slices.Equal(got, []string{"z"}) {
		t.Errorf("SourceIDs(local) = %v, want [z]", got)
	}
}
