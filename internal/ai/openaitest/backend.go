package openaitest

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"iter"
	"math"
	"slices"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/tokenize"
)

// DefaultSimpleDim is the embedding size of the default SimpleBackend.
const DefaultSimpleDim = 64

// SimpleBackend is a small deterministic ai.Provider for tests and the
// emulator when nothing better is configured: keywords are the query's
// search tokens, summaries are the text's opening, rerank orders by token
// overlap, answers quote the first passage, and embeddings are hashed
// token features. Equal inputs always give equal outputs.
type SimpleBackend struct {
	dim int
}

// NewSimpleBackend returns a SimpleBackend producing dim-dimensional
// embeddings.
func NewSimpleBackend(dim int) *SimpleBackend {
	if dim <= 0 {
		dim = DefaultSimpleDim
	}
	return &SimpleBackend{dim: dim}
}

// Name implements ai.Provider.
func (b *SimpleBackend) Name() string { return "openaitest" }

// EmbeddingModel implements ai.Provider.
func (b *SimpleBackend) EmbeddingModel(context.Context) ai.EmbeddingModel {
	return ai.EmbeddingModel{Name: "openaitest-hash", Dim: b.dim}
}

// keywords returns up to n distinct words of s (normalised, punctuation
// trimmed) in text order.
func keywords(s string, n int) []string {
	out := []string{}
	for _, f := range strings.Fields(tokenize.Normalize(s)) {
		f = strings.Trim(f, ".,;:!?()[]{}\"'「」『』、。")
		if f == "" || slices.Contains(out, f) {
			continue
		}
		out = append(out, f)
		if len(out) == n {
			break
		}
	}
	return out
}

func overlap(a, b string) int {
	set := map[string]bool{}
	for _, t := range tokenize.Tokens(a) {
		set[t] = true
	}
	n := 0
	for _, t := range tokenize.Tokens(b) {
		if set[t] {
			n++
		}
	}
	return n
}

// Structured implements ai.Provider for every structured task.
func (b *SimpleBackend) Structured(_ context.Context, req ai.Request) (json.RawMessage, error) {
	var out any
	switch in := req.Input.(type) {
	case ai.QueryInput:
		out = ai.QueryAnalysis{Keywords: keywords(in.Query, 5)}
	case ai.DocInput:
		kw := keywords(in.Name, 5)
		if len(kw) == 0 {
			kw = keywords(in.Text, 5)
		}
		out = ai.DocSummary{Summary: ai.Truncate(strings.Join(strings.Fields(in.Text), " "), max(in.MaxLength, 1)), Keywords: kw}
	case ai.ClarifyInput:
		q := ai.Question{Question: "Which of these do you mean?", Choices: []ai.Choice{}}
		if strings.HasPrefix(in.Lang, "ja") {
			q.Question = "どれを探していますか？"
		}
		for _, h := range in.Hits {
			for _, k := range keywords(h.Name, 2) {
				if !slices.Contains(in.Keywords, k) && !slices.ContainsFunc(q.Choices, func(c ai.Choice) bool { return c.Keyword == k }) && len(q.Choices) < 6 {
					q.Choices = append(q.Choices, ai.Choice{Label: k, Keyword: k})
				}
			}
		}
		out = q
	case ai.RefineInput:
		out = ai.Refinement{AddKeyword: strings.TrimSpace(in.Answer)}
	case ai.RelaxInput:
		kw := slices.Clone(in.Keywords)
		f := in.Filters
		if !f.IsZero() {
			f = ai.Filters{}
		} else if len(kw) > 1 {
			kw = kw[:len(kw)-1]
		}
		if kw == nil {
			kw = []string{}
		}
		out = ai.Relaxation{Keywords: kw, Filters: f}
	case ai.RerankInput:
		c := slices.Clone(in.Candidates)
		q := in.Query + " " + strings.Join(in.Keywords, " ")
		slices.SortStableFunc(c, func(x, y ai.HitInfo) int {
			return overlap(q, y.Name+" "+y.Summary) - overlap(q, x.Name+" "+x.Summary)
		})
		order := []string{}
		for _, h := range c {
			order = append(order, h.ID)
		}
		out = ai.RerankResult{Order: order}
	case ai.GraphExtractInput:
		// The text's first keywords as concepts, each related to the
		// next; a gleaning pass finds nothing more.
		ex := ai.GraphExtraction{Entities: []ai.GraphEntity{}, Relationships: []ai.GraphRelationship{}}
		if in.Previous == nil {
			kw := keywords(in.Text, 3)
			for i, k := range kw {
				ex.Entities = append(ex.Entities, ai.GraphEntity{Name: strings.ToUpper(k), Type: "concept", Description: "mentioned: " + k})
				if i > 0 {
					ex.Relationships = append(ex.Relationships, ai.GraphRelationship{Source: strings.ToUpper(kw[i-1]), Target: strings.ToUpper(k),
						Description: kw[i-1] + " and " + k, Strength: 5})
				}
			}
		}
		out = ex
	case ai.GraphReportInput:
		title := "Community"
		if len(in.Entities) > 0 {
			title = in.Entities[0]
		}
		out = ai.GraphReport{Title: title, Summary: ai.Truncate(strings.Join(strings.Fields(in.Context), " "), 200), Rating: 5,
			RatingExplanation: "emulated", Findings: []ai.GraphFinding{}}
	default:
		return nil, fmt.Errorf("openaitest backend: task %q: %w", req.Task, ai.ErrUnsupportedTask)
	}
	return json.Marshal(out)
}

