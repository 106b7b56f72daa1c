package mcphost_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/federate"
	"github.com/gds-cli/gds/internal/federate/mcphost"
	"github.com/gds-cli/gds/internal/federate/mockserver"
)

// The test binary doubles as the mock servers: run with
// GDS_TEST_MOCK_KIND set it serves that mock on stdio and exits, so every
// server below is a real subprocess on a real stdio pipe.
func TestMain(m *testing.M) {
	if kind := os.Getenv("GDS_TEST_MOCK_KIND"); kind != "" {
		if err := mockserver.Run(context.Background(), kind); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func mockCommand(kind string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GDS_TEST_MOCK_KIND="+kind)
	return cmd
}

func defaults(t *testing.T) map[string]federate.Server {
	t.Helper()
	c, err := federate.ParseConfig([]byte(federate.DefaultConfigYAML))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]federate.Server{}
	for _, s := range c.Servers {
		out[s.Name] = s
	}
	return out
}

var fixedNow = func() time.Time { return time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC) }

func noEnv(string) (string, bool) { return "", false }

// hangGuard bounds a test that could hang if the code under test is wrong.
func hangGuard(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// The three default services with their mocks (--mock): per-service
// results, the right fetch tool per kind (GitHub issues through
// issue_read with their comments, Slack threads through
// conversations_replies, Drive files through get_file), host-built links,
// and a --debug trace that masks e-mail addresses and user IDs.
func TestMockServicesEndToEnd(t *testing.T) {
	ctx := hangGuard(t)
	d := defaults(t)
	var trace bytes.Buffer
	tr := mcphost.NewTrace(&syncWriter{w: &trace}, fixedNow)
	h := mcphost.Start(ctx, federate.Config{Servers: []federate.Server{d["drive"], d["slack"], d["github"]}},
		mcphost.Options{ForceMock: true, MockCommand: mockCommand, Lookup: noEnv, Trace: tr})
	defer h.Close()
	r := &federate.Runner{Endpoints: h.Endpoints(), AI: offline.New(), Lang: "en", Now: fixedNow, Trace: tr}
	res, err := r.Run(ctx, "Alpha ingestion outage Postgres disk")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Services) != 3 || len(res.Sources) == 0 || len(res.Sources) > federate.MaxTotal {
		t.Fatalf("result %+v", res)
	}
	for _, s := range res.Services {
		if s.Status != federate.StatusOK || len(s.Results) == 0 || len(s.Results) > federate.PerService {
			t.Errorf("%s: %+v", s.Server, s)
		}
		for _, hit := range s.Results {
			if hit.Body == "" || hit.BodyWarning != "" {
				t.Errorf("%s: %q not read: %s", s.Server, hit.Title, hit.BodyWarning)
			}
		}
	}
	gh := res.Services[2].Results[0]
	if gh.Kind != federate.HitIssue || gh.URL != "https://github.com/acme/alpha/issues/42" || !strings.Contains(gh.Body, "alert at 80% disk usage") {
		t.Errorf("github hit %+v body %q", gh, gh.Body)
	}
	sl := res.Services[1].Results[0]
	if !strings.HasPrefix(sl.URL, "https://example.slack.com/archives/incidents/p") || !strings.Contains(sl.Body, "WAL cleanup") {
		t.Errorf("slack hit %+v body %q (the thread's reply expected)", sl, sl.Body)
	}
	dr := res.Services[0].Results[0]
	if dr.URL != "https://docs.google.com/document/d/1IncidentPostmort/edit" || !strings.Contains(dr.Body, "WAL archiving") {
		t.Errorf("drive hit %+v body %q", dr, dr.Body)
	}
	if !res.Extractive || res.Summary == "" {
		t.Errorf("summary %q", res.Summary)
	}

	lines := strings.Split(strings.TrimSpace(trace.String()), "\n")
	calls := 0
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Fatalf("trace line is not JSON: %s", l)
		}
		if strings.Contains(l, `"tools/call"`) {
			calls++
		}
	}
	if calls < 6 || !strings.Contains(trace.String(), `"llm_request"`) {
		t.Errorf("trace has %d tool calls (searches and reads expected), llm entries: %v", calls, strings.Contains(trace.String(), "llm_request"))
	}
	for _, leak := range []string{"carol@example.com", "U04CAROL03", "U04ALICE01"} {
		if strings.Contains(trace.String(), leak) {
			t.Errorf("trace leaks %q", leak)
		}
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// A server that crashes, one that answers 429 and one that hangs: each is
// skipped with a warning while a healthy one answers; the crashed server
// is restarted by its watcher and answers the next question.
func TestFailingServers(t *testing.T) {
	ctx := hangGuard(t)
	d := defaults(t)
	t.Setenv("GDS_MOCK_CRASH_ONCE", filepath.Join(t.TempDir(), "crashed"))
	hang := d["drive"]
	hang.Mock, hang.Timeout = "hang", time.Second // the hang never answers: any bound ends it
	crash := d["slack"]
	crash.Mock = "crash"
	limited := d["github"]
	limited.Mock = "ratelimit"
	healthy := d["drive"]
	healthy.Name = "docs"
	h := mcphost.Start(ctx, federate.Config{Servers: []federate.Server{hang, crash, limited, healthy}},
		mcphost.Options{ForceMock: true, MockCommand: mockCommand, Lookup: noEnv})
	defer h.Close()
	slackProc := h.Procs()[1]
	pid := slackProc.PID()
	r := &federate.Runner{Endpoints: h.Endpoints(), AI: offline.New(), Lang: "en", Now: fixedNow}
	res, err := r.Run(ctx, "Alpha design review")
	if err != nil {
		t.Fatal(err)
	}
	want := []federate.Status{federate.StatusTimeout, federate.StatusFailed, federate.StatusRateLimited, federate.StatusOK}
	for i, s := range res.Services {
		if s.Status != want[i] {
			t.Errorf("%s: %s (%s), want %s", s.Server, s.Status, s.Warning, want[i])
		}
		if want[i] != federate.StatusOK && (s.Warning == "" || len(s.Results) != 0) {
			t.Errorf("%s: %+v", s.Server, s)
		}
	}
	if len(res.Sources) == 0 || res.Sources[0].Server != "docs" || len(res.Warnings) != 3 {
		t.Errorf("sources %+v warnings %q", res.Sources, res.Warnings)
	}
	if !strings.Contains(res.Services[2].Warning, "429") {
		t.Errorf("429 warning %q", res.Services[2].Warning)
	}

	// The watcher restarts the crashed server.
	for slackProc.Restarts() == 0 || slackProc.PID() == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("the crashed server was not restarted")
		case <-time.After(20 * time.Millisecond):
		}
	}
	if slackProc.PID() == pid {
		t.Errorf("same process %d after the restart", pid)
	}
	res, err = r.Run(ctx, "Alpha design review")
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Services[1]; s.Status != federate.StatusOK || len(s.Results) == 0 {
		t.Errorf("after the restart: %+v", s)
	}
}

