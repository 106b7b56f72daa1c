package openaitest_test

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
)

// toolModel is a ToolCaller backend that calls search once, then answers
// with the tool's result; bad makes it break the request's rules.
type toolModel struct {
	*openaitest.SimpleBackend
	bad string
}

func (m toolModel) CallTools(_ context.Context, req ai.Request) (ai.Reply, error) {
	for _, msg := range req.Messages {
		if msg.Role == ai.RoleTool {
			return ai.Reply{Text: "found: " + msg.Content}, nil
		}
	}
	switch m.bad {
	case "unoffered":
		return ai.Reply{ToolCalls: []ai.ToolCall{{Name: "other", Arguments: `{}`}}}, nil
	case "arguments":
		return ai.Reply{ToolCalls: []ai.ToolCall{{Name: "search", Arguments: `{"q":3}`}}}, nil
	}
	if req.ToolChoice == ai.ToolChoiceNone {
		return ai.Reply{Text: "nothing to search"}, nil
	}
	return ai.Reply{ToolCalls: []ai.ToolCall{{Name: "search", Arguments: `{"q":"budget"}`}}}, nil
}

func (m toolModel) StreamTools(ctx context.Context, req ai.Request) iter.Seq2[ai.Event, error] {
	return func(yield func(ai.Event, error) bool) {}
}

