package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/store"
)

// TestAskReranksPassages checks that ask answers from the passages the
// offline reranker puts first, not the hybrid retrieval's first.
func TestAskReranksPassages(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"history.md": "# Acme history\n\nAcme founded clubs. The Acme founders founded Acme societies, and Acme founders founded more Acme clubs.\n",
		"year.md":    "# Notes\n\nThe company Acme was founded in 1921 by two engineers in a small workshop near the river.\n",
		"other.md":   "# Garden\n\nTomatoes grow well in the sun when they are watered every morning.\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := New(Options{Config: loadConfig(t, map[string]string{config.EnvAIProvider: config.ProviderOffline}), IO: iostreams.IOStreams{Lang: i18n.En}})
	ctx := context.Background()
	if _, err := d.Crawl(ctx, CrawlRequest{Source: "local:" + root}); err != nil {
		t.Fatalf("crawl: %v", err)
	}
	const q = "When was Acme founded?"
	prov, err := d.Provider()
	if err != nil {
		t.Fatal(err)
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	vecs, err := prov.Embed(ctx, []string{q})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := store.RetrieveChunks(ctx, st, store.Retrieval{Query: q, Vector: vecs[0], TopK: AskCandidates})
	if err != nil {
		t.Fatal(err)
	}
	names, err := fileNamesOf(ctx, st, raw)
	if err != nil {
		t.Fatal(err)
	}
	dc, _ := st.(docFreqCounter)
	want, err := rerankChunks(ctx, prov, dc, q, raw, names, 1)
	if err != nil {
		t.Fatal(err)
	}
	// The reranker's first differs from the retrieval's, so the test can fail.
	if len(want) != 1 || want[0].FileID == raw[0].FileID {
		t.Fatalf("reranked %v, retrieved %v: want a different first passage", want, raw)
	}
	res, err := d.Ask(ctx, AskRequest{RetrieveRequest: RetrieveRequest{Query: q, TopK: 1}})
	if err != nil {
		t.Fatal(err)
	}
	got := append(res.Sources, res.Closest...)
	if len(got) != 1 || got[0].FileID != want[0].FileID {
		t.Errorf("ask answered %q from %v, want the reranker's first passage (file %s)", res.Answer, got, names[want[0].FileID])
	}
	if !strings.Contains(res.Answer, "Acme") {
		t.Errorf("answer %q: want it from the reranked passage", res.Answer)
	}
}
