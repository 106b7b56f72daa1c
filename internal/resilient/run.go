package resilient

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"sync"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// Run is the budget of one search: when it started, the time spent
// waiting for the user (not counted), the services given up on, and the
// notices of degraded steps.
type Run struct {
	Policy budget.Policy
	Now    func() time.Time // nil: time.Now

	mu      sync.Mutex
	start   time.Time
	paused  time.Duration
	down    map[budget.Service]bool
	notices []budget.Notice
	step    string
}

// NewRun starts the budget of a search now.
func NewRun(p budget.Policy, now func() time.Time) *Run {
	if now == nil {
		now = time.Now
	}
	return &Run{Policy: p.WithDefaults(), Now: now, start: now(), down: map[budget.Service]bool{}}
}

// Elapsed is the search's time so far, without the time spent waiting for
// the user's answers.
func (r *Run) Elapsed() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.Now().Sub(r.start) - r.paused
}

// Pause adds d of waiting for the user.
func (r *Run) Pause(d time.Duration) {
	r.mu.Lock()
	r.paused += d
	r.mu.Unlock()
}

// SetStep records the loop step running (for notices and errors).
func (r *Run) SetStep(s string) {
	r.mu.Lock()
	r.step = s
	r.mu.Unlock()
}

// Step is the loop step running.
func (r *Run) Step() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.step
}

// Notices are the degraded steps so far, in order.
func (r *Run) Notices() []budget.Notice {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]budget.Notice(nil), r.notices...)
}

// Down reports whether s was given up on for the rest of the search.
func (r *Run) Down(s budget.Service) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.down[s]
}

// Degraded records a notice (once per service and reason) and, for a
// sticky decision, gives the service up for the rest of the search.
func (r *Run) Degraded(n budget.Notice, d budget.Decision) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if d.Sticky {
		r.down[n.Service] = true
	}
	for _, m := range r.notices {
		if m.Service == n.Service && m.Reason == n.Reason && m.Step == n.Step {
			return
		}
	}
	r.notices = append(r.notices, n)
}

// stepContext is the context of one step of s: its deadline from the
// policy. ok is false when no time is left for the step.
func (r *Run) stepContext(ctx context.Context, s budget.Service) (context.Context, context.CancelFunc, time.Duration, bool) {
	t := r.Policy.StepTimeout(s, r.Elapsed())
	if t <= 0 {
		return ctx, func() {}, 0, false
	}
	sctx, cancel := context.WithTimeoutCause(ctx, t, errStepTimeout)
	return sctx, cancel, t, true
}

// Searcher is the keyword-search step with a fallback: Drive's full-text
// search (Drive; nil when there is none or --local), and on its failure
// the same conditions over the local full-text index (Local).
type Searcher struct {
	Drive search.KeywordSearcher
	Local search.KeywordSearcher
	Run   *Run
}

// SearchKeywords implements search.KeywordSearcher.
func (s Searcher) SearchKeywords(ctx context.Context, c search.Conditions, limit int) ([]string, int, error) {
	if s.Drive == nil || s.Run.Policy.Local || s.Run.Down(budget.Drive) {
		return s.Local.SearchKeywords(ctx, c, limit)
	}
	sctx, cancel, limitD, ok := s.Run.stepContext(ctx, budget.Drive)
	defer cancel()
	cause := budget.CauseBudget
	if ok {
		ids, total, err := s.Drive.SearchKeywords(sctx, c, limit)
		if err == nil {
			return ids, total, nil
		}
		if ctx.Err() != nil {
			return nil, 0, err
		}
		cause = Classify(sctx, err)
	}
	d := budget.Decide(budget.Drive, cause)
	if !d.Degrade() {
		return nil, 0, errors.New("unreachable: Drive search failed without a fallback")
	}
	s.Run.Degraded(budget.Notice{Service: budget.Drive, Reason: cause, Fallback: d.Fallback, Limit: limitD}, d)
	return s.Local.SearchKeywords(ctx, c, limit)
}

