package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// KeywordSearcher runs the keyword-search step: it returns the indexed
// files matching the conditions, best first (at most limit IDs), and how
// many match in all. Hits are already intersected with the index.
type KeywordSearcher interface {
	SearchKeywords(ctx context.Context, c Conditions, limit int) (ids []string, total int, err error)
}

// Asker puts a clarifying question to the user.
type Asker interface {
	// Ask returns the user's answer, ErrDeferred to stop and hand the
	// pending question to the caller (JSON, Alfred), or ErrNoAnswer to
	// apply the no-answer policy.
	Ask(ctx context.Context, q ai.Question, s State) (Answer, error)
}

var (
	// ErrNoQueryVector is returned by a provider's Embed when no embedding
	// of the query in the index's space can be had (the provider is down
	// and a fallback's vectors would not be comparable). The loop then
	// ranks without the vector signal instead of failing.
	ErrNoQueryVector = errors.New("no query embedding")
	// ErrDeferred stops the loop with the question pending in the state.
	ErrDeferred = errors.New("answer deferred to a later call")
	// ErrNoAnswer makes the loop continue without an answer.
	ErrNoAnswer = errors.New("no answer")
)

// NoAnswer is an Asker that never answers (evaluation, scripts).
type NoAnswer struct{}

// Ask implements Asker.
func (NoAnswer) Ask(context.Context, ai.Question, State) (Answer, error) {
	return Answer{}, ErrNoAnswer
}

// Deferred is an Asker that hands every question back to the caller.
type Deferred struct{}

// Ask implements Asker.
func (Deferred) Ask(context.Context, ai.Question, State) (Answer, error) {
	return Answer{}, ErrDeferred
}

// LoopIndex is what the loop needs from the store.
type LoopIndex interface {
	VectorSearch(ctx context.Context, vec []float32, f store.Filter, k int) ([]store.Hit, error)
	ChunkSearch(ctx context.Context, vec []float32, f store.Filter, k int) ([]store.ChunkHit, error)
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
}

// Step names a phase of the loop, for progress display.
type Step string

// Steps reported to Loop.OnStep.
const (
	StepAnalyze Step = "analyze"
	StepSearch  Step = "search"
	StepClarify Step = "clarify"
	StepAsk     Step = "ask"
	StepRefine  Step = "refine"
	StepNarrow  Step = "narrow"
	StepRerank  Step = "rerank"
	StepRelax   Step = "relax"
)

// Loop executes the actions of Next against real components.
type Loop struct {
	Keywords KeywordSearcher
	Index    LoopIndex
	AI       ai.Provider
	Asker    Asker
	// OnStep, when set, is called before each step (spinners, --verbose).
	OnStep func(Step, State)
	// OnRanked, when set, is called once per search that ended with a
	// rerank, with everything its final ranking used (gds eval --capture,
	// for replaying the reranker and the fusions offline). It may be
	// called from several searches at once.
	OnRanked func(RankTrace)
}

// RankTrace is what a search's final ranking used: the rerank input (the
// candidates with their passages and the index frequencies), the
// retrieval order the reranker's order was fused with, the reranker's
// order, the whole question's full-text ranking the complement fused in,
// and the final order.
type RankTrace struct {
	Query      string         `json:"query"`
	Keywords   []string       `json:"keywords"`
	Candidates []ai.HitInfo   `json:"cands"`
	DocFreq    map[string]int `json:"docfreq"`
	Docs       int            `json:"docs"`
	Retrieval  []string       `json:"retrieval"`
	Order      []string       `json:"order"`
	Whole      []string       `json:"whole"`
	Final      []string       `json:"final"`
}

// Outcome is the end (or pause) of a search.
type Outcome struct {
	State    State
	Provider string
	Results  []Result     // when State.End == EndResults
	Pending  *ai.Question // when the question was deferred
	// Degraded lists the steps that did not get an answer from their
	// service and used a fallback (the local index, the offline provider).
	Degraded []budget.Notice
	// Partial holds the query's most specific words when the best results
	// each miss one of them (PartialWords): a weak match, said as such.
	// nil otherwise.
	Partial []string
	// Weakness is what the weak-match judgement read (the terms, their
	// counts), for gds eval --mode honest.
	Weakness Weakness
	snippets map[string]string
}

