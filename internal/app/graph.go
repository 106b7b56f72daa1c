package app

import (
	"context"
	"fmt"

	"github.com/gds-cli/gds/internal/ai/tokens"
	"github.com/gds-cli/gds/internal/estimate"
	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
)

// GraphBuildRequest is one `gds graph build`.
type GraphBuildRequest struct {
	graph.BuildOptions
	Concurrency int                  // model calls in flight; 0: graph.DefaultConcurrency
	MaxRPM      int                  // model requests per minute to stay under (--max-rpm); 0: GDS_AI_MAX_RPM
	OnProgress  func(graph.Progress) // may be nil
}

// graphStore opens the index and its graph storage.
func (d *Deps) graphStore(ctx context.Context) (store.Store, store.GraphStore, error) {
	st, err := d.OpenStore(ctx)
	if err != nil {
		return nil, nil, err
	}
	gs, ok := st.(store.GraphStore)
	if !ok {
		st.Close()
		return nil, nil, fmt.Errorf("the %T index cannot hold a graph", st)
	}
	return st, gs, nil
}

// GraphBuildResult is what a build did, with what its model calls took.
type GraphBuildResult struct {
	graph.BuildStats
	// Usage is what the build's model calls took (the usage the responses
	// reported), priced; nil for the offline provider.
	Usage *estimate.Figures `json:"usage,omitempty"`
	// Estimated is the estimate made for this build (gds graph build
	// --estimate with the same folder), when there is one.
	Estimated *estimate.Figures `json:"estimated,omitempty"`
}

// GraphBuild builds or updates the entity graph over the indexed chunks
// (internal/graph.Builder).
func (d *Deps) GraphBuild(ctx context.Context, req GraphBuildRequest) (GraphBuildResult, error) {
	d.SetMaxRPM(req.MaxRPM)
	prov, err := d.Provider()
	if err != nil {
		return GraphBuildResult{}, err
	}
	st, gs, err := d.graphStore(ctx)
	if err != nil {
		return GraphBuildResult{}, err
	}
	defer st.Close()
	stats, err := st.Stats(ctx)
	if err != nil {
		return GraphBuildResult{}, err
	}
	if stats.Files == 0 {
		return GraphBuildResult{}, d.emptyIndex()
	}
	b := &graph.Builder{Index: st, Graph: gs, Provider: prov, Counter: tokens.O200k, Lang: d.Lang,
		Concurrency: req.Concurrency, Now: d.Now, OnProgress: req.OnProgress}
	before := meterTotals(prov)
	res := GraphBuildResult{}
	res.BuildStats, err = b.Build(ctx, req.BuildOptions)
	if err == nil && d.Config != nil {
		res.Usage, res.Estimated = d.actualFigures(d.Config, estimate.OpGraphBuild, graphScope(req.BuildOptions), prov, before)
	}
	return res, err
}

// GraphQuery answers a question from the graph in q.Mode (global when
// empty). Before any build it fails with a no_index error naming
// `gds graph build`.
func (d *Deps) GraphQuery(ctx context.Context, q graph.Query) (graph.Result, error) {
	prov, err := d.Provider()
	if err != nil {
		return graph.Result{}, err
	}
	st, gs, err := d.graphStore(ctx)
	if err != nil {
		return graph.Result{}, err
	}
	defer st.Close()
	// The answer's language follows the question, as ask's does
	// (AnswerLang): the offline extract's phrases, the no-data reply and
	// a model's answer.
	lang := d.AnswerLang(q.Question)
	if q.NoData == "" {
		q.NoData = i18n.T(lang, "graph.no_data")
	}
	s := &graph.Searcher{Graph: gs, Index: st, Provider: prov, Counter: tokens.O200k, Lang: lang}
	return s.Run(ctx, q)
}
