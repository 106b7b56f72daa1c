package eval

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

// System answers one query with a ranked list of file names.
type System interface {
	// Name is "gds" or "bm25".
	Name() string
	// Provider is the AI provider the system uses ("" for none).
	Provider() string
	// Search runs one query.
	Search(ctx context.Context, query string) (Ranked, error)
}

// Options tune Run.
type Options struct {
	// Workers run queries concurrently; <= 0 means 1. Latency figures are
	// only comparable between runs with the same number of workers.
	Workers int
	// Progress, when set, is called after each query with the number done
	// (calls are serialised).
	Progress func(done, total int)
	// Clock times each query; nil means time.Now.
	Clock func() time.Time
}

// QueryResult is one query with what the system returned.
type QueryResult struct {
	Query  Query
	Ranked Ranked
	Rank   int // 1-based rank of the first relevant file, 0 if absent
}

// Run evaluates sys on the queries and returns the report and every
// query's result in input order. The first failing query stops the run.
func Run(ctx context.Context, sys System, queries []Query, opts Options) (Report, []QueryResult, error) {
	clock := opts.Clock
	if clock == nil {
		clock = time.Now
	}
	results := make([]QueryResult, len(queries))
	err := forEachQuery(ctx, queries, opts.Workers, opts.Progress, func(ctx context.Context, i int) error {
		q := queries[i]
		start := clock()
		r, err := sys.Search(ctx, q.Query)
		r.Elapsed = clock().Sub(start)
		if err != nil {
			return err
		}
		results[i] = QueryResult{Query: q, Ranked: r, Rank: Rank(r.Files, q.Relevant)}
		return nil
	})
	if err != nil {
		return Report{}, nil, err
	}
	m := NewMetrics(sys.Name(), sys.Provider())
	for _, r := range results {
		m.Add(r.Query, r.Ranked)
	}
	return m.Report(), results, nil
}

// forEachQuery calls fn for every query index on workers goroutines (<= 0
// means 1), calling progress (serialised) after each success. The first
// error, named after its query, stops the run; so does ctx.
func forEachQuery(ctx context.Context, queries []Query, workers int, progress func(done, total int), fn func(ctx context.Context, i int) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(workers, 1))
	var (
		done       atomic.Int64
		progressMu sync.Mutex // progress reports arrive one at a time, in order
	)
	for i := range queries {
		if gctx.Err() != nil {
			break // stopped: the rest are not searched
		}
		g.Go(func() error {
			if gctx.Err() != nil {
				return nil // stopped while waiting for a worker
			}
			if err := fn(gctx, i); err != nil {
				q := queries[i]
				return fmt.Errorf("query %s (%q): %w", q.ID, q.Query, err)
			}
			progressMu.Lock()
			defer progressMu.Unlock()
			n := int(done.Add(1))
			if progress != nil {
				progress(n, len(queries))
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("evaluation stopped after %d of %d queries: %w", done.Load(), len(queries), err)
	}
	return nil
}
