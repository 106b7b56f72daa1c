package crawl

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/ai/ratelimit"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// batchFailer refuses every embeddings call of more than one file's inputs
// (two inputs each here), and any call holding "poison"; it looks paced.
type batchFailer struct {
	ai.Provider
	mu    sync.Mutex
	calls []int
}

func (b *batchFailer) Scheduler() *ratelimit.Scheduler {
	return ratelimit.NewScheduler("chat", "emb", ratelimit.Config{}, nil)
}

func (b *batchFailer) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	b.mu.Lock()
	b.calls = append(b.calls, len(texts))
	b.mu.Unlock()
	if len(texts) > 2 || slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(s, "poison") }) {
		return nil, errors.New("embeddings refused")
	}
	return b.Provider.Embed(ctx, texts)
}

// TestFailedBatchLosesNoFile: a batch that fails is retried file by file;
// only the file that fails alone fails, every file has one result, and the
// others are committed.
func TestFailedBatchLosesNoFile(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	prov := &batchFailer{Provider: openaitest.NewSimpleBackend(8)}
	if err := st.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: prov.EmbeddingModel(ctx).Name, Dim: prov.EmbeddingModel(ctx).Dim}); err != nil {
		t.Fatal(err)
	}
	o := FileOptions{Index: st, Provider: prov, SummaryMaxLength: 50, Source: "local"}
	var files []*fileText
	for i, text := range []string{"alpha notes", "beta poison notes", "gamma notes"} {
		e := Entry{ID: fmt.Sprint(i), Name: fmt.Sprintf("f%d.txt", i), MimeType: "text/plain"}
		f, _, err := readText(ctx, o, e, strings.NewReader(text))
		if err != nil || f == nil {
			t.Fatalf("readText: %v", err)
		}
		f.i = i
		if err := f.summarize(ctx); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	results := make(chan result, len(files))
	p := newPipeline(ctx, ctx, func() {}, Options{Provider: prov, Concurrency: 1}, results)
	p.embedBatch(files)
	close(results)
	got := map[int]Status{}
	for r := range results {
		if _, dup := got[r.i]; dup {
			t.Errorf("file %d reported twice", r.i)
		}
		got[r.i] = r.status
	}
	want := map[int]Status{0: StatusNew, 1: StatusFailed, 2: StatusNew}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("results = %v, want %v", got, want)
	}
	if !slices.Equal(prov.calls, []int{6, 2, 2, 2}) {
		t.Errorf("embeddings calls of %v inputs, want the batch of 6 then each file's 2", prov.calls)
	}
	ids, _ := st.SourceIDs(ctx, "local")
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"0", "2"}) {
		t.Errorf("indexed %v, want 0 and 2", ids)
	}
}
