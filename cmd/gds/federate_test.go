package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// federateDoc is the part of `gds federate --json` the tests read.
type federateDoc struct {
	Question string `json:"question"`
	Queries  []struct {
		Server, Query, By string
	} `json:"queries"`
	Services []struct {
		Server  string `json:"server"`
		Status  string `json:"status"`
		Mock    bool   `json:"mock"`
		Results []struct {
			Kind, Title, URL string
		} `json:"results"`
	} `json:"services"`
	Summary    string `json:"summary"`
	Extractive bool   `json:"extractive"`
	Sources    []struct {
		N           int
		Server, URL string
	} `json:"sources"`
}

func federateCmd(bin, home string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, append([]string{"federate"}, args...)...)
	cmd.Env = append(append(os.Environ(), "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "DATABASE_URL=", "SUPABASE_DB_URL=", "LANG=C",
		"SLACK_MCP_XOXP_TOKEN=", "GITHUB_PERSONAL_ACCESS_TOKEN=", "ALLOW_REAL="), env...)
	return cmd
}

// gds federate --mock --json on a fresh install: the mock servers come
// from the binary itself; per-service results (≤ 3 each, ≤ 9 in all), the
// generated queries, an extractive summary labelled as such, and numbered
// sources with the services' links. ALLOW_REAL=0 does what --mock does;
// --debug writes a JSON Lines trace in the gds home; --init-config writes
// servers.yaml once.
func TestFederateMockJSON(t *testing.T) {
	bin := gdsBinary(t)
	home := t.TempDir()
	out, err := federateCmd(bin, home, nil, "--mock", "--json", "--debug", "Alpha ingestion outage").Output()
	if err != nil {
		t.Fatalf("federate: %v\n%s", err, out)
	}
	var doc federateDoc
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc.Queries) != 3 || len(doc.Services) != 3 || !doc.Extractive || doc.Summary == "" || len(doc.Sources) == 0 || len(doc.Sources) > 9 {
		t.Fatalf("doc %+v", doc)
	}
	for i, s := range doc.Services {
		if s.Status != "ok" || !s.Mock || len(s.Results) == 0 || len(s.Results) > 3 || doc.Queries[i].Query == "" {
			t.Errorf("%s: %+v query %+v", s.Server, s, doc.Queries[i])
		}
	}
	for i, s := range doc.Sources {
		if s.N != i+1 || !strings.HasPrefix(s.URL, "https://") {
			t.Errorf("source %+v", s)
		}
	}
	trace, err := os.ReadFile(filepath.Join(home, "federate-trace.jsonl"))
	if err != nil || !strings.Contains(string(trace), `"tools/call"`) || strings.Contains(string(trace), "carol@example.com") {
		t.Errorf("trace (%v): %.300s", err, trace)
	}

	// ALLOW_REAL=0 without --mock; the text form shows sources and queries.
	cmd := federateCmd(bin, home, []string{"ALLOW_REAL=0"}, "Alpha design document")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	text, err := cmd.Output()
	if err != nil {
		t.Fatalf("text: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"## Sources", "[1] ", "https://docs.google.com/document/d/", "## Queries", "drive (mock):", "(offline: an extractive summary"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
	for _, want := range []string{"Searching slack", "github: ", "Reading "} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, stderr.String())
		}
	}

	// --init-config writes the commented servers.yaml once.
	if out, err := federateCmd(bin, home, nil, "--init-config").CombinedOutput(); err != nil {
		t.Fatalf("init-config: %v\n%s", err, out)
	}
	y, err := os.ReadFile(filepath.Join(home, "servers.yaml"))
	if err != nil || !strings.Contains(string(y), "SLACK_MCP_XOXP_TOKEN") || !strings.Contains(string(y), "# ") {
		t.Errorf("servers.yaml: %v\n%s", err, y)
	}
	err = federateCmd(bin, home, nil, "--init-config").Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitUsage {
		t.Errorf("second --init-config: %v", err)
	}
	// No question with --json, and an unknown mock: usage errors.
	for _, args := range [][]string{{"--json"}, {"mock-server", "jira"}} {
		err := federateCmd(bin, home, nil, args...).Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitUsage {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// On a terminal without a question, gds federate is a prompt in one
// process: the servers start once and answer every question (the --debug
// trace shows one session opening per server for two questions); Ctrl-C
// at the prompt only prints a hint; Ctrl-D ends it.
func TestFederateREPLKeepsServersRunning(t *testing.T) {
	bin := gdsBinary(t)
	home := t.TempDir()
	s := startPTYEnv(t, bin, home, "C", []string{"SLACK_MCP_XOXP_TOKEN=", "GITHUB_PERSONAL_ACCESS_TOKEN=", "ALLOW_REAL="}, "federate", "--mock", "--debug")
	s.expect(`federate> `)
	s.send("Alpha design document\n")
	s.expect(`## Sources[\s\S]*docs\.google\.com[\s\S]*## Queries[\s\S]*federate> `)
	s.send("\x03") // Ctrl-C at the prompt: a hint, not the end
	s.expect(`press Ctrl-C again[\s\S]*federate> `)
	s.send("Alpha ingestion outage\n")
	s.expect(`## Sources[\s\S]*github\.com/acme/alpha/issues/42[\s\S]*federate> `)
	s.send("\x04")
	if code := s.exit(); code != exitOK {
		t.Fatalf("exit %d\n%s", code, s.screen())
	}
	trace, err := os.ReadFile(filepath.Join(home, "federate-trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// The session's opening request: server/discover (protocol 2026-07-28) or initialize.
	if n := strings.Count(string(trace), `"method":"server/discover"`) + strings.Count(string(trace), `"method":"initialize"`); n != 3 {
		t.Errorf("%d session openings for two questions, want 3 (one per server)", n)
	}
	if strings.Count(string(trace), `"method":"tools/call"`) < 12 {
		t.Errorf("too few tool calls in the trace for two questions")
	}
}

// Drive is gds itself: without --mock and without tokens, the drive
// service is this binary's `gds mcp` over the index of testdata/realdocs
// (Slack and GitHub fall back to their mocks with a warning each), and the
// right file comes back with its body read through get_file.
func TestFederateDriveIsGDSItself(t *testing.T) {
	bin := gdsBinary(t)
	home := t.TempDir()
	if out, err := crawlCmd(bin, home, copyRealDocs(t)).CombinedOutput(); err != nil {
		t.Fatalf("crawl: %v\n%s", err, out)
	}
	cmd := federateCmd(bin, home, nil, "--json", "memo bottles of water")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("federate: %v\n%s", err, stderr.String())
	}
	var doc struct {
		federateDoc
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	d := doc.Services[0]
	if d.Server != "drive" || d.Mock || d.Status != "ok" || len(d.Results) == 0 || d.Results[0].Title != "unstructured-fake-memo.pdf" ||
		!strings.HasPrefix(d.Results[0].URL, "file://") {
		t.Fatalf("drive: %+v\nstderr: %s", d, stderr.String())
	}
	if !doc.Services[1].Mock || !doc.Services[2].Mock || len(doc.Warnings) < 2 || !strings.Contains(strings.Join(doc.Warnings, "\n"), "SLACK_MCP_XOXP_TOKEN is not set") {
		t.Errorf("mocks and warnings: %+v %q", doc.Services, doc.Warnings)
	}
	if doc.Sources[0].Server != "drive" || !strings.Contains(doc.Summary, "[1]") {
		t.Errorf("summary %q sources %+v", doc.Summary, doc.Sources)
	}
}
