package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
)

// agentLine is one line of `gds ask --mode agentic --json`.
type agentLine struct {
	Type     string `json:"type"`
	Tool     string `json:"tool"`
	Evidence *struct {
		FileID  string `json:"file_id"`
		Name    string `json:"name"`
		ChunkID string `json:"chunk_id"`
		Text    string `json:"text"`
	} `json:"evidence"`
	Answer     string `json:"answer"`
	ResultID   string `json:"result_id"`
	Extractive bool   `json:"extractive"`
	Error      *struct {
		Code string `json:"code"`
	} `json:"error"`
}

// gds ask --mode agentic --json over the real documents of testdata/realdocs
// prints one event per line — tool calls, their results, evidence, done
// last — with evidence from the file that holds the answer; the terminal
// shows the steps.
func TestAskAgenticOverRealDocs(t *testing.T) {
	t.Parallel() // CPU-heavy in-process run, overlaps the waits of the parallel tests (see TestMain); own GDS_HOME, no t.Setenv
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOffline
	src := filepath.Join("..", "..", "testdata", "realdocs")
	docs := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || e.Name() == "MANIFEST.tsv" { // it quotes the documents' phrases
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(docs, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code := h.run("crawl", "--source", "local:"+docs); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s", code, h.stderr.String())
	}
	cases := []struct{ q, want string }{
		{"How many bottles of water does the memo mention?", "unstructured-fake-memo.pdf"},
		{"わたくしといふ現象は何の照明ですか", "pdfminer-jo-haru-to-shura.pdf"},
	}
	for _, tc := range cases {
		if code := h.run("ask", "--mode", "agentic", "--json", tc.q); code != exitOK {
			t.Fatalf("%s: exit %d\n%s", tc.q, code, h.stderr.String())
		}
		var lines []agentLine
		seen := map[string]bool{}
		for _, l := range strings.Split(strings.TrimSpace(h.stdout.String()), "\n") {
			var a agentLine
			if err := json.Unmarshal([]byte(l), &a); err != nil || a.Type == "" {
				t.Fatalf("%s: line %q: %v", tc.q, l, err)
			}
			lines = append(lines, a)
			seen[a.Type] = true
		}
		for _, typ := range []string{"tool_call", "tool_result", "chunk", "evidence", "done"} {
			if !seen[typ] {
				t.Errorf("%s: no %s event", tc.q, typ)
			}
		}
		done := lines[len(lines)-1]
		if done.Type != "done" || !done.Extractive || done.ResultID == "" || done.Answer == "" {
			t.Fatalf("%s: last line %+v", tc.q, done)
		}
		var first *agentLine
		for i := range lines {
			if lines[i].Type == "evidence" {
				first = &lines[i]
				break
			}
		}
		if first == nil || first.Evidence.Name != tc.want || !strings.HasPrefix(first.Evidence.ChunkID, first.Evidence.FileID+"#") {
			t.Errorf("%s: first evidence %+v, want from %s", tc.q, first, tc.want)
		}
	}
	// The terminal shows the steps, the labelled extract and the evidence.
	if code := h.run("ask", "--mode", "agentic", cases[0].q); code != exitOK {
		t.Fatalf("exit %d\n%s", code, h.stderr.String())
	}
	out := h.stdout.String()
	for _, want := range []string{"🔍 Looking for structure documents", "→ found", "🔍 Investigating unstructured-fake-memo.pdf", "Offline agent", "Evidence:", "[1] unstructured-fake-memo.pdf"} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q:\n%s", want, out)
		}
	}
	// A folder the index does not hold is a usage error line naming the
	// closest folders, and a bad mode a usage error.
	if code := h.run("ask", "--mode", "agentic", "--json", "--folder", "Nope", "q"); code != exitUsage || !strings.HasPrefix(h.stdout.String(), `{"type":"error","error":{"code":"usage"`) ||
		!strings.Contains(h.stdout.String(), "closest") {
		t.Errorf("unknown folder: exit %d, %s", code, h.stdout.String())
	}
	// The crawled folder itself, by its name in another case or by its path.
	for _, folder := range []string{strings.ToUpper(filepath.Base(docs)), docs} {
		if code := h.run("ask", "--mode", "agentic", "--json", "--folder", folder, cases[0].q); code != exitOK {
			t.Errorf("--folder %q: exit %d %s", folder, code, h.stdout.String())
		}
	}
	if code := h.run("ask", "--mode", "graph", "q"); code != exitUsage {
		t.Errorf("bad mode: exit %d", code)
	}
}