// Run starts a search from a fresh state.
func (l *Loop) Run(ctx context.Context, s State) (Outcome, error) {
	s, a := Next(s, Event{Kind: EvStart})
	return l.execute(ctx, s, a)
}

// Resume continues a search whose question is pending with the answer.
func (l *Loop) Resume(ctx context.Context, s State, ans Answer) (Outcome, error) {
	if !s.Waiting() {
		return Outcome{State: s, Provider: l.AI.Name()}, errors.New("the search is not waiting for an answer")
	}
	s, a := Next(s, Event{Kind: EvAnswered, Answer: ans})
	return l.execute(ctx, s, a)
}

func (l *Loop) step(st Step, s State) {
	if l.OnStep != nil {
		l.OnStep(st, s)
	}
}

// execution is what one run of the loop collects as it performs the
// actions Next asks for.
type execution struct {
	out          Outcome
	scores       map[string]float64
	trace        *RankTrace     // the last rerank, when OnRanked is set
	checked      map[string]int // the word check's counts, when this run made it
	checkedFiles int            // and the indexed files it counted
}

// execute performs the actions Next asks for, from s and a, until the loop
// stops or waits for an answer the asker defers.
func (l *Loop) execute(ctx context.Context, s State, a Action) (Outcome, error) {
	x := &execution{out: Outcome{Provider: l.AI.Name(), snippets: map[string]string{}}, scores: map[string]float64{}}
	for {
		if err := ctx.Err(); err != nil {
			x.out.State = s
			return x.out, err
		}
		if a.Kind == ActStop {
			return l.stopAction(ctx, x, s)
		}
		ev, waiting, err := l.perform(ctx, x, s, a)
		if err != nil || waiting {
			return x.out, err
		}
		s, a = Next(s, ev)
	}
}

// perform performs one action other than ActStop and returns the event it
// led to; waiting when the search waits for a deferred answer.
func (l *Loop) perform(ctx context.Context, x *execution, s State, a Action) (Event, bool, error) {
	switch a.Kind {
	case ActAnalyze:
		ev, err := l.analyzeAction(ctx, x, s)
		return ev, false, err
	case ActSearch:
		ev, err := l.searchAction(ctx, x, s, a)
		return ev, false, err
	case ActClarify:
		ev, err := l.clarifyAction(ctx, x, s, a)
		return ev, false, err
	case ActAsk:
		return l.askAction(ctx, x, s, a)
	case ActRefine:
		ev, err := l.refineAction(ctx, x, s, a)
		return ev, false, err
	case ActNarrow:
		ev, err := l.narrowAction(ctx, x, s, a)
		return ev, false, err
	case ActRerank:
		ev, err := l.rerankAction(ctx, x, s, a)
		return ev, false, err
	case ActRelax:
		ev, err := l.relaxAction(ctx, x, s, a)
		return ev, false, err
	}
	return Event{}, false, nil
}

// stopAction performs ActStop: the final order, the full-text fallback, and
// the results with what each misses.
func (l *Loop) stopAction(ctx context.Context, x *execution, s State) (Outcome, error) {
	if s.End == EndResults && s.LastBranch() == BranchRerank {
		ids, whole, err := l.complement(ctx, s, s.Results)
		if err != nil {
			return x.out, err
		}
		s.Results = ids
		if x.trace != nil {
			x.trace.Whole, x.trace.Final = whole, ids
			l.OnRanked(*x.trace)
		}
	}
	if s.End == EndNotFound && !s.NothingMatched() {
		ids, err := l.wholeQuery(ctx, s, s.within(Conditions{}).Filters)
		if err != nil {
			return x.out, err
		}
		s = s.FallBackToFullText(ids)
	}
	x.out.State = s
	if s.End == EndResults {
		res, err := l.results(ctx, s.Results, x.scores)
		if err != nil {
			return x.out, err
		}
		w, err := markMissing(ctx, l.Index, s, res, x.checked, x.checkedFiles)
		if err != nil {
			return x.out, err
		}
		x.out.Partial, x.out.Weakness = w.Partial, w
		x.out.Results = res
	}
	return x.out, nil
}

