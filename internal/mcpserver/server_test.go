package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/mcpserver"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// backend pauses the first search with a question and finishes the one
// that answers it; it records the requests.
type backend struct {
	reqs []app.SearchRequest
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

func (b *backend) Ask(context.Context, app.AskRequest) (app.AskResult, error) {
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
	want := apperr.MCP(apperr.L(apperr.NoIndex, "search.empty_index"), i18n.En).Text
	if got := res.Content[0].(*mcp.TextContent).Text; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
}
