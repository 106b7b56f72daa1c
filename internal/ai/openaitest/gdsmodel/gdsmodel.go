// Package gdsmodel is the model the OpenAI-compatible emulator
// (internal/ai/openaitest, cmd/gds-openai-emulator) plays for gds, so that
// every model path of gds runs end to end through the real openai-go
// client without a network:
//
//   - the ai package's structured tasks and answers: the offline
//     provider's answers (the emulator reads the graph prompts' context
//     tables back into the offline provider's inputs);
//   - gds federate's query writing ("federated_queries"): the offline
//     keyword analysis as the model's terms and per-server queries
//     (federate.OfflineQueries);
//   - gds ask --mode agentic: a tool-using model. The main agent's turns
//     are the offline planner's (agent.Plan, replayed from the
//     conversation: each earlier assistant turn must be the plan's, each
//     tool result is observed as the plan observes it), then an answer
//     from the tool results citing their refs; the document analyst
//     (sub-agent) reads its document with get_document_content, then
//     answers from the passages that best match the query, citing [c<n>].
//
// The model is stateless: every turn is decided from the request alone.
package gdsmodel

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"unicode"

	"github.com/gds-cli/gds/internal/agent"
	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/federate"
)

// Name is the backend's name (the emulator prints it).
const Name = "gds-model"

// Backend is the model gds's emulator plays; see the package comment. It
// is an ai.ToolCaller, which is what makes the emulator play tool calls.
type Backend struct {
	*offline.Provider
}

var _ ai.ToolCaller = (*Backend)(nil)

// New returns the backend.
func New() *Backend { return &Backend{Provider: offline.New()} }

// Options are the emulator options that make it play this model: the
// backend, and gds's structured tasks beyond the ai package's.
func Options() []openaitest.Option {
	return []openaitest.Option{openaitest.WithBackend(New()),
		openaitest.WithTask[federate.QueriesInput](federate.SchemaQueries.Name, federate.TaskQueries)}
}

// Name implements ai.Provider.
func (b *Backend) Name() string { return Name }

// Structured implements ai.Provider: federate's queries, else the offline
// provider's answer.
func (b *Backend) Structured(ctx context.Context, req ai.Request) (json.RawMessage, error) {
	if req.Task != federate.TaskQueries {
		return b.Provider.Structured(ctx, req)
	}
	in, ok := req.Input.(federate.QueriesInput)
	if !ok {
		return nil, fmt.Errorf("gdsmodel %s: input is %T: %w", req.Task, req.Input, ai.ErrInputType)
	}
	out, err := federate.OfflineQueries(ctx, in, langOf(in.Question))
	if err != nil {
		return nil, fmt.Errorf("gdsmodel %s: %w", req.Task, err)
	}
	return json.Marshal(out)
}

// Stream implements ai.Provider; a request that offers tools is played
// (one turn) as CallTools plays it.
func (b *Backend) Stream(ctx context.Context, req ai.Request) iter.Seq2[ai.Event, error] {
	if len(req.Tools) > 0 {
		return b.StreamTools(ctx, req)
	}
	return b.Provider.Stream(ctx, req)
}

// CallTools implements ai.ToolCaller: one turn of gds's main agent or of
// its document analyst, told apart by the tools offered.
func (b *Backend) CallTools(ctx context.Context, req ai.Request) (ai.Reply, error) {
	offered := func(name string) bool {
		return slices.ContainsFunc(req.Tools, func(t ai.Tool) bool { return t.Name == name })
	}
	var rep ai.Reply
	var err error
	switch {
	case offered(agent.ToolContent):
		rep, err = b.analystTurn(ctx, req)
	case offered(agent.ToolSearchEvidence) || offered(agent.ToolInvestigate):
		rep, err = b.mainTurn(ctx, req)
	default:
		var names []string
		for _, t := range req.Tools {
			names = append(names, t.Name)
		}
		return ai.Reply{}, fmt.Errorf("gdsmodel: no play for the tools %v: %w", names, ai.ErrToolsUnsupported)
	}
	if err != nil {
		return ai.Reply{}, err
	}
	rep.FinishReason = ai.FinishStop
	if len(rep.ToolCalls) > 0 {
		rep.FinishReason = ai.FinishToolCalls
	}
	return rep, nil
}

// StreamTools implements ai.ToolCaller: the turn of CallTools as events.
func (b *Backend) StreamTools(ctx context.Context, req ai.Request) iter.Seq2[ai.Event, error] {
	return func(yield func(ai.Event, error) bool) {
		rep, err := b.CallTools(ctx, req)
		if err != nil {
			yield(ai.Event{}, err)
			return
		}
		if rep.Text != "" && !yield(ai.Event{Kind: ai.EventText, Text: rep.Text}, nil) {
			return
		}
		for _, c := range rep.ToolCalls {
			if !yield(ai.Event{Kind: ai.EventToolCall, ToolCall: c}, nil) {
				return
			}
		}
		yield(ai.Event{Kind: ai.EventEnd, FinishReason: rep.FinishReason}, nil)
	}
}

// langOf is "ja" for a text with Japanese script, else "en".
func langOf(s string) string {
	for _, r := range s {
		if unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han) {
			return "ja"
		}
	}
	return "en"
}
