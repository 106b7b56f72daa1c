package crawl_test

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// countingExtractor counts its calls and reads in process; prefix, when
// set, is put before every text (an extractor whose output changed).
type countingExtractor struct {
	calls  atomic.Int32
	prefix string
}

func (x *countingExtractor) Extract(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (extract.Doc, error) {
	x.calls.Add(1)
	doc, err := extract.Extract(ctx, mimeType, r, maxBytes)
	if err == nil && x.prefix != "" && strings.TrimSpace(doc.Text()) != "" {
		doc.Pages[0].Text = x.prefix + doc.Pages[0].Text
	}
	return doc, err
}

// quietFeed is a changes feed that reports no change: an incremental crawl
// of it reads nothing unless it lists the folder.
type quietFeed struct{ crawl.Source }

func (quietFeed) StartToken(context.Context) (string, error) { return "7", nil }
func (quietFeed) Changes(context.Context, string, func(crawl.Change) error) (string, error) {
	return "7", nil
}
func (quietFeed) Inside(context.Context, []string) (bool, error) { return true, nil }

// A file read by an older version of the text extraction is read again by
// the next crawl although it has not changed, and then records the new
// version; with the same version nothing is read. A source with a changes
// feed is listed once for that.
func TestCrawlRereadsWhatAnOlderExtractionRead(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		feed bool
	}{{"local folder", false}, {"changes feed", true}} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			old := time.Now().Add(-time.Hour)
			write(t, filepath.Join(root, "a.txt"), "notes on the engine test bench", old)
			write(t, filepath.Join(root, "b.md"), "# Plan\n\nthe second document", old)
			write(t, filepath.Join(root, "empty.txt"), "   ", old) // no text: by name only
			st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			local, err := crawl.NewLocalSource(root)
			if err != nil {
				t.Fatal(err)
			}
			var src crawl.Source = local
			if tc.feed {
				src = quietFeed{local}
			}
			x := &countingExtractor{}
			crawlAt := func(version int) crawl.Summary {
				t.Helper()
				x.calls.Store(0)
				sum, err := crawl.Run(ctx, crawl.Options{Source: src, Index: st, Provider: offline.New(),
					SummaryMaxLength: 100, Extractor: x, ExtractVersion: version})
				if err != nil || len(sum.Failed) != 0 {
					t.Fatalf("crawl at version %d: %+v, %v", version, sum, err)
				}
				return sum
			}
			versions := func() map[string]int {
				t.Helper()
				ids, err := st.SourceIDs(ctx, "local:"+root)
				if err != nil {
					t.Fatal(err)
				}
				files, err := st.GetFiles(ctx, ids)
				if err != nil {
					t.Fatal(err)
				}
				out := map[string]int{}
				for _, f := range files {
					out[f.Name] = f.ExtractVersion
				}
				return out
			}

			if sum := crawlAt(5); sum.New != 2 || len(sum.Skipped) != 1 || x.calls.Load() != 3 {
				t.Fatalf("first crawl: %+v, %d extractions; want 2 new, 1 by name only, 3 read", sum, x.calls.Load())
			}
			for name, v := range versions() {
				if v != 5 {
					t.Errorf("%s recorded version %d after the first crawl, want 5", name, v)
				}
			}
			if sum := crawlAt(5); x.calls.Load() != 0 || sum.Reextracted != 0 || sum.Processed != 0 {
				t.Errorf("same version: %+v, %d extractions; want nothing read", sum, x.calls.Load())
			}

			// A newer extraction whose text is the same: everything is read
			// again, nothing is summarised again.
			sum := crawlAt(6)
			if x.calls.Load() != 3 || sum.Reextracted != 3 || sum.Unchanged != 3 || sum.Updated != 0 {
				t.Errorf("version 6: %+v, %d extractions; want all 3 read again for the version, unchanged", sum, x.calls.Load())
			}
			if tc.feed && sum.Mode != "reconcile" {
				t.Errorf("version 6 with a changes feed: mode %q, want the folder listed (reconcile)", sum.Mode)
			}
			for name, v := range versions() {
				if v != 6 {
					t.Errorf("%s recorded version %d after the crawl at 6, want 6", name, v)
				}
			}
			if sum := crawlAt(6); x.calls.Load() != 0 || sum.Reextracted != 0 || sum.Processed != 0 {
				t.Errorf("version 6 again: %+v, %d extractions; want nothing read", sum, x.calls.Load())
			}
			if tc.feed {
				if sum := crawlAt(6); sum.Mode != "feed" {
					t.Errorf("version 6 again with a changes feed: mode %q, want the feed", sum.Mode)
				}
			}

			// A newer extraction whose text differs: those files are indexed
			// again with it.
			x.prefix = "revised "
			if sum := crawlAt(7); sum.Reextracted != 3 || sum.Updated != 2 || x.calls.Load() != 3 {
				t.Errorf("version 7 with new text: %+v, %d extractions; want 3 read again, 2 updated", sum, x.calls.Load())
			}
			hits, err := st.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{"revised"}})
			if err != nil || len(hits.Hits) != 2 {
				t.Errorf("search for the new text: %+v, %v; want the 2 files", hits, err)
			}
		})
	}
}
