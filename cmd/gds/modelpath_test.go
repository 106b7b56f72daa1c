package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/ai/openaitest/gdsmodel"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/graph"
)

// modelServer is the OpenAI emulator playing gds's model
// (internal/ai/openaitest/gdsmodel), with an API key.
func modelServer(t *testing.T) *openaitest.Server {
	return openaitest.NewServer(t, append(gdsmodel.Options(), openaitest.WithAPIKey("sk-test"))...)
}

// requestsOK fails the test for every request the emulator refused or
// failed (a request gds built against OpenAI's rules, or a reply the
// emulated model could not give), naming it.
func requestsOK(t *testing.T, oai *openaitest.Server, what string) {
	t.Helper()
	for _, r := range oai.Requests() {
		if r.Status != http.StatusOK {
			t.Errorf("%s: %s %s (task %q) answered %d", what, r.Method, r.Path, r.Task, r.Status)
		}
	}
}

// Every model path of gds runs through the real openai-go client against
// the emulator playing a model, with no scripted reply: the crawl's
// summaries and embeddings, gds ask, the agent (the model's own tool calls
// over several steps, the sub-agent reading a document, an answer citing
// the evidence), and graph build and query in each mode. Each request is
// checked by the emulator against OpenAI's rules (strict schemas, tool
// message order, tool call ids echoed), so a malformed request fails here.
func TestModelPathsThroughTheEmulator(t *testing.T) {
	t.Parallel() // own GDS_HOME and emulator, no t.Setenv
	oai := modelServer(t)
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOpenAI
	h.env[config.EnvOpenAIAPIKey] = "sk-test"
	h.env[config.EnvOpenAIBaseURL] = oai.URL
	docs := t.TempDir()
	memo, err := os.ReadFile(filepath.Join("..", "..", "testdata", "realdocs", "unstructured-fake-memo.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	article, err := os.ReadFile(filepath.Join("..", "..", "testdata", "graphcorpus", "squad-0001.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// The article's first paragraphs keep the graph build to a few calls.
	if i := strings.Index(string(article[4000:]), "\n\n"); i >= 0 {
		article = article[:4000+i]
	}
	for name, b := range map[string][]byte{"memo.pdf": memo, "superbowl.txt": article} {
		if err := os.WriteFile(filepath.Join(docs, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code := h.run("crawl", "--source", "local:"+docs); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s", code, h.stderr.String())
	}
	requestsOK(t, oai, "crawl")

	// gds ask: the model's answer, with sources.
	oai.Reset()
	if code := h.run("ask", "--json", "How many blankets were delivered?"); code != exitOK {
		t.Fatalf("ask: exit %d\n%s", code, h.stderr.String())
	}
	var ask askDoc
	if err := json.Unmarshal(h.stdout.Bytes(), &ask); err != nil {
		t.Fatalf("ask: %v\n%s", err, h.stdout.String())
	}
	if ask.Provider != "openai" || ask.Extractive || !strings.Contains(ask.Answer, "10,000 blankets") || !strings.Contains(ask.Answer, "[1]") || len(ask.Sources) == 0 {
		t.Errorf("ask: %s", h.stdout.String())
	}
	requestsOK(t, oai, "ask")

	// The agent: the model's tool calls over several steps.
	oai.Reset()
	if code := h.run("ask", "--mode", "agentic", "--json", "How many blankets were delivered?"); code != exitOK {
		t.Fatalf("agentic: exit %d\n%s\n%s", code, h.stdout.String(), h.stderr.String())
	}
	var done struct {
		agentLine
		Steps     int `json:"steps"`
		ToolCalls int `json:"tool_calls"`
	}
	tools := map[string]int{}
	evidence := 0
	for _, l := range strings.Split(strings.TrimSpace(h.stdout.String()), "\n") {
		var a agentLine
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		switch a.Type {
		case "tool_call":
			tools[a.Tool]++
		case "evidence":
			evidence++
		case "done":
			if err := json.Unmarshal([]byte(l), &done); err != nil {
				t.Fatal(err)
			}
		}
	}
	if done.Steps < 3 || done.Extractive || !strings.Contains(done.Answer, "10,000 blankets") || !strings.Contains(done.Answer, "[") || evidence == 0 {
		t.Errorf("agentic done %+v, %d evidence\n%s", done, evidence, h.stdout.String())
	}
	t.Logf("agentic: %d steps, %d tool calls %v, answer %q", done.Steps, done.ToolCalls, tools, done.Answer)
	for _, want := range []string{"discover_agenda_documents", "list_meeting_documents", "investigate_document", "search_evidence"} {
		if tools[want] == 0 {
			t.Errorf("agentic: no %s call in %v", want, tools)
		}
	}
	var analyst, main int
	for _, r := range oai.RequestsTo(openaitest.PathChat) {
		if len(r.Tools) == 0 {
			continue
		}
		if r.Tools[0].Name == "get_document_content" {
			analyst++
		} else {
			main++
		}
		for i, m := range r.Messages {
			if m.Role == ai.RoleTool && (i == 0 || m.ToolCallID == "") {
				t.Errorf("agentic: tool message %d without its call: %+v", i, m)
			}
		}
	}
	if main < 3 || analyst < 2 {
		t.Errorf("agentic: %d main-agent and %d analyst turns reached the model", main, analyst)
	}
	requestsOK(t, oai, "agentic")

	// Graph build, then a query in each mode: answers without internals.
	oai.Reset()
	if code := h.run("graph", "build"); code != exitOK {
		t.Fatalf("graph build: exit %d\n%s", code, h.stderr.String())
	}
	requestsOK(t, oai, "graph build")
	tasks := map[ai.Task]int{}
	for _, r := range oai.RequestsTo(openaitest.PathChat) {
		tasks[r.Task]++
	}
	if tasks[ai.TaskGraphExtract] == 0 || tasks[ai.TaskGraphReport] == 0 {
		t.Errorf("graph build: tasks %v", tasks)
	}
	for _, mode := range []string{"global", "local", "drift"} {
		oai.Reset()
		if code := h.run("graph", "query", "--output-format", "json", "--mode", mode, "Who won Super Bowl 50?"); code != exitOK {
			t.Fatalf("graph query %s: exit %d\n%s", mode, code, h.stderr.String())
		}
		var g graphDoc
		if err := json.Unmarshal(h.stdout.Bytes(), &g); err != nil {
			t.Fatalf("graph query %s: %v\n%s", mode, err, h.stdout.String())
		}
		if g.Provider != "openai" || g.Extractive || strings.TrimSpace(g.Answer) == "" || len(g.References.Reports)+len(g.References.Entities)+len(g.References.Chunks) == 0 {
			t.Errorf("graph query %s: %s", mode, h.stdout.String())
		}
		t.Logf("graph query %s: %q", mode, g.Answer)
		if f := graph.Faults(g.Answer); len(f) > 0 {
			t.Errorf("graph query %s: the answer leaks %v: %q", mode, f, g.Answer)
		}
		requestsOK(t, oai, "graph query "+mode)
	}
}

// gds federate with a model: the model writes the per-service queries
// (by "llm", not the keyword rules), through the emulator, and summarises.
func TestFederateWithAModel(t *testing.T) {
	bin := gdsBinary(t)
	oai := modelServer(t)
	home := t.TempDir()
	out, err := federateCmd(bin, home, []string{"GDS_AI_PROVIDER=openai", "OPENAI_API_KEY=sk-test", "OPENAI_BASE_URL=" + oai.URL},
		"--mock", "--json", "Alpha ingestion outage").Output()
	if err != nil {
		t.Fatalf("federate: %v\n%s", err, out)
	}
	var doc federateDoc
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc.Queries) != 3 || doc.Extractive || doc.Summary == "" || len(doc.Sources) == 0 {
		t.Fatalf("doc %+v", doc)
	}
	for _, q := range doc.Queries {
		if q.By != "llm" || !strings.Contains(strings.ToLower(q.Query), "alpha") {
			t.Errorf("query %+v: want the model's, naming alpha", q)
		}
	}
	t.Logf("federate: queries %+v, summary %q", doc.Queries, doc.Summary)
	var schemas []string
	for _, r := range oai.RequestsTo(openaitest.PathChat) {
		schemas = append(schemas, fmt.Sprintf("%s strict=%v", r.Schema, r.Strict))
	}
	if len(schemas) == 0 || schemas[0] != "federated_queries strict=true" {
		t.Errorf("chat requests %v: want the federated_queries task first", schemas)
	}
	requestsOK(t, oai, "federate")
}
