package crawl_test

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
	"github.com/gds-cli/gds/internal/textseg"
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
				sum, err := crawl.Run(ctx, crawl.Options{Source: src, Key: "local:" + root, Index: st, Provider: offline.New(),
					SummaryMaxLength: 100, Extractor: x, ExtractVersion: version})
				if err != nil || len(sum.Failed) != 0 {
					t.Fatalf("crawl at version %d: %+v, %v", version, sum, err)
				}
				return sum
			}
			versions := func() map[string]int {
				t.Helper()
				ids, err := st.SourceIDs(ctx, "local:"+root)
				if err != nil || len(ids) != 3 {
					t.Fatalf("the source's files: %v, %v; want 3", ids, err)
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

// An index chunked under older rules (its content hashes name another
// crawl.ChunkVersion, its files an older extraction) is chunked again by
// the next crawl: every file is read again for the extraction version, and
// its content hash differs, so its chunks are made again under the current
// rules.
func TestCrawlRechunksWhatOlderRulesChunked(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	// A 283-character sentence ends the first chunk: the old rules began
	// the second chunk inside it, the current ones at its start.
	text := strings.Repeat("The towers stand on caissons sunk into the clay of the riverbed, and each carries a saddle of cast steel on which the main cables rest. ", 5) +
		"The only other crossing of the estuary built in the same decade was the railway tunnel to the east, which was bored under the riverbed by two machines working towards each other from either bank and which carried its first passenger trains in the autumn of 2001, after a long delay. " +
		"Tolls on the bridge were abolished in 2019, after the loans that paid for it were repaid in full by the operating company. The bridge now carries about eighty thousand vehicles a day."
	write(t, filepath.Join(root, "bridge.txt"), text, time.Now().Add(-time.Hour))
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	src, err := crawl.NewLocalSource(root)
	if err != nil {
		t.Fatal(err)
	}
	run := func(version int) crawl.Summary {
		t.Helper()
		sum, err := crawl.Run(ctx, crawl.Options{Source: src, Key: "local:" + root, Index: st, Provider: offline.New(), SummaryMaxLength: 100, ExtractVersion: version})
		if err != nil || len(sum.Failed) != 0 {
			t.Fatalf("crawl at version %d: %+v, %v", version, sum, err)
		}
		return sum
	}
	chunkTexts := func(id string) []string {
		t.Helper()
		cs, err := st.FileChunks(ctx, id, 100)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, c.Text)
		}
		return out
	}
	if sum := run(2); sum.New != 1 {
		t.Fatalf("first crawl: %+v", sum)
	}
	ids, err := st.SourceIDs(ctx, "local:"+root)
	if err != nil || len(ids) != 1 {
		t.Fatalf("ids %v, %v", ids, err)
	}
	files, err := st.GetFiles(ctx, ids)
	if err != nil || len(files) != 1 {
		t.Fatalf("files %v, %v", files, err)
	}
	current, err := st.FileChunks(ctx, ids[0], 100)
	if err != nil || len(current) < 2 || !strings.HasPrefix(current[1].Text, "The only other crossing") {
		t.Fatalf("chunks under the current rules: %q, %v", chunkTexts(ids[0]), err)
	}
	// Store the file as the old rules (overlap at most 200, hashed under
	// another chunk version) and an older extraction left it.
	f := files[0]
	f.ContentHash, f.ExtractVersion = "hash under chunk version 2", 1
	var old []store.Chunk
	for i, s := range textseg.Windows(text, crawl.ChunkSize, crawl.ChunkOverlap, crawl.ChunkOverlap) {
		old = append(old, store.Chunk{Ordinal: i, Page: current[0].Page, Text: s, Embedding: files[0].Embedding})
	}
	if strings.HasPrefix(old[1].Text, "The only other crossing") {
		t.Fatal("the old rules begin the second chunk at the sentence: the case tests nothing")
	}
	if err := st.UpsertFile(ctx, f, old); err != nil {
		t.Fatal(err)
	}
	if sum := run(2); sum.Reextracted != 1 || sum.Updated != 1 {
		t.Errorf("crawl after the rules changed: %+v; want the file read again and indexed again", sum)
	}
	if got, want := chunkTexts(ids[0]), chunkTextsOf(current); !slices.Equal(got, want) {
		t.Errorf("chunks after the crawl:\n%q\nwant the current rules'\n%q", got, want)
	}
}

func chunkTextsOf(cs []store.Chunk) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Text)
	}
	return out
}