// askAction performs ActAsk: the question put to the user; true when the
// asker defers the answer (the search waits).
func (l *Loop) askAction(ctx context.Context, x *execution, s State, a Action) (Event, bool, error) {
	var ev Event
	l.step(StepAsk, s)
	ans, err := l.Asker.Ask(ctx, *a.Question, s)
	switch {
	case errors.Is(err, ErrDeferred):
		x.out.State, x.out.Pending = s, s.Question
		return Event{}, true, nil
	case errors.Is(err, ErrNoAnswer):
		ev = Event{Kind: EvNoAnswer}
	case err != nil:
		return Event{}, false, err
	default:
		ev = Event{Kind: EvAnswered, Answer: ans}
	}
	return ev, false, nil
}

// analyzeAction performs ActAnalyze: the query's keywords and filters,
// and which of its words the index holds.
func (l *Loop) analyzeAction(ctx context.Context, x *execution, s State) (Event, error) {
	var ev Event
	l.step(StepAnalyze, s)
	qa, err := ai.AnalyzeQuery(ctx, l.AI, ai.QueryInput{Query: s.Query, Now: s.Now, Lang: s.Lang})
	if err != nil {
		return Event{}, err
	}
	ev = Event{Kind: EvAnalyzed, Analysis: qa}
	check, err := CheckWords(ctx, l.Index, s.Query, qa.Keywords, false)
	if err != nil {
		return Event{}, err
	}
	if check.Corrections, err = Correct(ctx, l.Index, s.Query, check); err != nil {
		return Event{}, err
	}
	if check.DocFreq != nil {
		ev.Check = &check
		x.checked, x.checkedFiles = check.DocFreq, check.Files
	}
	return ev, nil
}

// searchAction performs ActSearch: the keyword search.
func (l *Loop) searchAction(ctx context.Context, x *execution, s State, a Action) (Event, error) {
	var ev Event
	l.step(StepSearch, s)
	hits, total, err := l.Keywords.SearchKeywords(ctx, a.Cond, NoAnswerKeep)
	if err != nil {
		return Event{}, fmt.Errorf("keyword search: %w", err)
	}
	for i, id := range hits {
		x.scores[id] = 1 / float64(i+1)
	}
	ev = Event{Kind: EvSearched, Hits: hits, Total: total}
	return ev, nil
}

// clarifyAction performs ActClarify: a clarifying question over the hits.
func (l *Loop) clarifyAction(ctx context.Context, x *execution, s State, a Action) (Event, error) {
	var ev Event
	l.step(StepClarify, s)
	top, err := l.hitInfos(ctx, a.IDs[:min(len(a.IDs), 20)])
	if err != nil {
		return Event{}, err
	}
	in := ai.ClarifyInput{Query: s.SearchQuery(), Keywords: allKeywords(s.Cond),
		Filters: s.Cond.Filters, Total: s.Rounds[len(s.Rounds)-1].Hits, Hits: top, Lang: s.Lang}
	// Type, period and folder choices are counted over every hit
	// when the index can count them, not over the top 20.
	if fc, ok := l.Keywords.(FacetCounter); ok {
		facets, counted, err := fc.CountFacets(ctx, s.Cond)
		if err != nil {
			return Event{}, fmt.Errorf("count the hits by folder, type and month: %w", err)
		}
		if counted {
			in.Facets = facets
		}
	}
	q, err := ai.Clarify(ctx, l.AI, in)
	if err != nil {
		return Event{}, err
	}
	ev = Event{Kind: EvClarified, Question: q}
	return ev, nil
}

// refineAction performs ActRefine: the conditions refined by the answer.
func (l *Loop) refineAction(ctx context.Context, x *execution, s State, a Action) (Event, error) {
	var ev Event
	l.step(StepRefine, s)
	r, err := ai.Refine(ctx, l.AI, ai.RefineInput{Query: s.SearchQuery(), Keywords: allKeywords(s.Cond), Filters: s.Cond.Filters,
		Question: s.Question.Question, Answer: a.Answer, Now: s.Now, Lang: s.Lang})
	if err != nil {
		return Event{}, err
	}
	ev = Event{Kind: EvRefined, Refinement: r}
	return ev, nil
}