// gds eval --mode agentic on the tiny corpus of internal/eval/testdata:
// both systems' evidence is scored against the gold answers.
func TestEvalAgentic(t *testing.T) {
	t.Parallel() // CPU-heavy in-process run, overlaps the waits of the parallel tests (see TestMain); own GDS_HOME, no t.Setenv
	h := newHarness(t)
	corpus, _ := filepath.Abs("../../internal/eval/testdata/corpus")
	queries, _ := filepath.Abs("../../internal/eval/testdata/queries.jsonl")
	if code := h.run("eval", "--mode", "agentic", "--corpus", corpus, "--queries", queries, "--home", t.TempDir(), "--json"); code != exitOK {
		t.Fatalf("exit %d\n%s", code, h.stderr.String())
	}
	var rep struct {
		Provider     string  `json:"provider"`
		Queries      int     `json:"queries"`
		AskRecall5   float64 `json:"ask_recall_at_5"`
		AgentRecall  float64 `json:"agentic_recall"`
		AgentRecall5 float64 `json:"agentic_recall_at_5"`
		Calls        float64 `json:"agentic_mean_tool_calls"`
		Evidence     float64 `json:"agentic_mean_evidence"`
	}
	if err := json.Unmarshal(h.stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, h.stdout.String())
	}
	if rep.Provider != "offline" || rep.Queries == 0 || rep.AskRecall5 < 0.5 || rep.AgentRecall < rep.AgentRecall5 || rep.AgentRecall < 0.5 || rep.Calls < 3 || rep.Evidence < 1 {
		t.Errorf("report %+v", rep)
	}
}

// With a model (the OpenAI-compatible test server scripting the run), the
// same command streams the model's steps: an investigation by the
// sub-agent, then the answer citing the passage it quoted.
func TestAskAgenticWithAModel(t *testing.T) {
	oai := openaitest.NewServer(t, openaitest.WithAPIKey("sk-test"), openaitest.WithBackend(offline.New()))
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOpenAI
	h.env[config.EnvOpenAIAPIKey] = "sk-test"
	h.env[config.EnvOpenAIBaseURL] = oai.URL
	docs := t.TempDir()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "realdocs", "unstructured-fake-memo.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(docs, "memo.pdf"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if code := h.run("crawl", "--source", "local:"+docs); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s", code, h.stderr.String())
	}
	oai.Reset()
	abs, _ := filepath.Abs(docs)
	id := crawl.LocalID(abs, "memo.pdf")
	chat := func(r openaitest.Reply) openaitest.Reply { r.Path = openaitest.PathChat; return r }
	oai.Enqueue(
		chat(openaitest.Reply{ToolCalls: []ai.ToolCall{{Name: "investigate_document", Arguments: `{"document_id":"` + id + `","investigation_query":"what was delivered?"}`}}}),
		chat(openaitest.Reply{ToolCalls: []ai.ToolCall{{Name: "get_document_content", Arguments: `{"document_id":"` + id + `"}`}}}),
		chat(openaitest.Reply{Content: "Water, blankets and laptops [c0]."}),
		chat(openaitest.Reply{Content: "Water, blankets and laptops were delivered [1]."}),
	)
	if code := h.run("ask", "--mode", "agentic", "--json", "What was delivered?"); code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, h.stdout.String(), h.stderr.String())
	}
	var types []string
	var done agentLine
	var evidence []agentLine
	for _, l := range strings.Split(strings.TrimSpace(h.stdout.String()), "\n") {
		var a agentLine
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		types = append(types, a.Type)
		switch a.Type {
		case "done":
			done = a
		case "evidence":
			evidence = append(evidence, a)
		}
	}
	if strings.Join(types[:2], ",") != "tool_call,tool_result" || types[len(types)-1] != "done" {
		t.Errorf("events %v", types)
	}
	if done.Answer != "Water, blankets and laptops were delivered [1]." || done.Extractive {
		t.Errorf("done %+v", done)
	}
	if len(evidence) != 1 || evidence[0].Evidence.ChunkID != id+"#0" || !strings.Contains(evidence[0].Evidence.Text, "10,000 blankets") {
		t.Errorf("evidence %+v", evidence)
	}
}
