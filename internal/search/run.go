package search

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/store"
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
}

// Outcome is the end (or pause) of a search.
type Outcome struct {
	State    State
	Provider string
	Results  []Result     // when State.End == EndResults
	Pending  *ai.Question // when the question was deferred
	snippets map[string]string
}

// Run starts a search from a fresh state.
func (l *Loop) Run(ctx context.Context, s State) (Outcome, error) {
	s, a := Next(s, Event{Kind: EvStart})
	return l.drive(ctx, s, a)
}

// Resume continues a search whose question is pending with the answer.
func (l *Loop) Resume(ctx context.Context, s State, ans Answer) (Outcome, error) {
	if !s.Waiting() {
		return Outcome{State: s, Provider: l.AI.Name()}, errors.New("the search is not waiting for an answer")
	}
	s, a := Next(s, Event{Kind: EvAnswered, Answer: ans})
	return l.drive(ctx, s, a)
}

func (l *Loop) step(st Step, s State) {
	if l.OnStep != nil {
		l.OnStep(st, s)
	}
}

func (l *Loop) drive(ctx context.Context, s State, a Action) (Outcome, error) {
	out := Outcome{Provider: l.AI.Name(), snippets: map[string]string{}}
	scores := map[string]float64{}
	for {
		if err := ctx.Err(); err != nil {
			out.State = s
			return out, err
		}
		var ev Event
		switch a.Kind {
		case ActStop:
			out.State = s
			if s.End == EndResults {
				res, err := l.results(ctx, s.Results, scores)
				if err != nil {
					return out, err
				}
				out.Results = res
			}
			return out, nil

		case ActAnalyze:
			l.step(StepAnalyze, s)
			qa, err := ai.AnalyzeQuery(ctx, l.AI, ai.QueryInput{Query: s.Query, Now: s.Now, Lang: s.Lang})
			if err != nil {
				return out, err
			}
			ev = Event{Kind: EvAnalyzed, Analysis: qa}

		case ActSearch:
			l.step(StepSearch, s)
			hits, total, err := l.Keywords.SearchKeywords(ctx, a.Cond, NoAnswerKeep)
			if err != nil {
				return out, fmt.Errorf("keyword search: %w", err)
			}
			for i, id := range hits {
				scores[id] = 1 / float64(i+1)
			}
			ev = Event{Kind: EvSearched, Hits: hits, Total: total}

		case ActClarify:
			l.step(StepClarify, s)
			top, err := l.hitInfos(ctx, a.IDs[:min(len(a.IDs), 20)])
			if err != nil {
				return out, err
			}
			q, err := ai.Clarify(ctx, l.AI, ai.ClarifyInput{Query: s.Query, Keywords: allKeywords(s.Cond),
				Filters: s.Cond.Filters, Total: s.Rounds[len(s.Rounds)-1].Hits, Hits: top, Lang: s.Lang})
			if err != nil {
				return out, err
			}
			ev = Event{Kind: EvClarified, Question: q}

		case ActAsk:
			l.step(StepAsk, s)
			ans, err := l.Asker.Ask(ctx, *a.Question, s)
			switch {
			case errors.Is(err, ErrDeferred):
				out.State, out.Pending = s, s.Question
				return out, nil
			case errors.Is(err, ErrNoAnswer):
				ev = Event{Kind: EvNoAnswer}
			case err != nil:
				return out, err
			default:
				ev = Event{Kind: EvAnswered, Answer: ans}
			}

		case ActRefine:
			l.step(StepRefine, s)
			r, err := ai.Refine(ctx, l.AI, ai.RefineInput{Query: s.Query, Keywords: allKeywords(s.Cond), Filters: s.Cond.Filters,
				Question: s.Question.Question, Answer: a.Answer, Now: s.Now, Lang: s.Lang})
			if err != nil {
				return out, err
			}
			ev = Event{Kind: EvRefined, Refinement: r}

		case ActNarrow:
			l.step(StepNarrow, s)
			top, err := l.narrow(ctx, s, a.IDs, scores, out.snippets)
			if err != nil {
				return out, err
			}
			ev = Event{Kind: EvNarrowed, Hits: top}

		case ActRerank:
			l.step(StepRerank, s)
			cands, err := l.hitInfos(ctx, a.IDs)
			if err != nil {
				return out, err
			}
			for i := range cands {
				cands[i].Snippet = out.snippets[cands[i].ID]
			}
			order, err := ai.Rerank(ctx, l.AI, ai.RerankInput{Query: s.Query, Keywords: allKeywords(s.Cond), Candidates: cands})
			if err != nil {
				return out, err
			}
			ev = Event{Kind: EvReranked, Hits: order}

		case ActRelax:
			l.step(StepRelax, s)
			r, err := ai.Relax(ctx, l.AI, ai.RelaxInput{Query: s.Query, Keywords: a.Cond.Keywords, Filters: a.Cond.Filters, Lang: s.Lang})
			if err != nil {
				return out, err
			}
			ev = Event{Kind: EvRelaxed, Relaxation: r}
		}
		s, a = Next(s, ev)
	}
}

// narrow embeds the query and keywords and keeps the Keep hits most
// similar to it. A file's similarity is the best of its own embedding
// (summary + keywords + name) and its chunks' embeddings, so a file is
// found by any passage of its text. The best chunk becomes the snippet the
// reranker sees.
func (l *Loop) narrow(ctx context.Context, s State, ids []string, scores map[string]float64, snippets map[string]string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	vecs, err := l.AI.Embed(ctx, []string{s.Query + "\n" + strings.Join(allKeywords(s.Cond), " ")})
	if err != nil {
		return nil, fmt.Errorf("embed the query: %w", err)
	}
	f := store.Filter{IDs: ids}
	fileHits, err := l.Index.VectorSearch(ctx, vecs[0], f, len(ids))
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	chunkHits, err := l.Index.ChunkSearch(ctx, vecs[0], f, 4*len(ids))
	if err != nil {
		return nil, fmt.Errorf("chunk search: %w", err)
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
	rank := map[string]int{}
	for i, id := range ids {
		rank[id] = i
	}
	out := make([]string, 0, len(best))
	for id := range best {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool {
		if best[out[i]] != best[out[j]] {
			return best[out[i]] > best[out[j]]
		}
		return rank[out[i]] < rank[out[j]]
	})
	out = out[:min(len(out), Keep)]
	for _, id := range out {
		scores[id] = best[id]
	}
	return out, nil
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
