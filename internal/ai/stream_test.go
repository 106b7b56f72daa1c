package ai

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"slices"
	"testing"
)

// events is a Provider whose Stream yields fixed events (and then err, if
// set), recording how many the consumer pulled.
type events struct {
	scripted
	evs    []Event
	err    error
	pulled *int
}

func (e events) Stream(context.Context, Request) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for _, ev := range e.evs {
			*e.pulled++
			if !yield(ev, nil) {
				return
			}
		}
		if e.err != nil {
			yield(Event{}, e.err)
		}
	}
}

func TestCollectGathersAWholeTurn(t *testing.T) {
	n := 0
	p := events{pulled: &n, evs: []Event{
		{Kind: EventText, Text: "Let me "},
		{Kind: EventText, Text: "look."},
		{Kind: EventToolCall, ToolCall: ToolCall{ID: "a", Name: "search", Arguments: `{"q":"x"}`}},
		{Kind: EventToolCall, ToolCall: ToolCall{ID: "b", Name: "read", Arguments: `{"id":1}`}},
		{Kind: EventUsage, Usage: Usage{PromptTokens: 12, CompletionTokens: 7}},
		{Kind: EventEnd, FinishReason: FinishToolCalls},
	}}
	r, err := Collect(p.Stream(context.Background(), Request{}))
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "Let me look." || len(r.ToolCalls) != 2 || r.ToolCalls[1].ID != "b" ||
		r.Usage != (Usage{12, 7}) || r.FinishReason != FinishToolCalls {
		t.Errorf("reply = %+v", r)
	}
	m := r.Message()
	if m.Role != RoleAssistant || len(m.ToolCalls) != 2 || m.Content != "Let me look." {
		t.Errorf("message = %+v", m)
	}
	b, _ := json.Marshal([]Message{m, ToolResult("a", "found")})
	want := `[{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"a","name":"search","arguments":"{\"q\":\"x\"}"},{"id":"b","name":"read","arguments":"{\"id\":1}"}]},{"role":"tool","content":"found","tool_call_id":"a"}]`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant   %s", b, want)
	}

	// A stream without EventEnd is incomplete; an error comes with what arrived.
	boom := errors.New("cut")
	r, err = Collect(events{pulled: &n, evs: []Event{{Kind: EventText, Text: "half"}}, err: boom}.Stream(context.Background(), Request{}))
	if !errors.Is(err, boom) || r.Text != "half" {
		t.Errorf("collect = %+v, %v", r, err)
	}
	if _, err := Collect(events{pulled: &n, evs: []Event{{Kind: EventText, Text: "x"}}}.Stream(context.Background(), Request{})); !errors.Is(err, ErrIncompleteStream) {
		t.Errorf("err = %v, want ErrIncompleteStream", err)
	}
}

func TestStreamTextKeepsTextAndStopsOnCallbackError(t *testing.T) {
	n := 0
	p := events{pulled: &n, evs: []Event{
		{Kind: EventText, Text: "a"}, {Kind: EventUsage, Usage: Usage{1, 1}}, {Kind: EventText, Text: "b"},
		{Kind: EventText, Text: "c"}, {Kind: EventEnd, FinishReason: FinishStop},
	}}
	var got []string
	if err := StreamText(context.Background(), p, Request{}, func(s string) error { got = append(got, s); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("text = %q", got)
	}
	n = 0
	stop := errors.New("enough")
	err := StreamText(context.Background(), p, Request{}, func(s string) error {
		if s == "b" {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 3 {
		t.Errorf("err = %v after pulling %d events, want the callback's error after 3", err, n)
	}
}

func TestToolCallCheck(t *testing.T) {
	tools := []Tool{{Name: "search", Parameters: map[string]any{"type": "object"}}, {Name: "now"}}
	for _, c := range []struct {
		call ToolCall
		kind error
	}{
		{ToolCall{ID: "1", Name: "search", Arguments: `{"q":"予算"}`}, nil},
		{ToolCall{ID: "2", Name: "now", Arguments: ""}, nil},
		{ToolCall{ID: "3", Name: "search", Arguments: `{"q":"予算"`}, ErrMalformedArguments},
		{ToolCall{ID: "4", Name: "search", Arguments: `["q"]`}, ErrMalformedArguments},
		{ToolCall{ID: "5", Name: "search", Arguments: `null`}, ErrMalformedArguments},
		{ToolCall{ID: "6", Name: "delete_everything", Arguments: `{}`}, ErrUnknownTool},
	} {
		err := c.call.Check(tools)
		if c.kind == nil {
			if err != nil {
				t.Errorf("%+v: %v", c.call, err)
			}
			continue
		}
		var te *ToolCallError
		if !errors.Is(err, c.kind) || !errors.As(err, &te) || te.ID != c.call.ID || te.Name != c.call.Name {
			t.Errorf("%+v: err = %v, want a *ToolCallError of kind %v", c.call, err, c.kind)
		}
	}
	var args struct{ Q string }
	if err := (ToolCall{Name: "search", Arguments: `{"q":"予算"}`}).Decode(tools, &args); err != nil || args.Q != "予算" {
		t.Errorf("decode = %+v, %v", args, err)
	}
	if err := (ToolCall{Name: "search", Arguments: `{"q":1}`}).Decode(tools, &args); !errors.Is(err, ErrMalformedArguments) {
		t.Errorf("decode of a mistyped argument: %v", err)
	}
}
