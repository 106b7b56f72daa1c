package search

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/store"
)

// Index is what a search needs from the store.
type Index interface {
	KeywordSearch(ctx context.Context, q store.KeywordQuery) (store.KeywordResult, error)
	VectorSearch(ctx context.Context, vec []float32, f store.Filter, k int) ([]store.Hit, error)
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
}

// Result is one file found.
type Result struct {
	File  store.File
	Score float64
}

// Outcome is what a search produced.
type Outcome struct {
	Provider string
	Analysis ai.QueryAnalysis
	Hits     int // keyword hits before narrowing
	Results  []Result
}

// Filter converts AI filters into a store filter.
func Filter(f ai.Filters) (store.Filter, error) {
	after, before, err := f.Range()
	if err != nil {
		return store.Filter{}, err
	}
	return store.Filter{ModifiedAfter: after, ModifiedBefore: before, MimeTypes: ai.MimeTypesFor(f.FileType)}, nil
}

// OneShot analyses the query, runs a keyword search over the index, narrows
// more than limit hits by vector similarity, and reranks the rest.
func OneShot(ctx context.Context, idx Index, p ai.Provider, query string, now time.Time, lang string, limit int) (Outcome, error) {
	if limit <= 0 {
		limit = 10
	}
	out := Outcome{Provider: p.Name()}
	qa, err := ai.AnalyzeQuery(ctx, p, ai.QueryInput{Query: query, Now: now, Lang: lang})
	if err != nil {
		return out, err
	}
	out.Analysis = qa
	terms := qa.Keywords
	if len(terms) == 0 {
		terms = []string{query}
	}
	filter, err := Filter(qa.Filters)
	if err != nil {
		return out, err
	}
	kr, err := idx.KeywordSearch(ctx, store.KeywordQuery{Terms: terms, Match: store.MatchAny, Filter: filter, Limit: 100})
	if err != nil {
		return out, fmt.Errorf("keyword search: %w", err)
	}
	out.Hits = kr.Total
	if len(kr.Hits) == 0 {
		return out, nil
	}
	hits := kr.Hits
	if len(hits) > limit {
		ids := make([]string, len(hits))
		for i, h := range hits {
			ids[i] = h.ID
		}
		vecs, err := p.Embed(ctx, []string{query + "\n" + strings.Join(qa.Keywords, " ")})
		if err != nil {
			return out, fmt.Errorf("embed query: %w", err)
		}
		vf := filter
		vf.IDs = ids
		vh, err := idx.VectorSearch(ctx, vecs[0], vf, len(ids))
		if err != nil {
			return out, fmt.Errorf("vector search: %w", err)
		}
		hits = fuse(hits, vh, limit)
	}
	ids := make([]string, len(hits))
	score := map[string]float64{}
	for i, h := range hits {
		ids[i] = h.ID
		score[h.ID] = h.Score
	}
	files, err := idx.GetFiles(ctx, ids)
	if err != nil {
		return out, fmt.Errorf("load results: %w", err)
	}
	byID := map[string]store.File{}
	cands := make([]ai.HitInfo, 0, len(files))
	for _, f := range files {
		byID[f.ID] = f
		cands = append(cands, HitInfo(f))
	}
	order := ids
	if len(cands) > 1 {
		if order, err = ai.Rerank(ctx, p, ai.RerankInput{Query: query, Keywords: qa.Keywords, Candidates: cands}); err != nil {
			return out, err
		}
	}
	for _, id := range order {
		if f, ok := byID[id]; ok {
			out.Results = append(out.Results, Result{File: f, Score: score[id]})
		}
	}
	return out, nil
}

// HitInfo describes a file to the AI provider.
func HitInfo(f store.File) ai.HitInfo {
	return ai.HitInfo{ID: f.ID, Name: f.Name, Summary: f.Summary, Keywords: f.Keywords,
		MimeType: f.MimeType, Modified: f.ModifiedAt.UTC().Format(ai.DateLayout), Path: f.Path}
}

// fuse combines the keyword ranking and the vector ranking by reciprocal
// rank fusion and keeps the best k.
func fuse(keyword, vector []store.Hit, k int) []store.Hit {
	const c = 60.0
	score := map[string]float64{}
	for i, h := range keyword {
		score[h.ID] += 1 / (c + float64(i+1))
	}
	for i, h := range vector {
		score[h.ID] += 1 / (c + float64(i+1))
	}
	out := make([]store.Hit, 0, len(keyword))
	for _, h := range keyword {
		out = append(out, store.Hit{ID: h.ID, Score: score[h.ID]})
	}
	// Stable insertion sort by fused score (n <= 100).
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Score > out[j-1].Score; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out[:min(k, len(out))]
}
