package eval

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/search"
)

func loadQueries(t *testing.T) []Query {
	t.Helper()
	f, err := os.Open("testdata/queries.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, err := ReadQueries(f)
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

func openIndex(t *testing.T, corpus, dir string) *Index {
	t.Helper()
	ix, err := OpenIndex(context.Background(), IndexOptions{Corpus: corpus, Dir: dir, Provider: offline.New(), SummaryMaxLength: 200, Concurrency: 2})
	if err != nil {
		t.Fatalf("OpenIndex: %v", err)
	}
	t.Cleanup(func() { ix.Store.Close() })
	return ix
}

// The index is built once, reused while the corpus is unchanged, and
// rebuilt when a file changes.
func TestOpenIndexReuse(t *testing.T) {
	corpus := t.TempDir()
	for _, name := range []string{"01-lighthouse.txt", "02-sourdough.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata/corpus", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(corpus, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	ix := openIndex(t, corpus, dir)
	if ix.Reused || ix.Crawl.New != 2 {
		t.Fatalf("first open: reused %v, crawl %+v; want a new index of 2 files", ix.Reused, ix.Crawl)
	}
	ix.Store.Close()
	ix = openIndex(t, corpus, dir)
	if !ix.Reused {
		t.Fatal("second open of an unchanged corpus rebuilt the index")
	}
	ix.Store.Close()

	// A new file changes the fingerprint: the index is rebuilt with it.
	if err := os.WriteFile(filepath.Join(corpus, "03-new.txt"), []byte("Tidal pools\n\nAnemones live in tidal pools.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ix = openIndex(t, corpus, dir)
	if ix.Reused || ix.Crawl.New != 3 {
		t.Fatalf("after adding a file: reused %v, crawl %+v; want a rebuilt index of 3 files", ix.Reused, ix.Crawl)
	}
	res, err := FTS5System{Index: ix.Store}.Search(context.Background(), "anemones tidal")
	if err != nil || len(res.Files) == 0 || res.Files[0] != "03-new.txt" {
		t.Errorf("search after rebuild = %+v, %v; want 03-new.txt first", res, err)
	}
	// Hidden files are not part of the corpus, as for the local source.
	if err := os.WriteFile(filepath.Join(corpus, ".DS_Store"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	ix.Store.Close()
	if ix = openIndex(t, corpus, dir); !ix.Reused {
		t.Error("a hidden file forced a rebuild")
	}
	if _, err := Fingerprint(context.Background(), t.TempDir(), offline.New()); err == nil {
		t.Error("Fingerprint of an empty folder: no error")
	}
}

// Both systems end to end on the tiny corpus: every answerable query is
// found first; the query with no matching word finds nothing.
func TestSystemsOnTinyCorpus(t *testing.T) {
	qs := loadQueries(t)
	ix := openIndex(t, "testdata/corpus", t.TempDir())
	prov := offline.New()
	docs, err := ReadCorpus(context.Background(), "testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	systems := []System{
		FTS5System{Index: ix.Store},
		RefBM25System{Index: NewRefBM25(docs)},
		LoopSystem{
			Loop:     &search.Loop{Keywords: search.StoreSearcher{Index: ix.Store}, Index: ix.Store, AI: prov, Asker: search.NoAnswer{}},
			Lang:     i18n.En,
			MaxLoops: 5,
			Now:      func() time.Time { return time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC) },
		},
	}
	for _, sys := range systems {
		rep, results, err := Run(context.Background(), sys, qs, Options{})
		if err != nil {
			t.Fatalf("%s: %v", sys.Name(), err)
		}
		if rep.Queries != 9 || rep.System != sys.Name() {
			t.Errorf("%s: report %+v", sys.Name(), rep)
		}
		for _, r := range results[:8] {
			if r.Rank != 1 {
				t.Errorf("%s: %s %q ranked %v, relevant %v at %d", sys.Name(), r.Query.ID, r.Query.Query, r.Ranked.Files, r.Query.Relevant, r.Rank)
			}
		}
		if n := len(results[8].Ranked.Files); n != 0 {
			t.Errorf("%s: q9 returned %d files", sys.Name(), n)
		}
		if rep.RecallAt1 != 0.8889 || rep.RecallAt10 != 0.8889 || rep.MRRAt10 != 0.8889 || rep.ZeroResultRate != 0.1111 {
			t.Errorf("%s: metrics %+v, want 8/9 found first and 1/9 with no result", sys.Name(), rep)
		}
	}
}

// fakeSystem returns a fixed ranking per query and can fail one.
type fakeSystem struct {
	answers map[string][]string
	fail    string
	calls   atomic.Int32
}

func (f *fakeSystem) Name() string     { return "fake" }
func (f *fakeSystem) Provider() string { return "" }
func (f *fakeSystem) Search(ctx context.Context, q string) (Ranked, error) {
	f.calls.Add(1)
	if q == f.fail {
		return Ranked{}, errors.New("boom")
	}
	return Ranked{Files: f.answers[q], Loops: 1, End: "results"}, nil
}

func TestRunOrderWorkersAndErrors(t *testing.T) {
	var qs []Query
	sys := &fakeSystem{answers: map[string][]string{}}
	for i := range 40 {
		q := strings.Repeat("q", i+1)
		rel := "r" + q
		qs = append(qs, Query{ID: q, Query: q, Relevant: []string{rel}})
		switch i % 4 {
		case 0:
			sys.answers[q] = []string{rel}
		case 1:
			sys.answers[q] = []string{"x", rel}
		case 2:
			sys.answers[q] = []string{"x", "y"}
		}
	}
	// Per 4 queries: ranks 1, 2, miss, zero. R@1 1/4, R@10 2/4, MRR 1.5/4.
	var progress []int
	one, res1, err := Run(context.Background(), sys, qs, Options{Progress: func(done, total int) { progress = append(progress, done) }})
	if err != nil {
		t.Fatal(err)
	}
	if one.RecallAt1 != 0.25 || one.RecallAt10 != 0.5 || one.MRRAt10 != 0.375 || one.ZeroResultRate != 0.25 || one.MeanLoops != 1 {
		t.Errorf("report %+v", one)
	}
	if len(progress) != 40 || progress[39] != 40 {
		t.Errorf("progress calls %v", progress)
	}
	four, res4, err := Run(context.Background(), sys, qs, Options{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if four.RecallAt1 != one.RecallAt1 || four.MRRAt10 != one.MRRAt10 || four.ZeroResultRate != one.ZeroResultRate {
		t.Errorf("4 workers %+v differ from 1 worker %+v", four, one)
	}
	for i := range res1 {
		if res1[i].Query.ID != qs[i].ID || res4[i].Query.ID != qs[i].ID || res1[i].Rank != res4[i].Rank {
			t.Fatalf("results not in input order at %d", i)
		}
	}

	sys.fail = qs[5].Query
	sys.calls.Store(0)
	if _, _, err := Run(context.Background(), sys, qs, Options{}); err == nil || !strings.Contains(err.Error(), qs[5].ID) || !strings.Contains(err.Error(), "boom") {
		t.Errorf("failing query: err %v", err)
	}
	if n := sys.calls.Load(); n != 6 {
		t.Errorf("the run went on after the failure: %d calls", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Run(ctx, &fakeSystem{}, qs, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: err %v", err)
	}
}
