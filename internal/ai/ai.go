// Package ai defines the one interface gds uses for language models and
// embeddings, and the typed tasks (query analysis, summaries, clarifying
// questions, refinement, relaxation, rerank, answers) built on it. Two
// providers implement Provider: internal/ai/openai (OpenAI and any
// OpenAI-compatible server) and internal/ai/offline (rules, no network).
package ai

import (
	"context"
	"encoding/json"
	"errors"
)

// Task names a job. LLM providers follow Request.System and Messages; the
// offline provider dispatches on Task and reads Request.Input instead.
type Task string

// The tasks gds asks of a provider.
const (
	TaskAnalyzeQuery Task = "analyze_query" // Input: QueryInput → QueryAnalysis
	TaskSummarize    Task = "summarize"     // Input: DocInput → DocSummary
	TaskClarify      Task = "clarify"       // Input: ClarifyInput → Question
	TaskRefine       Task = "refine"        // Input: RefineInput → Refinement
	TaskRelax        Task = "relax"         // Input: RelaxInput → Relaxation
	TaskRerank       Task = "rerank"        // Input: RerankInput → RerankResult
	TaskAnswer       Task = "answer"        // Input: AnswerInput → streamed text
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // "system", "user" or "assistant"
	Content string `json:"content"`
}

// Schema is a JSON schema for structured output.
type Schema struct {
	Name   string         // short identifier, [a-zA-Z0-9_-]
	Schema map[string]any // JSON schema object (strict: every property required, no extra properties)
}

// Request is one call to a provider.
type Request struct {
	Task      Task
	System    string
	Messages  []Message
	Schema    *Schema // required for Structured
	Input     any     // the typed task input
	MaxTokens int     // 0: provider default
}

// EmbeddingModel names the embedding model and its dimension.
type EmbeddingModel struct {
	Name string
	Dim  int
}

// Provider is a language model and embedding back end.
type Provider interface {
	// Name is "openai" or "offline"; outputs record it.
	Name() string
	// Structured returns a JSON document satisfying req.Schema.
	Structured(ctx context.Context, req Request) (json.RawMessage, error)
	// Stream generates free text, calling onDelta for each piece in order.
	Stream(ctx context.Context, req Request, onDelta func(string) error) error
	// Embed returns one embedding per text, in order, each of
	// EmbeddingModel().Dim dimensions. Providers batch large inputs.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// EmbeddingModel reports the embedding model in use.
	EmbeddingModel() EmbeddingModel
}

// ErrUnsupportedTask is returned by a provider that cannot perform a task.
var ErrUnsupportedTask = errors.New("task not supported by this provider")
