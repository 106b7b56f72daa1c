package app

import (
	"context"
	"fmt"
	"strconv"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/eval"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// AskCandidates is how many passages ask retrieves when the offline
// reranker chooses the ones the answer is written from (see
// docs/BENCHMARKS.md, "Question answering").
const AskCandidates = 20

// reranksPassages reports whether ask reranks its passages with prov: only
// the offline reranker, which costs no model call.
func reranksPassages(prov ai.Provider) bool { return prov.Name() == config.ProviderOffline }

// rerankChunks orders hits by prov's reranker (answer-type aware offline)
// and keeps the first k, in that order; names maps file IDs to names. dc,
// when not nil, weighs the question's words by their rarity in the index.
func rerankChunks(ctx context.Context, prov ai.Provider, dc docFreqCounter, query string, hits []store.ChunkHit,
	names map[string]string, k int) ([]store.ChunkHit, error) {
	in := ai.RerankInput{Query: query, Candidates: make([]ai.HitInfo, len(hits))}
	for i, h := range hits {
		in.Candidates[i] = ai.HitInfo{ID: strconv.Itoa(i), Name: names[h.FileID], Snippet: h.Text}
	}
	if dc != nil {
		df, n, err := dc.DocFreqs(ctx, tokenize.Unique(query))
		if err != nil {
			return nil, fmt.Errorf("document frequencies: %w", err)
		}
		in.DocFreq, in.Docs = df, n
	}
	order, err := ai.Rerank(ctx, prov, in)
	if err != nil {
		return nil, fmt.Errorf("rerank the passages: %w", err)
	}
	out := make([]store.ChunkHit, 0, min(k, len(order)))
	for _, id := range order[:min(k, len(order))] {
		i, err := strconv.Atoi(id)
		if err != nil {
			return nil, fmt.Errorf("rerank the passages: candidate %q: %w", id, err)
		}
		out = append(out, hits[i])
	}
	return out, nil
}

// rerankedChunks is eval's view of ask's retrieval: the hybrid chunks,
// AskCandidates of them reranked by the offline reranker.
type rerankedChunks struct {
	inner eval.ChunkSystem
	prov  ai.Provider
	st    store.Store
}

// Name implements eval.ChunkSystem.
func (r rerankedChunks) Name() string { return r.inner.Name() }

// Retrieve implements eval.ChunkSystem.
func (r rerankedChunks) Retrieve(ctx context.Context, q eval.Question, k int) ([]store.ChunkHit, error) {
	hits, err := r.inner.Retrieve(ctx, q, max(k, AskCandidates))
	if err != nil || len(hits) == 0 {
		return hits, err
	}
	names, err := fileNamesOf(ctx, r.st, hits)
	if err != nil {
		return nil, err
	}
	dc, _ := r.st.(docFreqCounter)
	return rerankChunks(ctx, r.prov, dc, q.Text, hits, names, k)
}

// fileNamesOf maps the file IDs of hits to the files' names.
func fileNamesOf(ctx context.Context, st store.Store, hits []store.ChunkHit) (map[string]string, error) {
	var ids []string
	names := map[string]string{}
	for _, h := range hits {
		if _, ok := names[h.FileID]; !ok {
			names[h.FileID] = ""
			ids = append(ids, h.FileID)
		}
	}
	files, err := st.GetFiles(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load the files of the passages: %w", err)
	}
	for _, f := range files {
		names[f.ID] = f.Name
	}
	return names, nil
}

// askChunks is the chunk system that feeds ask's answer: the hybrid
// retrieval, reranked when prov's reranker is offline.
func askChunks(prov ai.Provider, st store.Store) eval.ChunkSystem {
	h := eval.HybridChunks{Index: st}
	if !reranksPassages(prov) {
		return h
	}
	return rerankedChunks{inner: h, prov: prov, st: st}
}
