package gdsmodel

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/agent"
	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/federate"
)

// The analyst reads its document first, then answers from the passages
// that match the query, citing them as [c<ordinal>].
func TestAnalystTurns(t *testing.T) {
	b := New()
	ctx := context.Background()
	brief := ai.Message{Role: ai.RoleUser, Content: "Document: memo.pdf (document_id doc-1)\nInvestigation query: How many blankets were delivered?"}
	req := ai.Request{Tools: agent.SubTools(), ToolChoice: ai.ToolChoiceAuto, Messages: []ai.Message{brief}}
	rep, err := b.CallTools(ctx, req)
	if err != nil || len(rep.ToolCalls) != 1 || rep.ToolCalls[0].Name != agent.ToolContent || rep.ToolCalls[0].Arguments != `{"document_id":"doc-1"}` || rep.FinishReason != ai.FinishToolCalls {
		t.Fatalf("first turn %+v, %v", rep, err)
	}
	call := rep.ToolCalls[0]
	call.ID = "call-1"
	reading := "Document memo.pdf (indexed), 2 passages\n\n[c0] (p. 1) The weather was cold.\n\n[c1] (p. 2) We delivered 10,000 blankets to the shelters.\n\n"
	req.Messages = append(req.Messages, ai.Message{Role: ai.RoleAssistant, ToolCalls: []ai.ToolCall{call}}, ai.ToolResult("call-1", reading))
	rep, err = b.CallTools(ctx, req)
	if err != nil || len(rep.ToolCalls) != 0 || !strings.Contains(rep.Text, "10,000 blankets") || !strings.Contains(rep.Text, "[c1]") || rep.FinishReason != ai.FinishStop {
		t.Fatalf("second turn %+v, %v", rep, err)
	}
}

// The main agent's turns are the plan's: a conversation whose earlier
// calls differ is refused; tool_choice none answers at once.
func TestMainTurns(t *testing.T) {
	b := New()
	ctx := context.Background()
	brief := ai.Message{Role: ai.RoleUser, Content: "Folder: \"\" (the whole index)\nQuestion: How many blankets were delivered?"}
	req := ai.Request{Tools: agent.MainTools(), ToolChoice: ai.ToolChoiceAuto, Messages: []ai.Message{brief}}
	rep, err := b.CallTools(ctx, req)
	if err != nil || len(rep.ToolCalls) != 1 || rep.ToolCalls[0].Name != agent.ToolDiscoverAgenda || rep.ToolCalls[0].ID != "" {
		t.Fatalf("first turn %+v, %v", rep, err)
	}
	other := ai.ToolCall{ID: "c1", Name: agent.ToolSearchEvidence, Arguments: `{"query":"x"}`}
	req.Messages = append(req.Messages, ai.Message{Role: ai.RoleAssistant, ToolCalls: []ai.ToolCall{other}}, ai.ToolResult("c1", `{"results":[]}`))
	if _, err := b.CallTools(ctx, req); !errors.Is(err, errNotOurs) {
		t.Errorf("a conversation with another model's calls: %v", err)
	}
	ev := `{"query":"blankets","results":[{"ref":4,"document_id":"d","filename":"memo.pdf","text":"We delivered 10,000 blankets to the shelters."}]}`
	req.Messages = []ai.Message{brief, {Role: ai.RoleAssistant, ToolCalls: []ai.ToolCall{{ID: "c1", Name: rep.ToolCalls[0].Name, Arguments: rep.ToolCalls[0].Arguments}}},
		ai.ToolResult("c1", `{"folder":"","documents":[]}`)}
	req.ToolChoice = ai.ToolChoiceNone
	rep, err = b.CallTools(ctx, req)
	if err != nil || len(rep.ToolCalls) != 0 || rep.Text == "" {
		t.Fatalf("tool_choice none: %+v, %v", rep, err)
	}
	_, ctxs := readResult(agent.ToolSearchEvidence, ev)
	if len(ctxs) != 1 || ctxs[0].Ref != 4 {
		t.Errorf("evidence contexts %+v", ctxs)
	}
}

// federate's query task is answered with the offline keywords, one query
// per server, valid JSON of the task's output.
func TestFederateQueries(t *testing.T) {
	in := federate.QueriesInput{Question: "Alpha ingestion outage since 2026-01-01", Now: "2026-11-27",
		Servers: []map[string]string{{"server": "github", "kind": "github"}, {"server": "drive", "kind": "drive"}}}
	raw, err := New().Structured(context.Background(), ai.Request{Task: federate.TaskQueries, Input: in})
	if err != nil {
		t.Fatal(err)
	}
	var out federate.QueriesOutput
	if err := json.Unmarshal(raw, &out); err != nil || len(out.Terms) == 0 || len(out.Queries) != 2 || out.Queries[0].Server != "github" ||
		!strings.Contains(out.Queries[0].Query, "(ingestion OR ingestions)") {
		t.Errorf("%s: %v", raw, err)
	}
}
