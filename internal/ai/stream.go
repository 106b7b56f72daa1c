package ai

import (
	"context"
	"fmt"
	"iter"
	"strings"
)

// EventKind says what an Event carries.
type EventKind string

// The kinds of stream events.
const (
	EventText     EventKind = "text"      // Text: the next piece of the reply
	EventToolCall EventKind = "tool_call" // ToolCall: one complete tool call
	EventUsage    EventKind = "usage"     // Usage: token counts of the whole call
	EventEnd      EventKind = "end"       // FinishReason: the model finished; always last
)

// FinishReason is why the model stopped.
type FinishReason string

// Finish reasons as OpenAI reports them; other servers may send others.
const (
	FinishStop          FinishReason = "stop"           // a natural end
	FinishLength        FinishReason = "length"         // cut at the token limit
	FinishToolCalls     FinishReason = "tool_calls"     // the model waits for tool results
	FinishContentFilter FinishReason = "content_filter" // withheld by a filter
)

// Usage is the token count of one model call.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Event is one item of a stream; Kind says which field is set.
type Event struct {
	Kind         EventKind    `json:"kind"`
	Text         string       `json:"text,omitzero"`
	ToolCall     ToolCall     `json:"tool_call,omitzero"`
	Usage        Usage        `json:"usage,omitzero"`
	FinishReason FinishReason `json:"finish_reason,omitzero"`
}

// Reply is a whole model turn: what Collect gathers from a stream and
// ToolCaller.CallTools returns.
type Reply struct {
	Text         string
	ToolCalls    []ToolCall
	Usage        Usage
	FinishReason FinishReason
}

// Message returns the assistant message to append to the conversation
// before the results of its tool calls.
func (r Reply) Message() Message {
	return Message{Role: RoleAssistant, Content: r.Text, ToolCalls: r.ToolCalls}
}

// Collect drains a stream into a Reply. It returns what arrived before an
// error together with the error; a stream that ends without EventEnd is
// reported as ErrIncompleteStream.
func Collect(events iter.Seq2[Event, error]) (Reply, error) {
	var r Reply
	var text strings.Builder
	ended := false
	for ev, err := range events {
		if err != nil {
			r.Text = text.String()
			return r, err
		}
		switch ev.Kind {
		case EventText:
			text.WriteString(ev.Text)
		case EventToolCall:
			r.ToolCalls = append(r.ToolCalls, ev.ToolCall)
		case EventUsage:
			r.Usage = ev.Usage
		case EventEnd:
			r.FinishReason, ended = ev.FinishReason, true
		}
	}
	r.Text = text.String()
	if !ended {
		return r, ErrIncompleteStream
	}
	return r, nil
}

// StreamText runs p.Stream and hands each text piece to onText, in order;
// other events are dropped. An error from onText stops the stream and is
// returned (wrapped).
func StreamText(ctx context.Context, p Provider, req Request, onText func(string) error) error {
	for ev, err := range p.Stream(ctx, req) {
		if err != nil {
			return err
		}
		if ev.Kind == EventText && ev.Text != "" {
			if err := onText(ev.Text); err != nil {
				return fmt.Errorf("deliver text: %w", err)
			}
		}
	}
	return nil
}
