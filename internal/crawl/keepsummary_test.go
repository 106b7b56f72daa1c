package crawl_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// A file whose text is unchanged but was chunked under older rules is
// chunked again and keeps its summary: no model call but its embeddings.
// A file whose text changed is summarised again.
func TestRechunkKeepsTheSummary(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	text := "The towers stand on caissons sunk into the clay of the riverbed. Tolls on the bridge were abolished in 2019."
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
	p := &countingProvider{Provider: offline.New()}
	run := func() crawl.Summary {
		t.Helper()
		sum, err := crawl.Run(ctx, crawl.Options{Source: src, Key: "local:" + root, Index: st, Provider: p, SummaryMaxLength: 100})
		if err != nil || len(sum.Failed) != 0 {
			t.Fatalf("crawl: %+v, %v", sum, err)
		}
		return sum
	}
	run()
	ids, err := st.SourceIDs(ctx, "local:"+root)
	if err != nil || len(ids) != 1 {
		t.Fatalf("ids %v, %v", ids, err)
	}
	files, err := st.GetFiles(ctx, ids)
	if err != nil || len(files) != 1 || p.summaries.Load() != 1 {
		t.Fatalf("first crawl: files %v, %v, %d summaries", files, err, p.summaries.Load())
	}
	if files[0].ContentHash != crawl.ContentHash(text) {
		t.Fatal("the stored text is not the file's: the case tests nothing")
	}
	chunks, err := st.FileChunks(ctx, ids[0], 100)
	if err != nil {
		t.Fatal(err)
	}
	for i := range chunks {
		chunks[i].Embedding = files[0].Embedding // not returned by FileChunks
	}
	restore := func(t *testing.T, hash, summary string) {
		t.Helper()
		f := files[0]
		// An older extraction read it, so the crawl reads it again.
		f.ContentHash, f.Summary, f.ExtractVersion = hash, summary, 1
		if err := st.UpsertFile(ctx, f, chunks); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name      string
		hash      string
		summaries int64
		summary   string
	}{
		{"hashed under chunk version 2", hashAt(2, text), 0, "kept summary"},
		{"hashed under chunk version 1 (the text alone)", hashAt(1, text), 0, "kept summary"},
		{"another text", hashAt(2, text+" More."), 1, files[0].Summary},
	} {
		t.Run(c.name, func(t *testing.T) {
			restore(t, c.hash, "kept summary")
			before := p.summaries.Load()
			if sum := run(); sum.Updated != 1 {
				t.Fatalf("crawl: %+v; want the file indexed again", sum)
			}
			if got := p.summaries.Load() - before; got != c.summaries {
				t.Errorf("%d summaries asked for, want %d", got, c.summaries)
			}
			got, err := st.GetFiles(ctx, ids)
			if err != nil || len(got) != 1 {
				t.Fatal(got, err)
			}
			if got[0].Summary != c.summary || got[0].ContentHash != crawl.ContentHash(text) || !slices.Equal(got[0].Keywords, files[0].Keywords) {
				t.Errorf("stored summary %q hash %s keywords %v; want %q, the current hash, %v", got[0].Summary, got[0].ContentHash, got[0].Keywords, c.summary, files[0].Keywords)
			}
		})
	}
}

// hashAt is crawl.ContentHash under chunking rules version v, as it was
// written: version 1 hashed the text alone.
func hashAt(v int, text string) string {
	s := text
	if v > 1 {
		s = fmt.Sprintf("gds-chunks-v%d\x00", v) + text
	}
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
