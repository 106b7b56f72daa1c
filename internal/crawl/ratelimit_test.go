package crawl_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/ai/ratelimit"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// memSource lists n small text files, one minute apart.
type memSource struct{ n int }

func (memSource) Kind() string        { return "local" }
func (memSource) Fingerprint() string { return "mem" }
func (s memSource) List(_ context.Context, _ time.Time, fn func(crawl.Entry) error) error {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range s.n {
		if err := fn(crawl.Entry{ID: fmt.Sprint(i), Name: fmt.Sprintf("f%03d.txt", i), MimeType: "text/plain",
			ModifiedAt: t0.Add(time.Duration(i) * time.Minute), Size: 40}); err != nil {
			return err
		}
	}
	return nil
}
func (memSource) Open(_ context.Context, e crawl.Entry) (io.ReadCloser, error) {
	return io.NopCloser(strings.NewReader("The minutes of meeting " + e.Name + " about the budget.")), nil
}

func openIndex(t *testing.T) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func emulated(t *testing.T, opts ...openaitest.Option) (*openaitest.Server, *openai.Provider) {
	t.Helper()
	srv := openaitest.NewServer(t, opts...)
	p, err := openai.New(openai.Config{BaseURL: srv.URL, EmbeddingDim: openaitest.DefaultSimpleDim, EmbeddingModel: "text-embedding-3-small"})
	if err != nil {
		t.Fatal(err)
	}
	return srv, p
}

// maxInWindow is the most requests that arrived within any window of d.
func maxInWindow(reqs []openaitest.Recorded, d time.Duration) int {
	best := 0
	for i := range reqs {
		n := 0
		for j := i; j < len(reqs) && reqs[j].Time.Sub(reqs[i].Time) < d; j++ {
			n++
		}
		best = max(best, n)
	}
	return best
}

// TestCrawlWithinTheRateLimit crawls more files than the chat limit allows
// per second through the real OpenAI client and the emulator: no file is
// lost or done twice, the client never sent more than the limit allows in
// any second, hardly any request was refused, and the embeddings of
// several files went in one request.
func TestCrawlWithinTheRateLimit(t *testing.T) {
	const files, rpm = 60, 1200 // 20 chat requests a second
	srv, p := emulated(t, openaitest.WithLatency(50*time.Millisecond),
		openaitest.WithRateLimits(openaitest.RateLimit{RPM: rpm, TPM: 1_000_000}, openaitest.RateLimit{RPM: 600}))
	sum, err := crawl.Run(context.Background(), crawl.Options{Source: memSource{files}, Index: openIndex(t), Provider: p, SummaryMaxLength: 80})
	if err != nil {
		t.Fatal(err)
	}
	if sum.New != files || len(sum.Failed) != 0 || !sum.CheckpointSaved {
		t.Fatalf("summary: %d new, %d failed %v, checkpoint saved %v", sum.New, len(sum.Failed), sum.Failed, sum.CheckpointSaved)
	}
	chat := srv.RequestsTo(openaitest.PathChat)
	served, refused := 0, 0
	for _, r := range chat {
		switch r.Status {
		case http.StatusOK:
			served++
		case http.StatusTooManyRequests:
			refused++
		}
	}
	if served != files {
		t.Errorf("%d summaries served for %d files: a file was lost or done twice", served, files)
	}
	if refused*20 > len(chat) {
		t.Errorf("%d of %d chat requests refused (over 5 %%)", refused, len(chat))
	}
	// What the emulator would serve in a second (its one-second bucket
	// plus a second's refill) bounds what the client sent in any second.
	if n := maxInWindow(chat, time.Second); n > 2*rpm/60 {
		t.Errorf("%d chat requests sent within one second at %d RPM", n, rpm)
	}
	emb := srv.RequestsTo(openaitest.PathEmbeddings)
	batched := false
	for _, r := range emb {
		batched = batched || r.BatchSize > 2 // one file here is 2 inputs (summary, one chunk)
	}
	if !batched || len(emb) >= files {
		t.Errorf("%d embeddings requests for %d files, batched across files: %v", len(emb), files, batched)
	}
}

// TestCrawlThroughA429Storm: a burst of refusals delays the crawl but
// loses and repeats nothing.
func TestCrawlThroughA429Storm(t *testing.T) {
	const files = 20
	srv, p := emulated(t)
	storm := openaitest.RateLimited(20 * time.Millisecond)
	storm.Path = openaitest.PathChat
	srv.Enqueue(openaitest.Repeat(storm, 15)...)
	emb := openaitest.RateLimited(20 * time.Millisecond)
	emb.Path = openaitest.PathEmbeddings
	srv.Enqueue(openaitest.Repeat(emb, 3)...)
	sum, err := crawl.Run(context.Background(), crawl.Options{Source: memSource{files}, Index: openIndex(t), Provider: p, SummaryMaxLength: 80})
	if err != nil || sum.New != files || len(sum.Failed) != 0 {
		t.Fatalf("Run = %v: %d new, %d failed %v", err, sum.New, len(sum.Failed), sum.Failed)
	}
	served := 0
	for _, r := range srv.RequestsTo(openaitest.PathChat) {
		if r.Status == http.StatusOK {
			served++
		}
	}
	if served != files || srv.Pending() != 0 {
		t.Errorf("%d summaries for %d files, %d scripted refusals unused", served, files, srv.Pending())
	}
}

// quotaAfter switches the emulator to insufficient_quota when the n-th
// file is reported committed.
type quotaAfter struct {
	srv  *openaitest.Server
	n    int
	mu   sync.Mutex
	seen int
}

func (q *quotaAfter) Begin(int, bool) {}
func (q *quotaAfter) File(_ crawl.Entry, s crawl.Status, _ string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if s == crawl.StatusNew {
		if q.seen++; q.seen == q.n {
			q.srv.SetQuotaExhausted(true)
		}
	}
}

