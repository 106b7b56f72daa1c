package sqlite

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// sampleIndex fills a store with the sample corpus (testdata/sample: 72
// Wikipedia paragraphs in Japanese and English, and real documents), each
// file with its own folder, type, month and source so that filters select
// among them, and returns their texts by file ID.
func sampleIndex(t *testing.T, s *Store) map[string]string {
	t.Helper()
	ctx := context.Background()
	root := filepath.Join("..", "..", "..", "testdata", "sample")
	texts := map[string]string{}
	i := 0
	for _, dir := range []string{"wiki-ja", "wiki-en", "docs"} {
		ents, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(root, dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			f := testFile(fmt.Sprintf("%s-%02d", dir, i), string(b), 1)
			f.Name = e.Name()
			f.Path = []string{"Work/Reports", "Work/Reports/2024", "Work/Reportsx", "Home"}[i%4]
			f.MimeType = []string{"text/plain", "application/pdf", "text/markdown"}[i%3]
			f.ModifiedAt = time.Date(2024, time.Month(1+i%12), 1+i%27, 0, 0, 0, 0, time.UTC)
			f.Source = []string{"drive", "local:/srv/a", "local:/srv/b"}[i%3]
			f.Summary = strings.Join(strings.Fields(f.Text)[:min(12, len(strings.Fields(f.Text)))], " ")
			f.Keywords = strings.Fields(f.Name)
			if err := s.UpsertFile(ctx, f, nil); err != nil {
				t.Fatal(err)
			}
			texts[f.ID] = f.Text
			i++
		}
	}
	return texts
}

// residentQueries draws keystroke-like queries from the texts: single
// words and CJK pieces of 1–6 characters (a lone CJK character is a prefix
// query), several of them together, mixed scripts, and terms no file holds.
func residentQueries(texts map[string]string, n int) [][]string {
	rng := rand.New(rand.NewPCG(7, 11))
	ids := make([]string, 0, len(texts))
	for id := range texts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	piece := func() string {
		runes := []rune(texts[ids[rng.IntN(len(ids))]])
		if len(runes) < 8 {
			return string(runes)
		}
		start := rng.IntN(len(runes) - 7)
		if tokenize.IsCJK(runes[start]) {
			return string(runes[start : start+1+rng.IntN(6)])
		}
		words := strings.Fields(string(runes[start:min(len(runes), start+60)]))
		if len(words) < 2 {
			return string(runes[start : start+4])
		}
		return words[1]
	}
	qs := [][]string{{"東"}, {"年"}, {"the"}, {"zzqx"}, {"東京", "年"}, {"rainforest", "アマゾン"}}
	for len(qs) < n {
		k := 1 + rng.IntN(5)
		var q []string
		for range k {
			q = append(q, piece())
		}
		qs = append(qs, q)
	}
	return qs
}

// TestResidentEqualsKeywordSearch: the resident index answers every query
// with the store's hits, scores and order — with and without each filter,
// with several limits — and declines only what it leaves to the store.
func TestResidentEqualsKeywordSearch(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, Options{})
	texts := sampleIndex(t, s)
	r, err := s.LoadResident(ctx, 1<<22)
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows() != len(texts) {
		t.Fatalf("resident rows %d, want %d", r.Rows(), len(texts))
	}
	filters := []store.Filter{
		{},
		{Folder: "Work/Reports"},
		{MimeTypes: []string{"application/pdf", "text/markdown"}},
		{ModifiedAfter: time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC), ModifiedBefore: time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC)},
		{Sources: []string{"local"}},
		{Sources: []string{"local:/srv/a", "drive"}, Folder: "Home"},
		{IDs: []string{"wiki-ja-00", "wiki-en-40", "wiki-en-41", "docs-75"}},
		{IDs: []string{}},
	}
	compared, nonEmpty, declined := 0, 0, 0
	n := 400
	if raceBuild {
		n = 40 // the race detector checks the concurrency, not the ranking
	}
	for _, terms := range residentQueries(texts, n) {
		for fi, f := range filters {
			for _, limit := range []int{9, 100} {
				q := store.KeywordQuery{Terms: terms, Match: store.MatchAny, Filter: f, Limit: limit, TopOnly: fi%2 == 0}
				want, err := s.KeywordSearch(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				got, ok, err := r.KeywordSearch(ctx, q)
				if err != nil {
					t.Fatalf("%q: %v", terms, err)
				}
				if !ok {
					declined++
					continue
				}
				compared++
				if len(want.Hits) > 0 {
					nonEmpty++
				}
				if !slices.Equal(got.Hits, want.Hits) {
					t.Fatalf("terms %q filter %+v limit %d:\nresident %v\nstore    %v", terms, f, limit, got.Hits, want.Hits)
				}
				if !q.TopOnly && got.Total != want.Total {
					t.Errorf("terms %q filter %+v: total %d, store %d", terms, f, got.Total, want.Total)
				}
				if fi == 0 && limit == 9 {
					// HasTerms says of each term what the store's search finds.
					has, ok, err := r.HasTerms(ctx, terms)
					if err != nil || !ok {
						t.Fatalf("HasTerms(%q): %v, %v", terms, ok, err)
					}
					for _, term := range terms {
						one, err := s.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{term}, Match: store.MatchAny, Limit: 1})
						if err != nil {
							t.Fatal(err)
						}
						if has[term] != (len(one.Hits) > 0) {
							t.Fatalf("HasTerms(%q) = %v, the store finds %d", term, has[term], len(one.Hits))
						}
					}
				}
			}
		}
	}
	if nonEmpty < compared/2 || declined > compared/20 {
		t.Errorf("compared %d queries (%d with hits), declined %d: the comparison is too thin", compared, nonEmpty, declined)
	}
}

