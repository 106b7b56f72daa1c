package search_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// electionIndex holds three short Japanese documents in two folders.
func electionIndex(t *testing.T) *sqlite.Store {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	mod := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for i, d := range []struct{ id, folder, text string }{
		{"e41", "Archive", "第41回衆議院議員総選挙は2000年6月25日に行われた。"},
		{"e45", "Archive", "第45回衆議院議員総選挙は2009年8月30日に行われ、政権交代が起きた。"},
		{"cook", "Recipes", "カレーの作り方。玉ねぎを炒めてから煮込む。"},
	} {
		f := store.File{ID: d.id, Name: d.id + ".txt", Summary: d.text, Embedding: offline.Embedding(d.text), ModifiedAt: mod,
			MimeType: "text/plain", Path: d.folder, ContentHash: d.id, Source: "local", Provider: "offline", IndexedAt: mod, Text: d.text}
		if err := st.UpsertFile(ctx, f, []store.Chunk{{Ordinal: 0, Text: d.text, Embedding: offline.Embedding(d.text)}}); err != nil {
			t.Fatalf("file %d: %v", i, err)
		}
	}
	return st
}

// noHits is a keyword searcher that finds nothing (as Drive may, for a
// file the local index holds).
type noHits struct{}

func (noHits) SearchKeywords(context.Context, search.Conditions, int) ([]string, int, error) {
	return nil, 0, nil
}

// A question whose keyword conditions match nothing although the index
// holds its words still answers with the files sharing its words, marked
// as a full-text fallback; the scope still holds.
func TestFullTextFallback(t *testing.T) {
	ctx := context.Background()
	st := electionIndex(t)
	l := &search.Loop{Keywords: noHits{}, Index: st, AI: offline.New(), Asker: search.NoAnswer{}}
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)

	out, err := l.Run(ctx, search.NewState("第41回衆議院議員総選挙はいつ行われたか？", "ja", now, 5))
	if err != nil {
		t.Fatal(err)
	}
	if out.State.End != search.EndResults || !out.State.FullText || len(out.Results) == 0 {
		t.Fatalf("end %q, full text %v, %d results; rounds %+v", out.State.End, out.State.FullText, len(out.Results), out.State.Rounds)
	}
	if got := out.Results[0].File.ID; got != "e41" {
		t.Errorf("first result %s, want e41", got)
	}
	for _, r := range out.Results {
		if r.File.ID == "cook" {
			t.Errorf("a file sharing no word with the question was shown: %+v", out.State.Results)
		}
	}
	if len(out.State.Unmatched) != 0 {
		t.Errorf("unmatched %v: the index holds every word", out.State.Unmatched)
	}

	s := search.NewState("第41回衆議院議員総選挙はいつ行われたか？", "ja", now, 5)
	s.Scope = "Recipes"
	out, err = l.Run(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if out.State.End != search.EndNotFound || out.State.FullText {
		t.Errorf("scoped to Recipes: end %q, results %v; the fallback left the scope", out.State.End, out.State.Results)
	}
}

// A question none of whose words any file holds ends "not found" naming
// them, without the full-text last resort: the files sharing only its
// grammar (行われた) are no answer.
func TestNothingMatchedEndsNotFound(t *testing.T) {
	ctx := context.Background()
	st := electionIndex(t)
	l := &search.Loop{Keywords: search.StoreSearcher{Index: st}, Index: st, AI: offline.New(), Asker: search.NoAnswer{}}
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		query     string
		unmatched []string
	}{
		{"参院補選はいつ行われたか？", []string{"参院補選"}},
		{"xyzzy plugh", []string{"xyzzy", "plugh"}},
	} {
		out, err := l.Run(ctx, search.NewState(c.query, "ja", now, 5))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, u := range out.State.Unmatched {
			got = append(got, u.Word)
		}
		if out.State.End != search.EndNotFound || out.State.FullText || len(out.Results) != 0 || !slices.Equal(got, c.unmatched) {
			t.Errorf("%q: end %q, full text %v, %d results, unmatched %q; want not found naming %q",
				c.query, out.State.End, out.State.FullText, len(out.Results), got, c.unmatched)
		}
	}
}