// narrowAction performs ActNarrow: the hits narrowed to the best few.
func (l *Loop) narrowAction(ctx context.Context, x *execution, s State, a Action) (Event, error) {
	var ev Event
	l.step(StepNarrow, s)
	ids := a.IDs
	if s.LastBranch() == BranchNoAnswer {
		// The no-answer policy's 100 are chosen by the fusion of the
		// keyword order and the whole question's ranking, not by the
		// keyword order alone.
		whole, err := l.wholeQueryN(ctx, s, Scoped(s.Cond, s.Scope).Filters, NoAnswerKeep)
		if err != nil {
			return Event{}, err
		}
		if len(whole) > 0 {
			ids = FuseKeep(a.IDs, whole, weightQuery, NoAnswerKeep)
		}
	}
	top, err := l.narrow(ctx, s, ids, x.scores, x.out.snippets)
	if err != nil {
		return Event{}, err
	}
	ev = Event{Kind: EvNarrowed, Hits: top}
	return ev, nil
}

// rerankAction performs ActRerank: the candidates ordered by intent.
func (l *Loop) rerankAction(ctx context.Context, x *execution, s State, a Action) (Event, error) {
	var ev Event
	l.step(StepRerank, s)
	cands, err := l.hitInfos(ctx, a.IDs)
	if err != nil {
		return Event{}, err
	}
	if err := l.fillSnippets(ctx, s, a.IDs, x.out.snippets); err != nil {
		return Event{}, err
	}
	for i := range cands {
		cands[i].Snippet = x.out.snippets[cands[i].ID]
	}
	in := ai.RerankInput{Query: s.SearchQuery(), Keywords: allKeywords(s.Cond), Candidates: cands}
	if in.DocFreq, in.Docs, err = l.docFreqs(ctx, s.SearchQuery()+" "+strings.Join(in.Keywords, " ")); err != nil {
		return Event{}, err
	}
	order, err := ai.Rerank(ctx, l.AI, in)
	if err != nil {
		return Event{}, err
	}
	ev = Event{Kind: EvReranked, Hits: FuseOrders(order, a.IDs, weightRetrieval)}
	if l.OnRanked != nil {
		x.trace = &RankTrace{Query: in.Query, Keywords: in.Keywords, Candidates: in.Candidates, DocFreq: in.DocFreq,
			Docs: in.Docs, Retrieval: a.IDs, Order: order}
	}
	return ev, nil
}

// relaxAction performs ActRelax: a zero-hit search loosened.
func (l *Loop) relaxAction(ctx context.Context, x *execution, s State, a Action) (Event, error) {
	var ev Event
	l.step(StepRelax, s)
	r, err := ai.Relax(ctx, l.AI, ai.RelaxInput{Query: s.SearchQuery(), Keywords: a.Cond.Keywords, Filters: a.Cond.Filters, Lang: s.Lang})
	if err != nil {
		return Event{}, err
	}
	ev = Event{Kind: EvRelaxed, Relaxation: UsefulRelaxation(a.Cond, r)}
	return ev, nil
}

// Narrowing fuses three rankings of the hits by reciprocal rank fusion
// (RRF): the keyword search's order, the whole query's words ranked by the
// store's full-text score (when the index offers one), and vector
// similarity. Each contributes weight/(store.FusionK + rank). The final order
// fuses the reranker's order with the order it was given the same way.
// The weights were chosen on the dev splits of the retrieval benchmarks (see
// docs/BENCHMARKS.md, "Search quality"): the whole-query ranking is the
// strongest single signal there, so it weighs most.
const (
	weightKeyword = 1.0
	weightQuery   = 5.0
	weightVector  = 1.0
	// weightRetrieval is the weight of the retrieval order (narrowing or
	// keyword search) next to the reranker's order (weight 1): a tenth, so
	// the reranker decides and the retrieval order only breaks its ties
	// (0 and 0.1 give the same dev figures; 0.1 keeps a tie-break for
	// other providers' rerankers).
	weightRetrieval = 0.1
)

