package store

import (
	"context"
	"errors"
	"math"
	"testing"
)

func ch(file string, ord int) ChunkHit {
	return ChunkHit{FileID: file, Chunk: Chunk{Ordinal: ord, Text: file + "#" + string(rune('0'+ord)), Embedding: []float32{1}}}
}

// FuseChunks is fuseRankings of rankings of equal weight.
func FuseChunks(rankings ...[]ChunkHit) []ChunkHit {
	rs := make([]ranking, len(rankings))
	for i, r := range rankings {
		rs[i] = ranking{hits: r, weight: 1}
	}
	return fuseRankings(rs...)
}

// rrf is the normalised fused score of a chunk with these 1-based ranks
// among n rankings.
func rrf(n int, ranks ...int) float64 {
	var s float64
	for _, r := range ranks {
		s += 1 / float64(FusionK+r)
	}
	return s / (float64(n) / float64(FusionK+1))
}

func TestFuseChunks(t *testing.T) {
	type want struct {
		file  string
		ord   int
		score float64
	}
	tests := []struct {
		name     string
		rankings [][]ChunkHit
		want     []want
	}{
		{"no rankings", nil, nil},
		{"one empty ranking", [][]ChunkHit{{}}, nil},
		{"one ranking keeps its order, first scores 1",
			[][]ChunkHit{{ch("a", 0), ch("b", 0)}},
			[]want{{"a", 0, 1}, {"b", 0, rrf(1, 2)}}},
		{"first in both scores 1",
			[][]ChunkHit{{ch("a", 0), ch("b", 0)}, {ch("a", 0), ch("c", 1)}},
			[]want{{"a", 0, 1}, {"b", 0, rrf(2, 2)}, {"c", 1, rrf(2, 2)}}},
		{"agreement beats one first place",
			[][]ChunkHit{{ch("x", 0), ch("a", 0), ch("b", 0)}, {ch("y", 0), ch("b", 0), ch("a", 0)}},
			[]want{{"a", 0, rrf(2, 2, 3)}, {"b", 0, rrf(2, 3, 2)}, {"x", 0, rrf(2, 1)}, {"y", 0, rrf(2, 1)}}},
		{"an empty ranking halves every score",
			[][]ChunkHit{{ch("a", 0)}, {}},
			[]want{{"a", 0, 0.5}}},
		{"chunks are file and ordinal",
			[][]ChunkHit{{ch("a", 1), ch("a", 0)}, {ch("a", 0)}},
			[]want{{"a", 0, rrf(2, 2, 1)}, {"a", 1, rrf(2, 1)}}},
		{"a repeat within a ranking counts once and takes no rank",
			[][]ChunkHit{{ch("a", 0), ch("a", 0), ch("b", 0)}},
			[]want{{"a", 0, 1}, {"b", 0, rrf(1, 2)}}},
		{"ties: better best rank, then file ID, then ordinal",
			[][]ChunkHit{{ch("b", 0), ch("c", 0)}, {ch("a", 1), ch("a", 0)}},
			[]want{{"a", 1, 0.5}, {"b", 0, 0.5}, {"a", 0, rrf(2, 2)}, {"c", 0, rrf(2, 2)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := FuseChunks(tc.rankings...)
			if len(got) != len(tc.want) {
				t.Fatalf("FuseChunks = %d hits %+v, want %d", len(got), got, len(tc.want))
			}
			for i, w := range tc.want {
				g := got[i]
				if g.FileID != w.file || g.Ordinal != w.ord || math.Abs(g.Score-w.score) > 1e-12 {
					t.Errorf("hit %d = %s#%d %.6f, want %s#%d %.6f", i, g.FileID, g.Ordinal, g.Score, w.file, w.ord, w.score)
				}
				if g.Score < 0 || g.Score > 1 {
					t.Errorf("hit %d score %v outside 0–1", i, g.Score)
				}
				if g.Embedding != nil {
					t.Errorf("hit %d keeps its embedding", i)
				}
				if g.Text != w.file+"#"+string(rune('0'+w.ord)) {
					t.Errorf("hit %d text %q", i, g.Text)
				}
			}
		})
	}
}

// fakeRetriever returns fixed rankings and records the queries.
type fakeRetriever struct {
	vec, text []ChunkHit
	err       error
	vecK      int
	textQ     *KeywordQuery
}

func (f *fakeRetriever) ChunkSearch(_ context.Context, _ []float32, _ Filter, k int) ([]ChunkHit, error) {
	f.vecK = k
	return f.vec, f.err
}

func (f *fakeRetriever) ChunkTextSearch(_ context.Context, q KeywordQuery) ([]ChunkHit, error) {
	f.textQ = &q
	return f.text, f.err
}

func TestFuseRankingsWeights(t *testing.T) {
	// Weights 3 : 1. x: first of the heavy ranking only; y: first of the
	// light one only; z: second in both.
	got := fuseRankings(
		ranking{hits: []ChunkHit{ch("x", 0), ch("z", 0)}, weight: 3},
		ranking{hits: []ChunkHit{ch("y", 0), ch("z", 0)}, weight: 1},
	)
	top := 4 / float64(FusionK+1)
	want := []struct {
		file  string
		score float64
	}{
		{"z", 4 / float64(FusionK+2) / top}, // agreement still wins
		{"x", 3 / float64(FusionK+1) / top}, // 0.75
		{"y", 1 / float64(FusionK+1) / top}, // 0.25
	}
	if len(got) != 3 {
		t.Fatalf("fuseRankings = %+v", got)
	}
	for i, w := range want {
		if got[i].FileID != w.file || math.Abs(got[i].Score-w.score) > 1e-12 {
			t.Errorf("hit %d = %s %.6f, want %s %.6f", i, got[i].FileID, got[i].Score, w.file, w.score)
		}
	}
	// Equal weights are FuseChunks.
	a := fuseRankings(ranking{hits: []ChunkHit{ch("a", 0)}, weight: 2}, ranking{hits: []ChunkHit{ch("b", 0), ch("a", 0)}, weight: 2})
	b := FuseChunks([]ChunkHit{ch("a", 0)}, []ChunkHit{ch("b", 0), ch("a", 0)})
	for i := range b {
		if a[i].FileID != b[i].FileID || math.Abs(a[i].Score-b[i].Score) > 1e-12 {
			t.Errorf("equal weights %d: %+v vs %+v", i, a[i], b[i])
		}
	}
}

func TestRetrieveChunks(t *testing.T) {
	ctx := context.Background()
	r := &fakeRetriever{vec: []ChunkHit{ch("a", 0), ch("b", 0), ch("c", 0)}, text: []ChunkHit{ch("b", 0), ch("d", 0)}}
	got, err := RetrieveChunks(ctx, r, Retrieval{Query: "議事録 the the", Vector: []float32{1}, TopK: 2, Filter: Filter{Folder: "F"}})
	if err != nil {
		t.Fatal(err)
	}
	// b is in both; d is second in the full text, which weighs 8 times the
	// vector ranking, so it beats the vector's first, a.
	if len(got) != 2 || got[0].FileID != "b" || got[1].FileID != "d" {
		t.Errorf("RetrieveChunks = %+v, want b (in both) then d", got)
	}
	top := (textWeight + vectorWeight) / float64(FusionK+1)
	if want := (vectorWeight/float64(FusionK+2) + textWeight/float64(FusionK+1)) / top; math.Abs(got[0].Score-want) > 1e-12 {
		t.Errorf("score of b = %v, want %v", got[0].Score, want)
	}
	if r.vecK != 40 || r.textQ == nil || r.textQ.Limit != 40 || r.textQ.Match != MatchAny || r.textQ.Filter.Folder != "F" {
		t.Errorf("rankings read with k %d, text query %+v; want 40 each, any term, the filter", r.vecK, r.textQ)
	}
	if want := []string{"議事", "事録", "the"}; len(r.textQ.Terms) != 3 || r.textQ.Terms[0] != want[0] || r.textQ.Terms[2] != want[2] {
		t.Errorf("text terms = %q, want %q", r.textQ.Terms, want)
	}

	// The threshold drops what scores below it: only b (0.99) and d (0.81)
	// reach 0.5; a, the vector's first alone, scores 1/9.
	got, err = RetrieveChunks(ctx, r, Retrieval{Query: "x", Vector: []float32{1}, TopK: 10, ScoreThreshold: 0.5})
	if err != nil || len(got) != 2 {
		t.Errorf("threshold 0.5 = %+v, %v; want b and d", got, err)
	}
	got, err = RetrieveChunks(ctx, r, Retrieval{Query: "x", Vector: []float32{1}, TopK: 10})
	if err != nil || len(got) != 4 || got[2].FileID != "a" || math.Abs(got[2].Score-1.0/9) > 1e-12 {
		t.Errorf("all = %+v, %v; want a third, scoring 1/9", got, err)
	}
	// Full text only: no vector ranking is read.
	r2 := &fakeRetriever{text: []ChunkHit{ch("d", 0)}}
	got, err = RetrieveChunks(ctx, r2, Retrieval{Query: "x", TopK: 5, ScoreThreshold: 1})
	if err != nil || len(got) != 1 || got[0].Score != 1 || r2.vecK != 0 {
		t.Errorf("text only = %+v, %v (vector k %d); want d scoring 1 and no vector search", got, err, r2.vecK)
	}
	// A query without tokens and no vector retrieves nothing.
	r3 := &fakeRetriever{text: []ChunkHit{ch("d", 0)}}
	if got, err := RetrieveChunks(ctx, r3, Retrieval{Query: " ,. ", TopK: 5}); err != nil || len(got) != 0 || r3.textQ != nil {
		t.Errorf("no ranking = %+v, %v; want none", got, err)
	}
	for _, bad := range []Retrieval{{Query: "x", TopK: 0}, {Query: "x", TopK: 1, ScoreThreshold: 1.5}, {Query: "x", TopK: 1, ScoreThreshold: -0.1}, {Query: "x", TopK: 1, ScoreThreshold: math.NaN()}} {
		if _, err := RetrieveChunks(ctx, r, bad); err == nil {
			t.Errorf("RetrieveChunks(%+v) accepted", bad)
		}
	}
	boom := errors.New("boom")
	if _, err := RetrieveChunks(ctx, &fakeRetriever{err: boom}, Retrieval{Query: "x", Vector: []float32{1}, TopK: 1}); !errors.Is(err, boom) {
		t.Errorf("RetrieveChunks error = %v, want it wrapping the store's", err)
	}
}
