package crawl_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// openCounter counts the files a crawl reads.
type openCounter struct {
	crawl.Source
	mu     sync.Mutex
	opened []string
}

func (c *openCounter) Open(ctx context.Context, e crawl.Entry) (io.ReadCloser, error) {
	c.mu.Lock()
	c.opened = append(c.opened, e.Name)
	c.mu.Unlock()
	return c.Source.Open(ctx, e)
}

func (c *openCounter) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.opened
	c.opened = nil
	sort.Strings(out)
	return out
}

func write(t *testing.T, path, text string, mod time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
}

// The acceptance of incremental crawls for a local folder: a file moved in with an
// old modification time, a renamed file and a deleted file are all
// reflected by a plain incremental crawl, which reads only those files:
// not the unchanged ones, and not the ones skipped before (a refused type
// and a file without text, both recorded by name only with the reason).
func TestLocalIncrementalSeesMovesRenamesAndDeletes(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	a := filepath.Join(root, "A")
	outside := filepath.Join(root, "elsewhere")
	recent := time.Now().Add(-time.Hour)
	write(t, filepath.Join(a, "one.txt"), "first notes about the harbour project", recent)
	write(t, filepath.Join(a, "two.txt"), "second notes, to be deleted", recent.Add(time.Minute))
	write(t, filepath.Join(a, "sub", "three.txt"), "third notes in a subfolder", recent.Add(2*time.Minute))
	write(t, filepath.Join(a, "photo.png"), "\x89PNG\r\n\x1a\nnot really", recent)
	write(t, filepath.Join(a, "empty.txt"), "   ", recent)

	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	local, err := crawl.NewLocalSource(a)
	if err != nil {
		t.Fatal(err)
	}
	src := &openCounter{Source: local}
	opts := crawl.Options{Source: src, Index: st, Provider: offline.New(), SummaryMaxLength: 100, Concurrency: 2}
	sum, err := crawl.Run(ctx, opts)
	if err != nil || sum.Mode != "full" || sum.New != 3 || len(sum.Skipped) != 2 {
		t.Fatalf("first crawl: %+v, %v", sum, err)
	}
	src.take()

	// Moved in with a modification time years before the checkpoint;
	// renamed; deleted.
	old := time.Date(2019, 3, 4, 5, 6, 7, 0, time.UTC)
	write(t, filepath.Join(outside, "archive.txt"), "an old report about the lighthouse", old)
	if err := os.Rename(filepath.Join(outside, "archive.txt"), filepath.Join(a, "sub", "archive.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(a, "one.txt"), filepath.Join(a, "uno.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(a, "two.txt")); err != nil {
		t.Fatal(err)
	}
	sum, err = crawl.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	// A local file's ID is its path: the renamed file is a new entry and
	// its old one is removed.
	if sum.Full || sum.Mode != "reconcile" || sum.New != 2 || sum.Removed != 2 || sum.Processed != 2 || len(sum.Skipped)+len(sum.Failed) != 0 {
		t.Fatalf("incremental crawl: %+v, want 2 new (moved in, renamed), 2 removed (deleted, old name)", sum)
	}
	if got := src.take(); len(got) != 2 || got[0] != "archive.txt" || got[1] != "uno.txt" {
		t.Errorf("files read by the incremental crawl: %v, want only archive.txt and uno.txt", got)
	}
	files, err := st.GetFiles(ctx, []string{crawl.LocalID(a, "sub/archive.txt"), crawl.LocalID(a, "uno.txt"),
		crawl.LocalID(a, "one.txt"), crawl.LocalID(a, "two.txt")})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Name != "archive.txt" || files[0].Path != "sub" || !files[0].ModifiedAt.Equal(old) || files[1].Name != "uno.txt" {
		t.Errorf("rows after the incremental crawl: %+v", files)
	}
	ids, _ := st.IndexedIDs(ctx)
	if len(ids) != 5 { // three.txt, archive.txt, uno.txt + the two name-only entries
		t.Errorf("%d rows indexed, want 5", len(ids))
	}

	// Nothing changed: nothing is read, the skipped files included.
	sum, err = crawl.Run(ctx, opts)
	if err != nil || sum.Processed != 0 || sum.Unchanged != 5 || sum.Removed != 0 || len(sum.Skipped) != 0 {
		t.Fatalf("crawl with nothing changed: %+v, %v", sum, err)
	}
	if got := src.take(); len(got) != 0 {
		t.Errorf("files read with nothing changed: %v", got)
	}

	// A file only touched is read once (its text is unchanged: no new
	// summary), its record takes the new time, and it is not read again.
	touched := recent.Add(30 * time.Minute)
	if err := os.Chtimes(filepath.Join(a, "uno.txt"), touched, touched); err != nil {
		t.Fatal(err)
	}
	sum, err = crawl.Run(ctx, opts)
	if err != nil || sum.Processed != 1 || sum.Unchanged != 5 || sum.Updated != 0 {
		t.Fatalf("crawl after a touch: %+v, %v", sum, err)
	}
	sum, err = crawl.Run(ctx, opts)
	if err != nil || sum.Processed != 0 {
		t.Fatalf("crawl after the touch was recorded: %+v, %v; want nothing read", sum, err)
	}
	src.take()

	// The skipped PNG changes: it is read again (and skipped again).
	write(t, filepath.Join(a, "photo.png"), "\x89PNG\r\n\x1a\nanother", recent.Add(time.Hour))
	sum, err = crawl.Run(ctx, opts)
	if err != nil || sum.Processed != 1 || len(sum.Skipped) != 1 {
		t.Fatalf("crawl after the png changed: %+v, %v", sum, err)
	}
}

// A file whose extraction runs out of time, with no entry yet, is recorded
// by name only with the reason, so the next incremental crawl does not
// parse it again until it changes.
func TestTimedOutFileIsRemembered(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write(t, filepath.Join(root, "slow.txt"), "text that takes too long to parse", time.Now().Add(-time.Hour))
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	local, err := crawl.NewLocalSource(root)
	if err != nil {
		t.Fatal(err)
	}
	src := &openCounter{Source: local}
	// A limit already over when extraction starts: every parse times out.
	opts := crawl.Options{Source: src, Index: st, Provider: offline.New(), SummaryMaxLength: 100, FileTimeout: time.Nanosecond}
	sum, err := crawl.Run(ctx, opts)
	if err != nil || len(sum.Skipped) != 1 || !strings.Contains(sum.Skipped[0].Reason, "deadline") ||
		!strings.HasSuffix(sum.Skipped[0].Reason, crawl.NameOnlySuffix) {
		t.Fatalf("first crawl: %+v, %v; want slow.txt skipped for its deadline and recorded by name", sum, err)
	}
	src.take()
	if sum, err = crawl.Run(ctx, opts); err != nil || sum.Processed != 0 || len(sum.Skipped) != 0 {
		t.Fatalf("second crawl: %+v, %v; want nothing read", sum, err)
	}
	if got := src.take(); len(got) != 0 {
		t.Errorf("read again: %v", got)
	}
}
