package reliability

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/crawl/drivesource"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// envFull selects the full form of the storms (scripts/reliability.sh).
const envFull = "GDS_RELIABILITY_FULL"

// full reports whether the full form runs.
func full() bool { return os.Getenv(envFull) == "1" }

// scale returns ci in the reduced form and fullN in the full form.
func stormScale(ci, fullN int) int {
	if full() {
		return fullN
	}
	return ci
}

// corpus is a Drive tree of n indexable files (Docs, Sheets and text
// blobs, a third each) in a few folders.
type stormCorpus struct {
	emu  *driveemu.Emulator
	top  string
	ids  []string
	srv  *httptest.Server
	name map[string]string // file ID → name
}

func newStormCorpus(t *testing.T, n int, wrap func(http.Handler) http.Handler) *stormCorpus {
	t.Helper()
	e := driveemu.New()
	c := &stormCorpus{emu: e, top: e.AddFolder("root", "Storm"), name: map[string]string{}}
	folders := []string{c.top, e.AddFolder(c.top, "Minutes"), e.AddFolder(c.top, "Reports")}
	for i := range n {
		parent := folders[i%len(folders)]
		name := fmt.Sprintf("storm file %04d", i)
		text := fmt.Sprintf("Storm document %d. The quarterly review of project %d covers budget line %d and the launch of feature %d.", i, i%17, i*7, i%5)
		var id string
		switch i % 3 {
		case 0:
			id = e.AddDoc(parent, name, text)
		case 1:
			id = e.AddSheet(parent, name, fmt.Sprintf("item,amount\nstorm %d,%d\nreview %d,%d\n", i, i*3, i, i*5))
		default:
			name += ".txt"
			id = e.AddBlob(parent, name, "text/plain", []byte(text))
		}
		c.ids = append(c.ids, id)
		c.name[id] = name
	}
	var h http.Handler = e
	if wrap != nil {
		h = wrap(e)
	}
	c.srv = httptest.NewServer(h)
	t.Cleanup(c.srv.Close)
	return c
}

// retryCounter is a RetryPolicy sleeper that never sleeps: it counts the
// retries and adds up the waits the policy asked for.
type stormRetries struct {
	mu      sync.Mutex
	retries int
	waited  time.Duration
}

func (r *stormRetries) sleep(ctx context.Context, d time.Duration) error {
	r.mu.Lock()
	r.retries++
	r.waited += d
	r.mu.Unlock()
	return ctx.Err()
}

func (r *stormRetries) get() (int, time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.retries, r.waited
}

// index is a fresh embedded (SQLite) index.
func stormIndex(t *testing.T) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// crawlOnce runs one crawl of c over a new client with the given policy and
// HTTP client.
func stormCrawl(ctx context.Context, t *testing.T, c *stormCorpus, idx crawl.Index, p ai.Provider, hc *http.Client, rp drive.RetryPolicy) (crawl.Summary, error) {
	t.Helper()
	cl, err := drive.New(ctx, drive.Options{Endpoint: c.srv.URL, HTTPClient: hc, Retry: rp})
	if err != nil {
		t.Fatal(err)
	}
	src := drivesource.New(cl, drivesource.Options{FolderIDs: []string{c.top}})
	return crawl.Run(ctx, crawl.Options{Source: src, Index: idx, Provider: p, SummaryMaxLength: 200, Concurrency: 4})
}

// indexed returns how many of c's files are in the index.
func stormIndexed(t *testing.T, c *stormCorpus, s *sqlite.Store) int {
	t.Helper()
	got, err := s.ContentHashes(context.Background(), c.ids)
	if err != nil {
		t.Fatal(err)
	}
	return len(got)
}

// checkCheckpoint fails when the sync checkpoint has passed a file that is
// not in the index: the next incremental crawl would never see it again.
func stormCheckpoint(t *testing.T, c *stormCorpus, s *sqlite.Store) {
	t.Helper()
	ctx := context.Background()
	states, err := s.SyncStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := store.LatestSync(states)
	got, err := s.ContentHashes(ctx, c.ids)
	if err != nil {
		t.Fatal(err)
	}
	var lost []string
	for _, id := range c.ids {
		f, _ := c.emu.File(id)
		if !f.ModifiedTime.After(st.ModifiedAt) {
			if _, ok := got[id]; !ok {
				lost = append(lost, c.name[id])
			}
		}
	}
	if len(lost) > 0 {
		t.Errorf("the checkpoint %s passed %d files that are not indexed: %s", st.ModifiedAt.Format(time.RFC3339Nano), len(lost), strings.Join(lost, ", "))
	}
}

// problems joins the reasons of failed files (first few).
func stormProblems(ps []crawl.Problem) string {
	var b strings.Builder
	for i, p := range ps {
		if i == 5 {
			fmt.Fprintf(&b, " … (%d more)", len(ps)-5)
			break
		}
		fmt.Fprintf(&b, "\n  %s: %s", p.Name, p.Reason)
	}
	return b.String()
}

// ratio is a/b rounded for the report.
func stormRatio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}
