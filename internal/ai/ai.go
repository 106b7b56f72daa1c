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
	"iter"

	"github.com/gds-cli/gds/internal/apperr"
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

// Message roles.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool" // the result of one tool call
)

// Message is one chat message. An assistant message may carry the tool
// calls the model made (Reply.Message builds it); each call is answered by
// one RoleTool message whose ToolCallID is the call's ID (ToolResult builds
// it).
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`   // RoleAssistant
	ToolCallID string     `json:"tool_call_id,omitempty"` // RoleTool
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
	// Tools the model may call, and how it must choose among them. Only a
	// ToolCaller honours them; other providers fail a request that offers
	// tools with ErrToolsUnsupported.
	Tools      []Tool
	ToolChoice ToolChoice
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
	// Stream generates free text as a sequence of typed events: EventText
	// pieces in order, EventUsage when the provider knows the token counts,
	// and EventEnd last when the model finished. A failure is yielded once,
	// as the last pair, with a zero Event. Breaking out of the loop stops the
	// generation and releases the connection. The sequence is single-use.
	// StreamText is the helper for callers that only want the text.
	Stream(ctx context.Context, req Request) iter.Seq2[Event, error]
	// Embed returns one embedding per text, in order, each of
	// EmbeddingModel(ctx).Dim dimensions. Providers batch large inputs.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// EmbeddingModel reports the embedding model in use. A provider that
	// must ask its server for the dimension does so under ctx.
	EmbeddingModel(ctx context.Context) EmbeddingModel
}

// ErrUnsupportedTask is returned by a provider that cannot perform a task.
var ErrUnsupportedTask = errors.New("task not supported by this provider")

// ErrMalformedOutput is matched (errors.Is) by a provider's error for a
// reply that is not the requested JSON document.
var ErrMalformedOutput = errors.New("malformed model output")

// ErrQuotaExhausted is matched (errors.Is) by a provider's error when the
// account has no quota left (OpenAI's 429 insufficient_quota): waiting
// does not help, so a crawl stops instead of failing file after file.
var ErrQuotaExhausted = apperr.Mark(errors.New("quota exhausted"), apperr.RateLimited)

// ErrInputType is returned when Request.Input is not the task's input type.
var ErrInputType = errors.New("wrong input type for the task")
