package openaitest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
)

func toolBody(stream bool) map[string]any {
	b := chatBody(nil, false, "find the budget", stream)
	b["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{
		"name": "search", "description": "Search.", "parameters": map[string]any{"type": "object"}}}}
	return b
}

var scriptedCalls = []ai.ToolCall{
	{ID: "call_1", Name: "search", Arguments: `{"q":"予算 2024 議事録 final"}`},
	{Name: "unknown_tool", Arguments: `{"x": tru`},
}

func TestToolCallsStreamAsOpenAIDeltas(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Enqueue(openaitest.Reply{ToolCalls: scriptedCalls})
	body := toolBody(true)
	body["stream_options"] = map[string]any{"include_usage": true}
	data := sse(t, srv, body)
	if data[len(data)-1] != "[DONE]" {
		t.Fatalf("no [DONE]: %q", data)
	}
	type delta struct {
		Index    int    `json:"index"`
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      *string `json:"name"`
			Arguments string  `json:"arguments"`
		} `json:"function"`
	}
	args := map[int]string{}
	ids := map[int]string{}
	names := map[int]string{}
	chunks := map[int]int{}
	var finish string
	usage := false
	for _, d := range data[:len(data)-1] {
		var c struct {
			Choices []struct {
				Delta struct {
					ToolCalls []delta `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage *struct {
				CompletionTokens int `json:"completion_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal([]byte(d), &c); err != nil {
			t.Fatalf("chunk %q: %v", d, err)
		}
		if c.Usage != nil && c.Usage.CompletionTokens > 0 && len(c.Choices) == 0 {
			usage = true
		}
		for _, ch := range c.Choices {
			if ch.FinishReason != nil {
				finish = *ch.FinishReason
			}
			for _, tc := range ch.Delta.ToolCalls {
				chunks[tc.Index]++
				if tc.ID != "" {
					if ids[tc.Index] != "" || tc.Type != "function" || tc.Function.Name == nil {
						t.Errorf("call %d: id chunk %+v", tc.Index, tc)
					}
					ids[tc.Index], names[tc.Index] = tc.ID, *tc.Function.Name
				} else if ids[tc.Index] == "" {
					t.Errorf("call %d: arguments before the id", tc.Index)
				}
				args[tc.Index] += tc.Function.Arguments
			}
		}
	}
	if finish != "tool_calls" || !usage {
		t.Errorf("finish %q, usage chunk %v", finish, usage)
	}
	for i, want := range scriptedCalls {
		if args[i] != want.Arguments || names[i] != want.Name || chunks[i] < 3 {
			t.Errorf("call %d: %s(%s) in %d chunks, want %s(%s) with the arguments split", i, names[i], args[i], chunks[i], want.Name, want.Arguments)
		}
	}
	if ids[0] != "call_1" || !strings.HasPrefix(ids[1], "call-emu") {
		t.Errorf("ids = %v", ids)
	}
}

func TestToolCallsNonStreamed(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Enqueue(openaitest.Reply{ToolCalls: scriptedCalls[:1]})
	var r struct {
		Choices []struct {
			Message struct {
				Content   *string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Type     string `json:"type"`
					Function struct {
						Name      string `json:"name"`
						Arguments string `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if st := do(t, srv, "POST", openaitest.PathChat, "", toolBody(false), &r); st != 200 {
		t.Fatalf("status %d", st)
	}
	m := r.Choices[0].Message
	if m.Content != nil || len(m.ToolCalls) != 1 || m.ToolCalls[0].ID != "call_1" || m.ToolCalls[0].Type != "function" ||
		m.ToolCalls[0].Function.Arguments != scriptedCalls[0].Arguments || r.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("reply = %+v", r)
	}
}

func TestToolRequestsAreValidated(t *testing.T) {
	srv := openaitest.NewServer(t)
	withTools := func(f func(b map[string]any)) map[string]any { b := toolBody(false); f(b); return b }
	noTools := func(f func(b map[string]any)) map[string]any { b := chatBody(nil, false, "hi", false); f(b); return b }
	for name, c := range map[string]struct {
		body  map[string]any
		param string
	}{
		"tool_choice without tools":         {noTools(func(b map[string]any) { b["tool_choice"] = "required" }), "tool_choice"},
		"parallel_tool_calls without tools": {noTools(func(b map[string]any) { b["parallel_tool_calls"] = true }), "parallel_tool_calls"},
		"forced tool not offered": {withTools(func(b map[string]any) {
			b["tool_choice"] = map[string]any{"type": "function", "function": map[string]any{"name": "other"}}
		}), "tool_choice"},
		"bad tool name": {withTools(func(b map[string]any) {
			b["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{"name": "has space"}}}
		}), "tools[0].function.name"},
		"tool result without a call": {noTools(func(b map[string]any) {
			b["messages"] = []any{map[string]any{"role": "user", "content": "x"},
				map[string]any{"role": "tool", "tool_call_id": "call_9", "content": "r"}}
		}), "messages.[1].role"},
		"call without a result": {noTools(func(b map[string]any) {
			b["messages"] = []any{map[string]any{"role": "user", "content": "x"},
				map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "call_9", "type": "function",
					"function": map[string]any{"name": "search", "arguments": "{}"}}}},
				map[string]any{"role": "user", "content": "y"}}
		}), "messages"},
	} {
		var e apiErr
		if st := do(t, srv, "POST", openaitest.PathChat, "", c.body, &e); st != 400 || e.Error.Param == nil || *e.Error.Param != c.param {
			t.Errorf("%s: status %d, error %+v, want 400 with param %q", name, st, e.Error, c.param)
		}
	}
}
