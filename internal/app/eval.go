package app

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/eval"
	"github.com/gds-cli/gds/internal/search"
)

// EvalRequest is one evaluation of search quality on a query set.
type EvalRequest struct {
	Corpus   string // folder of documents
	Queries  string // query set (JSON Lines)
	Baseline string // "" (the hybrid loop) or "bm25"
	Limit    int    // first N queries; 0 = all
	Home     string // where evaluation indexes live; "" = <GDS_HOME>/eval
	Provider string // AI provider of the loop and the index
	Workers  int
	Details  string // write per-query results (JSON Lines) to this file

	IndexProgress crawl.Progress        // indexing the corpus (may be nil)
	Progress      func(done, total int) // queries (may be nil)
	// OnIndex is told the index once it is open: reused or built, its
	// file count and path (may be nil).
	OnIndex func(reused bool, files int, path string)
}

// Eval indexes the corpus (or reuses its index), runs the query set
// through the hybrid loop or the BM25 baseline and returns the metrics.
func (d *Deps) Eval(ctx context.Context, req EvalRequest) (eval.Report, error) {
	switch {
	case req.Corpus == "" || req.Queries == "":
		return eval.Report{}, apperr.L(apperr.Usage, "eval.need_corpus_queries")
	case req.Baseline != "" && req.Baseline != "bm25":
		return eval.Report{}, apperr.L(apperr.Usage, "eval.bad_baseline", req.Baseline)
	case req.Limit < 0 || req.Workers < 1:
		return eval.Report{}, apperr.L(apperr.Usage, "eval.bad_number")
	}
	cfg, err := d.RequireConfig()
	if err != nil {
		return eval.Report{}, err
	}
	queries, err := eval.ReadQueryFile(req.Queries)
	if err != nil {
		return eval.Report{}, err
	}
	if req.Limit > 0 && req.Limit < len(queries) {
		queries = queries[:req.Limit]
	}
	prov, err := ProviderNamed(cfg, req.Provider)
	if err != nil {
		return eval.Report{}, apperr.Mark(err, apperr.Usage)
	}
	home := req.Home
	if home == "" {
		home = filepath.Join(cfg.DataDir, "eval")
	}
	ix, err := eval.OpenIndex(ctx, eval.IndexOptions{
		Corpus:           req.Corpus,
		Dir:              home,
		Provider:         prov,
		SummaryMaxLength: cfg.SummaryMaxLength,
		Concurrency:      cfg.CrawlConcurrency,
		Progress:         req.IndexProgress,
		Now:              d.Now,
	})
	if err != nil {
		return eval.Report{}, err
	}
	defer ix.Store.Close()
	stats, err := ix.Store.Stats(ctx)
	if err != nil {
		return eval.Report{}, err
	}
	if req.OnIndex != nil {
		req.OnIndex(ix.Reused, stats.Files, ix.Path)
	}
	var sys eval.System
	if req.Baseline == "bm25" {
		sys = eval.BM25System{Index: ix.Store}
	} else {
		sys = eval.LoopSystem{
			Loop:     &search.Loop{Keywords: search.StoreSearcher{Index: ix.Store}, Index: ix.Store, AI: prov, Asker: search.NoAnswer{}},
			Lang:     d.Lang,
			MaxLoops: cfg.SearchMaxLoopCount,
			Now:      d.Now,
		}
	}
	rep, results, err := eval.Run(ctx, sys, queries, eval.Options{Workers: req.Workers, Progress: req.Progress})
	if err != nil {
		return eval.Report{}, err
	}
	if req.Details != "" {
		if err := eval.WriteDetails(req.Details, results); err != nil {
			return eval.Report{}, err
		}
	}
	return rep, nil
}

// ProviderNamed builds the named provider ("offline" or "openai") with the
// configuration's settings (model names, keys) for everything else.
func ProviderNamed(cfg *config.Config, name string) (ai.Provider, error) {
	switch name {
	case config.ProviderOffline, config.ProviderOpenAI:
	default:
		return nil, fmt.Errorf("--provider %q: want %s or %s", name, config.ProviderOffline, config.ProviderOpenAI)
	}
	c := *cfg
	c.AIProvider = name
	return NewProvider(&c)
}
