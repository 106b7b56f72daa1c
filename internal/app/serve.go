package app

import (
	"context"
	"fmt"
	"time"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// WithLang returns a copy of d whose messages and answers are in lang (the
// language of one HTTP request); it shares d's store and provider.
func (d *Deps) WithLang(lang string) *Deps {
	c := *d
	c.Lang = lang
	return &c
}

// ShareStore makes OpenStore return st for every caller, whose Close then
// leaves it open: a long-running server keeps one index open. The owner
// closes st.
func (d *Deps) ShareStore(st store.Store) {
	d.OpenStore = func(context.Context) (store.Store, error) { return sharedStore{st}, nil }
}

type sharedStore struct{ store.Store }

func (sharedStore) Close() error { return nil }

// OptimizeText passes the merge on to the shared store when it has one.
func (s sharedStore) OptimizeText(ctx context.Context) (bool, error) {
	if o, ok := s.Store.(textOptimizer); ok {
		return o.OptimizeText(ctx)
	}
	return false, nil
}

// HealthTimeout bounds each component check of Health.
const HealthTimeout = 5 * time.Second

// Component is the state of one dependency: Err is nil when it works.
type Component struct {
	Name string
	Err  error
}

// Health checks the index with a query and, when the AI provider is a
// remote one (openai), embeds a short text with it; the offline provider
// needs no check.
func (d *Deps) Health(ctx context.Context) []Component {
	db := Component{Name: "database"}
	func() {
		cctx, cancel := context.WithTimeout(ctx, HealthTimeout)
		defer cancel()
		db.Err = d.withStore(cctx, func(s store.Store) error {
			_, err := s.Stats(cctx)
			return err
		})
	}()
	out := []Component{db}
	ai := Component{Name: "ai"}
	prov, err := d.Provider()
	switch {
	case err != nil:
		ai.Err = err
	case prov.Name() == config.ProviderOpenAI:
		cctx, cancel := context.WithTimeout(ctx, HealthTimeout)
		defer cancel()
		if _, err := prov.Embed(cctx, []string{"health check"}); err != nil {
			ai.Err = fmt.Errorf("embed a test text: %w", err)
		}
	}
	return append(out, ai)
}

// DocFreqs passes the count on to the shared store (the search's
// reranker, the unmatched-word check and the offline answer weigh words
// by it; both stores count in one call); a store without it is counted
// with one keyword search per term, as the search counts it.
func (s sharedStore) DocFreqs(ctx context.Context, terms []string) (map[string]int, int, error) {
	if dc, ok := s.Store.(docFreqCounter); ok {
		return dc.DocFreqs(ctx, terms)
	}
	df, err := search.CountTerms(ctx, s.Store, terms, false)
	if err != nil || df == nil {
		return df, 0, err
	}
	stats, err := s.Store.Stats(ctx)
	if err != nil {
		return nil, 0, err
	}
	return df, stats.Files, nil
}
