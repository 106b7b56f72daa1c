package search

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/store"
)

func TestUsefulRelaxation(t *testing.T) {
	period := ai.Filters{ModifiedAfter: "1910-08-01", ModifiedBefore: "1910-09-01", FileType: ai.FileTypePDF}
	cases := []struct {
		name string
		c    Conditions
		r    ai.Relaxation
		want ai.Relaxation
	}{
		{"keyword drop under a period: the period goes instead",
			Conditions{Keywords: []string{"a", "b"}, Filters: period}, ai.Relaxation{Keywords: []string{"a"}, Filters: period},
			ai.Relaxation{Keywords: []string{"a", "b"}, Filters: ai.Filters{FileType: ai.FileTypePDF}}},
		{"keyword drop under a type only: the type goes",
			Conditions{Keywords: []string{"a", "b"}, Filters: ai.Filters{FileType: ai.FileTypePDF}}, ai.Relaxation{Keywords: []string{"a"}, Filters: ai.Filters{FileType: ai.FileTypePDF}},
			ai.Relaxation{Keywords: []string{"a", "b"}}},
		{"the AI loosened a filter itself: kept",
			Conditions{Keywords: []string{"a", "b"}, Filters: period}, ai.Relaxation{Keywords: []string{"a", "b"}, Filters: ai.Filters{FileType: ai.FileTypePDF}},
			ai.Relaxation{Keywords: []string{"a", "b"}, Filters: ai.Filters{FileType: ai.FileTypePDF}}},
		{"no filters: a keyword drop is all there is",
			Conditions{Keywords: []string{"a", "b"}}, ai.Relaxation{Keywords: []string{"a"}},
			ai.Relaxation{Keywords: []string{"a"}}},
		{"required keywords: dropping one can add hits",
			Conditions{Keywords: []string{"a", "b"}, Required: []string{"r"}, Filters: period}, ai.Relaxation{Keywords: []string{"a"}, Filters: period},
			ai.Relaxation{Keywords: []string{"a"}, Filters: period}},
		{"keyword drop under a folder only: the folder goes",
			Conditions{Keywords: []string{"a", "b"}, Filters: ai.Filters{Folder: "Sales"}}, ai.Relaxation{Keywords: []string{"a"}, Filters: ai.Filters{Folder: "Sales"}},
			ai.Relaxation{Keywords: []string{"a", "b"}}},
		{"keyword drop under a type and a folder: the type goes first",
			Conditions{Keywords: []string{"a", "b"}, Filters: ai.Filters{FileType: ai.FileTypePDF, Folder: "Sales"}}, ai.Relaxation{Keywords: []string{"a"}, Filters: ai.Filters{FileType: ai.FileTypePDF, Folder: "Sales"}},
			ai.Relaxation{Keywords: []string{"a", "b"}, Filters: ai.Filters{Folder: "Sales"}}},
		{"an added keyword is left to the state machine",
			Conditions{Keywords: []string{"a"}, Filters: period}, ai.Relaxation{Keywords: []string{"a", "z"}, Filters: period},
			ai.Relaxation{Keywords: []string{"a", "z"}, Filters: period}},
	}
	for _, c := range cases {
		got := UsefulRelaxation(c.c, c.r)
		if !slices.Equal(got.Keywords, c.want.Keywords) || got.Filters != c.want.Filters {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
		// Whatever it returns must be a loosening the state machine accepts.
		if got.Filters != c.c.Filters && !looser(c.c, Conditions{Keywords: got.Keywords, Required: c.c.Required, Filters: got.Filters}) {
			t.Errorf("%s: %+v is not looser than %+v", c.name, got, c.c)
		}
	}
}

func TestFuseOrders(t *testing.T) {
	// k = 10. Reranker: b, a, c. Retrieval: a, c, b (weight 1).
	// a: 1/12 + 1/11 = .1742; b: 1/11 + 1/13 = .1678; c: 1/13 + 1/12 = .1603.
	if got := FuseOrders([]string{"b", "a", "c"}, []string{"a", "c", "b"}, 1); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("fused %v, want [a b c]", got)
	}
	// Weight 0: the reranker's order as it is; unknown and repeated IDs handled.
	if got := FuseOrders([]string{"b", "a", "b"}, []string{"a", "x"}, 0); !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("fused %v, want [b a]", got)
	}
	// Agreement stays agreement.
	if got := FuseOrders([]string{"a", "b", "c"}, []string{"a", "b", "c"}, 1); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("fused %v", got)
	}
}

