package search

import (
	"context"
	"fmt"

	"github.com/gds-cli/gds/internal/ai"
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
	f, err := StoreFilter(c)
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

// FacetCounter is a keyword searcher that can count all the hits of
// conditions by folder, MIME type and month without returning them (the
// clarifying question's facets). ok is false when it cannot.
type FacetCounter interface {
	CountFacets(ctx context.Context, c Conditions) (facets []ai.FacetCount, ok bool, err error)
}

// facetIndex is the store's facet count.
type facetIndex interface {
	KeywordFacets(ctx context.Context, q store.KeywordQuery) ([]store.FacetCount, error)
}

// CountFacets implements FacetCounter over the same query SearchKeywords
// runs (required keywords first, then any keyword among them).
func (s StoreSearcher) CountFacets(ctx context.Context, c Conditions) ([]ai.FacetCount, bool, error) {
	fi, ok := s.Index.(facetIndex)
	if !ok {
		return nil, false, nil
	}
	f, err := StoreFilter(c)
	if err != nil {
		return nil, false, err
	}
	q := store.KeywordQuery{Terms: c.Keywords, Match: store.MatchAny, Filter: f}
	if len(c.Required) > 0 {
		req, err := s.Index.KeywordSearch(ctx, store.KeywordQuery{Terms: c.Required, Match: store.MatchAll, Filter: f, Limit: maxRequiredSet})
		if err != nil {
			return nil, false, fmt.Errorf("required keywords: %w", err)
		}
		if len(c.Keywords) == 0 {
			q.Terms, q.Match = c.Required, store.MatchAll
		} else {
			q.Filter.IDs = make([]string, len(req.Hits))
			for i, h := range req.Hits {
				q.Filter.IDs[i] = h.ID
			}
		}
	}
	cs, err := fi.KeywordFacets(ctx, q)
	if err != nil {
		return nil, false, err
	}
	out := make([]ai.FacetCount, len(cs))
	for i, fc := range cs {
		out[i] = ai.FacetCount{Path: fc.Path, MimeType: fc.MimeType, Month: fc.Month, N: fc.N}
	}
	return out, true, nil
}

func hitIDs(hits []store.Hit, limit int) []string {
	out := make([]string, 0, min(len(hits), limit))
	for _, h := range hits[:min(len(hits), limit)] {
		out = append(out, h.ID)
	}
	return out
}
