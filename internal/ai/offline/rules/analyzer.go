// Package rules is the dictionary-free part of the offline provider
// (internal/ai/offline): the rule-based Japanese and English query analyser
// (period.go, filetype.go, segment.go, query.go) and the word tables and
// segmenter the provider's summariser and re-ranker share with it.
//
// It is its own package so that the per-keystroke path of the launcher
// (internal/launcher, the `gds` front binary) analyses queries exactly as
// the provider does without linking the kagome morphological analyser and
// its IPA dictionary (encoding/gob, ~50 MB), which only document summaries
// need. It imports no I/O package and builds nothing at package
// initialisation (lazy.go).
package rules

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/gds-cli/gds/internal/ai"
)

// Name is the provider name the analyser reports: the offline provider's.
const Name = "offline"

// Analyzer is an ai.Provider that performs TaskAnalyzeQuery only, with
// AnalyzeQuery — the offline provider's analysis, so ai.AnalyzeQuery gives
// the same result through either. Other tasks fail with
// ai.ErrUnsupportedTask.
type Analyzer struct{}

var _ ai.Provider = Analyzer{}

// Name returns "offline".
func (Analyzer) Name() string { return Name }

// Structured performs TaskAnalyzeQuery.
func (Analyzer) Structured(ctx context.Context, req ai.Request) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("offline %s: %w", req.Task, err)
	}
	if req.Task != ai.TaskAnalyzeQuery {
		return nil, fmt.Errorf("offline query analyser %q: %w", req.Task, ai.ErrUnsupportedTask)
	}
	var in ai.QueryInput
	switch v := req.Input.(type) {
	case ai.QueryInput:
		in = v
	case *ai.QueryInput:
		if v == nil {
			return nil, fmt.Errorf("offline %s: nil input: %w", req.Task, ai.ErrInputType)
		}
		in = *v
	default:
		return nil, fmt.Errorf("offline %s: input is %T, want %T: %w", req.Task, req.Input, in, ai.ErrInputType)
	}
	b, err := json.Marshal(AnalyzeQuery(in))
	if err != nil {
		return nil, fmt.Errorf("offline %s: encode output: %w", req.Task, err)
	}
	return b, nil
}

// Stream fails: the analyser writes no free text.
func (Analyzer) Stream(_ context.Context, req ai.Request) iter.Seq2[ai.Event, error] {
	return func(yield func(ai.Event, error) bool) {
		yield(ai.Event{}, fmt.Errorf("offline query analyser %q: %w", req.Task, ai.ErrUnsupportedTask))
	}
}

// Embed fails: the analyser has no embedding model.
func (Analyzer) Embed(context.Context, []string) ([][]float32, error) {
	return nil, fmt.Errorf("offline query analyser embed: %w", ai.ErrUnsupportedTask)
}

// EmbeddingModel is the zero model.
func (Analyzer) EmbeddingModel(context.Context) ai.EmbeddingModel { return ai.EmbeddingModel{} }