// TestQuotaStopsTheCrawlWithTheCheckpointIntact: insufficient_quota ends
// the crawl with that error, the checkpoint covers only committed files,
// and the next crawl (quota restored) indexes exactly the rest.
func TestQuotaStopsTheCrawlWithTheCheckpointIntact(t *testing.T) {
	const files = 40
	// 40 summaries at 100 ms, 5 at once, take at least 0.8 s; the first
	// batch of embeddings goes at about 0.6 s: some files are committed
	// before the quota runs out, some are not.
	srv, p := emulated(t, openaitest.WithLatency(100*time.Millisecond))
	idx := openIndex(t)
	src := memSource{files}
	sum, err := crawl.Run(context.Background(), crawl.Options{Source: src, Index: idx, Provider: p, SummaryMaxLength: 80,
		Progress: &quotaAfter{srv: srv, n: 1}})
	if !errors.Is(err, ai.ErrQuotaExhausted) {
		t.Fatalf("Run = %v, want the quota error", err)
	}
	if sum.New < 1 || sum.New >= files {
		t.Fatalf("%d new before the quota ran out", sum.New)
	}
	state, err := idx.SyncState(context.Background(), "local")
	if err != nil {
		t.Fatal(err)
	}
	indexed, err := idx.SourceIDs(context.Background(), "local")
	if err != nil {
		t.Fatal(err)
	}
	committed := map[string]bool{}
	for _, id := range indexed {
		committed[id] = true
	}
	// Every file at or before the checkpoint is committed.
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range files {
		if m := t0.Add(time.Duration(i) * time.Minute); !m.After(state.ModifiedAt) && !committed[fmt.Sprint(i)] {
			t.Errorf("file %d (modified %s) is not indexed but the checkpoint is %s", i, m, state.ModifiedAt)
		}
	}
	if len(indexed) != sum.New {
		t.Errorf("%d files in the index, %d reported new", len(indexed), sum.New)
	}
	quota := 0
	for _, r := range srv.Requests() {
		if r.Status == http.StatusTooManyRequests {
			quota++
		}
	}
	// Only the calls already in flight when the quota ran out (each lane's
	// starting window) may be refused; after that a lane sends none.
	if quota > 2*ratelimit.DefaultInitial {
		t.Errorf("%d requests refused for quota", quota)
	}

	srv.SetQuotaExhausted(false)
	srv.Reset()
	p2, _ := openai.New(openai.Config{BaseURL: srv.URL, EmbeddingDim: openaitest.DefaultSimpleDim})
	sum2, err := crawl.Run(context.Background(), crawl.Options{Source: src, Index: idx, Provider: p2, SummaryMaxLength: 80})
	if err != nil || sum2.New != files-sum.New || len(sum2.Failed) != 0 {
		t.Fatalf("second crawl = %v: %d new (want %d), %d failed", err, sum2.New, files-sum.New, len(sum2.Failed))
	}
	if n := len(srv.RequestsTo(openaitest.PathChat)); n != files-sum.New {
		t.Errorf("second crawl made %d summaries, want %d (none redone)", n, files-sum.New)
	}
	all, _ := idx.SourceIDs(context.Background(), "local")
	if len(all) != files {
		t.Errorf("%d of %d files indexed after both crawls", len(all), files)
	}
	var _ store.SyncState = state
}

// cancelAfter cancels the crawl when the n-th file is reported committed.
type cancelAfter struct {
	cancel func()
	n      int
	mu     sync.Mutex
}

func (c *cancelAfter) Begin(int, bool) {}
func (c *cancelAfter) File(_ crawl.Entry, s crawl.Status, _ string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s == crawl.StatusNew {
		if c.n--; c.n == 0 {
			c.cancel()
		}
	}
}

// TestStoppedCrawlRedoesNoCommittedFile: a crawl stopped in the middle
// (Ctrl-C, a kill's in-process form) under rate limits keeps what it
// committed; the next crawl summarises exactly the files that were not,
// and ends with every file indexed.
func TestStoppedCrawlRedoesNoCommittedFile(t *testing.T) {
	const files = 40
	srv, p := emulated(t, openaitest.WithLatency(50*time.Millisecond),
		openaitest.WithRateLimits(openaitest.RateLimit{RPM: 1200}, openaitest.RateLimit{RPM: 600}))
	idx := openIndex(t)
	ctx, cancel := context.WithCancel(context.Background())
	sum, err := crawl.Run(ctx, crawl.Options{Source: memSource{files}, Index: idx, Provider: p, SummaryMaxLength: 80,
		Progress: &cancelAfter{cancel: cancel, n: 3}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want cancelled", err)
	}
	committed, _ := idx.SourceIDs(context.Background(), "local")
	if len(committed) != sum.New || sum.New == 0 || sum.New == files {
		t.Fatalf("%d committed, %d reported new", len(committed), sum.New)
	}
	srv.Reset()
	sum2, err := crawl.Run(context.Background(), crawl.Options{Source: memSource{files}, Index: idx, Provider: p, SummaryMaxLength: 80})
	if err != nil || sum2.New != files-len(committed) {
		t.Fatalf("second crawl = %v, %d new; want %d", err, sum2.New, files-len(committed))
	}
	served := 0
	for _, r := range srv.RequestsTo(openaitest.PathChat) {
		if r.Status == http.StatusOK {
			served++
		}
	}
	if served != files-len(committed) {
		t.Errorf("the second crawl made %d summaries for %d files not committed", served, files-len(committed))
	}
	all, _ := idx.SourceIDs(context.Background(), "local")
	if len(all) != files {
		t.Errorf("%d of %d files indexed", len(all), files)
	}
}
