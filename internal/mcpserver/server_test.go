package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/federate"
	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/mcpserver"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// backend pauses the first search with a question and finishes the one
// that answers it; it records the requests. Its graph has not been built
// unless graphBuilt; its servers.yaml is bad when badConfig.
type backend struct {
	reqs       []app.SearchRequest
	graphReqs  []graph.Query
	fedReqs    []app.FederateRequest
	askReqs    []app.AskRequest
	graphBuilt bool
	badConfig  bool
}

func (b *backend) GraphQuery(_ context.Context, q graph.Query) (graph.Result, error) {
	b.graphReqs = append(b.graphReqs, q)
	if !b.graphBuilt {
		return graph.Result{}, fmt.Errorf("load: %w", apperr.L(apperr.NoIndex, "graph.missing", "no graph").Wrap(graph.ErrNoGraph))
	}
	return graph.Result{Question: q.Question, Mode: q.Mode, Answer: "The Broncos won.", Parameters: q.Params, Provider: "offline", Extractive: true,
		References: graph.References{Reports: []graph.RefReport{{ID: "3", Title: "Super Bowl 50"}}}}, nil
}

func (b *backend) Federate(_ context.Context, req app.FederateRequest) (federate.Result, error) {
	b.fedReqs = append(b.fedReqs, req)
	if b.badConfig {
		return federate.Result{}, &app.FederateConfigError{Path: "/home/servers.yaml", Err: apperr.L(apperr.Config, "federate.config_bad", errors.New("line 3: unknown kind jira"))}
	}
	return federate.Result{Question: req.Question, Summary: "The outage lasted 40 minutes [1]."}, nil
}

func (b *backend) Search(_ context.Context, req app.SearchRequest) (app.SearchResult, error) {
	b.reqs = append(b.reqs, req)
	if req.State == "" {
		st := search.NewState(req.Query, i18n.En, time.Unix(0, 0), 5)
		return app.SearchResult{Token: "tok-123", Outcome: search.Outcome{State: st, Pending: &ai.Question{
			Question: "Which year?", Choices: []ai.Choice{{Label: "2024", Keyword: "2024"}, {Label: "2025", Keyword: "2025"}}}}}, nil
	}
	st := search.NewState("q", i18n.En, time.Unix(0, 0), 5)
	st.End = search.EndResults
	return app.SearchResult{Outcome: search.Outcome{State: st, Results: []search.Result{{File: store.File{ID: "F1", Name: "plan-2025.pdf", WebLink: "file:///plan-2025.pdf"}, Score: 0.9}}}}, nil
}

func (b *backend) Ask(_ context.Context, req app.AskRequest) (app.AskResult, error) {
	b.askReqs = append(b.askReqs, req)
	return app.AskResult{}, apperr.L(apperr.NoIndex, "search.empty_index")
}

func (b *backend) GetFile(context.Context, string, int) (app.FileDetail, error) {
	return app.FileDetail{}, apperr.L(apperr.Usage, "mcp.no_file_id")
}

