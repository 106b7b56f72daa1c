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

// Evaluation modes.
const (
	EvalModeFiles  = "files"  // file retrieval (the default)
	EvalModeAnswer = "answer" // question answering: context recall, answers
)

// Eval indexes the corpus (or reuses its index), runs the query set
// through the hybrid loop or the BM25 baseline and returns the metrics.
func (d *Deps) Eval(ctx context.Context, req EvalRequest) (eval.Report, error) {
	if req.Baseline != "" && req.Baseline != "bm25" {
		return eval.Report{}, apperr.L(apperr.Usage, "eval.bad_baseline", req.Baseline)
	}
	ev, err := d.openEval(ctx, req)
	if err != nil {
		return eval.Report{}, err
	}
	defer ev.ix.Store.Close()
	var sys eval.System
	if req.Baseline == "bm25" {
		sys = eval.BM25System{Index: ev.ix.Store}
	} else {
		sys = eval.LoopSystem{
			Loop:     &search.Loop{Keywords: search.StoreSearcher{Index: ev.ix.Store}, Index: ev.ix.Store, AI: ev.prov, Asker: search.NoAnswer{}},
			Lang:     d.Lang,
			MaxLoops: ev.cfg.SearchMaxLoopCount,
			Now:      d.Now,
		}
	}
	rep, results, err := eval.Run(ctx, sys, ev.queries, eval.Options{Workers: req.Workers, Progress: req.Progress})
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

// EvalAnswers indexes the corpus (or reuses its index) and measures
// question answering on the query set, whose queries need gold answers:
// the context recall@5 of gds's hybrid chunk retrieval (as gds ask), of
// the chunk full text alone and of the chunk vectors alone, and the share
// of answers written by the provider from the hybrid top 5 (an extract
// with the offline provider) that contain a gold answer. req.Baseline
// does not apply.
func (d *Deps) EvalAnswers(ctx context.Context, req EvalRequest) (eval.AnswerReport, error) {
	if req.Baseline != "" {
		return eval.AnswerReport{}, apperr.L(apperr.Usage, "eval.answer_baseline")
	}
	ev, err := d.openEval(ctx, req)
	if err != nil {
		return eval.AnswerReport{}, err
	}
	defer ev.ix.Store.Close()
	st := ev.ix.Store
	setup := eval.AnswerSetup{
		Systems:  []eval.ChunkSystem{eval.HybridChunks{Index: st}, eval.TextChunks{Index: st}, eval.VectorChunks{Index: st}},
		Provider: ev.prov.Name(),
		Files:    st,
		Answerer: eval.ProviderAnswerer{AI: ev.prov, Lang: d.Lang},
		Embed: func(ctx context.Context, text string) ([]float32, error) {
			vecs, err := ev.prov.Embed(ctx, []string{text})
			if err != nil {
				return nil, err
			}
			if len(vecs) != 1 {
				return nil, fmt.Errorf("%d embeddings for one text", len(vecs))
			}
			return vecs[0], nil
		},
	}
	rep, results, err := eval.RunAnswers(ctx, setup, ev.queries, eval.Options{Workers: req.Workers, Progress: req.Progress})
	if err != nil {
		return eval.AnswerReport{}, err
	}
	if req.Details != "" {
		names := make([]string, len(setup.Systems))
		for i, s := range setup.Systems {
			names[i] = s.Name()
		}
		if err := eval.WriteAnswerDetails(req.Details, names, results); err != nil {
			return eval.AnswerReport{}, err
		}
	}
	return rep, nil
}

// openedEval is an evaluation ready to run: its queries, provider and
// open index (the caller closes ix.Store).
type openedEval struct {
	cfg     *config.Config
	queries []eval.Query
	prov    ai.Provider
	ix      *eval.Index
}

// openEval checks req, reads its query set and opens (or builds) the
// evaluation index of its corpus.
func (d *Deps) openEval(ctx context.Context, req EvalRequest) (*openedEval, error) {
	switch {
	case req.Corpus == "" || req.Queries == "":
		return nil, apperr.L(apperr.Usage, "eval.need_corpus_queries")
	case req.Limit < 0 || req.Workers < 1:
		return nil, apperr.L(apperr.Usage, "eval.bad_number")
	}
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	queries, err := eval.ReadQueryFile(req.Queries)
	if err != nil {
		return nil, err
	}
	if req.Limit > 0 && req.Limit < len(queries) {
		queries = queries[:req.Limit]
	}
	prov, err := ProviderNamed(cfg, req.Provider)
	if err != nil {
		return nil, apperr.Mark(err, apperr.Usage)
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
		return nil, err
	}
	stats, err := ix.Store.Stats(ctx)
	if err != nil {
		ix.Store.Close()
		return nil, err
	}
	if req.OnIndex != nil {
		req.OnIndex(ix.Reused, stats.Files, ix.Path)
	}
	return &openedEval{cfg: cfg, queries: queries, prov: prov, ix: ix}, nil
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
