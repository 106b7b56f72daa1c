package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/agent"
	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// agentEnv is a gds home whose index holds a folder "Meeting" (a memo, a
// text and an agenda written here) and a folder "Other", crawled with the
// provider the test uses: the openai provider against the test server
// (answering unscripted requests with the offline provider), or offline.
type agentEnv struct {
	d    *Deps
	root string // the crawled folder
	oai  *openaitest.Server
	ids  map[string]string // file name → ID
}

func newAgentEnv(t *testing.T, pg, llm bool) *agentEnv {
	t.Helper()
	root := t.TempDir()
	realDocs := filepath.Join("..", "..", "testdata", "realdocs")
	for _, f := range [][2]string{
		{"unstructured-fake-memo.pdf", "Meeting"}, {"unstructured-fake-text.txt", "Meeting"}, {"pdfminer-README.md", "Other"},
	} {
		b, err := os.ReadFile(filepath.Join(realDocs, f[0]))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, f[1]), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f[1], f[0]), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	agenda := "# Agenda\n\n1. Report on the delivery of relief supplies (memo).\n2. Review of the unit test document.\n"
	if err := os.WriteFile(filepath.Join(root, "Meeting", "agenda.md"), []byte(agenda), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{config.EnvAIProvider: config.ProviderOffline}
	e := &agentEnv{ids: map[string]string{}, root: root}
	if llm {
		e.oai = openaitest.NewServer(t, openaitest.WithAPIKey("sk-test"), openaitest.WithBackend(offline.New()))
		env = map[string]string{config.EnvAIProvider: config.ProviderOpenAI, config.EnvOpenAIAPIKey: "sk-test", config.EnvOpenAIBaseURL: e.oai.URL}
	}
	if pg {
		url := os.Getenv("GDS_TEST_DATABASE_URL")
		if url == "" {
			t.Skip("GDS_TEST_DATABASE_URL is not set (scripts/test.sh starts PGlite and sets it)")
		}
		env[config.EnvDatabaseURL] = url
		env[config.EnvDatabaseSchema] = storetest.FreshSchema(t, url, "agent")
	}
	e.d = New(Options{Config: loadConfig(t, env), IO: iostreams.IOStreams{Lang: i18n.En}})
	ctx := context.Background()
	if _, err := e.d.Crawl(ctx, CrawlRequest{Source: "local:" + root}); err != nil {
		t.Fatalf("crawl: %v", err)
	}
	docs, err := e.d.ListDocuments(ctx, 1, 100, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range docs.Items {
		e.ids[doc.Filename] = doc.ID
	}
	if len(e.ids) != 4 {
		t.Fatalf("indexed %v, want 4 files", e.ids)
	}
	if e.oai != nil {
		e.oai.Reset()
	}
	return e
}

// run runs the agent and returns its events.
func (e *agentEnv) run(ctx context.Context, q, folder string, lim agent.Limits) ([]agent.Event, error) {
	var mu sync.Mutex
	var evs []agent.Event
	_, err := e.d.Agent(ctx, AgentRequest{Question: q, Folder: folder, Limits: lim, Emit: func(ev agent.Event) error {
		mu.Lock()
		defer mu.Unlock()
		evs = append(evs, ev)
		return nil
	}})
	return evs, err
}

func call(name string, args any) ai.ToolCall {
	b, _ := json.Marshal(args)
	return ai.ToolCall{Name: name, Arguments: string(b)}
}

func calls(cs ...ai.ToolCall) openaitest.Reply {
	return openaitest.Reply{Path: openaitest.PathChat, ToolCalls: cs}
}

func text(s string) openaitest.Reply { return openaitest.Reply{Path: openaitest.PathChat, Content: s} }

func types(evs []agent.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

func results(evs []agent.Event) []agent.Event {
	var out []agent.Event
	for _, e := range evs {
		if e.Type == agent.TypeToolResult {
			out = append(out, e)
		}
	}
	return out
}

func last(t *testing.T, evs []agent.Event) agent.Event {
	t.Helper()
	if len(evs) == 0 || evs[len(evs)-1].Type != agent.TypeDone {
		t.Fatalf("the last event is not done: %v", types(evs))
	}
	for _, e := range evs[:len(evs)-1] {
		if e.Type == agent.TypeDone {
			t.Fatalf("done before the end: %v", types(evs))
		}
	}
	return evs[len(evs)-1]
}

// isSub reports whether a recorded chat request is the sub-agent's: it
// offers get_document_content only.
func isSub(r openaitest.Recorded) bool {
	return len(r.Tools) == 1 && r.Tools[0].Name == agent.ToolContent
}

func TestAgentScriptedRunSQLite(t *testing.T)   { testAgentScriptedRun(t, false) }
func TestAgentScriptedRunPostgres(t *testing.T) { testAgentScriptedRun(t, true) }

// A whole run scripted through the OpenAI-compatible server: parallel
// calls, an unknown tool, malformed arguments, a failing tool (a document
// outside the folder), an investigation by the sub-agent, an evidence
// search, and the answer citing the evidence.
func testAgentScriptedRun(t *testing.T, pg bool) {
	e := newAgentEnv(t, pg, true)
	memo, other := e.ids["unstructured-fake-memo.pdf"], e.ids["pdfminer-README.md"]
	e.oai.Enqueue(
		calls(call(agent.ToolDiscoverAgenda, map[string]string{"folder": "Meeting"}), call(agent.ToolListDocuments, map[string]any{"folder": "Meeting", "search_text": ""})),
		calls(ai.ToolCall{Name: "delete_everything", Arguments: "{}"},
			ai.ToolCall{Name: agent.ToolSearchEvidence, Arguments: `{"query": "bottles`},
			call(agent.ToolSummary, map[string]string{"document_id": other}),
			call(agent.ToolInvestigate, map[string]string{"document_id": memo, "investigation_query": "what was delivered?"})),
		calls(call(agent.ToolContent, map[string]string{"document_id": memo})), // the sub-agent reads
		text("The memo reports a delivery of relief supplies [c0]."),           // and answers
		calls(call(agent.ToolSearchEvidence, map[string]any{"query": "hamburgers delicious", "folder": "Meeting", "top_k": 1})),
		text("Relief supplies were delivered [E1]; the test document likes hamburgers [E2]."),
	)
	evs, err := e.run(context.Background(), "What was delivered, and what does the test document say?", "Meeting", agent.Limits{})
	if err != nil {
		t.Fatalf("Agent: %v", err)
	}
	done := last(t, evs)
	want := []string{"tool_call", "tool_call", "tool_result", "tool_result",
		"tool_call", "tool_call", "tool_call", "tool_call", "tool_result", "tool_result", "tool_result", "tool_result",
		"tool_call", "tool_result"}
	if got := types(evs); !slices.Equal(got[:len(want)], want) {
		t.Fatalf("events %v", got)
	}
	res := results(evs)
	var flags []bool
	for _, r := range res {
		flags = append(flags, r.Error)
	}
	if !slices.Equal(flags, []bool{false, false, true, true, true, false, false}) {
		t.Errorf("tool_result error flags %v (%+v)", flags, res)
	}
	if !strings.Contains(res[0].Summary, "1 structure") || !strings.Contains(res[1].Summary, "found 3 documents") {
		t.Errorf("listing summaries %q, %q", res[0].Summary, res[1].Summary)
	}
	if done.Answer != "Relief supplies were delivered [E1]; the test document likes hamburgers [E2]." || done.StoppedBy != "" || done.Extractive {
		t.Errorf("done %+v", done)
	}
	if done.ToolCalls != 5 { // unknown and malformed calls never ran
		t.Errorf("tool calls %d, want 5", done.ToolCalls)
	}
	// The errors went back to the model as tool results.
	chats := e.oai.RequestsTo(openaitest.PathChat)
	if len(chats) != 6 {
		t.Fatalf("%d chat requests, want 6", len(chats))
	}
	var toolMsgs []string
	for _, m := range chats[4].Messages {
		if m.Role == ai.RoleTool {
			toolMsgs = append(toolMsgs, m.Content)
		}
	}
	if len(toolMsgs) != 6 || !strings.Contains(toolMsgs[2], "unknown tool") || !strings.Contains(toolMsgs[3], "not a JSON object") ||
		!strings.Contains(toolMsgs[4], "not in the folder") || !strings.Contains(toolMsgs[5], `"evidence_count":1`) {
		t.Errorf("tool results sent to the model: %q", toolMsgs)
	}
	// Evidence: the cited passages first, each a real chunk of the folder.
	var evidence []agent.Evidence
	var refs []int
	for _, ev := range evs {
		if ev.Type == agent.TypeEvidence {
			evidence = append(evidence, *ev.Evidence)
			refs = append(refs, ev.Ref)
		}
	}
	if !slices.Equal(refs, []int{1, 2}) {
		t.Errorf("evidence refs %v, want the answer's [E1] [E2]", refs)
	}
	if len(evidence) != 2 || evidence[0].ChunkID != memo+"#0" || evidence[1].FileID != e.ids["unstructured-fake-text.txt"] {
		t.Fatalf("evidence %+v", evidence)
	}
	detail, err := e.d.GetDocument(context.Background(), memo)
	if err != nil || len(detail.Chunks) == 0 || detail.Chunks[0].Text != evidence[0].Text {
		t.Errorf("the evidence is not the memo's chunk 0: %v", err)
	}
	// The sub-agent's context: it read the document; the main agent never did.
	if !isSub(chats[2]) || !isSub(chats[3]) || isSub(chats[4]) {
		t.Fatalf("requests out of order: %v", chats)
	}
	if !strings.Contains(chats[3].Messages[len(chats[3].Messages)-1].Content, "bottles of water") {
		t.Error("the sub-agent did not get the document's text")
	}
	for i, r := range chats {
		if isSub(r) {
			continue
		}
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "bottles") {
				t.Errorf("main request %d holds the document's text: %q", i, m.Content)
			}
		}
	}
}