func connect(t *testing.T, b mcpserver.Backend) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	srv := mcpserver.New(b, mcpserver.Options{Version: "test", Lang: i18n.En})
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// A clarifying question comes back as structured output with its choices
// and state; the client answers with state + answer and gets the results.
func TestSearchQuestionRoundTrip(t *testing.T) {
	b := &backend{}
	cs := connect(t, b)
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "plan"}})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	var doc struct {
		End      string `json:"end"`
		State    string `json:"state"`
		Question struct {
			Text    string `json:"text"`
			Choices []struct {
				Number int    `json:"number"`
				Label  string `json:"label"`
			} `json:"choices"`
		} `json:"question"`
		Results []struct{ ID string } `json:"results"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.End != "question" || doc.State != "tok-123" || doc.Question.Text != "Which year?" || len(doc.Question.Choices) != 2 || doc.Question.Choices[1].Number != 2 {
		t.Fatalf("question doc %s", raw)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"state": doc.State, "answer": "2"}})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	raw, _ = json.Marshal(res.StructuredContent)
	doc.Results = nil
	_ = json.Unmarshal(raw, &doc)
	if len(doc.Results) != 1 || doc.Results[0].ID != "F1" {
		t.Errorf("results %s", raw)
	}
	if len(b.reqs) != 2 || b.reqs[1].State != "tok-123" || b.reqs[1].Answer != "2" || b.reqs[1].Query != "" || b.reqs[0].NoQuestions {
		t.Errorf("requests %+v", b.reqs)
	}
	// no_questions reaches the application layer (gds federate sets it).
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "plan", "no_questions": true}}); err != nil || !b.reqs[2].NoQuestions {
		t.Errorf("no_questions: %v %+v", err, b.reqs)
	}
	// The text content mirrors the structured output for clients that read text.
	if len(res.Content) == 0 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "plan-2025.pdf") {
		t.Errorf("content %+v", res.Content)
	}
}

// apperr's MCP form: a usage error is JSON-RPC invalid params; others are
// tool results with isError and the localized message and hint.
func TestErrorForms(t *testing.T) {
	cs := connect(t, &backend{})
	ctx := context.Background()
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_file", Arguments: map[string]any{"id": ""}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != apperr.MCPCodeInvalidParams || !strings.Contains(werr.Message, "id") {
		t.Errorf("usage: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "q"}})
	if err != nil || !res.IsError {
		t.Fatalf("no index: %v %+v", err, res)
	}
	// An empty index: what the user does, not a CLI hint.
	if got, want := res.Content[0].(*mcp.TextContent).Text, i18n.T(i18n.En, "mcp.empty_index"); got != want {
		t.Errorf("text %q, want %q", got, want)
	}
}

// ask's answer when no passage passes the threshold is the MCP message,
// which names the score_threshold parameter.
func TestAskNoContextMessage(t *testing.T) {
	b := &backend{}
	cs := connect(t, b)
	cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "q", "score_threshold": 0.9}})
	if len(b.askReqs) != 1 || b.askReqs[0].NoContext != "mcp.no_context" || b.askReqs[0].ScoreThreshold != 0.9 {
		t.Errorf("ask requests %+v", b.askReqs)
	}
}

// graph_query: GraphRAG's defaults for what is omitted, the result with
// its references as structured output; bad parameters are invalid params
// naming the tool's parameter (never a CLI flag); a graph not built yet is
// a tool error saying the user builds it and what to use meanwhile.
func TestGraphQueryTool(t *testing.T) {
	b := &backend{graphBuilt: true}
	cs := connect(t, b)
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "graph_query", Arguments: map[string]any{"question": "Who won?", "mode": "Local", "community_level": 0}})
	if err != nil || res.IsError {
		t.Fatalf("graph_query: %v %+v", err, res)
	}
	var out struct {
		Answer     string `json:"answer"`
		Mode       string `json:"mode"`
		References struct {
			Reports []struct{ ID, Title string } `json:"reports"`
		} `json:"references"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil || out.Answer != "The Broncos won." || out.Mode != "local" || len(out.References.Reports) != 1 {
		t.Errorf("structured %s: %v", raw, err)
	}
	q := b.graphReqs[0]
	if def := graph.DefaultParams(); q.CommunityLevel != 0 || q.MaxContextTokens != def.MaxContextTokens || q.ResponseType != def.ResponseType || !q.NormalizeWeight {
		t.Errorf("query %+v", q)
	}
	cs.CallTool(ctx, &mcp.CallToolParams{Name: "graph_query", Arguments: map[string]any{"question": "q"}})
	if q := b.graphReqs[1]; q.Mode != graph.ModeGlobal || q.CommunityLevel != graph.DefaultCommunityLevel {
		t.Errorf("defaults %+v", q)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"question": " "}, "question"},
		{map[string]any{"question": "q", "mode": "sideways"}, "pass global, local or drift"},
		{map[string]any{"question": "q", "community_level": -1}, "community_level"},
		{map[string]any{"question": "q", "min_community_rank": 11}, "min_community_rank"},
		{map[string]any{"question": "q", "max_context_tokens": 10}, "max_context_tokens"},
	} {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "graph_query", Arguments: c.args})
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != apperr.MCPCodeInvalidParams || !strings.Contains(werr.Message, c.want) || strings.Contains(werr.Message, "--") {
			t.Errorf("%v: %v, want invalid params naming %q and no flag", c.args, err, c.want)
		}
	}
	if len(b.graphReqs) != 2 {
		t.Errorf("bad parameters reached the backend: %d queries", len(b.graphReqs))
	}

	b.graphBuilt = false
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "graph_query", Arguments: map[string]any{"question": "q"}})
	if err != nil || !res.IsError {
		t.Fatalf("no graph: %v %+v", err, res)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(got, "gds graph build") || !strings.Contains(got, "ask tool") || strings.Contains(got, "--") {
		t.Errorf("no graph: %q", got)
	}
}

// federate: the question and mock reach the backend, the result comes back
// structured; an empty question is invalid params; a bad servers.yaml is a
// tool error naming the file and what the agent can do meanwhile.
func TestFederateTool(t *testing.T) {
	b := &backend{}
	cs := connect(t, b)
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "federate", Arguments: map[string]any{"question": " Alpha outage ", "mock": true}})
	if err != nil || res.IsError {
		t.Fatalf("federate: %v %+v", err, res)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(raw), `"summary":"The outage lasted 40 minutes [1]."`) || len(b.fedReqs) != 1 || b.fedReqs[0] != (app.FederateRequest{Question: "Alpha outage", Mock: true}) {
		t.Errorf("structured %s, requests %+v", raw, b.fedReqs)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "federate", Arguments: map[string]any{"question": ""}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != apperr.MCPCodeInvalidParams || !strings.Contains(werr.Message, "question parameter") {
		t.Errorf("empty question: %v", err)
	}
	b.badConfig = true
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "federate", Arguments: map[string]any{"question": "q"}})
	if err != nil || !res.IsError {
		t.Fatalf("bad config: %v %+v", err, res)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(got, "/home/servers.yaml") || !strings.Contains(got, "unknown kind jira") || !strings.Contains(got, "mock true") || strings.Contains(got, "--") {
		t.Errorf("bad config: %q", got)
	}
}
