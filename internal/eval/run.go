package eval

import (
	"context"
	"fmt"
	"sync"
	"time"
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		done     int
		firstErr error
		wg       sync.WaitGroup
	)
	next := make(chan int)
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil {
					continue // stopped: drain without searching
				}
				err := fn(ctx, i)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						q := queries[i]
						firstErr = fmt.Errorf("query %s (%q): %w", q.ID, q.Query, err)
						cancel()
					}
					mu.Unlock()
					continue
				}
				done++
				if progress != nil {
					progress(done, len(queries))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range queries {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("evaluation stopped after %d of %d queries: %w", done, len(queries), err)
	}
	return nil
}