// CountFacets implements search.FacetCounter when the keyword search runs
// on the local index (no Drive, --local, or Drive given up): its hits are
// the ones counted. Drive's hits are not the local index's, so a Drive
// search counts nothing here (ok false: the question counts its top hits).
func (s Searcher) CountFacets(ctx context.Context, c search.Conditions) ([]ai.FacetCount, bool, error) {
	fc, ok := s.Local.(search.FacetCounter)
	if !ok || s.Drive != nil && !s.Run.Policy.Local && !s.Run.Down(budget.Drive) {
		return nil, false, nil
	}
	return fc.CountFacets(ctx, c)
}

// Provider is an AI provider whose calls have the step deadline and fall
// back to Offline. Embed has no comparable fallback (the index holds the
// primary's vectors): it fails with search.ErrNoQueryVector and the loop
// ranks without vectors. Stream (answers, not the search loop) passes
// through.
type Provider struct {
	Primary ai.Provider
	Offline ai.Provider
	Run     *Run
}

// Name is the primary's name.
func (p Provider) Name() string { return p.Primary.Name() }

// EmbeddingModel is the primary's.
func (p Provider) EmbeddingModel(ctx context.Context) ai.EmbeddingModel {
	return p.Primary.EmbeddingModel(ctx)
}

// Stream passes through to the primary.
func (p Provider) Stream(ctx context.Context, req ai.Request) iter.Seq2[ai.Event, error] {
	return p.Primary.Stream(ctx, req)
}

// Structured calls the primary within the step deadline, and the offline
// provider when it fails (budget.Decide).
func (p Provider) Structured(ctx context.Context, req ai.Request) (json.RawMessage, error) {
	if p.Run.Down(budget.AI) {
		return p.Offline.Structured(ctx, req)
	}
	var err error
	cause, limit, ok := budget.CauseBudget, time.Duration(0), false
	var sctx context.Context
	var cancel context.CancelFunc
	if sctx, cancel, limit, ok = p.Run.stepContext(ctx, budget.AI); ok {
		defer cancel()
		var out json.RawMessage
		if out, err = p.Primary.Structured(sctx, req); err == nil {
			return out, nil
		}
		if ctx.Err() != nil {
			return nil, err
		}
		cause = Classify(sctx, err)
	}
	d := budget.Decide(budget.AI, cause)
	if !d.Degrade() {
		return nil, err
	}
	p.Run.Degraded(budget.Notice{Service: budget.AI, Reason: cause, Fallback: d.Fallback, Step: string(req.Task), Limit: limit}, d)
	return p.Offline.Structured(ctx, req)
}

// Embed embeds with the primary within the step deadline; on failure it
// returns search.ErrNoQueryVector (with a notice) so the loop goes on
// without vectors.
func (p Provider) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if p.Run.Down(budget.AI) {
		return nil, search.ErrNoQueryVector
	}
	var err error
	cause, limit := budget.CauseBudget, time.Duration(0)
	sctx, cancel, limit, ok := p.Run.stepContext(ctx, budget.AI)
	defer cancel()
	if ok {
		var out [][]float32
		if out, err = p.Primary.Embed(sctx, texts); err == nil {
			return out, nil
		}
		if ctx.Err() != nil {
			return nil, err
		}
		cause = Classify(sctx, err)
	}
	d := budget.Decide(budget.AI, cause)
	if !d.Degrade() {
		return nil, err
	}
	p.Run.Degraded(budget.Notice{Service: budget.AI, Reason: cause, Fallback: budget.FallbackNone, Step: budget.StepEmbed, Limit: limit}, d)
	return nil, search.ErrNoQueryVector
}

// Index is the store behind the loop with a deadline on every query; a
// query that runs out is a budget.Failure naming the database (Where).
type Index struct {
	Store store.Store
	Run   *Run
	Where string // the masked database location
}