// Budgets end a run with a clear message and the best answer so far.
func TestAgentBudgets(t *testing.T) {
	e := newAgentEnv(t, false, true)
	list := calls(call(agent.ToolListDocuments, map[string]string{"folder": "Meeting"}))
	ctx := context.Background()

	t.Run("steps", func(t *testing.T) {
		e.oai.Reset()
		e.oai.Enqueue(list, list, text("best so far"))
		evs, err := e.run(ctx, "what?", "Meeting", agent.Limits{MaxSteps: 2})
		if err != nil {
			t.Fatal(err)
		}
		done := last(t, evs)
		chats := e.oai.RequestsTo(openaitest.PathChat)
		if done.StoppedBy != "steps" || done.Answer != "best so far" || !strings.Contains(done.Message, "step limit") || len(chats) != 3 || chats[2].ToolChoice != "none" {
			t.Errorf("done %+v after %d requests", done, len(chats))
		}
	})
	t.Run("calls per tool", func(t *testing.T) {
		e.oai.Reset()
		e.oai.Enqueue(list, list, text("ok"))
		evs, err := e.run(ctx, "what?", "Meeting", agent.Limits{MaxCallsPerTool: 1})
		if err != nil {
			t.Fatal(err)
		}
		res := results(evs)
		if len(res) != 2 || res[0].Error || !res[1].Error || !strings.Contains(res[1].Summary, "at most 1 times") {
			t.Errorf("results %+v", res)
		}
		if last(t, evs).Answer != "ok" {
			t.Error("the run did not go on after the refused call")
		}
	})
	t.Run("tokens", func(t *testing.T) {
		e.oai.Reset()
		e.oai.Enqueue(list, text("short"))
		evs, err := e.run(ctx, "what?", "Meeting", agent.Limits{MaxTokens: 10})
		if err != nil {
			t.Fatal(err)
		}
		if done := last(t, evs); done.StoppedBy != "tokens" || done.Answer != "short" {
			t.Errorf("done %+v", done)
		}
	})
	t.Run("wall clock", func(t *testing.T) {
		e.oai.Reset()
		e.oai.Enqueue(calls(call(agent.ToolSearchEvidence, map[string]any{"query": "hamburgers", "folder": "Meeting", "top_k": 2})), text("never asked"))
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		var mu sync.Mutex
		late := false
		e.d.Now = func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			if late {
				return t0.Add(time.Hour)
			}
			return t0
		}
		defer func() { e.d.Now = time.Now }()
		var evs []agent.Event
		_, err := e.d.Agent(ctx, AgentRequest{Question: "hamburgers?", Folder: "Meeting", Limits: agent.Limits{MaxWall: time.Minute}, Emit: func(ev agent.Event) error {
			evs = append(evs, ev)
			if ev.Type == agent.TypeToolResult {
				mu.Lock()
				late = true
				mu.Unlock()
			}
			return nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		done := last(t, evs)
		if done.StoppedBy != "time" || !done.Extractive || !strings.Contains(done.Answer, "Hamburgers") || len(e.oai.RequestsTo(openaitest.PathChat)) != 1 {
			t.Errorf("done %+v", done)
		}
	})
	t.Run("sub-agent turns", func(t *testing.T) {
		e.oai.Reset()
		memo := e.ids["unstructured-fake-memo.pdf"]
		e.oai.Enqueue(
			calls(call(agent.ToolInvestigate, map[string]string{"document_id": memo, "investigation_query": "what?"})),
			calls(call(agent.ToolContent, map[string]string{"document_id": e.ids["pdfminer-README.md"]}), call(agent.ToolContent, map[string]string{"document_id": memo})),
			text("supplies [c0]"), // the last allowed turn, without tools
			text("done"),
		)
		evs, err := e.run(ctx, "what?", "Meeting", agent.Limits{SubMaxSteps: 2})
		if err != nil {
			t.Fatal(err)
		}
		chats := e.oai.RequestsTo(openaitest.PathChat)
		if len(chats) != 4 || chats[1].ToolChoice != "auto" || chats[2].ToolChoice != "none" {
			t.Fatalf("requests %d, tool choices %q %q", len(chats), chats[1].ToolChoice, chats[2].ToolChoice)
		}
		var toolMsgs []string
		for _, m := range chats[2].Messages {
			if m.Role == ai.RoleTool {
				toolMsgs = append(toolMsgs, m.Content)
			}
		}
		if len(toolMsgs) != 2 || !strings.Contains(toolMsgs[0], "you read only document "+memo) || !strings.Contains(toolMsgs[1], "bottles") {
			t.Errorf("sub-agent tool results %q", toolMsgs)
		}
		if res := results(evs); len(res) != 1 || !strings.Contains(res[0].Summary, "(1 evidence)") {
			t.Errorf("results %+v", res)
		}
	})
	t.Run("sub-agent tokens", func(t *testing.T) {
		e.oai.Reset()
		memo := e.ids["unstructured-fake-memo.pdf"]
		e.oai.Enqueue(
			calls(call(agent.ToolInvestigate, map[string]string{"document_id": memo, "investigation_query": "what?"})),
			calls(call(agent.ToolContent, map[string]string{"document_id": memo})),
			text("supplies [c0]"),
			text("done"),
		)
		if _, err := e.run(ctx, "what?", "Meeting", agent.Limits{SubMaxTokens: 1}); err != nil {
			t.Fatal(err)
		}
		chats := e.oai.RequestsTo(openaitest.PathChat)
		if len(chats) != 4 || chats[1].ToolChoice != "auto" || chats[2].ToolChoice != "none" {
			t.Fatalf("requests %d", len(chats))
		}
		if read := chats[2].Messages[len(chats[2].Messages)-1].Content; !strings.Contains(read, "[c0]") {
			t.Errorf("document as read: %q", read)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		e.oai.Reset()
		e.oai.Enqueue(list, openaitest.Reply{Path: openaitest.PathChat, Delay: time.Hour, Content: "late"})
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var evs []agent.Event
		_, err := e.d.Agent(cctx, AgentRequest{Question: "what?", Folder: "Meeting", Emit: func(ev agent.Event) error {
			evs = append(evs, ev)
			if ev.Type == agent.TypeToolResult {
				cancel()
			}
			return nil
		}})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want context.Canceled", err)
		}
		if slices.Contains(types(evs), agent.TypeDone) {
			t.Error("a cancelled run sent done")
		}
	})
}

func TestAgentOfflineSQLite(t *testing.T)   { testAgentOffline(t, false) }
func TestAgentOfflinePostgres(t *testing.T) { testAgentOffline(t, true) }

// The offline plan runs the seed's tools in order over the folder and
// answers with an extract of evidence from the folder's files.
func testAgentOffline(t *testing.T, pg bool) {
	e := newAgentEnv(t, pg, false)
	ctx := context.Background()
	up, err := e.d.UploadDocument(ctx, UploadRequest{Filename: "log.md", Body: strings.NewReader("# Delivery log\n\nThe water bottles arrived by truck on Monday."), Tags: []string{"Meeting"}})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := e.run(ctx, "How many bottles of water were delivered?", "Meeting", agent.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	done := last(t, evs)
	var tools []string
	var evidence []agent.Evidence
	for _, ev := range evs {
		switch ev.Type {
		case agent.TypeToolCall:
			tools = append(tools, ev.Tool)
		case agent.TypeEvidence:
			evidence = append(evidence, *ev.Evidence)
		}
	}
	if len(tools) < 5 || tools[0] != agent.ToolDiscoverAgenda || tools[1] != agent.ToolListAttachments || tools[2] != agent.ToolListDocuments || !slices.Contains(tools, agent.ToolInvestigate) || !slices.Contains(tools, agent.ToolSearchEvidence) {
		t.Errorf("tools %v", tools)
	}
	if !done.Extractive || done.Provider != "offline" || !strings.Contains(done.Answer, "20,000 bottles") {
		t.Errorf("done %+v", done)
	}
	inFolder := map[string]bool{e.ids["unstructured-fake-memo.pdf"]: true, e.ids["unstructured-fake-text.txt"]: true, e.ids["agenda.md"]: true, up.ID: true}
	fromUpload := false
	for _, ev := range evidence {
		fromUpload = fromUpload || ev.FileID == up.ID
	}
	if !fromUpload {
		t.Errorf("the attachment was not investigated: %+v", evidence)
	}
	if len(evidence) == 0 || evidence[0].FileID != e.ids["unstructured-fake-memo.pdf"] {
		t.Errorf("evidence %+v", evidence)
	}
	for _, ev := range evidence {
		if !inFolder[ev.FileID] || !strings.HasPrefix(ev.ChunkID, ev.FileID+"#") {
			t.Errorf("evidence outside the folder: %+v", ev)
		}
	}
	// Same question, same events.
	again, err := e.run(ctx, "How many bottles of water were delivered?", "Meeting", agent.Limits{})
	if err != nil || last(t, again).ResultID != done.ResultID || len(again) != len(evs) {
		t.Errorf("the offline run is not deterministic: %v", err)
	}
	// An unknown folder is a usage error naming the closest ones.
	var fe *search.FolderError
	if _, err := e.run(ctx, "q", "Nope", agent.Limits{}); !errors.Is(err, apperr.Usage) || !errors.As(err, &fe) || !slices.Contains(fe.Closest, "Meeting") {
		t.Errorf("unknown folder: %v", err)
	}
	// The folder in another case is the folder.
	if _, err := e.run(ctx, "How many bottles of water were delivered?", "meeting", agent.Limits{}); err != nil {
		t.Errorf("folder in lower case: %v", err)
	}
	if _, err := e.run(ctx, " ", "Meeting", agent.Limits{}); !errors.Is(err, apperr.Usage) {
		t.Errorf("no question: %v", err)
	}
}

// A file added after the crawl is listed as not indexed and read from the
// original; documents uploaded with the folder's tag are its attachments.
func TestAgentNotIndexedAndAttachments(t *testing.T) {
	e := newAgentEnv(t, false, true)
	ctx := context.Background()
	late := "Minutes of the meeting. The committee approved the budget of 5 million yen for relief supplies."
	if err := os.WriteFile(filepath.Join(e.root, "Meeting", "late-minutes.txt"), []byte(late), 0o644); err != nil {
		t.Fatal(err)
	}
	up, err := e.d.UploadDocument(ctx, UploadRequest{Filename: "schedule.md", Body: strings.NewReader("# Schedule\n\nThe next meeting is on 3 March."), Tags: []string{"Meeting"}})
	if err != nil {
		t.Fatal(err)
	}
	e.oai.Reset() // the upload's summary
	lateID := crawlID(t, e.root, filepath.Join("Meeting", "late-minutes.txt"))
	e.oai.Enqueue(
		calls(call(agent.ToolDiscoverAgenda, map[string]string{"folder": "Meeting"}), call(agent.ToolListAttachments, map[string]string{"folder": "Meeting"})),
		calls(call(agent.ToolInvestigate, map[string]string{"document_id": lateID, "investigation_query": "what was approved?"}),
			call(agent.ToolReadAttachment, map[string]string{"document_id": up.ID})),
		calls(call(agent.ToolContent, map[string]string{"document_id": lateID})),
		text("The budget was approved [c0]."),
		text("The committee approved the budget [E1]; the next meeting is on 3 March."),
	)
	evs, err := e.run(ctx, "What did the committee approve?", "Meeting", agent.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	done := last(t, evs)
	res := results(evs)
	if len(res) != 4 || !strings.Contains(res[0].Summary, "2 structure") || !strings.Contains(res[1].Summary, "attachments found: 1") || res[2].Error || res[3].Error {
		t.Fatalf("results %+v", res)
	}
	chats := e.oai.RequestsTo(openaitest.PathChat)
	if len(chats) != 5 {
		t.Fatalf("%d chat requests", len(chats))
	}
	var toolMsgs []string
	for _, m := range chats[1].Messages {
		if m.Role == ai.RoleTool {
			toolMsgs = append(toolMsgs, m.Content)
		}
	}
	if len(toolMsgs) != 2 || !strings.Contains(toolMsgs[0], `"status":"not_indexed"`) || !strings.Contains(toolMsgs[1], up.ID) {
		t.Errorf("listings sent to the model: %q", toolMsgs)
	}
	if !strings.Contains(chats[3].Messages[len(chats[3].Messages)-1].Content, "5 million yen") {
		t.Error("the sub-agent did not read the original file")
	}
	if got := chats[4].Messages[len(chats[4].Messages)-1].Content; !strings.Contains(got, "3 March") {
		t.Errorf("read_attachment result %q", got)
	}
	var first *agent.Evidence
	for _, ev := range evs {
		if ev.Type == agent.TypeEvidence {
			first = ev.Evidence
			break
		}
	}
	if first == nil || first.Name != "late-minutes.txt" || first.ChunkID != lateID+"#0" || !strings.Contains(first.Text, "5 million yen") || done.StoppedBy != "" {
		t.Errorf("evidence %+v, done %+v", first, done)
	}
	// An attachment is not a document of the folder, and a folder's file is not an attachment.
	e.oai.Enqueue(calls(call(agent.ToolReadAttachment, map[string]string{"document_id": e.ids["agenda.md"]}), call(agent.ToolSummary, map[string]string{"document_id": up.ID})), text("ok"))
	evs, err = e.run(ctx, "q", "Other", agent.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if res := results(evs); len(res) != 2 || !res[0].Error || !res[1].Error {
		t.Errorf("out-of-scope reads: %+v", res)
	}
}

// crawlID is the ID a local crawl of root gives the file at rel.
func crawlID(t *testing.T, root, rel string) string {
	t.Helper()
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	return crawl.LocalID(abs, rel)
}

// Without --folder, an index of several Drive target folders is a usage
// error naming them; one folder of it works.
func TestAgentNeedsAFolderOfSeveral(t *testing.T) {
	d := New(Options{Config: loadConfig(t, map[string]string{config.EnvAIProvider: config.ProviderOffline, config.EnvDriveFolderIDs: "f1,f2"}), IO: iostreams.IOStreams{Lang: i18n.En}})
	ctx := context.Background()
	prov, err := d.Provider()
	if err != nil {
		t.Fatal(err)
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	em := prov.EmbeddingModel(context.Background())
	if err := st.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: em.Name, Dim: em.Dim}); err != nil {
		t.Fatal(err)
	}
	for i, folder := range []string{"Alpha", "Beta/Sub"} {
		text := []string{"The alpha budget is 7 million yen.", "The beta plan starts in May."}[i]
		vecs, err := prov.Embed(ctx, []string{text, text})
		if err != nil {
			t.Fatal(err)
		}
		f := store.File{ID: "drive-" + folder, Name: "notes.txt", Path: folder, Source: "drive", MimeType: "text/plain", Embedding: vecs[0], Text: text, ModifiedAt: time.Now().UTC()}
		if err := st.UpsertFile(ctx, f, []store.Chunk{{Ordinal: 0, Text: text, Embedding: vecs[1]}}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	_, err = d.Agent(ctx, AgentRequest{Question: "budget?"})
	var le *apperr.Localized
	if !errors.Is(err, apperr.Usage) || !errors.As(err, &le) || !strings.Contains(le.Message(i18n.En), "Alpha, Beta") {
		t.Fatalf("no folder: %v", err)
	}
	res, err := d.Agent(ctx, AgentRequest{Question: "What is the alpha budget?", Folder: "Alpha"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evidence) == 0 || res.Evidence[0].FileID != "drive-Alpha" || !strings.Contains(res.Done.Answer, "7 million") {
		t.Errorf("result %+v", res)
	}
	for _, e := range res.Evidence {
		if e.FileID != "drive-Alpha" {
			t.Errorf("evidence outside the folder: %+v", e)
		}
	}
}