// A compound no file holds as one string (第41回総選挙) is searched as its
// parts when relaxation has nothing left to drop: the file holding both
// parts is found by the conditions, not by the full-text fallback.
func TestCompoundSplitWhenRelaxationRunsOut(t *testing.T) {
	ctx := context.Background()
	st := electionIndex(t)
	l := &search.Loop{Keywords: search.StoreSearcher{Index: st}, Index: st, AI: offline.New(), Asker: search.NoAnswer{}}
	out, err := l.Run(ctx, search.NewState("第41回総選挙はいつあったか？", "ja", time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), 5))
	if err != nil {
		t.Fatal(err)
	}
	if out.State.End != search.EndResults || out.State.FullText || len(out.Results) == 0 {
		t.Fatalf("end %q, full text %v, %d results; rounds %+v", out.State.End, out.State.FullText, len(out.Results), out.State.Rounds)
	}
	if got := out.Results[0].File.ID; got != "e41" {
		t.Errorf("first result %s, want e41", got)
	}
	rounds := out.State.Rounds
	if len(rounds) < 2 || rounds[0].Hits != 0 || !slices.Equal(rounds[1].Conditions.Keywords, []string{"第41回", "総選挙"}) {
		t.Errorf("rounds %+v, want 0 hits for the compound, then its parts", rounds)
	}
}

func TestFuseKeep(t *testing.T) {
	// k = 10. first a, b, c (weight 1); second c, d (weight 1).
	// a 1/11 = .0909; b 1/12 = .0833; c 1/13 + 1/11 = .1678; d 1/12 = .0833.
	got := search.FuseKeep([]string{"a", "b", "c"}, []string{"c", "d"}, 1, 3)
	if !slices.Equal(got, []string{"c", "a", "b"}) {
		t.Errorf("FuseKeep = %v, want [c a b] (b ties d and goes first, d is cut)", got)
	}
	// Weight 0: the first ranking, then the second's new IDs, up to n.
	if got := search.FuseKeep([]string{"a", "b"}, []string{"x", "a"}, 0, 10); !slices.Equal(got, []string{"a", "b", "x"}) {
		t.Errorf("weight 0: %v", got)
	}
	if got := search.FuseKeep(nil, nil, 1, 10); len(got) != 0 {
		t.Errorf("empty: %v", got)
	}
}

// The complement keeps the whole question's first file among the results:
// a low full-text weight must not push the question's best match out.
func TestKeepFirst(t *testing.T) {
	tests := []struct {
		name string
		ids  []string
		id   string
		n    int
		want []string
	}{
		{"already in", []string{"a", "b", "c"}, "b", 3, []string{"a", "b", "c"}},
		{"replaces the last", []string{"a", "b", "c"}, "x", 3, []string{"a", "b", "x"}},
		{"appended when room", []string{"a", "b"}, "x", 3, []string{"a", "b", "x"}},
		{"beyond n counts as missing", []string{"a", "b", "c", "x"}, "x", 3, []string{"a", "b", "x"}},
		{"empty", nil, "x", 3, []string{"x"}},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.ids)
		if got := search.KeepFirst(in, tt.id, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("%s: KeepFirst(%v, %q, %d) = %v, want %v", tt.name, tt.ids, tt.id, tt.n, got, tt.want)
		}
		if !slices.Equal(in, tt.ids) {
			t.Errorf("%s: input changed to %v", tt.name, in)
		}
	}
	// With the complement's weights (results 1, whole question 0.3, k 10)
	// the whole question's first file alone scores 0.3/11 = .027, below a
	// tenth reranked result's 1/20 = .05: FuseKeep drops it, KeepFirst
	// restores it.
	results := []string{"r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10"}
	fused := search.FuseKeep(results, []string{"w"}, 0.3, 10)
	if slices.Contains(fused, "w") {
		t.Fatalf("premise: FuseKeep kept w: %v", fused)
	}
	if got := search.KeepFirst(fused, "w", 10); got[9] != "w" || !slices.Equal(got[:9], results[:9]) {
		t.Errorf("KeepFirst = %v", got)
	}
}

func TestQueryTermsDropStopWords(t *testing.T) {
	if got := search.QueryTerms("What is the name of the Tower of London?"); !slices.Equal(got, []string{"name", "tower", "london"}) {
		t.Errorf("QueryTerms = %q", got)
	}
	if got := search.QueryTerms("東京タワーの高さは"); len(got) == 0 || !slices.Contains(got, "東京") {
		t.Errorf("Japanese terms %q", got)
	}
}