// A missing token: a warning and the mock, without --mock; a server that
// cannot start leaves the others answering.
func TestMissingTokenUsesTheMock(t *testing.T) {
	ctx := hangGuard(t)
	d := defaults(t)
	broken := federate.Server{Name: "broken", Kind: federate.KindFiles, Command: filepath.Join(t.TempDir(), "no-such-server"),
		Search: federate.SearchSpec{Tool: "search_files", QueryArg: "pattern", Format: federate.FormatPaths}}
	h := mcphost.Start(ctx, federate.Config{Servers: []federate.Server{d["slack"], broken}},
		mcphost.Options{MockCommand: mockCommand, Lookup: noEnv})
	defer h.Close()
	eps := h.Endpoints()
	if !h.Procs()[0].Mock() || !strings.Contains(eps[0].Warning, "SLACK_MCP_XOXP_TOKEN is not set") {
		t.Errorf("slack endpoint %+v", eps[0])
	}
	r := &federate.Runner{Endpoints: eps, AI: offline.New(), Lang: "en", Now: fixedNow}
	res, err := r.Run(ctx, "Alpha design review")
	if err != nil {
		t.Fatal(err)
	}
	if res.Services[0].Status != federate.StatusOK || res.Services[1].Status != federate.StatusUnavailable {
		t.Errorf("services %+v", res.Services)
	}
}

