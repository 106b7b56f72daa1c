package search

import (
	"context"
	"fmt"

	"github.com/gds-cli/gds/internal/store"
)

// KeywordIndex is the store's full-text search.
type KeywordIndex interface {
	KeywordSearch(ctx context.Context, q store.KeywordQuery) (store.KeywordResult, error)
}

// StoreSearcher is the keyword-search step for a local source: the
// store's own full-text index (words and CJK bigrams, so Japanese
// substrings are found). Keywords match as alternatives ranked by
// relevance; required keywords must all match.
type StoreSearcher struct {
	Index KeywordIndex
}

// maxRequiredSet bounds the candidate set of required keywords.
const maxRequiredSet = 50000

// SearchKeywords implements KeywordSearcher.
func (s StoreSearcher) SearchKeywords(ctx context.Context, c Conditions, limit int) ([]string, int, error) {
	f, err := Filter(c.Filters)
	if err != nil {
		return nil, 0, err
	}
	if len(c.Required) > 0 {
		req, err := s.Index.KeywordSearch(ctx, store.KeywordQuery{Terms: c.Required, Match: store.MatchAll, Filter: f, Limit: maxRequiredSet})
		if err != nil {
			return nil, 0, fmt.Errorf("required keywords: %w", err)
		}
		f.IDs = make([]string, len(req.Hits))
		for i, h := range req.Hits {
			f.IDs[i] = h.ID
		}
		if len(c.Keywords) == 0 || len(f.IDs) == 0 {
			return hitIDs(req.Hits, limit), req.Total, nil
		}
	}
	r, err := s.Index.KeywordSearch(ctx, store.KeywordQuery{Terms: c.Keywords, Match: store.MatchAny, Filter: f, Limit: limit})
	if err != nil {
		return nil, 0, err
	}
	return hitIDs(r.Hits, limit), r.Total, nil
}

func hitIDs(hits []store.Hit, limit int) []string {
	out := make([]string, 0, min(len(hits), limit))
	for _, h := range hits[:min(len(hits), limit)] {
		out = append(out, h.ID)
	}
	return out
}
