package eval

import (
	"context"
	"fmt"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// LoopSystem runs each query through the hybrid search loop, exactly as
// `gds search` does without a terminal: the asker never answers, so a
// clarifying question takes the no-answer policy.
type LoopSystem struct {
	// Loop is the loop; its Asker should be search.NoAnswer{}.
	Loop *search.Loop
	// Lang is the language of messages and questions (i18n.En, i18n.Ja).
	Lang string
	// MaxLoops is SEARCH_MAX_LOOP_COUNT.
	MaxLoops int
	// Now is the reference time of period expressions; nil means time.Now.
	Now func() time.Time
}

// Name implements System.
func (LoopSystem) Name() string { return "gds" }

// Provider implements System.
func (s LoopSystem) Provider() string { return s.Loop.AI.Name() }

// Search implements System.
func (s LoopSystem) Search(ctx context.Context, query string) (Ranked, error) {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	out, err := s.Loop.Run(ctx, search.NewState(query, s.Lang, now(), s.MaxLoops))
	if err != nil {
		return Ranked{}, err
	}
	if out.Pending != nil {
		return Ranked{}, fmt.Errorf("the loop left a question pending; eval needs an asker that never answers")
	}
	r := Ranked{Loops: out.State.Loop, End: string(out.State.End)}
	for _, res := range out.Results {
		r.Files = append(r.Files, res.File.Name)
	}
	for _, rd := range out.State.Rounds {
		r.Branches = append(r.Branches, string(rd.Branch))
		r.Trace = append(r.Trace, fmt.Sprintf("keywords %q required %q filters %+v: %d hits → %s",
			rd.Conditions.Keywords, rd.Conditions.Required, rd.Conditions.Filters, rd.Hits, rd.Branch))
	}
	return r, nil
}

// KeystrokeSystem types each query into the Alfred keystroke path as
// `gds alfred filter QUERY` answers it: search.Keystroke — the index's
// keyword search for what the query rules (Analyzer, the dictionary-free
// offline rules) find in the typed text, one search and at most one
// loosening — and its best Limit files, the rows Alfred lists under its
// "Search Drive" item. No AI, no loop.
type KeystrokeSystem struct {
	Index    search.KeystrokeIndex
	Analyzer ai.Provider
	Lang     string
	Limit    int
	// Now is the reference time of period expressions; nil means time.Now.
	Now func() time.Time
}

// Name implements System.
func (KeystrokeSystem) Name() string { return "keystroke" }

// Provider implements System.
func (KeystrokeSystem) Provider() string { return "" }

// Search implements System.
func (s KeystrokeSystem) Search(ctx context.Context, query string) (Ranked, error) {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	res, err := search.Keystroke(ctx, s.Index, s.Analyzer, search.KeystrokeRequest{Query: query, Lang: s.Lang, Now: now(), Limit: s.Limit})
	if err != nil {
		return Ranked{}, err
	}
	r := Ranked{End: "not_found"}
	if len(res.Files) > 0 {
		r.End = "results"
	}
	for _, f := range res.Files {
		r.Files = append(r.Files, f.Name)
	}
	if len(res.Loosened) > 0 {
		r.Trace = append(r.Trace, "loosened: "+search.LoosenedText(res.Loosened, s.Lang))
	}
	if res.FullText {
		r.Trace = append(r.Trace, "full-text last resort")
	}
	return r, nil
}

// FTS5Index is what the FTS5 baseline needs from the store.
type FTS5Index interface {
	KeywordSearch(ctx context.Context, q store.KeywordQuery) (store.KeywordResult, error)
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
}

// FTS5System is the index's own keyword baseline: the store's keyword
// search (bm25 in SQLite's FTS5, over gds's shared tokenizer) with every
// distinct token of the whole query (search.QueryTerms) as an alternative
// (MatchAny), top TopK. No query analysis, no AI. It is weaker than the
// benchmark's reference BM25 on English (RefBM25System, "bm25"), which is
// the baseline gds is judged against.
type FTS5System struct {
	Index FTS5Index
}

// Name implements System.
func (FTS5System) Name() string { return "fts5" }

// Provider implements System.
func (FTS5System) Provider() string { return "" }

// Search implements System.
func (s FTS5System) Search(ctx context.Context, query string) (Ranked, error) {
	res, err := s.Index.KeywordSearch(ctx, store.KeywordQuery{Terms: search.QueryTerms(query), Match: store.MatchAny, Limit: TopK})
	if err != nil {
		return Ranked{}, fmt.Errorf("fts5 keyword search: %w", err)
	}
	r := Ranked{End: "not_found"}
	if len(res.Hits) == 0 {
		return r, nil
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	files, err := s.Index.GetFiles(ctx, ids)
	if err != nil {
		return Ranked{}, fmt.Errorf("fts5 load hits: %w", err)
	}
	r.End = "results"
	for _, f := range files {
		r.Files = append(r.Files, f.Name)
	}
	return r, nil
}