func (ix Index) call(ctx context.Context, fn func(ctx context.Context) error) error {
	t := ix.Run.Policy.StepTimeout(budget.DB, ix.Run.Elapsed())
	sctx, cancel := context.WithTimeoutCause(ctx, t, errStepTimeout)
	defer cancel()
	err := fn(sctx)
	if err == nil || ctx.Err() != nil {
		return err
	}
	switch c := Classify(sctx, err); c {
	case budget.CauseTimeout:
		if t < ix.Run.Policy.DB {
			// Cut short by the whole search's budget.
			return &budget.Failure{Service: budget.DB, Cause: budget.CauseBudget, Limit: ix.Run.Policy.Total, Step: ix.Run.Step(), Err: err}
		}
		return &budget.Failure{Service: budget.DB, Cause: c, Where: ix.Where, Limit: t, Err: err}
	case budget.CauseUnreachable:
		return &budget.Failure{Service: budget.DB, Cause: c, Where: ix.Where, Limit: t, Err: err}
	}
	return err
}

// VectorSearch implements search.LoopIndex.
func (ix Index) VectorSearch(ctx context.Context, vec []float32, f store.Filter, k int) (out []store.Hit, err error) {
	err = ix.call(ctx, func(ctx context.Context) error { out, err = ix.Store.VectorSearch(ctx, vec, f, k); return err })
	return out, err
}

// ChunkSearch implements search.LoopIndex.
func (ix Index) ChunkSearch(ctx context.Context, vec []float32, f store.Filter, k int) (out []store.ChunkHit, err error) {
	err = ix.call(ctx, func(ctx context.Context) error { out, err = ix.Store.ChunkSearch(ctx, vec, f, k); return err })
	return out, err
}

// GetFiles implements search.LoopIndex.
func (ix Index) GetFiles(ctx context.Context, ids []string) (out []store.File, err error) {
	err = ix.call(ctx, func(ctx context.Context) error { out, err = ix.Store.GetFiles(ctx, ids); return err })
	return out, err
}

// KeywordSearch implements search.KeywordIndex.
func (ix Index) KeywordSearch(ctx context.Context, q store.KeywordQuery) (out store.KeywordResult, err error) {
	err = ix.call(ctx, func(ctx context.Context) error { out, err = ix.Store.KeywordSearch(ctx, q); return err })
	return out, err
}

// KeywordFacets counts the hits of a keyword query by folder, type and
// month (search.StoreSearcher's facet counts), under the same deadline.
func (ix Index) KeywordFacets(ctx context.Context, q store.KeywordQuery) (out []store.FacetCount, err error) {
	err = ix.call(ctx, func(ctx context.Context) error { out, err = ix.Store.KeywordFacets(ctx, q); return err })
	return out, err
}

// FilterIndexed implements drivesearch.IndexedFilter.
func (ix Index) FilterIndexed(ctx context.Context, ids []string) (out []string, err error) {
	err = ix.call(ctx, func(ctx context.Context) error { out, err = ix.Store.FilterIndexed(ctx, ids); return err })
	return out, err
}

// Stats is the store's (the loop reads the file count).
func (ix Index) Stats(ctx context.Context) (out store.Stats, err error) {
	err = ix.call(ctx, func(ctx context.Context) error { out, err = ix.Store.Stats(ctx); return err })
	return out, err
}

// Summary is the store's Summary when it has one (Stats without the
// chunk count, which a search does not need), its Stats otherwise.
func (ix Index) Summary(ctx context.Context) (out store.Stats, err error) {
	sm, ok := ix.Store.(interface {
		Summary(ctx context.Context) (store.Stats, error)
	})
	if !ok {
		return ix.Stats(ctx)
	}
	err = ix.call(ctx, func(ctx context.Context) error { out, err = sm.Summary(ctx); return err })
	return out, err
}

// Asker times the user's answers so they do not count against the budget.
type Asker struct {
	Asker search.Asker
	Run   *Run
}

// Ask implements search.Asker.
func (a Asker) Ask(ctx context.Context, q ai.Question, s search.State) (search.Answer, error) {
	t0 := a.Run.Now()
	defer func() { a.Run.Pause(a.Run.Now().Sub(t0)) }()
	return a.Asker.Ask(ctx, q, s)
}
