package openaitest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
)

// wireToolCall is a tool call in a chat message, as OpenAI sends it.
type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// wireTool is one entry of a request's "tools".
type wireTool struct {
	Type     string `json:"type"`
	Function *struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Parameters  map[string]any `json:"parameters"`
	} `json:"function"`
}

var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// toolChoice returns the request's tool_choice as recorded: "auto", "none",
// "required", the name of a forced function, or "" when absent.
func (c *chatRequest) toolChoice() (string, error) {
	raw := c.ToolChoice
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s != "auto" && s != "none" && s != "required" {
			return "", fmt.Errorf("Invalid value: '%s'. Supported values are: 'none', 'auto', and 'required'.", s)
		}
		return s, nil
	}
	var named struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(raw, &named); err != nil || named.Type != "function" || named.Function.Name == "" {
		return "", fmt.Errorf("Invalid value for 'tool_choice': expected 'none', 'auto', 'required' or an object naming a function.")
	}
	return named.Function.Name, nil
}

// checkTools validates tools, tool_choice, parallel_tool_calls and the
// tool-call structure of the messages the way OpenAI does.
func (c *chatRequest) checkTools() (param string, err error) {
	var names []string
	for i, t := range c.Tools {
		if t.Type != "function" || t.Function == nil {
			return fmt.Sprintf("tools[%d]", i), fmt.Errorf("Invalid value for 'tools[%d].type': this server supports only 'function' tools.", i)
		}
		if !toolName.MatchString(t.Function.Name) {
			return fmt.Sprintf("tools[%d].function.name", i), fmt.Errorf("Invalid 'tools[%d].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", i)
		}
		names = append(names, t.Function.Name)
	}
	choice, err := c.toolChoice()
	if err != nil {
		return "tool_choice", err
	}
	if len(c.Tools) == 0 && choice != "" && choice != "none" {
		return "tool_choice", fmt.Errorf("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.")
	}
	if choice != "" && choice != "auto" && choice != "none" && choice != "required" && !slices.Contains(names, choice) {
		return "tool_choice", fmt.Errorf("Invalid value for 'tool_choice': no function named '%s' was specified in the 'tools' parameter.", choice)
	}
	if len(c.Tools) == 0 && c.ParallelToolCalls != nil {
		return "parallel_tool_calls", fmt.Errorf("Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.")
	}
	// Every assistant message with tool_calls is followed by one tool message
	// per call, and every tool message answers such a call.
	var open []string
	for i, m := range c.Messages {
		switch m.Role {
		case "tool":
			j := slices.Index(open, m.ToolCallID)
			if j < 0 {
				return fmt.Sprintf("messages.[%d].role", i), fmt.Errorf("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.")
			}
			open = slices.Delete(open, j, j+1)
			continue
		case "assistant":
			if len(open) == 0 {
				for _, tc := range m.ToolCalls {
					open = append(open, tc.ID)
				}
				continue
			}
		}
		if len(open) > 0 {
			return "messages", unanswered(open)
		}
	}
	if len(open) > 0 {
		return "messages", unanswered(open)
	}
	return "", nil
}

func unanswered(ids []string) error {
	return fmt.Errorf("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", strings.Join(ids, ", "))
}

// recordedMessages returns the request's messages for Recorded: text
// content (parts joined), tool calls and tool call IDs.
func (c *chatRequest) recordedMessages() []ai.Message {
	out := make([]ai.Message, 0, len(c.Messages))
	for _, m := range c.Messages {
		t, _ := m.text()
		am := ai.Message{Role: m.Role, Content: t, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			am.ToolCalls = append(am.ToolCalls, ai.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		out = append(out, am)
	}
	return out
}

// recordedTools returns the request's tools as ai.Tools.
func (c *chatRequest) recordedTools() []ai.Tool {
	var out []ai.Tool
	for _, t := range c.Tools {
		if t.Function != nil {
			out = append(out, ai.Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
		}
	}
	return out
}

// wireCalls renders tool calls for a non-streamed message.
func wireCalls(calls []ai.ToolCall) []any {
	out := make([]any, len(calls))
	for i, tc := range calls {
		out[i] = map[string]any{"id": tc.ID, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": tc.Arguments}}
	}
	return out
}

// callDeltas renders tool calls as stream deltas the way OpenAI sends them:
// per call, a first delta with index, id, type, name and empty arguments,
// then the arguments in pieces, each in its own chunk.
func callDeltas(calls []ai.ToolCall) []map[string]any {
	var out []map[string]any
	for i, tc := range calls {
		out = append(out, map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": tc.ID, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": ""}}}})
		for _, piece := range split(tc.Arguments) {
			out = append(out, map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": piece}}}})
		}
	}
	return out
}

// paramError is a request error that names the offending parameter.
type paramError struct {
	param string
	err   error
}

func (e *paramError) Error() string { return e.err.Error() }
func (e *paramError) Unwrap() error { return e.err }