// narrow keeps the Keep hits that best match the query. A file's vector
// similarity is the best of its own embedding (summary + keywords + name)
// and its chunks' embeddings, so a file is found by any passage of its
// text; the best chunk becomes the snippet the reranker sees. The vector
// ranking is fused with the keyword ranking (ids are in keyword order) and,
// when the index has a full-text search, the ranking of the hits by every
// word of the query, so that neither a lexical nor a semantic miss alone
// drops the right file.
func (l *Loop) narrow(ctx context.Context, s State, ids []string, scores map[string]float64, snippets map[string]string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	f := store.Filter{IDs: ids}
	var (
		fileHits  []store.Hit
		chunkHits []store.ChunkHit
	)
	vecs, err := l.AI.Embed(ctx, []string{s.SearchQuery() + "\n" + strings.Join(allKeywords(s.Cond), " ")})
	switch {
	case errors.Is(err, ErrNoQueryVector):
		// Rank by the keyword and whole-query orders alone.
	case err != nil:
		return nil, fmt.Errorf("embed the query: %w", err)
	default:
		if fileHits, err = l.Index.VectorSearch(ctx, vecs[0], f, len(ids)); err != nil {
			return nil, fmt.Errorf("vector search: %w", err)
		}
		if chunkHits, err = l.Index.ChunkSearch(ctx, vecs[0], f, 4*len(ids)); err != nil {
			return nil, fmt.Errorf("chunk search: %w", err)
		}
	}
	best := map[string]float64{}
	for _, h := range fileHits {
		best[h.ID] = h.Score
	}
	for _, h := range chunkHits {
		if _, ok := snippets[h.FileID]; !ok {
			snippets[h.FileID] = h.Text
		}
		if sc, ok := best[h.FileID]; !ok || h.Score > sc {
			best[h.FileID] = h.Score
		}
	}
	vecOrder := make([]string, 0, len(best))
	for id := range best {
		vecOrder = append(vecOrder, id)
	}
	kwRank := map[string]int{}
	for i, id := range ids {
		kwRank[id] = i
	}
	// A total order: vecOrder comes from a map.
	sort.Slice(vecOrder, func(i, j int) bool {
		a, b := vecOrder[i], vecOrder[j]
		if best[a] != best[b] {
			return best[a] > best[b]
		}
		if kwRank[a] != kwRank[b] {
			return kwRank[a] < kwRank[b]
		}
		return a < b
	})
	orders := []store.Order[string]{{Keys: ids, Weight: weightKeyword}, {Keys: vecOrder, Weight: weightVector}}
	if ki, ok := l.Index.(KeywordIndex); ok {
		if terms := QueryTerms(s.SearchQuery()); len(terms) > 0 {
			r, err := ki.KeywordSearch(ctx, store.KeywordQuery{Terms: terms, Match: store.MatchAny, Filter: f, Limit: len(ids)})
			if err != nil {
				return nil, fmt.Errorf("rank the hits by the query's words: %w", err)
			}
			q := make([]string, len(r.Hits))
			for i, h := range r.Hits {
				q[i] = h.ID
			}
			orders = append(orders, store.Order[string]{Keys: q, Weight: weightQuery})
		}
	}
	// Fuse breaks ties in the keyword order (ids come first).
	out := make([]string, 0, min(len(ids), Keep))
	for _, h := range store.Fuse(store.FusionK, orders...) {
		if _, known := kwRank[h.Key]; known && len(out) < Keep {
			out = append(out, h.Key)
			scores[h.Key] = h.Score
		}
	}
	return out, nil
}

// FuseOrders merges the reranker's order with the retrieval order (weight
// w against 1) by reciprocal rank fusion: the reranker decides between
// close candidates, but a file the retrieval ranked far ahead is not
// buried by one weak judgement. Ties keep the reranker's order; IDs only
// in retrieval are dropped (the reranker may not add files).
func FuseOrders(reranked, retrieval []string, w float64) []string {
	inReranked := make(map[string]bool, len(reranked))
	for _, id := range reranked {
		inReranked[id] = true
	}
	out := make([]string, 0, len(reranked))
	for _, h := range store.Fuse(store.FusionK, store.Order[string]{Keys: reranked, Weight: 1}, store.Order[string]{Keys: retrieval, Weight: w}) {
		if inReranked[h.Key] {
			out = append(out, h.Key)
		}
	}
	return out
}

// weightWholeQuery is the weight of the whole question's full-text ranking
// over the index next to the reranked results (weight 1) in complement.
// Chosen on the dev splits (docs/BENCHMARKS.md, "Search quality"): 0.3
// since the offline reranker reads the passage's BM25 itself (0.7 before;
// at 0.7 the full-text order overruled the better rerank in English).
const weightWholeQuery = 0.3

