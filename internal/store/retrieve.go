package store

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/gds-cli/gds/internal/tokenize"
)

// The weights of the chunk rankings fused by RetrieveChunks
// (fuseRankings), chosen on the dev splits of the JSQuAD and SQuAD
// paragraph benchmarks by context recall@5 (docs/BENCHMARKS.md, "Question
// answering"): with the offline embedding the vector ranking is much
// weaker than the full-text one (0.88 vs 0.97 ja, 0.74 vs 0.93 en), and
// the usual equal weights with k 60 let it push full-text hits out of the
// top 5 (0.94 / 0.89). With the full text weighted 8 : 1 and k 10
// (FusionK), the vector ranking reorders full-text hits it agrees with and
// fills in when the full text finds too few.
const (
	textWeight   = 8
	vectorWeight = 1
)

// ChunkRetriever is what RetrieveChunks needs of an index; every Store has it.
type ChunkRetriever interface {
	ChunkSearch(ctx context.Context, vec []float32, f Filter, k int) ([]ChunkHit, error)
	ChunkTextSearch(ctx context.Context, q KeywordQuery) ([]ChunkHit, error)
}

// Retrieval is a hybrid chunk query (question answering).
type Retrieval struct {
	// Query is the question. Its distinct tokens (tokenize.Unique: words,
	// CJK bigrams) are searched in the chunks' text as alternatives, ranked
	// by full-text relevance.
	Query string
	// Vector is the question's embedding; nil ranks by full text only.
	Vector []float32
	// Filter keeps the chunks of the files passing it (folder, IDs, …).
	Filter Filter
	// TopK is the number of chunks returned at most (>= 1).
	TopK int
	// ScoreThreshold drops chunks whose fused score is below it (0–1; 0
	// keeps all).
	ScoreThreshold float64
}

// candidates is how deep each ranking is read for a top-k retrieval.
func candidates(topK int) int { return max(4*topK, 40) }

// RetrieveChunks runs the vector ranking (when q.Vector is set) and the
// full-text ranking (when q.Query has a token) of the chunks passing
// q.Filter, fuses them with fuseRankings (weights vectorWeight and
// textWeight) and returns the best q.TopK with a
// score of at least q.ScoreThreshold, best first. Embeddings are not set.
// With neither ranking it returns no chunk.
func RetrieveChunks(ctx context.Context, r ChunkRetriever, q Retrieval) ([]ChunkHit, error) {
	if q.TopK < 1 {
		return nil, fmt.Errorf("retrieve chunks: top_k %d is not at least 1", q.TopK)
	}
	if !(q.ScoreThreshold >= 0 && q.ScoreThreshold <= 1) { // also refuses NaN
		return nil, fmt.Errorf("retrieve chunks: score threshold %v is not between 0 and 1", q.ScoreThreshold)
	}
	n := candidates(q.TopK)
	var rankings []ranking
	if q.Vector != nil {
		hits, err := r.ChunkSearch(ctx, q.Vector, q.Filter, n)
		if err != nil {
			return nil, fmt.Errorf("retrieve chunks: vector ranking: %w", err)
		}
		rankings = append(rankings, ranking{hits: hits, weight: vectorWeight})
	}
	if terms := tokenize.Unique(q.Query); len(terms) > 0 {
		hits, err := r.ChunkTextSearch(ctx, KeywordQuery{Terms: terms, Match: MatchAny, Filter: q.Filter, Limit: n})
		if err != nil {
			return nil, fmt.Errorf("retrieve chunks: full-text ranking: %w", err)
		}
		rankings = append(rankings, ranking{hits: hits, weight: textWeight})
	}
	out := fuseRankings(rankings...)
	kept := out[:0]
	for _, h := range out {
		if len(kept) == q.TopK {
			break
		}
		if h.Score >= q.ScoreThreshold {
			kept = append(kept, h)
		}
	}
	return kept, nil
}

// ranking is one ranking of chunks to fuse, best first, and its weight (> 0).
type ranking struct {
	hits   []ChunkHit
	weight float64
}

// fuseRankings merges weighted rankings of chunks (each best first; a
// chunk is its FileID and Ordinal) by reciprocal rank fusion (Fuse),
// normalised to 0–1:
//
//	score(c) = Σ over rankings r holding c of w_r/(FusionK + rank) ÷ Σ over all rankings of w_r/(FusionK + 1)
//
// with rank counted from 1. A chunk ranked first by every ranking scores 1;
// with two rankings of equal weight, one ranked first by one and absent
// from the other scores 0.5; an empty ranking still counts in the
// denominator (a ranking that ran and found nothing is evidence). Only a
// chunk's first occurrence in a ranking counts. The result is ordered by
// score, then by the best rank the chunk has in any ranking, then by
// FileID and Ordinal; each hit keeps the text and page of its first
// occurrence, without the embedding.
func fuseRankings(rankings ...ranking) []ChunkHit {
	type key struct {
		file string
		ord  int
	}
	first := map[key]ChunkHit{}
	orders := make([]Order[key], len(rankings))
	var top float64
	for i, r := range rankings {
		top += r.weight / float64(FusionK+1)
		keys := make([]key, len(r.hits))
		for j, h := range r.hits {
			keys[j] = key{h.FileID, h.Ordinal}
			if _, ok := first[keys[j]]; !ok {
				h.Embedding = nil
				first[keys[j]] = h
			}
		}
		orders[i] = Order[key]{Keys: keys, Weight: r.weight}
	}
	fused := Fuse(FusionK, orders...)
	for i := range fused {
		fused[i].Score = math.Min(1, fused[i].Score/top)
	}
	sort.Slice(fused, func(i, j int) bool {
		a, b := fused[i], fused[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Best != b.Best {
			return a.Best < b.Best
		}
		if a.Key.file != b.Key.file {
			return a.Key.file < b.Key.file
		}
		return a.Key.ord < b.Key.ord
	})
	out := make([]ChunkHit, len(fused))
	for i, f := range fused {
		out[i] = first[f.Key]
		out[i].Score = f.Score
	}
	return out
}
