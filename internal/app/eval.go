package app

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/eval"
	"github.com/gds-cli/gds/internal/keystroke"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// EvalRequest is one evaluation of search quality on a query set.
type EvalRequest struct {
	Corpus   string // folder of documents
	Queries  string // query set (JSON Lines)
	Baseline string // "" (the hybrid loop), "bm25" (the benchmark's reference BM25) or "fts5" (the index's keyword search)
	Limit    int    // first N queries; 0 = all
	Home     string // where evaluation indexes live; "" = <GDS_HOME>/eval
	Provider string // AI provider of the loop and the index
	Workers  int
	Details  string // write per-query results (JSON Lines) to this file
	// Seed draws the honest-search sets (EvalModeHonest).
	Seed uint64
	// Capture writes every reranked search's search.RankTrace (JSON
	// Lines) to this file, for replaying the final ranking offline
	// (internal/ai/offline/replay_test.go; the hybrid loop only); in
	// EvalModeAnswer, every answer's input (eval.AnswerCapture), for
	// replaying the offline answer (answer_replay_test.go).
	Capture string

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
	// EvalModeKeystroke is file retrieval through the Alfred keystroke
	// path (eval.KeystrokeSystem): its top keystroke.AlfredLimit files.
	EvalModeKeystroke = "keystroke"
)

// Baselines of gds eval.
const (
	// BaselineBM25 is the reference BM25 of the benchmark data, ranked in
	// memory over the corpus text (no index).
	BaselineBM25 = "bm25"
	// BaselineFTS5 is the index's own keyword search (FTS5 bm25).
	BaselineFTS5 = "fts5"
)

// Eval indexes the corpus (or reuses its index), runs the query set
// through the hybrid loop or a baseline and returns the metrics. The
// reference BM25 baseline reads the corpus text and builds no index.
func (d *Deps) Eval(ctx context.Context, req EvalRequest) (eval.Report, error) {
	if req.Baseline != "" && req.Baseline != BaselineBM25 && req.Baseline != BaselineFTS5 {
		return eval.Report{}, apperr.L(apperr.Usage, "eval.bad_baseline", req.Baseline)
	}
	if req.Baseline == BaselineBM25 {
		queries, err := evalQueries(req)
		if err != nil {
			return eval.Report{}, err
		}
		docs, err := eval.ReadCorpus(ctx, req.Corpus)
		if err != nil {
			return eval.Report{}, apperr.Mark(err, apperr.Usage)
		}
		return d.runEval(ctx, req, eval.RefBM25System{Index: eval.NewRefBM25(docs)}, queries)
	}
	ev, err := d.openEval(ctx, req)
	if err != nil {
		return eval.Report{}, err
	}
	defer ev.ix.Store.Close()
	var sys eval.System
	if req.Baseline == BaselineFTS5 {
		sys = eval.FTS5System{Index: ev.ix.Store}
	} else {
		loop := &search.Loop{Keywords: search.StoreSearcher{Index: ev.ix.Store}, Index: ev.ix.Store, AI: ev.prov, Asker: search.NoAnswer{}}
		if req.Capture != "" {
			w, err := eval.NewTraceWriter(req.Capture)
			if err != nil {
				return eval.Report{}, apperr.Mark(err, apperr.Usage)
			}
			loop.OnRanked = func(t search.RankTrace) { w.Write(t) }
			rep, err := d.runEval(ctx, req, eval.LoopSystem{Loop: loop, Lang: d.Lang, MaxLoops: ev.cfg.SearchMaxLoopCount, Now: d.Now}, ev.queries)
			if cerr := w.Close(); err == nil && cerr != nil {
				return eval.Report{}, cerr
			}
			return rep, err
		}
		sys = eval.LoopSystem{
			Loop:     loop,
			Lang:     d.Lang,
			MaxLoops: ev.cfg.SearchMaxLoopCount,
			Now:      d.Now,
		}
	}
	return d.runEval(ctx, req, sys, ev.queries)
}

// EvalKeystroke indexes the corpus (or reuses its index) and types each
// query into the Alfred keystroke path (eval.KeystrokeSystem with the
// keystroke's own query rules and limit), as `gds alfred filter QUERY`
// answers it.
func (d *Deps) EvalKeystroke(ctx context.Context, req EvalRequest) (eval.Report, error) {
	if req.Baseline != "" {
		return eval.Report{}, apperr.L(apperr.Usage, "eval.keystroke_baseline")
	}
	ev, err := d.openEval(ctx, req)
	if err != nil {
		return eval.Report{}, err
	}
	defer ev.ix.Store.Close()
	return d.runEval(ctx, req, eval.KeystrokeSystem{Index: ev.ix.Store, Analyzer: rules.Analyzer{}, Lang: d.Lang, Limit: keystroke.AlfredLimit, Now: d.Now}, ev.queries)
}

// runEval runs the queries through sys and writes the details if asked.
func (d *Deps) runEval(ctx context.Context, req EvalRequest, sys eval.System, queries []eval.Query) (eval.Report, error) {
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

// evalQueries checks the request's numbers and reads its query set (the
// first req.Limit queries when set).
func evalQueries(req EvalRequest) ([]eval.Query, error) {
	switch {
	case req.Corpus == "" || req.Queries == "":
		return nil, apperr.L(apperr.Usage, "eval.need_corpus_queries")
	case req.Limit < 0 || req.Workers < 1:
		return nil, apperr.L(apperr.Usage, "eval.bad_number")
	}
	queries, err := eval.ReadQueryFile(req.Queries)
	if err != nil {
		return nil, err
	}
	if req.Limit > 0 && req.Limit < len(queries) {
		queries = queries[:req.Limit]
	}
	return queries, nil
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
		Systems:  []eval.ChunkSystem{askChunks(ev.prov, st), eval.TextChunks{Index: st}, eval.VectorChunks{Index: st}},
		Provider: ev.prov.Name(),
		Files:    st,
		Answerer: answerer(ev.prov, d.Lang, st),
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
	var capture *eval.TraceWriter
	if req.Capture != "" {
		if capture, err = eval.NewTraceWriter(req.Capture); err != nil {
			return eval.AnswerReport{}, apperr.Mark(err, apperr.Usage)
		}
		a := answerer(ev.prov, d.Lang, st)
		a.Capture = func(c eval.AnswerCapture) { capture.Write(c) }
		setup.Answerer = a
	}
	rep, results, err := eval.RunAnswers(ctx, setup, ev.queries, eval.Options{Workers: req.Workers, Progress: req.Progress})
	if capture != nil {
		if cerr := capture.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}
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
	queries, err := evalQueries(req)
	if err != nil {
		return nil, err
	}
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	prov, err := ProviderNamed(cfg, req.Provider, d.Lang)
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
// configuration's settings (model names, keys) for everything else; its
// errors speak lang.
func ProviderNamed(cfg *config.Config, name, lang string) (ai.Provider, error) {
	switch name {
	case config.ProviderOffline, config.ProviderOpenAI:
	default:
		return nil, fmt.Errorf("--provider %q: want %s or %s", name, config.ProviderOffline, config.ProviderOpenAI)
	}
	c := *cfg
	c.AIProvider = name
	return NewProvider(&c, lang)
}

// answerer answers as gds ask does: with the index's document
// frequencies when the index counts them.
func answerer(p ai.Provider, lang string, st store.Store) eval.ProviderAnswerer {
	a := eval.ProviderAnswerer{AI: p, Lang: lang}
	if dc, ok := st.(docFreqCounter); ok {
		a.DocFreq = dc.DocFreqs
	}
	return a
}