// complement fuses the reranked results with the whole question's
// full-text ranking over the index within the search's final filters, by
// reciprocal rank fusion, keeping Keep: a file the keyword conditions
// lost (a keyword the analysis dropped or mis-split) but the question's
// own words rank in their top Keep can still be shown, and the question's
// best match is not buried by a weak rerank. The full-text ranking's
// first file always keeps a place (KeepFirst). Without a full-text index
// the results are kept as they are.
// It also returns the whole question's ranking (for RankTrace).
func (l *Loop) complement(ctx context.Context, s State, results []string) (ids, whole []string, err error) {
	whole, err = l.wholeQuery(ctx, s, s.within(s.Cond).Filters)
	if err != nil || len(whole) == 0 {
		return results, whole, err
	}
	return KeepFirst(FuseKeep(results, whole, weightWholeQuery, Keep), whole[0], Keep), whole, nil
}

// KeepFirst returns ids with id among its first n: when it is missing and
// ids already hold n, it replaces the n-th; otherwise ids are returned as
// they are (id appended if they hold fewer).
func KeepFirst(ids []string, id string, n int) []string {
	for _, x := range ids[:min(len(ids), n)] {
		if x == id {
			return ids
		}
	}
	out := append([]string{}, ids[:min(len(ids), n)]...)
	if len(out) < n {
		return append(out, id)
	}
	out[n-1] = id
	return out
}

// wholeQuery ranks the index by every word of the question (QueryTerms,
// as alternatives) within the filters and returns the best Keep; nil
// when the index has no full-text search or the question no searchable
// word. It is the last resort of a search whose conditions matched
// nothing: any file sharing a word with the question is shown, labelled.
func (l *Loop) wholeQuery(ctx context.Context, s State, filters ai.Filters) ([]string, error) {
	return l.wholeQueryN(ctx, s, filters, Keep)
}

// wholeQueryN is wholeQuery keeping the best n.
func (l *Loop) wholeQueryN(ctx context.Context, s State, filters ai.Filters, n int) ([]string, error) {
	ki, ok := l.Index.(KeywordIndex)
	if !ok {
		return nil, nil
	}
	terms := QueryTerms(s.SearchQuery())
	if len(terms) == 0 {
		return nil, nil
	}
	f, err := Filter(filters)
	if err != nil {
		return nil, err
	}
	f.Sources = s.Sources
	r, err := ki.KeywordSearch(ctx, store.KeywordQuery{Terms: terms, Match: store.MatchAny, Filter: f, Limit: n})
	if err != nil {
		return nil, fmt.Errorf("rank the index by the question's words: %w", err)
	}
	ids := make([]string, len(r.Hits))
	for i, h := range r.Hits {
		ids[i] = h.ID
	}
	return ids, nil
}

// FuseKeep merges two rankings by reciprocal rank fusion (first weight 1,
// second w) and keeps the best n; ties keep the first ranking's order,
// then the second's.
func FuseKeep(first, second []string, w float64, n int) []string {
	fused := store.Fuse(store.FusionK, store.Order[string]{Keys: first, Weight: 1}, store.Order[string]{Keys: second, Weight: w})
	out := make([]string, 0, min(len(fused), n))
	for _, h := range fused[:min(len(fused), n)] {
		out = append(out, h.Key)
	}
	return out
}

