package ai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
)

// Tool is a function the model may call.
type Tool struct {
	Name        string `json:"name"` // [a-zA-Z0-9_-], at most 64 characters
	Description string `json:"description,omitempty"`
	// Parameters is the JSON schema of the arguments object; nil means the
	// tool takes no arguments.
	Parameters map[string]any `json:"parameters,omitempty"`
}

// ToolChoice says how the model must choose among Request.Tools: one of
// the constants below, or the name of the one tool it must call.
type ToolChoice string

// Tool choices. The empty value is the provider's default (auto when tools
// are offered).
const (
	ToolChoiceAuto     ToolChoice = "auto"     // the model decides
	ToolChoiceNone     ToolChoice = "none"     // answer with text only
	ToolChoiceRequired ToolChoice = "required" // call at least one tool
)

// ToolCall is one call the model made.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the JSON object of arguments exactly as the model wrote
	// it. It may be malformed (or name an unknown tool): Check tells.
	Arguments string `json:"arguments"`
}

// Kinds of unusable tool calls, for errors.Is on a *ToolCallError.
var (
	ErrUnknownTool        = errors.New("unknown tool")
	ErrMalformedArguments = errors.New("tool arguments are not a JSON object")
)

// ToolCallError says why a tool call cannot be run. Its text is meant for
// the model too: send it back as the call's tool result so that the model
// can correct itself.
type ToolCallError struct {
	ID, Name string
	Kind     error // ErrUnknownTool or ErrMalformedArguments
	Err      error // the JSON error, or nil
}

// Error implements error.
func (e *ToolCallError) Error() string {
	s := fmt.Sprintf("tool call %s (%s): %v", e.ID, e.Name, e.Kind)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap exposes Kind and Err to errors.Is / As.
func (e *ToolCallError) Unwrap() []error {
	out := []error{e.Kind}
	if e.Err != nil {
		out = append(out, e.Err)
	}
	return out
}

// Check reports whether the call can be run: it names one of tools and its
// arguments are a JSON object (empty arguments count as {}). The error is a
// *ToolCallError.
func (c ToolCall) Check(tools []Tool) error {
	if !slices.ContainsFunc(tools, func(t Tool) bool { return t.Name == c.Name }) {
		return &ToolCallError{ID: c.ID, Name: c.Name, Kind: ErrUnknownTool}
	}
	args := bytes.TrimSpace([]byte(c.Arguments))
	if len(args) == 0 {
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return &ToolCallError{ID: c.ID, Name: c.Name, Kind: ErrMalformedArguments, Err: err}
	}
	return nil
}

// Decode checks the call against tools and unmarshals its arguments into v.
func (c ToolCall) Decode(tools []Tool, v any) error {
	if err := c.Check(tools); err != nil {
		return err
	}
	args := bytes.TrimSpace([]byte(c.Arguments))
	if len(args) == 0 {
		args = []byte("{}")
	}
	if err := json.Unmarshal(args, v); err != nil {
		return &ToolCallError{ID: c.ID, Name: c.Name, Kind: ErrMalformedArguments, Err: err}
	}
	return nil
}

// ToolResult is the message that answers tool call id with content.
func ToolResult(id, content string) Message {
	return Message{Role: RoleTool, ToolCallID: id, Content: content}
}

// ErrToolsUnsupported is returned for a request that offers tools to a
// provider that is not a ToolCaller.
var ErrToolsUnsupported = errors.New("this provider cannot call tools")

// ErrIncompleteStream is returned by Collect for a stream that ended
// without EventEnd.
var ErrIncompleteStream = errors.New("the stream ended before the model finished")

// ToolCaller is the optional capability of a Provider whose model can call
// tools. Detect it with a type assertion:
//
//	tc, ok := p.(ai.ToolCaller)
//
// The openai provider is one; the offline provider is not (it has no model
// to choose tools).
//
// A turn offers req.Tools (and req.ToolChoice); the reply holds text and/or
// tool calls. The caller runs each call that passes ToolCall.Check, appends
// Reply.Message() and one ToolResult per call (an error text for a call
// that failed Check) to the messages, and asks again.
type ToolCaller interface {
	Provider
	// CallTools performs one turn without streaming.
	CallTools(ctx context.Context, req Request) (Reply, error)
	// StreamTools performs one turn as a stream: EventText pieces as they
	// arrive, then, once the model has finished, one EventToolCall per call
	// (complete, in order), EventUsage if reported, and EventEnd.
	StreamTools(ctx context.Context, req Request) iter.Seq2[Event, error]
}
