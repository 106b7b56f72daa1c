package openai_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
)

var testTools = []ai.Tool{
	{Name: "search", Description: "Search the index.", Parameters: map[string]any{
		"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}, "required": []any{"q"}}},
	{Name: "read_file", Description: "Read one file.", Parameters: map[string]any{
		"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}, "required": []any{"id"}}},
}

func toolCaller(t *testing.T, p ai.Provider) ai.ToolCaller {
	t.Helper()
	tc, ok := p.(ai.ToolCaller)
	if !ok {
		t.Fatal("the openai provider is not an ai.ToolCaller")
	}
	return tc
}

// TestStreamedParallelToolCallsRoundTrip drives the real openai-go client
// through two turns: the model calls two tools in parallel (streamed, the
// arguments split across chunks), the results go back with their
// tool_call_id, and the model answers.
func TestStreamedParallelToolCallsRoundTrip(t *testing.T) {
	srv, p := newPair(t, openai.Config{})
	tc := toolCaller(t, p)
	ctx := context.Background()
	calls := []ai.ToolCall{
		{ID: "call_a", Name: "search", Arguments: `{"q":"2024年度 予算 議事録"}`},
		{ID: "call_b", Name: "read_file", Arguments: `{"id":"file-0123456789"}`},
	}
	srv.Enqueue(openaitest.Reply{Content: "Let me look that up.", ToolCalls: calls})
	req := ai.Request{System: "You are helpful.", Tools: testTools,
		Messages: []ai.Message{{Role: ai.RoleUser, Content: "What was decided about the budget?"}}}

	var kinds []ai.EventKind
	var text string
	var got []ai.ToolCall
	var usage ai.Usage
	var finish ai.FinishReason
	for ev, err := range tc.StreamTools(ctx, req) {
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, ev.Kind)
		switch ev.Kind {
		case ai.EventText:
			text += ev.Text
		case ai.EventToolCall:
			got = append(got, ev.ToolCall)
		case ai.EventUsage:
			usage = ev.Usage
		case ai.EventEnd:
			finish = ev.FinishReason
		}
	}
	if text != "Let me look that up." || !slices.Equal(got, calls) || finish != ai.FinishToolCalls {
		t.Fatalf("text %q, calls %+v, finish %q", text, got, finish)
	}
	if usage.PromptTokens == 0 || usage.CompletionTokens == 0 {
		t.Errorf("usage = %+v, want both counts", usage)
	}
	// Text first, then the calls, then usage, then the end.
	n := len(kinds)
	if n < 5 || kinds[0] != ai.EventText || !slices.Equal(kinds[n-4:], []ai.EventKind{ai.EventToolCall, ai.EventToolCall, ai.EventUsage, ai.EventEnd}) {
		t.Errorf("event order = %q", kinds)
	}
	for _, c := range got {
		if err := c.Check(req.Tools); err != nil {
			t.Errorf("call %s: %v", c.ID, err)
		}
	}

	r1 := srv.RequestsTo(openaitest.PathChat)[0]
	if !r1.Stream || !r1.IncludeUsage || r1.ParallelToolCalls == nil || !*r1.ParallelToolCalls || r1.ToolChoice != "" {
		t.Errorf("first request: stream %v usage %v parallel %v choice %q", r1.Stream, r1.IncludeUsage, r1.ParallelToolCalls, r1.ToolChoice)
	}
	if len(r1.Tools) != 2 || r1.Tools[0].Name != "search" || r1.Tools[0].Description != "Search the index." || r1.Tools[1].Parameters["type"] != "object" {
		t.Errorf("tools sent = %+v", r1.Tools)
	}

	// Second turn: the results answer each call by its id.
	req.Messages = append(req.Messages, ai.Reply{Text: text, ToolCalls: got}.Message(),
		ai.ToolResult("call_b", "file-0123456789: minutes of the budget meeting"),
		ai.ToolResult("call_a", "3 hits"))
	final, err := ai.Collect(tc.StreamTools(ctx, req))
	if err != nil {
		t.Fatal(err)
	}
	if final.Text == "" || len(final.ToolCalls) != 0 || final.FinishReason != ai.FinishStop {
		t.Errorf("final reply = %+v", final)
	}
	r2 := srv.RequestsTo(openaitest.PathChat)[1]
	msgs := r2.Messages
	if len(msgs) != 5 || msgs[0].Role != ai.RoleSystem || msgs[2].Role != ai.RoleAssistant {
		t.Fatalf("second request messages = %+v", msgs)
	}
	if msgs[2].Content != "Let me look that up." || !slices.Equal(msgs[2].ToolCalls, calls) {
		t.Errorf("assistant message sent back = %+v", msgs[2])
	}
	if msgs[3].Role != ai.RoleTool || msgs[3].ToolCallID != "call_b" || msgs[3].Content != "file-0123456789: minutes of the budget meeting" ||
		msgs[4].Role != ai.RoleTool || msgs[4].ToolCallID != "call_a" || msgs[4].Content != "3 hits" {
		t.Errorf("tool results sent = %+v, %+v", msgs[3], msgs[4])
	}
}

func TestNonStreamedToolCallWithForcedChoice(t *testing.T) {
	srv, p := newPair(t, openai.Config{})
	tc := toolCaller(t, p)
	srv.Enqueue(openaitest.Reply{ToolCalls: []ai.ToolCall{{Name: "search", Arguments: `{"q":"roadmap"}`}}})
	req := ai.Request{Tools: testTools, ToolChoice: "search",
		Messages: []ai.Message{{Role: ai.RoleUser, Content: "find the roadmap"}}}
	r, err := tc.CallTools(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "" || len(r.ToolCalls) != 1 || r.ToolCalls[0].ID == "" || r.FinishReason != ai.FinishToolCalls || r.Usage.PromptTokens == 0 {
		t.Fatalf("reply = %+v", r)
	}
	var args struct{ Q string }
	if err := r.ToolCalls[0].Decode(req.Tools, &args); err != nil || args.Q != "roadmap" {
		t.Errorf("arguments %+v, %v", args, err)
	}
	rec := srv.RequestsTo(openaitest.PathChat)[0]
	if rec.Stream || rec.ToolChoice != "search" || len(rec.Tools) != 2 {
		t.Errorf("request: stream %v, tool_choice %q, %d tools", rec.Stream, rec.ToolChoice, len(rec.Tools))
	}

	// Without tools the turn is a plain completion, and no tool parameter is
	// sent (servers reject parallel_tool_calls without tools).
	r, err = tc.CallTools(context.Background(), ai.Request{Messages: []ai.Message{{Role: ai.RoleUser, Content: "hello"}}})
	if err != nil || r.Text == "" || r.FinishReason != ai.FinishStop {
		t.Fatalf("plain turn = %+v, %v", r, err)
	}
	rec = srv.RequestsTo(openaitest.PathChat)[1]
	if rec.ParallelToolCalls != nil || rec.Tools != nil || rec.ToolChoice != "" {
		t.Errorf("tool parameters sent without tools: %+v", rec)
	}
}

// TestMalformedAndUnknownToolCalls: a call with broken JSON arguments and a
// call to a tool that was not offered arrive as calls (no failure, no
// panic), Check classifies them, and error results sent back are accepted.
func TestMalformedAndUnknownToolCalls(t *testing.T) {
	bad := []ai.ToolCall{
		{ID: "call_1", Name: "search", Arguments: `{"q": "予算`},
		{ID: "call_2", Name: "delete_everything", Arguments: `{}`},
	}
	for _, streamed := range []bool{true, false} {
		srv, p := newPair(t, openai.Config{})
		tc := toolCaller(t, p)
		srv.Enqueue(openaitest.Reply{ToolCalls: bad})
		req := ai.Request{Tools: testTools, Messages: []ai.Message{{Role: ai.RoleUser, Content: "budget"}}}
		var r ai.Reply
		var err error
		if streamed {
			r, err = ai.Collect(tc.StreamTools(context.Background(), req))
		} else {
			r, err = tc.CallTools(context.Background(), req)
		}
		if err != nil {
			t.Fatalf("streamed %v: %v", streamed, err)
		}
		if !slices.Equal(r.ToolCalls, bad) {
			t.Fatalf("streamed %v: calls = %+v", streamed, r.ToolCalls)
		}
		req.Messages = append(req.Messages, r.Message())
		for i, want := range []error{ai.ErrMalformedArguments, ai.ErrUnknownTool} {
			err := r.ToolCalls[i].Check(req.Tools)
			var te *ai.ToolCallError
			if !errors.Is(err, want) || !errors.As(err, &te) || te.ID != bad[i].ID {
				t.Errorf("streamed %v: call %d: %v, want %v", streamed, i, err, want)
			}
			req.Messages = append(req.Messages, ai.ToolResult(r.ToolCalls[i].ID, "error: "+err.Error()))
		}
		if _, err := tc.CallTools(context.Background(), req); err != nil {
			t.Errorf("streamed %v: the error results were refused: %v", streamed, err)
		}
		if got := srv.RequestsTo(openaitest.PathChat)[1].Messages; len(got) != 4 || got[2].ToolCallID != "call_1" || got[3].ToolCallID != "call_2" {
			t.Errorf("streamed %v: messages sent = %+v", streamed, got)
		}
	}
}

func TestUnansweredToolCallIsRejected(t *testing.T) {
	_, p := newPair(t, openai.Config{MaxRetries: -1})
	req := ai.Request{Tools: testTools, Messages: []ai.Message{
		{Role: ai.RoleUser, Content: "budget"},
		{Role: ai.RoleAssistant, ToolCalls: []ai.ToolCall{{ID: "call_a", Name: "search", Arguments: `{"q":"x"}`}, {ID: "call_b", Name: "search", Arguments: `{"q":"y"}`}}},
		ai.ToolResult("call_a", "nothing"),
	}}
	_, err := toolCaller(t, p).CallTools(context.Background(), req)
	if e := asError(t, err); !errors.Is(err, openai.ErrBadRequest) || e.Status != 400 {
		t.Errorf("err = %v, want a 400 for the unanswered call_b", err)
	}
}

func TestTruncatedToolCallStreamYieldsNoCall(t *testing.T) {
	srv, p := newPair(t, openai.Config{MaxRetries: -1})
	srv.Enqueue(openaitest.Reply{Fault: openaitest.FaultTruncatedStream,
		ToolCalls: []ai.ToolCall{{ID: "call_a", Name: "search", Arguments: `{"q":"a long query that is cut half way"}`}}})
	var calls int
	var err error
	for ev, e := range toolCaller(t, p).StreamTools(context.Background(), ai.Request{Tools: testTools,
		Messages: []ai.Message{{Role: ai.RoleUser, Content: "q"}}}) {
		if ev.Kind == ai.EventToolCall {
			calls++
		}
		err = e
	}
	if !errors.Is(err, openai.ErrTruncated) || calls != 0 {
		t.Errorf("err = %v after %d calls, want ErrTruncated and no half call", err, calls)
	}
}

func TestBreakingOutOfAStreamStopsIt(t *testing.T) {
	srv, p := newPair(t, openai.Config{})
	srv.Enqueue(openaitest.Reply{Deltas: []string{"one ", "two ", "three ", "four"}})
	var got []string
	for ev, err := range p.Stream(context.Background(), ai.Request{Messages: []ai.Message{{Role: ai.RoleUser, Content: "count"}}}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev.Text)
		break
	}
	if !slices.Equal(got, []string{"one "}) {
		t.Errorf("got %q", got)
	}
	// The provider is still usable.
	if err := ai.StreamText(context.Background(), p, ai.Request{Messages: []ai.Message{{Role: ai.RoleUser, Content: "again"}}},
		func(string) error { return nil }); err != nil {
		t.Error(err)
	}
}
