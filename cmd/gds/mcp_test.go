package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// gds mcp, driven by the SDK's client over a real stdio pipe to the built
// binary: initialize, list the tools with their schemas, search the index
// of testdata/realdocs and get the right file back, read it with get_file,
// ask with citations, and the error forms (bad input as JSON-RPC invalid
// params, an unknown file as a tool error).
func TestMCPServerOverStdio(t *testing.T) {
	bin := gdsBinary(t)
	home := t.TempDir()
	docs := copyRealDocs(t)
	// A file of several chunks whose sentences vary in length, so its
	// chunks overlap by different amounts (sentence starts up to
	// crawl.ChunkMaxOverlap back).
	logSentences := lighthouseLog()
	if err := os.WriteFile(filepath.Join(docs, "lighthouse-log.txt"), []byte(strings.Join(logSentences, " ")), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := crawlCmd(bin, home, docs).CombinedOutput(); err != nil {
		t.Fatalf("crawl: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard only
	defer cancel()
	cmd := exec.Command(bin, "mcp")
	cmd.Env = append(os.Environ(), "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "DATABASE_URL=", "SUPABASE_DB_URL=", "LANG=C")
	var stderr lockedBuffer // written by the process's copier while the test reads it
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "gds-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	defer cs.Close()
	if ir := cs.InitializeResult(); ir == nil || ir.ServerInfo.Name != "gds" {
		t.Fatalf("initialize result %+v", ir)
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*mcp.Tool{}
	for _, tl := range tools.Tools {
		got[tl.Name] = tl
	}
	for name, prop := range map[string]string{"search": "query", "ask": "question", "get_file": "id"} {
		tl := got[name]
		if tl == nil {
			t.Fatalf("tool %s missing from %v", name, tools.Tools)
		}
		in, _ := json.Marshal(tl.InputSchema)
		outSchema, _ := json.Marshal(tl.OutputSchema)
		if !strings.Contains(string(in), `"`+prop+`"`) || tl.OutputSchema == nil || !strings.Contains(string(outSchema), `"properties"`) {
			t.Errorf("%s schemas: in %s out %s", name, in, outSchema)
		}
	}

	// search finds the memo; a clarifying question is answered with its state.
	var doc struct {
		End     string `json:"end"`
		State   string `json:"state"`
		Results []struct {
			ID, Name, Link string
		} `json:"results"`
		Question *struct {
			Text    string `json:"text"`
			Choices []struct {
				Number int `json:"number"`
			} `json:"choices"`
		} `json:"question"`
	}
	call := func(name string, args map[string]any, into any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if into != nil && !res.IsError {
			b, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(b, into); err != nil {
				t.Fatalf("%s: structured content %s: %v", name, b, err)
			}
		}
		return res
	}
	search := func(query string) {
		t.Helper()
		doc.End, doc.Results, doc.Question, doc.State = "", nil, nil, ""
		call("search", map[string]any{"query": query}, &doc)
		for i := 0; doc.End == "question" && i < 3; i++ {
			if doc.State == "" || doc.Question == nil || len(doc.Question.Choices) == 0 {
				t.Fatalf("question without state or choices: %+v", doc)
			}
			state := doc.State
			doc.Results, doc.Question, doc.State = nil, nil, ""
			call("search", map[string]any{"state": state, "answer": "1"}, &doc)
		}
	}
	search("memo asking for bottles of water")
	if doc.End != "results" || len(doc.Results) == 0 || doc.Results[0].Name != "unstructured-fake-memo.pdf" {
		t.Fatalf("search: %+v", doc)
	}
	memo := doc.Results[0]

	var file struct {
		ID, Name, Summary, Text, Link string
		Truncated                     bool
		Chunks                        int
	}
	call("get_file", map[string]any{"id": memo.ID, "max_chars": 5000}, &file)
	if file.ID != memo.ID || file.Name != memo.Name || file.Summary == "" || !strings.Contains(strings.ToLower(file.Text), "water") || file.Chunks < 1 || !strings.HasPrefix(file.Link, "file://") {
		t.Errorf("get_file: %+v", file)
	}
	var short struct {
		Text      string
		Truncated bool
	}
	call("get_file", map[string]any{"id": memo.ID, "max_chars": 10}, &short)
	if !short.Truncated || len([]rune(short.Text)) != 10 {
		t.Errorf("get_file max_chars 10: %+v", short)
	}

	// A file of several chunks comes back with each sentence once.
	search("lighthouse keeper log of ships")
	if doc.End != "results" || len(doc.Results) == 0 || doc.Results[0].Name != "lighthouse-log.txt" {
		t.Fatalf("search for the log: %+v", doc)
	}
	var logFile struct {
		Text   string
		Chunks int
	}
	call("get_file", map[string]any{"id": doc.Results[0].ID}, &logFile)
	if logFile.Chunks < 4 {
		t.Errorf("get_file: the log is %d chunks, the test needs several", logFile.Chunks)
	}
	for _, s := range logSentences {
		if n := strings.Count(logFile.Text, s); n != 1 {
			t.Errorf("get_file says %q %d times", s, n)
		}
	}

	var ans struct {
		Answer     string `json:"answer"`
		Extractive bool   `json:"extractive"`
		Sources    []struct {
			Name string `json:"name"`
		} `json:"sources"`
	}
	call("ask", map[string]any{"question": "How many bottles of water does the memo ask for?", "top_k": 3}, &ans)
	if len(ans.Sources) == 0 || ans.Sources[0].Name != "unstructured-fake-memo.pdf" || !ans.Extractive || !strings.Contains(ans.Answer, "[1]") {
		t.Errorf("ask: %+v", ans)
	}

	// Nothing passes the threshold: the answer names the tool's parameter.
	var none struct {
		Answer    string `json:"answer"`
		NoContext bool   `json:"no_context"`
	}
	call("ask", map[string]any{"question": "zebra quantum marmalade", "score_threshold": 1}, &none)
	if !none.NoContext || !strings.Contains(none.Answer, "score_threshold") || strings.Contains(none.Answer, "--") {
		t.Errorf("ask with nothing passing the threshold: %+v", none)
	}

	// An unknown file: a tool error (isError) with the localized message.
	res := call("get_file", map[string]any{"id": "no-such-file"}, nil)
	if !res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "not found") {
		t.Errorf("unknown file: %+v", res)
	}
	// An answer without a state: invalid params, a JSON-RPC error.
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"answer": "1"}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != -32602 {
		t.Errorf("answer without state: %v", err)
	}
	if strings.Contains(stderr.String(), "{\"jsonrpc\"") {
		t.Errorf("protocol on stderr: %s", stderr.String())
	}
}

// lighthouseLog is a text of several chunks: numbered sentences (each
// said once) of lengths from 40 to 400 characters.
func lighthouseLog() []string {
	var out []string
	for i := range 30 {
		out = append(out, fmt.Sprintf("Entry %d of the lighthouse keeper's log notes ship %d%s.", i, 100+i, strings.Repeat(", then a gale from the north with rain", (i*7)%10)))
	}
	return out
}

// copyRealDocs copies testdata/realdocs without its manifest (which
// quotes the documents' phrases) into a temporary folder.
func copyRealDocs(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "realdocs")
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || e.Name() == "MANIFEST.tsv" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// gds mcp's graph_query and federate tools, through the SDK's client over
// stdio to the built binary: graph_query before any build is a tool error
// telling the agent the user builds the graph; after `gds graph build` it
// answers in each mode with its references; a bad mode is invalid params
// naming the parameter; federate with mock answers from the mock services.
func TestMCPGraphQueryAndFederate(t *testing.T) {
	bin := gdsBinary(t)
	home := t.TempDir()
	docs := t.TempDir()
	article, err := os.ReadFile(filepath.Join("..", "..", "testdata", "graphcorpus", "squad-0001.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if i := strings.Index(string(article[4000:]), "\n\n"); i >= 0 {
		article = article[:4000+i] // a few chunks keep the build short
	}
	if err := os.WriteFile(filepath.Join(docs, "superbowl.txt"), article, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := crawlCmd(bin, home, docs).CombinedOutput(); err != nil {
		t.Fatalf("crawl: %v\n%s", err, out)
	}
	env := append(os.Environ(), "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "DATABASE_URL=", "SUPABASE_DB_URL=", "LANG=C",
		"SLACK_MCP_XOXP_TOKEN=", "GITHUB_PERSONAL_ACCESS_TOKEN=", "ALLOW_REAL=")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard only
	defer cancel()
	cmd := exec.Command(bin, "mcp")
	cmd.Env = env
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gds-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, tl := range tools.Tools {
		have[tl.Name] = tl.OutputSchema != nil
	}
	if !have["graph_query"] || !have["federate"] {
		t.Fatalf("tools %v: want graph_query and federate with output schemas", have)
	}
	text := func(res *mcp.CallToolResult) string {
		if len(res.Content) == 0 {
			return ""
		}
		return res.Content[0].(*mcp.TextContent).Text
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "graph_query", Arguments: map[string]any{"question": "Who won Super Bowl 50?"}})
	if err != nil || !res.IsError || !strings.Contains(text(res), "gds graph build") {
		t.Fatalf("before the build: %v %+v", err, res)
	}
	build := exec.Command(bin, "graph", "build")
	build.Env = env
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("graph build: %v\n%s", err, out)
	}
	for _, mode := range []string{"global", "local", "drift"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "graph_query", Arguments: map[string]any{
			"question": "Who won Super Bowl 50?", "mode": mode, "response_type": "single paragraph"}})
		if err != nil || res.IsError {
			t.Fatalf("graph_query %s: %v %s", mode, err, text(res))
		}
		var g graphDoc
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &g); err != nil {
			t.Fatal(err)
		}
		if g.Mode != mode || strings.TrimSpace(g.Answer) == "" || g.Parameters.ResponseType != "single paragraph" ||
			len(g.References.Reports)+len(g.References.Entities)+len(g.References.Chunks) == 0 || len(g.References.Documents) == 0 {
			t.Errorf("graph_query %s: %s", mode, b)
		}
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "graph_query", Arguments: map[string]any{"question": "q", "mode": "sideways"}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != -32602 || !strings.Contains(werr.Message, "mode") || strings.Contains(werr.Message, "--") {
		t.Errorf("bad mode: %v", err)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "federate", Arguments: map[string]any{"question": "Alpha ingestion outage", "mock": true}})
	if err != nil || res.IsError {
		t.Fatalf("federate: %v %s", err, text(res))
	}
	var fed federateDoc
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &fed); err != nil || len(fed.Services) != 3 || fed.Summary == "" || len(fed.Sources) == 0 {
		t.Errorf("federate: %v %s", err, b)
	}
	for _, s := range fed.Services {
		if s.Status != "ok" || !s.Mock {
			t.Errorf("federate service %+v", s)
		}
	}
}