// fakeIndex scripts the rankings narrowing reads.
type fakeIndex struct {
	vector  []store.Hit // file similarity order
	chunks  []store.ChunkHit
	keyword []string // whole-query full-text order
	kwTerms []string // the terms KeywordSearch was called with
	vecIDs  []string // the IDs the last VectorSearch was restricted to
	files   map[string]store.File
}

func (f *fakeIndex) VectorSearch(_ context.Context, _ []float32, flt store.Filter, k int) ([]store.Hit, error) {
	f.vecIDs = slices.Clone(flt.IDs)
	var out []store.Hit
	for _, h := range f.vector {
		if slices.Contains(flt.IDs, h.ID) {
			out = append(out, h)
		}
	}
	return out[:min(k, len(out))], nil
}

func (f *fakeIndex) ChunkSearch(_ context.Context, _ []float32, flt store.Filter, k int) ([]store.ChunkHit, error) {
	var out []store.ChunkHit
	for _, h := range f.chunks {
		if slices.Contains(flt.IDs, h.FileID) {
			out = append(out, h)
		}
	}
	return out[:min(k, len(out))], nil
}

func (f *fakeIndex) GetFiles(_ context.Context, ids []string) ([]store.File, error) {
	var out []store.File
	for _, id := range ids {
		if fl, ok := f.files[id]; ok {
			out = append(out, fl)
		}
	}
	return out, nil
}

// onlyLoopIndex hides KeywordSearch.
type onlyLoopIndex struct{ LoopIndex }

func (f *fakeIndex) KeywordSearch(_ context.Context, q store.KeywordQuery) (store.KeywordResult, error) {
	f.kwTerms = q.Terms
	var r store.KeywordResult
	for i, id := range f.keyword {
		if q.Filter.IDs == nil || slices.Contains(q.Filter.IDs, id) {
			r.Hits = append(r.Hits, store.Hit{ID: id, Score: -float64(i)})
		}
	}
	r.Total = len(r.Hits)
	return r, nil
}