// Stream implements ai.Provider: it answers from the first passage, citing
// it, one word per EventText, then EventEnd. It calls no tools.
func (b *SimpleBackend) Stream(ctx context.Context, req ai.Request) iter.Seq2[ai.Event, error] {
	return func(yield func(ai.Event, error) bool) {
		in, ok := req.Input.(ai.AnswerInput)
		if g, isGraph := req.Input.(ai.GraphAnswerInput); isGraph {
			// A graph answer: the context's opening, as one passage.
			in, ok = ai.AnswerInput{Question: g.Question, Lang: g.Lang}, true
			if strings.TrimSpace(g.Context) != "" {
				in.Contexts = []ai.AnswerContext{{Ref: 1, Text: g.Context}}
			}
		}
		switch {
		case len(req.Tools) > 0:
			yield(ai.Event{}, fmt.Errorf("openaitest backend: %w", ai.ErrToolsUnsupported))
			return
		case !ok:
			yield(ai.Event{}, fmt.Errorf("openaitest backend: task %q: %w", req.Task, ai.ErrUnsupportedTask))
			return
		}
		text := "No passage answers the question."
		if strings.HasPrefix(in.Lang, "ja") {
			text = "該当する資料が見つかりませんでした。"
		}
		if len(in.Contexts) > 0 {
			c := in.Contexts[0]
			text = fmt.Sprintf("%s [%d]", ai.Truncate(strings.Join(strings.Fields(c.Text), " "), 200), c.Ref)
		}
		for _, piece := range strings.SplitAfter(text, " ") {
			if err := ctx.Err(); err != nil {
				yield(ai.Event{}, err)
				return
			}
			if !yield(ai.Event{Kind: ai.EventText, Text: piece}, nil) {
				return
			}
		}
		yield(ai.Event{Kind: ai.EventEnd, FinishReason: ai.FinishStop}, nil)
	}
}

// Embed implements ai.Provider with signed hashed token features,
// L2-normalised.
func (b *SimpleBackend) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v := make([]float32, b.dim)
		for _, tok := range tokenize.Tokens(t) {
			h := fnv.New64a()
			h.Write([]byte(tok))
			x := h.Sum64()
			sign := float32(1)
			if x>>63 == 1 {
				sign = -1
			}
			v[x%uint64(b.dim)] += sign
		}
		var s float64
		for _, f := range v {
			s += float64(f) * float64(f)
		}
		if s > 0 {
			inv := float32(1 / math.Sqrt(s))
			for j := range v {
				v[j] *= inv
			}
		}
		out[i] = v
	}
	return out, nil
}
