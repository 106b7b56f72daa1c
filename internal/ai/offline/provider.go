package offline

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline/rules"
)

// Name is the provider name recorded in outputs.
const Name = rules.Name

// Provider is the offline ai.Provider. The zero value is not usable; call
// New. It is safe for concurrent use.
type Provider struct {
	ja *japanese // lazily loaded morphological analyser, for documents only
}

// New returns the offline provider. It loads no dictionary: the Japanese
// morphological analyser is loaded on the first Japanese document summary.
func New() *Provider { return &Provider{ja: &japanese{}} }

var _ ai.Provider = (*Provider)(nil)

// Name returns "offline".
func (p *Provider) Name() string { return Name }

// input reads a task input given as a value or a pointer.
func input[T any](req ai.Request) (T, error) {
	var zero T
	switch v := req.Input.(type) {
	case *T:
		if v == nil {
			return zero, fmt.Errorf("offline %s: nil %T input: %w", req.Task, v, ai.ErrInputType)
		}
		return *v, nil
	case T:
		return v, nil
	}
	return zero, fmt.Errorf("offline %s: input is %T, want %T: %w", req.Task, req.Input, zero, ai.ErrInputType)
}

// Structured performs req.Task on req.Input and returns JSON that satisfies
// the task's schema. Tasks without a structured output return
// ai.ErrUnsupportedTask.
func (p *Provider) Structured(ctx context.Context, req ai.Request) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("offline %s: %w", req.Task, err)
	}
	var out any
	switch req.Task {
	case ai.TaskAnalyzeQuery:
		in, err := input[ai.QueryInput](req)
		if err != nil {
			return nil, err
		}
		out = rules.AnalyzeQuery(in)
	case ai.TaskSummarize:
		in, err := input[ai.DocInput](req)
		if err != nil {
			return nil, err
		}
		out = p.summarize(in)
	case ai.TaskClarify:
		in, err := input[ai.ClarifyInput](req)
		if err != nil {
			return nil, err
		}
		out = clarify(in)
	case ai.TaskRefine:
		in, err := input[ai.RefineInput](req)
		if err != nil {
			return nil, err
		}
		out = refine(in)
	case ai.TaskRelax:
		in, err := input[ai.RelaxInput](req)
		if err != nil {
			return nil, err
		}
		out = relax(in)
	case ai.TaskRerank:
		in, err := input[ai.RerankInput](req)
		if err != nil {
			return nil, err
		}
		out = rerank(in)
	case ai.TaskGraphExtract:
		in, err := input[ai.GraphExtractInput](req)
		if err != nil {
			return nil, err
		}
		out = p.extractGraph(in)
	case ai.TaskGraphReport:
		in, err := input[ai.GraphReportInput](req)
		if err != nil {
			return nil, err
		}
		out = graphReport(in)
	case ai.TaskGraphMap:
		in, err := input[ai.GraphMapInput](req)
		if err != nil {
			return nil, err
		}
		out = graphMap(in)
	case ai.TaskGraphDrift:
		in, err := input[ai.GraphDriftInput](req)
		if err != nil {
			return nil, err
		}
		out = graphDrift(in)
	default:
		return nil, fmt.Errorf("offline %q: %w", req.Task, ai.ErrUnsupportedTask)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("offline %s: encode output: %w", req.Task, err)
	}
	return b, nil
}

// Stream performs TaskAnswer and TaskGraphAnswer: an extractive answer
// built from the passages (or the graph context), delivered one sentence
// per EventText, then EventEnd (FinishStop); it
// reports no usage. Other tasks fail with ai.ErrUnsupportedTask. The offline
// provider is not an ai.ToolCaller: a request that offers tools fails with
// ai.ErrToolsUnsupported.
func (p *Provider) Stream(ctx context.Context, req ai.Request) iter.Seq2[ai.Event, error] {
	return func(yield func(ai.Event, error) bool) {
		if len(req.Tools) > 0 {
			yield(ai.Event{}, fmt.Errorf("offline %s: %w", req.Task, ai.ErrToolsUnsupported))
			return
		}
		var pieces []string
		switch req.Task {
		case ai.TaskAnswer:
			in, err := input[ai.AnswerInput](req)
			if err != nil {
				yield(ai.Event{}, err)
				return
			}
			pieces = answer(in)
		case ai.TaskGraphAnswer:
			in, err := input[ai.GraphAnswerInput](req)
			if err != nil {
				yield(ai.Event{}, err)
				return
			}
			pieces = graphAnswer(in)
		default:
			yield(ai.Event{}, fmt.Errorf("offline stream %q: %w", req.Task, ai.ErrUnsupportedTask))
			return
		}
		for _, piece := range pieces {
			if err := ctx.Err(); err != nil {
				yield(ai.Event{}, fmt.Errorf("offline %s: %w", req.Task, err))
				return
			}
			if !yield(ai.Event{Kind: ai.EventText, Text: piece}, nil) {
				return
			}
		}
		yield(ai.Event{Kind: ai.EventEnd, FinishReason: ai.FinishStop}, nil)
	}
}

// Embed returns the lexical embedding of each text (see Embedding).
func (p *Provider) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("offline embed: %w", err)
			}
		}
		out[i] = Embedding(t)
	}
	return out, nil
}

// EmbeddingModel reports EmbeddingModelName and EmbeddingDim.
func (p *Provider) EmbeddingModel(context.Context) ai.EmbeddingModel {
	return ai.EmbeddingModel{Name: EmbeddingModelName, Dim: EmbeddingDim}
}