// queryStopWords are English words too common to rank by when the whole
// question is searched: articles, auxiliaries, pronouns, prepositions,
// conjunctions and question words. Keyword conditions never contain them
// (the query analysis picks content words); they only blur the whole-
// question ranking.
var queryStopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of in on at to for by with from as into about and or but
is are was were be been being do does did has have had what which who whom whose when where why how
that this these those it its his her their they he she them there than then so not no`) {
		m[w] = true
	}
	return m
})

// QueryTerms are the distinct full-text tokens of a query (words, CJK
// bigrams) minus English stop words and the extensions of file names
// (zero.txt → zero: rules.StripExtensions), each searched as an
// alternative when ranking hits by the whole query.
func QueryTerms(query string) []string {
	var out []string
	seen := map[string]bool{}
	stop := queryStopWords()
	for _, t := range tokenize.Tokens(rules.StripExtensions(query)) {
		if stop[t] {
			continue
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// UsefulRelaxation returns r unless it cannot find anything c did not: the
// keywords of c are alternatives, so when c has no required keyword and
// r only drops keywords while keeping c's filters, r matches a subset of
// c's zero hits. Then the filters are loosened instead (ai.Filters.Loosen:
// the period first, then the file type, then the folder) and the keywords
// kept. (A
// query such as "what happened in 1910 in Vienna" reads 1910 as a period;
// when no file was modified then, dropping the period is what can find
// the file.)
func UsefulRelaxation(c Conditions, r ai.Relaxation) ai.Relaxation {
	if len(c.Required) > 0 || c.Filters.IsZero() || r.Filters != c.Filters {
		return r
	}
	for _, k := range r.Keywords {
		if !containsFold(c.Keywords, k) {
			return r // adds a keyword: leave the judgement to the state machine
		}
	}
	f, _ := c.Filters.Loosen() // c.Filters is not zero: something is dropped
	return ai.Relaxation{Keywords: slices.Clone(c.Keywords), Filters: f}
}

// fillSnippets finds, for the candidates without a snippet (the 2–10
// branch straight after a keyword search), the chunk most similar to the
// query, so the reranker reads the matching passage and not only the
// summary.
func (l *Loop) fillSnippets(ctx context.Context, s State, ids []string, snippets map[string]string) error {
	var missing []string
	for _, id := range ids {
		if _, ok := snippets[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	vecs, err := l.AI.Embed(ctx, []string{s.SearchQuery() + "\n" + strings.Join(allKeywords(s.Cond), " ")})
	if errors.Is(err, ErrNoQueryVector) {
		return nil // no snippets: the reranker reads the summaries
	}
	if err != nil {
		return fmt.Errorf("embed the query: %w", err)
	}
	hits, err := l.Index.ChunkSearch(ctx, vecs[0], store.Filter{IDs: missing}, 4*len(missing))
	if err != nil {
		return fmt.Errorf("chunk search: %w", err)
	}
	for _, h := range hits {
		if _, ok := snippets[h.FileID]; !ok {
			snippets[h.FileID] = h.Text
		}
	}
	return nil
}

func (l *Loop) hitInfos(ctx context.Context, ids []string) ([]ai.HitInfo, error) {
	files, err := l.Index.GetFiles(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load hits: %w", err)
	}
	out := make([]ai.HitInfo, len(files))
	for i, f := range files {
		out[i] = HitInfo(f)
	}
	return out, nil
}

func (l *Loop) results(ctx context.Context, ids []string, scores map[string]float64) ([]Result, error) {
	files, err := l.Index.GetFiles(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load results: %w", err)
	}
	out := make([]Result, len(files))
	for i, f := range files {
		out[i] = Result{File: f, Score: scores[f.ID]}
	}
	return out, nil
}

// allKeywords lists the keywords and required keywords of c.
func allKeywords(c Conditions) []string {
	return append(append([]string{}, c.Keywords...), c.Required...)
}

// Snippet returns the passage the loop matched for a result, if any.
func (o Outcome) Snippet(id string) string { return o.snippets[id] }

// docFreqs returns the index's document frequency of every search token of
// text and the number of indexed files, when the index can count them
// (nil, 0 otherwise).
func (l *Loop) docFreqs(ctx context.Context, text string) (map[string]int, int, error) {
	if dc, ok := l.Index.(DocFreqCounter); ok {
		df, n, err := dc.DocFreqs(ctx, QueryTerms(text))
		if err != nil {
			return nil, 0, fmt.Errorf("document frequencies: %w", err)
		}
		return df, n, nil
	}
	ki, ok := l.Index.(KeywordIndex)
	if !ok {
		return nil, 0, nil
	}
	sx, ok := l.Index.(interface {
		Stats(ctx context.Context) (store.Stats, error)
	})
	if !ok {
		return nil, 0, nil
	}
	st, err := sx.Stats(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("count indexed files: %w", err)
	}
	df := map[string]int{}
	for _, t := range QueryTerms(text) {
		r, err := ki.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{t}, Match: store.MatchAny, Limit: 1})
		if err != nil {
			return nil, 0, fmt.Errorf("document frequency of %q: %w", t, err)
		}
		df[t] = r.Total
	}
	return df, st.Files, nil
}