// A body that cannot be read: the snippet is used and the source warns.
func TestFetchErrorKeepsTheSnippet(t *testing.T) {
	ctx := hangGuard(t)
	d := defaults(t)
	gh := d["github"]
	gh.Mock = "github-fetcherror"
	h := mcphost.Start(ctx, federate.Config{Servers: []federate.Server{gh}}, mcphost.Options{ForceMock: true, MockCommand: mockCommand, Lookup: noEnv})
	defer h.Close()
	r := &federate.Runner{Endpoints: h.Endpoints(), AI: offline.New(), Lang: "en", Now: fixedNow}
	res, err := r.Run(ctx, "Alpha retention")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sources) == 0 || res.Sources[0].Warning == "" || res.Summary == "" {
		t.Errorf("result %+v", res)
	}
}

// A real third-party server no one here wrote, as a fourth service:
// @modelcontextprotocol/server-filesystem (installed by
// scripts/mcp-servers.sh; GDS_TEST_MCP_FILESYSTEM names its entry point).
func TestFilesystemServerAsFourthService(t *testing.T) {
	entry := os.Getenv("GDS_TEST_MCP_FILESYSTEM")
	if entry == "" {
		if p, err := filepath.Abs(filepath.Join("..", "..", "..", "scripts", "mcp-servers", "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")); err == nil {
			if _, err := os.Stat(p); err == nil {
				entry = p
			}
		}
	}
	if entry == "" {
		t.Skip("the filesystem MCP server is not installed: run `bash scripts/mcp-servers.sh install` (scripts/test.sh does)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	ctx := hangGuard(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "alpha"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"alpha/retention-notes.md": "Retention of raw Alpha events: 30 days, decided at the design review.",
		"beta-budget.txt":          "Beta budget.",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := defaults(t)
	notes := federate.Server{Name: "notes", Kind: federate.KindFiles, Command: "node", Args: []string{entry, dir},
		Search: federate.SearchSpec{Tool: "search_files", QueryArg: "pattern", Args: map[string]any{"path": dir}, Format: federate.FormatPaths},
		Fetch:  map[string]federate.FetchSpec{"file": {Tool: "read_text_file", Args: map[string]any{"path": "{path}"}}}}
	drive := d["drive"]
	drive.Command = "" // gds mcp needs an index: its mock here
	h := mcphost.Start(ctx, federate.Config{Servers: []federate.Server{drive, d["slack"], d["github"], notes}},
		mcphost.Options{MockCommand: mockCommand, Lookup: func(k string) (string, bool) {
			if k == "PATH" || k == "HOME" {
				return os.LookupEnv(k)
			}
			return "", false
		}})
	defer h.Close()
	for _, p := range h.Procs()[:3] {
		if !p.Mock() {
			t.Fatalf("%s is not mocked", p.Name())
		}
	}
	r := &federate.Runner{Endpoints: h.Endpoints(), AI: offline.New(), Lang: "en", Now: fixedNow}
	res, err := r.Run(ctx, "retention")
	if err != nil {
		t.Fatal(err)
	}
	n := res.Services[3]
	if n.Status != federate.StatusOK || len(n.Results) != 1 || n.Query != "**/*retention*" {
		t.Fatalf("notes: %+v", n)
	}
	hit := n.Results[0]
	if hit.URL != "file://"+filepath.Join(dir, "alpha", "retention-notes.md") || !strings.Contains(hit.Body, "30 days") {
		t.Errorf("notes hit %+v body %q", hit, hit.Body)
	}
	if len(res.Sources) > federate.MaxTotal {
		t.Errorf("%d sources", len(res.Sources))
	}
}

// The real servers with real tokens (only when asked for
// and when the tokens are there; skipped, saying so, otherwise).
// ALLOW_REAL=1 with SLACK_MCP_XOXP_TOKEN (npx fetches slack-mcp-server)
// and/or GITHUB_PERSONAL_ACCESS_TOKEN (github-mcp-server on PATH);
// GDS_REAL_QUESTION is the question (default "onboarding").
func TestRealServices(t *testing.T) {
	if os.Getenv("ALLOW_REAL") != "1" {
		t.Skip("real-token test: set ALLOW_REAL=1 and SLACK_MCP_XOXP_TOKEN and/or GITHUB_PERSONAL_ACCESS_TOKEN to run it")
	}
	d := defaults(t)
	var servers []federate.Server
	for _, name := range []string{"slack", "github"} {
		s := d[name]
		if v := os.Getenv(s.Tokens[0]); v == "" {
			t.Logf("%s: %s is not set: not tested", name, s.Tokens[0])
			continue
		}
		if _, err := exec.LookPath(s.Command); err != nil {
			t.Logf("%s: %s is not on PATH: not tested", name, s.Command)
			continue
		}
		s.Mock = "" // a real answer or a failure, never the mock
		servers = append(servers, s)
	}
	if len(servers) == 0 {
		t.Skip("real-token test: no service has both its token and its server; skipped")
	}
	ctx := hangGuard(t)
	h := mcphost.Start(ctx, federate.Config{Servers: servers}, mcphost.Options{})
	defer h.Close()
	q := os.Getenv("GDS_REAL_QUESTION")
	if q == "" {
		q = "onboarding"
	}
	r := &federate.Runner{Endpoints: h.Endpoints(), AI: offline.New(), Lang: "en"}
	res, err := r.Run(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range res.Services {
		if h.Procs()[i].Mock() || (s.Status != federate.StatusOK && s.Status != federate.StatusNoHits) {
			t.Errorf("%s: %+v", s.Server, s)
		}
		t.Logf("%s: %s, %d found, query %q", s.Server, s.Status, s.Found, s.Query)
	}
	for _, s := range res.Sources {
		if !strings.HasPrefix(s.URL, "https://") {
			t.Errorf("source without a link: %+v", s)
		}
	}
}

// One question over the three mock servers kept running (the REPL), and
// the same question starting and stopping the servers each time (a fresh
// process per question). Report the ratio of the two ns/op figures.
func BenchmarkQuestionServersRunning(b *testing.B) {
	ctx := context.Background()
	c := benchConfig(b)
	h := mcphost.Start(ctx, c, mcphost.Options{ForceMock: true, MockCommand: mockCommand, Lookup: noEnv})
	defer h.Close()
	r := &federate.Runner{Endpoints: h.Endpoints(), AI: offline.New(), Lang: "en", Now: fixedNow}
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Run(ctx, "Alpha ingestion outage"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkQuestionServersStarted(b *testing.B) {
	ctx := context.Background()
	c := benchConfig(b)
	for b.Loop() {
		h := mcphost.Start(ctx, c, mcphost.Options{ForceMock: true, MockCommand: mockCommand, Lookup: noEnv})
		r := &federate.Runner{Endpoints: h.Endpoints(), AI: offline.New(), Lang: "en", Now: fixedNow}
		if _, err := r.Run(ctx, "Alpha ingestion outage"); err != nil {
			b.Fatal(err)
		}
		h.Close()
	}
}

func benchConfig(b *testing.B) federate.Config {
	c, err := federate.ParseConfig([]byte(federate.DefaultConfigYAML))
	if err != nil {
		b.Fatal(err)
	}
	return c
}
