package search

import (
	"context"
	"fmt"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/store"
)

// KeystrokeIndex is what the per-keystroke path reads.
type KeystrokeIndex interface {
	KeywordIndex
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
	Stats(ctx context.Context) (store.Stats, error)
}

// KeystrokeRequest is one keystroke of a launcher (Alfred, Raycast).
type KeystrokeRequest struct {
	Query string
	Lang  string
	Now   time.Time
	Limit int
	// Sources limits the search to these sources (store.Filter.Sources);
	// none searches all.
	Sources []string
}

// Keystroke answers one keystroke from the index alone: one keyword search
// for the keywords rules (the analyzer, normally the offline provider)
// find in the typed text — or the raw text — with their period and type
// filters; when the filters leave nothing, the keywords alone. It never
// calls a remote service, so it stays fast enough to run on every key.
// An empty index is reported as indexed == false, with no error.
func Keystroke(ctx context.Context, ix KeystrokeIndex, analyzer ai.Provider, req KeystrokeRequest) (files []store.File, indexed bool, err error) {
	qa, err := ai.AnalyzeQuery(ctx, analyzer, ai.QueryInput{Query: req.Query, Now: req.Now, Lang: req.Lang})
	if err != nil {
		return nil, false, fmt.Errorf("analyse the query: %w", err)
	}
	terms := qa.Keywords
	if len(terms) == 0 {
		terms = []string{req.Query}
	}
	f, err := Filter(qa.Filters)
	if err != nil {
		f = store.Filter{}
	}
	f.Sources = req.Sources
	res, err := ix.KeywordSearch(ctx, store.KeywordQuery{Terms: terms, Match: store.MatchAny, Filter: f, Limit: req.Limit})
	if err == nil && len(res.Hits) == 0 && !qa.Filters.IsZero() {
		res, err = ix.KeywordSearch(ctx, store.KeywordQuery{Terms: terms, Match: store.MatchAny, Filter: store.Filter{Sources: req.Sources}, Limit: req.Limit})
	}
	if err != nil {
		return nil, false, fmt.Errorf("keyword search of the index: %w", err)
	}
	if len(res.Hits) == 0 {
		stats, err := ix.Stats(ctx)
		if err != nil {
			return nil, false, fmt.Errorf("read the index statistics: %w", err)
		}
		return nil, stats.Files > 0, nil
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	files, err = ix.GetFiles(ctx, ids)
	if err != nil {
		return nil, false, fmt.Errorf("load the matches: %w", err)
	}
	return files, true, nil
}