type toolResp struct {
	Choices []struct {
		Message struct {
			Content   string `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
}

func searchTool() []any {
	return []any{map[string]any{"type": "function", "function": map[string]any{"name": "search", "parameters": map[string]any{
		"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}, "required": []any{"q"}, "additionalProperties": false}}}}
}

// A ToolCaller backend plays the model: its calls get the server's ids;
// the next request must echo them (id, name, arguments) with one tool
// message each, else 400; a model breaking tool_choice or the tool's
// parameters is a 500 (a backend bug, never a silent pass).
func TestPlayedToolCalls(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithBackend(toolModel{SimpleBackend: openaitest.NewSimpleBackend(8)}))
	body := chatBody(nil, false, "find the budget", false)
	body["tools"] = searchTool()
	var first toolResp
	if st := do(t, srv, "POST", openaitest.PathChat, "", body, &first); st != 200 {
		t.Fatalf("first turn: status %d", st)
	}
	msg := first.Choices[0].Message
	if first.Choices[0].FinishReason != "tool_calls" || len(msg.ToolCalls) != 1 || msg.ToolCalls[0].ID == "" {
		t.Fatalf("first turn: %+v", first)
	}
	call := msg.ToolCalls[0]
	turn := func(id, args string, withResult bool) map[string]any {
		b := chatBody(nil, false, "find the budget", false)
		b["tools"] = searchTool()
		msgs := append(b["messages"].([]any), map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"id": id, "type": "function", "function": map[string]any{"name": "search", "arguments": args}}}})
		if withResult {
			msgs = append(msgs, map[string]any{"role": "tool", "tool_call_id": id, "content": "budget.xlsx"})
		}
		b["messages"] = msgs
		return b
	}
	var second toolResp
	if st := do(t, srv, "POST", openaitest.PathChat, "", turn(call.ID, call.Function.Arguments, true), &second); st != 200 ||
		second.Choices[0].Message.Content != "found: budget.xlsx" || second.Choices[0].FinishReason != "stop" {
		t.Fatalf("second turn: status %d, %+v", st, second)
	}
	for name, c := range map[string]struct {
		body   map[string]any
		status int
		param  string
	}{
		"id not echoed":       {turn("call_made_up", call.Function.Arguments, true), 400, "messages.[2].tool_calls"},
		"arguments changed":   {turn(call.ID, `{"q":"other"}`, true), 400, "messages.[2].tool_calls"},
		"no tool message":     {turn(call.ID, call.Function.Arguments, false), 400, "messages"},
		"strict schema loose": {looseSchema(), 400, ""},
	} {
		var e apiErr
		st := do(t, srv, "POST", openaitest.PathChat, "", c.body, &e)
		if st != c.status || e.Error.Type != "invalid_request_error" || c.param != "" && (e.Error.Param == nil || *e.Error.Param != c.param) {
			t.Errorf("%s: status %d, error %+v; want %d with param %q", name, st, e.Error, c.status, c.param)
		}
	}
	for _, bad := range []string{"unoffered", "arguments"} {
		s := openaitest.NewServer(t, openaitest.WithBackend(toolModel{SimpleBackend: openaitest.NewSimpleBackend(8), bad: bad}))
		var e apiErr
		if st := do(t, s, "POST", openaitest.PathChat, "", body, &e); st != 500 || !strings.Contains(e.Error.Message, "the model") {
			t.Errorf("%s: status %d, %+v; want 500 naming the model's fault", bad, st, e.Error)
		}
	}
}

// looseSchema is a strict json_schema whose object does not require every
// property, which OpenAI refuses.
func looseSchema() map[string]any {
	return chatBody(&ai.Schema{Name: "rerank", Schema: map[string]any{"type": "object", "additionalProperties": false,
		"properties": map[string]any{"order": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}, "required": []any{}}}, true, "{}", false)
}

// A task the client registers (WithTask) is served by the backend, and a
// reply that breaks the request's schema is a 500, not a silent pass.
func TestWithTaskAndReplyValidation(t *testing.T) {
	type in struct {
		Question string `json:"question"`
	}
	schema := &ai.Schema{Name: "my_task", Schema: map[string]any{"type": "object", "additionalProperties": false,
		"required": []any{"n"}, "properties": map[string]any{"n": map[string]any{"type": "integer"}}}}
	for _, c := range []struct {
		reply  string
		status int
	}{{`{"n":3}`, 200}, {`{"n":"three"}`, 500}, {`{"n":3,"extra":1}`, 500}} {
		srv := openaitest.NewServer(t, openaitest.WithBackend(fixed{SimpleBackend: openaitest.NewSimpleBackend(8), out: c.reply}),
			openaitest.WithTask[in]("my_task", "my"))
		var out chatResp
		st := do(t, srv, "POST", openaitest.PathChat, "", chatBody(schema, true, `{"question":"how many?"}`, false), &out)
		if st != c.status {
			t.Errorf("reply %s: status %d, want %d", c.reply, st, c.status)
		}
		if r := srv.Requests(); len(r) != 1 || r[0].Task != "my" {
			t.Errorf("recorded %+v", r)
		}
	}
}

type fixed struct {
	*openaitest.SimpleBackend
	out string
}

func (f fixed) Structured(_ context.Context, req ai.Request) (json.RawMessage, error) {
	if req.Task != "my" || req.Input == nil {
		return nil, ai.ErrInputType
	}
	return json.RawMessage(f.out), nil
}

func TestValidate(t *testing.T) {
	s := map[string]any{"type": "object", "additionalProperties": false, "required": []string{"a", "b"}, "properties": map[string]any{
		"a": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []string{"x", "y"}}},
		"b": map[string]any{"anyOf": []any{map[string]any{"type": "number"}, map[string]any{"type": "null"}}},
	}}
	for doc, want := range map[string]string{
		`{"a":["x"],"b":1.5}`:       "",
		`{"a":[],"b":null}`:         "",
		`{"a":["z"],"b":1}`:         "$.a[0]",
		`{"a":["x"]}`:               "required property \"b\"",
		`{"a":["x"],"b":"1"}`:       "anyOf",
		`{"a":["x"],"b":1,"c":2}`:   `"c"`,
		`["a"]`:                     "an array",
		`{"a":"x","b":1}`:           "$.a is a string",
		`{"a":["x","y"],"b":-1e30}`: "",
	} {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		err := openaitest.Validate(s, v)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", doc, err, want)
		}
	}
}
