// Package drivesearch is the keyword-search step of the search loop for an
// index crawled from Google Drive: Drive's own full-text search, kept to the
// index. It joins package drive (the API client) and package search (the
// loop), so that neither imports the other.
package drivesearch

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Finder lists the Drive files matching a query, in Drive's relevance
// order, calling fn per file; fn returning an error stops the listing.
type Finder interface {
	Search(ctx context.Context, q drive.Query, fn func(drive.File) error) error
}

// IndexedFilter keeps the IDs that are in the index; GetFiles gives their
// folder paths when a folder filter applies (Drive's query language has
// no "anywhere below this folder").
type IndexedFilter interface {
	FilterIndexed(ctx context.Context, ids []string) ([]string, error)
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
}

// DefaultMaxProbe bounds how many Drive results one keyword search reads.
const DefaultMaxProbe = 1000

// Searcher is the keyword-search step of the loop for a Drive
// source: Drive's `fullText contains` with the period and type filters,
// then hits = Drive's results ∩ the index (which only holds files of the
// target folders and their subfolders), kept to the folder filter's
// subtree by the paths the index records. Drive gives no total count and
// rejects orderBy with fullText, so it reads results in Drive's relevance
// order only until the branch is decided: search.ClarifyAt indexed hits, the end
// of the results, or MaxProbe results. Keywords are alternatives (any of
// them); required keywords must all match.
//
// Drive's tokeniser does not find a substring inside a Japanese compound,
// so when a keyword contains CJK characters the store's own bigram index
// (Local) is searched too and its hits are added after Drive's. The same
// happens for every keyword when MergeLocal is set: the index also holds
// files of other sources (local folders) that Drive cannot find. Hits stay
// within the conditions' sources (search.Conditions.Sources).
type Searcher struct {
	Drive    Finder
	Index    IndexedFilter
	Local    search.KeywordSearcher // may be nil
	MaxProbe int                    // <= 0: DefaultMaxProbe
	// MergeLocal adds Local's hits for every search, not only CJK ones.
	MergeLocal bool
}

var errEnough = errors.New("enough results")

// Query builds the Drive query of conditions c. Every user value goes
// through the escaping builder.
func Query(c search.Conditions) (drive.Query, error) {
	parts := []drive.Query{drive.NotTrashed(), drive.Not(drive.IsFolder())}
	var alts []drive.Query
	for _, k := range c.Keywords {
		if q := drive.FullTextContains(k); !q.IsZero() {
			alts = append(alts, q)
		}
	}
	if len(alts) > 0 {
		parts = append(parts, drive.Or(alts...))
	}
	for _, k := range c.Required {
		if q := drive.FullTextContains(k); !q.IsZero() {
			parts = append(parts, q)
		}
	}
	if mts := ai.MimeTypesFor(c.Filters.FileType); len(mts) > 0 {
		parts = append(parts, drive.MimeTypeIn(mts...))
	}
	after, before, err := c.Filters.Range()
	if err != nil {
		return drive.Query{}, err
	}
	if !after.IsZero() {
		parts = append(parts, drive.CompareTime(drive.FieldModifiedTime, drive.OpGe, after))
	}
	if !before.IsZero() {
		parts = append(parts, drive.ModifiedBefore(before))
	}
	return drive.And(parts...), nil
}

// SearchKeywords implements search.KeywordSearcher.
func (s Searcher) SearchKeywords(ctx context.Context, c search.Conditions, limit int) ([]string, int, error) {
	q, err := Query(c)
	if err != nil {
		return nil, 0, err
	}
	maxProbe := s.MaxProbe
	if maxProbe <= 0 {
		maxProbe = DefaultMaxProbe
	}
	var hits, pending []string
	seen := map[string]bool{}
	read := 0
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		idx, err := s.Index.FilterIndexed(ctx, pending)
		if err != nil {
			return fmt.Errorf("intersect with the index: %w", err)
		}
		if idx, err = s.inFolder(ctx, idx, c.Filters.Folder, c.Sources); err != nil {
			return err
		}
		hits = append(hits, idx...)
		pending = pending[:0]
		return nil
	}
	err = s.Drive.Search(ctx, q, func(f drive.File) error {
		if seen[f.ID] {
			return nil
		}
		seen[f.ID] = true
		read++
		pending = append(pending, f.ID)
		if len(pending) == drive.PageSize {
			if err := flush(); err != nil {
				return err
			}
			if len(hits) >= search.ClarifyAt {
				return errEnough
			}
		}
		if read >= maxProbe {
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return nil, 0, fmt.Errorf("search Drive: %w", err)
	}
	if err := flush(); err != nil {
		return nil, 0, err
	}
	total := len(hits)
	if s.Local != nil && (s.MergeLocal || hasCJK(c)) {
		local, ltotal, err := s.Local.SearchKeywords(ctx, c, limit)
		if err != nil {
			return nil, 0, err
		}
		inDrive := make(map[string]bool, len(hits))
		for _, id := range hits {
			inDrive[id] = true
		}
		added := 0
		for _, id := range local {
			if !inDrive[id] {
				hits = append(hits, id)
				added++
			}
		}
		// Local matches beyond the returned page are counted too.
		total += added + max(0, ltotal-len(local))
	}
	return hits[:min(len(hits), limit)], total, nil
}

// inFolder keeps the ids whose indexed path lies in folder ("" keeps all)
// and whose source is one of sources (none keeps all).
func (s Searcher) inFolder(ctx context.Context, ids []string, folder string, sources []string) ([]string, error) {
	if store.CleanFolder(folder) == "" && len(sources) == 0 || len(ids) == 0 {
		return ids, nil
	}
	files, err := s.Index.GetFiles(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("folder of the hits: %w", err)
	}
	in := make(map[string]bool, len(files))
	for _, f := range files {
		if store.InFolder(f.Path, folder) && store.InSources(f.Source, sources) {
			in[f.ID] = true
		}
	}
	out := ids[:0:0]
	for _, id := range ids {
		if in[id] {
			out = append(out, id)
		}
	}
	return out, nil
}

// hasCJK reports whether a keyword or a required keyword has a CJK
// character.
func hasCJK(c search.Conditions) bool {
	for _, k := range slices.Concat(c.Keywords, c.Required) {
		for _, r := range k {
			if tokenize.IsCJK(r) {
				return true
			}
		}
	}
	return false
}
