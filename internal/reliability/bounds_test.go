package reliability

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// slowSource is a local corpus plus one file whose content trickles: a few
// bytes, then nothing until the per-file context ends (a stalled download,
// or a parser that never finishes).
type slowSource struct {
	*crawl.LocalSource
	slow crawl.Entry
}

func (s *slowSource) List(ctx context.Context, since time.Time, fn func(crawl.Entry) error) error {
	if err := s.LocalSource.List(ctx, since, fn); err != nil {
		return err
	}
	return fn(s.slow)
}

func (s *slowSource) Open(ctx context.Context, e crawl.Entry) (io.ReadCloser, error) {
	if e.ID == s.slow.ID {
		return &stallReader{ctx: ctx, head: []byte("the start of a file that never ends ")}, nil
	}
	return s.LocalSource.Open(ctx, e)
}

type stallReader struct {
	ctx  context.Context
	head []byte
}

func (r *stallReader) Read(p []byte) (int, error) {
	if len(r.head) > 0 {
		n := copy(p, r.head)
		r.head = r.head[n:]
		return n, nil
	}
	<-r.ctx.Done()
	return 0, r.ctx.Err()
}

func (r *stallReader) Close() error { return nil }

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// TestExtractionTimeoutDoesNotStallTheCrawl: a file whose content stalls is
// given up when the per-file time limit fires, with a reason; every other
// file is indexed, and the crawl ends.
func TestExtractionTimeoutDoesNotStallTheCrawl(t *testing.T) {
	ctx := context.Background()
	c, err := WriteCorpus(t.TempDir(), 60, 5)
	if err != nil {
		t.Fatal(err)
	}
	// English files only: under -race on a loaded machine, morphological
	// analysis of a long Japanese file can itself take seconds, and the time
	// limit applies to every file.
	kept := c.Files[:0]
	for _, f := range c.Files {
		p := filepath.Join(c.Dir, filepath.FromSlash(f.Rel))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if f.Indexable && !isASCII(b) {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		kept = append(kept, f)
	}
	c.Files = kept
	local, err := crawl.NewLocalSource(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	oldest := c.Files[0].ModTime.Add(-time.Second) // the stalled file holds back everything if it fails
	src := &slowSource{LocalSource: local, slow: crawl.Entry{ID: "stalled", Name: "stalled.txt", MimeType: "text/plain",
		ModifiedAt: oldest, Size: 1 << 20, WebLink: "file:///nonexistent/stalled.txt"}}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	prov := offline.New()
	sum, err := crawl.Run(ctx, crawl.Options{Source: src, Index: st, Provider: prov, SummaryMaxLength: 200,
		Concurrency: 2, FileTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	exp, err := c.Expect(ctx, SourceLocal)
	if err != nil {
		t.Fatal(err)
	}
	comp, err := CheckComplete(ctx, st, exp)
	if err != nil {
		t.Fatalf("the other files: %v (failed: %v)", err, sum.Failed)
	}
	var reason string
	for _, p := range append(sum.Skipped, sum.Failed...) {
		if p.Name == "stalled.txt" {
			reason = p.Reason
		}
	}
	if !strings.Contains(reason, "deadline") {
		t.Fatalf("stalled file: reason %q; skipped %v failed %v", reason, sum.Skipped, sum.Failed)
	}
	t.Logf("%d files indexed; the stalled file: %q (failed: %v)", comp.Indexed, reason, len(sum.Failed) == 1)
	if _, err := CheckCheckpoint(ctx, st, exp); err != nil {
		t.Fatal(err)
	}
}
