package store

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/gds-cli/gds/internal/tokenize"
)

// Constants of the reciprocal rank fusion of RetrieveChunks (FuseRankings),
// chosen on the dev splits of the JSQuAD and SQuAD paragraph benchmarks by
// context recall@5 (docs/BENCHMARKS.md, "Question answering"): with the
// offline embedding the vector ranking is much weaker than the full-text
// one (0.88 vs 0.97 ja, 0.74 vs 0.93 en), and the usual equal weights with
// k 60 let it push full-text hits out of the top 5 (0.94 / 0.89). With the
// full text weighted 8 : 1 and k 10, the vector ranking reorders full-text
// hits it agrees with and fills in when the full text finds too few.
const (
	// RRFK is the rank constant: a chunk's weight in a ranking is
	// w/(RRFK + rank).
	RRFK = 10
	// TextWeight and VectorWeight weigh the full-text and vector rankings.
	TextWeight   = 8
	VectorWeight = 1
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
// q.Filter, fuses them with FuseRankings (weights VectorWeight and
// TextWeight) and returns the best q.TopK with a
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
	var rankings []Ranking
	if q.Vector != nil {
		hits, err := r.ChunkSearch(ctx, q.Vector, q.Filter, n)
		if err != nil {
			return nil, fmt.Errorf("retrieve chunks: vector ranking: %w", err)
		}
		rankings = append(rankings, Ranking{Hits: hits, Weight: VectorWeight})
	}
	if terms := tokenize.Unique(q.Query); len(terms) > 0 {
		hits, err := r.ChunkTextSearch(ctx, KeywordQuery{Terms: terms, Match: MatchAny, Filter: q.Filter, Limit: n})
		if err != nil {
			return nil, fmt.Errorf("retrieve chunks: full-text ranking: %w", err)
		}
		rankings = append(rankings, Ranking{Hits: hits, Weight: TextWeight})
	}
	out := FuseRankings(rankings...)
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

// Ranking is one ranking of chunks to fuse, best first, and its weight (> 0).
type Ranking struct {
	Hits   []ChunkHit
	Weight float64
}

// FuseRankings merges weighted rankings of chunks (each best first; a
// chunk is its FileID and Ordinal) by reciprocal rank fusion, normalised
// to 0–1:
//
//	score(c) = Σ over rankings r holding c of w_r/(RRFK + rank) ÷ Σ over all rankings of w_r/(RRFK + 1)
//
// with rank counted from 1. A chunk ranked first by every ranking scores 1;
// with two rankings of equal weight, one ranked first by one and absent
// from the other scores 0.5; an empty ranking still counts in the
// denominator (a ranking that ran and found nothing is evidence). Only a
// chunk's first occurrence in a ranking counts. The result is ordered by
// score, then by the best rank the chunk has in any ranking, then by
// FileID and Ordinal; each hit keeps the text and page of its first
// occurrence, without the embedding.
func FuseRankings(rankings ...Ranking) []ChunkHit {
	type key struct {
		file string
		ord  int
	}
	type acc struct {
		hit  ChunkHit
		sum  float64
		best int
	}
	byKey := map[key]*acc{}
	var order []*acc
	var top float64
	for _, ranking := range rankings {
		top += ranking.Weight / float64(RRFK+1)
		seen := map[key]bool{}
		rank := 0
		for _, h := range ranking.Hits {
			k := key{h.FileID, h.Ordinal}
			if seen[k] {
				continue
			}
			seen[k] = true
			rank++
			a := byKey[k]
			if a == nil {
				h.Embedding = nil
				a = &acc{hit: h, best: rank}
				byKey[k] = a
				order = append(order, a)
			}
			a.sum += ranking.Weight / float64(RRFK+rank)
			a.best = min(a.best, rank)
		}
	}
	for _, a := range order {
		a.hit.Score = math.Min(1, a.sum/top)
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.hit.Score != b.hit.Score {
			return a.hit.Score > b.hit.Score
		}
		if a.best != b.best {
			return a.best < b.best
		}
		if a.hit.FileID != b.hit.FileID {
			return a.hit.FileID < b.hit.FileID
		}
		return a.hit.Ordinal < b.hit.Ordinal
	})
	out := make([]ChunkHit, len(order))
	for i, a := range order {
		out[i] = a.hit
	}
	return out
}
