package crawl_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// countingProvider counts summaries so tests can prove unchanged content
// costs no LLM call.
type countingProvider struct {
	ai.Provider
	summaries atomic.Int64
}

func (c *countingProvider) Structured(ctx context.Context, r ai.Request) (json.RawMessage, error) {
	if r.Task == ai.TaskSummarize {
		c.summaries.Add(1)
	}
	return c.Provider.Structured(ctx, r)
}

func copyTree(t *testing.T, src, dst string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestLocalCrawlEndToEnd(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	texts := copyTree(t, "../../testdata/sample", dir)
	// A binary and a hidden file: the first is skipped with a reason, the second never listed.
	if err := os.WriteFile(filepath.Join(dir, "logo.png"), []byte("\x89PNG\r\n\x1a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".hidden.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Pin every mtime in the past so later edits are strictly newer.
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error { return os.Chtimes(p, old, old) })

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
	opts := crawl.Options{Source: src, Index: st, Provider: p, SummaryMaxLength: 120, Concurrency: 3}

	sum, err := crawl.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Full || sum.New != texts || len(sum.Failed) != 0 || len(sum.Skipped) != 1 {
		t.Fatalf("first crawl: %+v", sum)
	}
	if !strings.Contains(sum.Skipped[0].Reason, "image/png") {
		t.Errorf("png skipped for %q", sum.Skipped[0].Reason)
	}
	if !sum.Checkpoint.Equal(old.UTC().Truncate(time.Second)) && !sum.Checkpoint.Equal(old.UTC()) {
		t.Errorf("checkpoint %v, want %v", sum.Checkpoint, old.UTC())
	}
	if got := p.summaries.Load(); got != int64(texts) {
		t.Errorf("%d summaries, want %d", got, texts)
	}

	// Nothing changed: incremental, every file listed and found unchanged
	// from its record, none read.
	sum, err = crawl.Run(ctx, opts)
	if err != nil || sum.Full || sum.Processed != 0 || sum.Unchanged != sum.Listed || sum.Mode != "reconcile" {
		t.Fatalf("second crawl: %+v, %v", sum, err)
	}

	// One file edited, one only touched: one summary, one unchanged.
	now := time.Now()
	edited := filepath.Join(dir, "wiki-en", "Oxygen-1.txt")
	if err := os.WriteFile(edited, []byte("Oxygen\n\nLiquid oxygen is pale blue and strongly paramagnetic."), 0o644); err != nil {
		t.Fatal(err)
	}
	touched := filepath.Join(dir, "wiki-en", "Kenya-1.txt")
	os.Chtimes(edited, now, now)
	os.Chtimes(touched, now, now)
	before := p.summaries.Load()
	sum, err = crawl.Run(ctx, opts)
	if err != nil || sum.Full || sum.Processed != 2 || sum.Updated != 1 || sum.Unchanged != sum.Listed-1 {
		t.Fatalf("third crawl: %+v, %v", sum, err)
	}
	if got := p.summaries.Load() - before; got != 1 {
		t.Errorf("%d summaries for one edited file", got)
	}

	// The index answers queries about the content.
	find := func(q, lang string) (search.Outcome, error) {
		l := &search.Loop{Keywords: search.StoreSearcher{Index: st}, Index: st, AI: offline.New(), Asker: search.NoAnswer{}}
		return l.Run(ctx, search.NewState(q, lang, time.Now(), 5))
	}
	out, err := find("梅雨明けの別名は？", "ja")
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) == 0 || out.Results[0].File.Name != "梅雨-2.txt" {
		var names []string
		for _, r := range out.Results {
			names = append(names, r.File.Name)
		}
		t.Errorf("top results %q, want 梅雨-2.txt first", names)
	}
	out, err = find("paramagnetic liquid oxygen", "en")
	if err != nil || len(out.Results) == 0 || out.Results[0].File.Name != "Oxygen-1.txt" {
		t.Errorf("edited file not found first: %+v, %v", out.Results, err)
	}

	// A different crawl target forces a full scan.
	src2, _ := crawl.NewLocalSource(filepath.Join(dir, "wiki-en"))
	opts.Source = src2
	sum, err = crawl.Run(ctx, opts)
	if err != nil || !sum.Full || sum.Listed != 36 {
		t.Fatalf("new target: %+v, %v", sum, err)
	}
}

// A file indexed under the old chunking rules (its content hash the bare
// SHA-256 of its text) is indexed again when a crawl reads it, cut at
// sentence ends; read again, it is unchanged.
func TestIndexFileRechunksAnOldIndex(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p := offline.New()
	if err := st.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: p.EmbeddingModel(ctx).Name, Dim: p.EmbeddingModel(ctx).Dim}); err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("The Normans settled in Normandy in the tenth century. ", 40)
	sum := sha256.Sum256([]byte(text))
	vecs, err := p.Embed(ctx, []string{text, text[:1000], text[800:]})
	if err != nil {
		t.Fatal(err)
	}
	old := store.File{ID: "f", Name: "normans.txt", MimeType: "text/plain", ContentHash: hex.EncodeToString(sum[:]), Text: text, Embedding: vecs[0]}
	if err := st.UpsertFile(ctx, old, []store.Chunk{{Ordinal: 0, Text: text[:1000], Embedding: vecs[1]}, {Ordinal: 1, Text: text[800:], Embedding: vecs[2]}}); err != nil {
		t.Fatal(err)
	}
	o := crawl.FileOptions{Index: st, Provider: p}
	e := crawl.Entry{ID: "f", Name: "normans.txt", MimeType: "text/plain"}
	res, err := crawl.IndexFile(ctx, o, e, strings.NewReader(text))
	if err != nil || res.Status != crawl.StatusUpdated {
		t.Fatalf("old index: %+v, %v; want the file indexed again", res, err)
	}
	chunks, err := st.FileChunks(ctx, "f", 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		if !strings.HasPrefix(c.Text, "The Normans") || !strings.HasSuffix(c.Text, "century.") {
			t.Errorf("chunk %d is not whole sentences: %q", c.Ordinal, c.Text)
		}
	}
	if res, err := crawl.IndexFile(ctx, o, e, strings.NewReader(text)); err != nil || res.Status != crawl.StatusUnchanged {
		t.Fatalf("read again: %+v, %v; want unchanged", res, err)
	}
}