// OnRanked (gds eval --capture) receives what the final ranking used: the
// rerank input with passages and index frequencies, the reranker's order,
// the whole question's ranking and the final order the search returned.
func TestOnRankedTracesTheFinalRanking(t *testing.T) {
	ctx := context.Background()
	st := electionIndex(t)
	var traces []search.RankTrace
	l := &search.Loop{Keywords: search.StoreSearcher{Index: st}, Index: st, AI: offline.New(), Asker: search.NoAnswer{},
		OnRanked: func(tr search.RankTrace) { traces = append(traces, tr) }}
	q := "衆議院議員総選挙はいつ行われたか？"
	out, err := l.Run(ctx, search.NewState(q, "ja", time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), 5))
	if err != nil {
		t.Fatal(err)
	}
	if out.State.LastBranch() != search.BranchRerank || len(traces) != 1 {
		t.Fatalf("branch %q, %d traces; want one rerank", out.State.LastBranch(), len(traces))
	}
	tr := traces[0]
	var cands []string
	for _, c := range tr.Candidates {
		cands = append(cands, c.ID)
		if c.Snippet == "" {
			t.Errorf("candidate %s has no passage", c.ID)
		}
	}
	if tr.Query != q || len(cands) < 2 || !slices.Contains(cands, "e41") || !slices.Contains(cands, "e45") {
		t.Errorf("query %q, candidates %v", tr.Query, cands)
	}
	sorted := slices.Sorted(slices.Values(tr.Order))
	if !slices.Equal(sorted, slices.Sorted(slices.Values(cands))) || len(tr.Retrieval) != len(cands) {
		t.Errorf("order %v, retrieval %v, candidates %v", tr.Order, tr.Retrieval, cands)
	}
	if tr.Docs != 3 || len(tr.DocFreq) == 0 || len(tr.Whole) == 0 || !slices.Equal(tr.Final, out.State.Results) {
		t.Errorf("docs %d, doc freq %v, whole %v, final %v vs results %v", tr.Docs, tr.DocFreq, tr.Whole, tr.Final, out.State.Results)
	}
}

// A keystroke names the typed words no file contains, but not the word
// still being typed.
func TestKeystrokeNamesUnmatchedWords(t *testing.T) {
	ctx := context.Background()
	st := electionIndex(t)
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		query string
		files bool
		want  []string
	}{
		{"総選挙 ズヴォルク ", true, []string{"ズヴォルク"}},
		{"ズヴォルク 総選挙", true, []string{"ズヴォルク"}},
		{"総選挙 ズヴォルク", true, nil},
		{"ズヴォルク ", false, []string{"ズヴォルク"}},
	} {
		res, err := search.Keystroke(ctx, st, offline.New(), search.KeystrokeRequest{Query: c.query, Lang: "ja", Now: now, Limit: 9})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, u := range res.Unmatched {
			got = append(got, u.Word)
		}
		if !slices.Equal(got, c.want) || (len(res.Files) > 0) != c.files {
			t.Errorf("%q: unmatched %q, %d files; want %q, files %v", c.query, got, len(res.Files), c.want, c.files)
		}
	}
}

// Each result carries the query's keywords it does not contain.
func TestResultsCarryTheirMissingWords(t *testing.T) {
	ctx := context.Background()
	st := electionIndex(t)
	l := &search.Loop{Keywords: search.StoreSearcher{Index: st}, Index: st, AI: offline.New(), Asker: search.NoAnswer{}}
	out, err := l.Run(ctx, search.NewState("政権交代 総選挙", "ja", time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), 5))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, r := range out.Results {
		got[r.File.ID] = r.Missing
	}
	if len(got["e45"]) != 0 || !slices.Equal(got["e41"], []string{"政権", "交代"}) {
		t.Errorf("missing words %q; want none for e45, 政権 and 交代 for e41", got)
	}
}

// memIndex is an index that says it answers from memory.
type memIndex struct{ *sqlite.Store }

func (memIndex) InMemory() bool { return true }

// The keystroke corrects a typo when the index is held in memory, and
// only names it otherwise.
func TestKeystrokeCorrectsInMemory(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	mod := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for _, d := range []struct{ id, text string }{
		{"steam", "The steam engine drove the pumps of the mines."},
		{"rail", "The railway engine pulled the train."},
		{"tea", "Green tea is steamed before it is dried."},
	} {
		f := store.File{ID: d.id, Name: d.id + ".txt", Summary: d.text, Embedding: offline.Embedding(d.text), ModifiedAt: mod,
			MimeType: "text/plain", ContentHash: d.id, Source: "local", Provider: "offline", IndexedAt: mod, Text: d.text}
		if err := st.UpsertFile(ctx, f, []store.Chunk{{Ordinal: 0, Text: d.text, Embedding: offline.Embedding(d.text)}}); err != nil {
			t.Fatal(err)
		}
	}
	req := search.KeystrokeRequest{Query: "steam engnie ", Lang: "en", Now: mod, Limit: 9}
	res, err := search.Keystroke(ctx, memIndex{st}, offline.New(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Unmatched) != 1 || res.Unmatched[0] != (search.Unmatched{Word: "engnie", Suggestion: "engine"}) || len(res.Files) != 3 {
		t.Errorf("in memory: unmatched %+v, %d files; want engnie → engine and the three files", res.Unmatched, len(res.Files))
	}
	res, err = search.Keystroke(ctx, st, offline.New(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Unmatched) != 1 || res.Unmatched[0] != (search.Unmatched{Word: "engnie"}) {
		t.Errorf("on disk: unmatched %+v; want engnie named, not corrected", res.Unmatched)
	}
}