// TestResidentTies: files of equal score come in file ID order from the
// resident index as from the store, whatever order they were written in;
// where the limit cuts among them the resident index leaves the query to
// the store.
func TestResidentTies(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, Options{})
	write := func(id, name, text string) {
		f := testFile(id, text)
		f.Name = name
		if err := s.UpsertFile(ctx, f, nil); err != nil {
			t.Fatal(err)
		}
	}
	write("zlow", "ledger.txt", "walrus ledger "+strings.Repeat("entry ", 40))
	for _, id := range []string{"kb", "ka", "kB", "kA"} {
		write(id, "ledger.txt", "walrus ledger entry")
	}
	write("ztop", "ledger.txt", "walrus walrus ledger")
	r, err := s.LoadResident(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1, 2, 3, 5, 6, 100} {
		q := store.KeywordQuery{Terms: []string{"walrus", "ledger"}, Match: store.MatchAny, Limit: limit}
		want, err := s.KeywordSearch(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := r.KeywordSearch(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if cut := limit >= 2 && limit <= 4; ok == cut {
			t.Errorf("limit %d: ok %v, want %v", limit, ok, !cut)
		}
		if ok && !slices.Equal(got.Hits, want.Hits) {
			t.Errorf("limit %d:\nresident %v\nstore    %v", limit, got.Hits, want.Hits)
		}
	}
}

// TestResidentDeclines: what the resident index leaves to the store, and
// a stale generation.
func TestResidentDeclines(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, Options{})
	if err := s.UpsertFile(ctx, testFile("a", "東京タワー tower of london"), nil); err != nil {
		t.Fatal(err)
	}
	r, err := s.LoadResident(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []store.KeywordQuery{
		{Terms: []string{"tower", "london"}, Match: store.MatchAll},
		{Terms: []string{"!!"}, Match: store.MatchAny},
		{Terms: []string{"𠮷野家"}, Match: store.MatchAny}, // outside the checked scripts
		{Match: store.MatchAny, Filter: store.Filter{MimeTypes: []string{"text/plain"}}},
	} {
		if _, ok, err := r.KeywordSearch(ctx, q); ok || err != nil {
			t.Errorf("%+v: ok %v, err %v; want it left to the store", q, ok, err)
		}
	}
	res, ok, err := r.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{"タワー"}, Match: store.MatchAny})
	if !ok || err != nil || len(res.Hits) != 1 || res.Hits[0].ID != "a" {
		t.Errorf("タワー: %+v, %v, %v", res, ok, err)
	}
	if err := s.UpsertFile(ctx, testFile("b", "another tower"), nil); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := r.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{"tower"}, Match: store.MatchAny}); ok || !errors.Is(err, ErrResidentStale) {
		t.Errorf("after a write: ok %v, err %v; want ErrResidentStale", ok, err)
	}
	if _, err := s.LoadResident(ctx, 5); !errors.Is(err, ErrResidentTooLarge) {
		t.Errorf("LoadResident over the limit: %v, want ErrResidentTooLarge", err)
	}
	// A read-only store (the keystroke server's) loads it too.
	ro := mustOpen(t, s.path, Options{ReadOnly: true})
	r2, err := ro.LoadResident(ctx, 1000)
	if err != nil || r2.Rows() != 2 {
		t.Fatalf("read-only LoadResident: %v, %v", r2, err)
	}
}

// The resident index skips reading the generation and the sync states
// only while no transaction has committed: a sync state saved by another
// connection (no new generation) and a file written by one are both seen
// at once.
func TestResidentSeesCommits(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, Options{})
	if err := s.UpsertFile(ctx, testFile("a", "tower of london"), nil); err != nil {
		t.Fatal(err)
	}
	ro := mustOpen(t, s.path, Options{ReadOnly: true})
	r, err := ro.LoadResident(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	q := store.KeywordQuery{Terms: []string{"tower"}, Match: store.MatchAny}
	for range 3 { // the later ones read no generation
		if res, ok, err := r.KeywordSearch(ctx, q); !ok || err != nil || len(res.Hits) != 1 {
			t.Fatalf("%+v, %v, %v", res, ok, err)
		}
	}
	if ro.walStamp() == nil {
		t.Fatal("no WAL index stamp: the store is not in WAL mode, and every check reads the database")
	}
	states, err := r.SyncStates(ctx)
	if err != nil || len(states) != 0 {
		t.Fatalf("states %v, %v", states, err)
	}
	writer := mustOpen(t, s.path, Options{})
	if err := writer.SetSyncState(ctx, store.SyncState{Source: "local:/data", Fingerprint: "f", UpdatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if states, err := r.SyncStates(ctx); err != nil || len(states) != 1 || states[0].Source != "local:/data" {
		t.Errorf("after a sync state was saved: %v, %v", states, err)
	}
	if _, ok, err := r.KeywordSearch(ctx, q); !ok || err != nil {
		t.Errorf("a sync state is no new generation: ok %v, %v", ok, err)
	}
	if err := writer.UpsertFile(ctx, testFile("b", "tower bridge"), nil); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := r.KeywordSearch(ctx, q); ok || !errors.Is(err, ErrResidentStale) {
		t.Errorf("after another connection wrote a file: ok %v, err %v; want ErrResidentStale", ok, err)
	}
}