func TestNarrowFusesRankings(t *testing.T) {
	ids := []string{"k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11", "k12"} // keyword order
	fx := &fakeIndex{
		// k12 is last by keywords but first by vector and by the whole query.
		vector:  []store.Hit{{ID: "k12", Score: .9}, {ID: "k2", Score: .8}, {ID: "k1", Score: .1}},
		chunks:  []store.ChunkHit{{FileID: "k3", Chunk: store.Chunk{Text: "passage of k3"}, Score: .85}},
		keyword: []string{"k12", "k3", "k1"},
	}
	l := &Loop{Index: fx, AI: offline.New()}
	s := State{Query: "東京 tower", Cond: Conditions{Keywords: []string{"tower"}}}
	snippets := map[string]string{}
	got, err := l.narrow(context.Background(), s, ids, map[string]float64{}, snippets)
	if err != nil {
		t.Fatal(err)
	}
	// Hand-computed, k = 10, weights keyword 1, query 5, vector 1. Vector
	// order (file or chunk score): k12 .9, k3 .85, k2 .8, k1 .1.
	//   k12: 1/22 + 5/11 + 1/11 = .5909
	//   k3:  1/13 + 5/12 + 1/12 = .5769
	//   k1:  1/11 + 5/13 + 1/14 = .5469
	if len(got) != Keep || got[0] != "k12" || got[1] != "k3" || got[2] != "k1" {
		t.Errorf("narrowed %v; want k12, k3, k1 first and %d kept", got, Keep)
	}
	if snippets["k3"] != "passage of k3" {
		t.Errorf("snippet of k3 = %q", snippets["k3"])
	}
	if !slices.Equal(fx.kwTerms, []string{"東京", "tower"}) {
		t.Errorf("whole-query terms %q", fx.kwTerms)
	}
	// Without a full-text index, keyword and vector ranks decide.
	l.Index = onlyLoopIndex{fx}
	got, err = l.narrow(context.Background(), s, ids, map[string]float64{}, map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	// k1: 1/11 + 1/14 = .1623; k2 and k3: 1/12 + 1/13 = .1603 each, the
	// tie broken by keyword order; k12: 1/22 + 1/11 = .1364.
	if got[0] != "k1" || got[1] != "k2" || got[2] != "k3" {
		t.Errorf("narrowed without full text %v; want k1, k2, k3 first", got)
	}
}

// fixedKeywords is a KeywordSearcher with a fixed answer.
type fixedKeywords []string

func (f fixedKeywords) SearchKeywords(context.Context, Conditions, int) ([]string, int, error) {
	return f, len(f), nil
}

// The 2–10 branch straight after a keyword search gives the reranker each
// candidate's best passage, found by chunk search.
func TestRerankGetsSnippets(t *testing.T) {
	fx := &fakeIndex{
		chunks: []store.ChunkHit{
			{FileID: "a", Chunk: store.Chunk{Text: "alpha passage about towers"}, Score: .5},
			{FileID: "b", Chunk: store.Chunk{Text: "beta passage"}, Score: .4},
		},
		files: map[string]store.File{"a": {ID: "a", Name: "a.txt"}, "b": {ID: "b", Name: "b.txt"}},
	}
	// The index has no full-text search (onlyLoopIndex): the keyword
	// searcher alone finds the files, and no word is checked.
	l := &Loop{Keywords: fixedKeywords{"b", "a"}, Index: onlyLoopIndex{fx}, AI: offline.New(), Asker: NoAnswer{}}
	out, err := l.Run(context.Background(), NewState("towers", "en", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 5))
	if err != nil {
		t.Fatal(err)
	}
	if out.State.End != EndResults || len(out.Results) != 2 {
		t.Fatalf("outcome %+v", out.State)
	}
	if out.Snippet("a") != "alpha passage about towers" || out.Snippet("b") != "beta passage" {
		t.Errorf("snippets %q, %q", out.Snippet("a"), out.Snippet("b"))
	}
	// The snippet mentions the query: a goes first although keyword search ranked it second.
	if out.Results[0].File.ID != "a" {
		t.Errorf("results %v, want a first", []string{out.Results[0].File.ID, out.Results[1].File.ID})
	}
}

// noVectors is a provider whose query embedding is unavailable.
type noVectors struct{ ai.Provider }

func (noVectors) Embed(context.Context, []string) ([][]float32, error) {
	return nil, fmt.Errorf("embed: %w", ErrNoQueryVector)
}

// TestNarrowWithoutQueryVector: when the provider cannot embed the query
// (ErrNoQueryVector: it is down and the offline vectors would not be
// comparable), narrowing ranks by the keyword and whole-query orders
// instead of failing the search.
func TestNarrowWithoutQueryVector(t *testing.T) {
	ids := []string{"k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11", "k12"}
	fx := &fakeIndex{vector: []store.Hit{{ID: "k2", Score: .9}}, keyword: []string{"k12", "k3", "k1"}}
	l := &Loop{Index: fx, AI: noVectors{offline.New()}}
	s := State{Query: "tower", Cond: Conditions{Keywords: []string{"tower"}}}
	got, err := l.narrow(context.Background(), s, ids, map[string]float64{}, map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	// k12: 1/22 + 5/11 = .4999; k3: 1/13 + 5/12 = .4936; k1: 1/11 + 5/13 = .4755;
	// the vector favourite k2 gets no vector credit.
	if len(got) != Keep || got[0] != "k12" || got[1] != "k3" || got[2] != "k1" {
		t.Errorf("narrowed %v; want k12, k3, k1 first", got)
	}
	if err := l.fillSnippets(context.Background(), s, []string{"k1"}, map[string]string{}); err != nil {
		t.Errorf("fillSnippets without a query vector: %v", err)
	}
}

// manyKeywords is a KeywordSearcher with 150 hits, of which it returns the
// best 100 (k000…k099) in keyword order.
type manyKeywords struct{}

func (manyKeywords) SearchKeywords(_ context.Context, _ Conditions, limit int) ([]string, int, error) {
	ids := make([]string, 0, limit)
	for i := range min(limit, 150) {
		ids = append(ids, fmt.Sprintf("k%03d", i))
	}
	return ids, 150, nil
}

// The no-answer policy's 100 are chosen by the fusion of the keyword order
// and the whole question's ranking: a hit the keyword search ranked 120th
// but the question's own words rank first is narrowed with the others and
// can be shown.
func TestNoAnswerKeepsTheFusionsHundred(t *testing.T) {
	files := map[string]store.File{}
	for i := range 150 {
		id := fmt.Sprintf("k%03d", i)
		files[id] = store.File{ID: id, Name: id + ".txt"}
	}
	fx := &fakeIndex{keyword: []string{"k120", "k001"}, files: files}
	l := &Loop{Keywords: manyKeywords{}, Index: fx, AI: offline.New(), Asker: NoAnswer{}}
	out, err := l.Run(context.Background(), NewState("tower bridge", "en", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 5))
	if err != nil {
		t.Fatal(err)
	}
	if out.State.End != EndResults || len(out.Results) == 0 {
		t.Fatalf("outcome %+v", out.State)
	}
	if len(fx.vecIDs) != NoAnswerKeep || !slices.Contains(fx.vecIDs, "k120") || !slices.Contains(fx.vecIDs, "k000") {
		t.Errorf("narrowed %d candidates, k120 among them %v; want %d with k120 (the question's first) and k000 (the keywords' first)",
			len(fx.vecIDs), slices.Contains(fx.vecIDs, "k120"), NoAnswerKeep)
	}
	var got []string
	for _, r := range out.Results {
		got = append(got, r.File.ID)
	}
	if !slices.Contains(got, "k120") {
		t.Errorf("results %v: the whole question's first hit k120 (keyword rank 121) was not kept", got)
	}
}

// docFreqIndex counts document frequencies in one call.
type docFreqIndex struct {
	*fakeIndex
	terms [][]string // each DocFreqs call's terms
}

func (d *docFreqIndex) DocFreqs(_ context.Context, terms []string) (map[string]int, int, error) {
	d.terms = append(d.terms, slices.Clone(terms))
	df := map[string]int{}
	for i, t := range terms {
		df[t] = i + 1
	}
	return df, 42, nil
}

// TestRerankCountsDocFreqsInOneCall: an index that counts document
// frequencies (DocFreqCounter) is asked once for the query's words (which
// matched), then once for the rerank — the query's terms and the
// keywords' — and the reranker gets its counts and file count.
func TestRerankCountsDocFreqsInOneCall(t *testing.T) {
	fx := &docFreqIndex{fakeIndex: &fakeIndex{
		files: map[string]store.File{"a": {ID: "a", Name: "a.txt"}, "b": {ID: "b", Name: "b.txt"}},
	}}
	var traces []RankTrace
	l := &Loop{Keywords: fixedKeywords{"b", "a"}, Index: fx, AI: offline.New(), Asker: NoAnswer{},
		OnRanked: func(tr RankTrace) { traces = append(traces, tr) }}
	out, err := l.Run(context.Background(), NewState("the old towers of Kyoto", "en", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 5))
	if err != nil {
		t.Fatal(err)
	}
	if out.State.End != EndResults || len(traces) != 1 {
		t.Fatalf("outcome %+v, %d traces", out.State, len(traces))
	}
	if len(fx.terms) != 2 {
		t.Fatalf("DocFreqs called %d times, want twice (the words, the rerank)", len(fx.terms))
	}
	if !slices.Equal(fx.terms[0], []string{"towers", "Kyoto"}) || len(out.State.Unmatched) != 0 {
		t.Errorf("words checked %q, unmatched %v", fx.terms[0], out.State.Unmatched)
	}
	terms := fx.terms[1]
	for _, w := range []string{"old", "tower", "kyoto"} { // tokens: stemmed, lower case
		if !slices.Contains(terms, w) {
			t.Errorf("terms %v lack %q", terms, w)
		}
	}
	if slices.Contains(terms, "the") {
		t.Errorf("terms %v hold a stop word", terms)
	}
	tr := traces[0]
	if tr.Docs != 42 || len(tr.DocFreq) != len(terms) || tr.DocFreq[terms[0]] != 1 {
		t.Errorf("reranker got docs %d, frequencies %v for terms %v", tr.Docs, tr.DocFreq, terms)
	}
}
