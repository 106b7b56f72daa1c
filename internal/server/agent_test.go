package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/server"
)

type namedFrame struct {
	Event string
	Data  map[string]any
}

// readNamedSSE reads frames of "event: NAME" and "data: JSON" lines
// separated by blank lines.
func readNamedSSE(t *testing.T, r io.Reader) []namedFrame {
	t.Helper()
	var out []namedFrame
	var cur namedFrame
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Event == "" || cur.Data == nil {
				t.Fatalf("incomplete frame %+v", cur)
			}
			out = append(out, cur)
			cur = namedFrame{}
		case strings.HasPrefix(line, "event: "):
			cur.Event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &cur.Data); err != nil {
				t.Fatalf("data %q: %v", line, err)
			}
		default:
			t.Fatalf("unexpected line %q", line)
		}
	}
	if cur.Event != "" {
		t.Fatalf("unterminated frame %+v", cur)
	}
	return out
}

func TestAgentStreamSQLite(t *testing.T)   { testAgentStream(t, false) }
func TestAgentStreamPostgres(t *testing.T) { testAgentStream(t, true) }

// mode "agentic" streams the agent's events as named SSE frames.
func testAgentStream(t *testing.T, pg bool) {
	e := newEnv(t, pg, server.Options{})
	root := t.TempDir()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "realdocs", "unstructured-fake-memo.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "Meeting"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "Meeting", "memo.pdf"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.d.Crawl(context.Background(), app.CrawlRequest{Source: "local:" + root}); err != nil {
		t.Fatal(err)
	}
	post := func(body string) *http.Response {
		req, _ := http.NewRequest("POST", e.url+"/api/v1/chat/stream", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	resp := post(`{"question":"How many blankets were delivered?","mode":"agentic","folder":"Meeting"}`)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	frames := readNamedSSE(t, resp.Body)
	seen := map[string]int{}
	for i, f := range frames {
		if f.Data["type"] != f.Event {
			t.Errorf("frame %d: event %q carries type %v", i, f.Event, f.Data["type"])
		}
		seen[f.Event]++
	}
	if len(frames) == 0 || frames[0].Event != "tool_call" || frames[len(frames)-1].Event != "done" || seen["done"] != 1 {
		t.Fatalf("frames %v", seen)
	}
	if seen["tool_result"] != seen["tool_call"] || seen["chunk"] == 0 || seen["evidence"] == 0 {
		t.Errorf("frames %v", seen)
	}
	done := frames[len(frames)-1].Data
	if !strings.Contains(done["answer"].(string), "10,000 blankets") || done["extractive"] != true || done["result_id"] == "" {
		t.Errorf("done %v", done)
	}
	for _, f := range frames {
		if f.Event == "evidence" {
			ev := f.Data["evidence"].(map[string]any)
			if ev["name"] != "memo.pdf" || !strings.HasPrefix(ev["chunk_id"].(string), ev["file_id"].(string)+"#") {
				t.Errorf("evidence %v", ev)
			}
		}
	}
	// Errors before the first event are problem+json responses.
	if r := post(`{"question":"q","mode":"agentic","folder":"Nope"}`); r.StatusCode != 404 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/problem+json") {
		t.Errorf("unknown folder: %d %s", r.StatusCode, r.Header.Get("Content-Type"))
	}
	if r := post(`{"question":"q","mode":"graph"}`); r.StatusCode != 422 {
		t.Errorf("unknown mode: %d", r.StatusCode)
	}
	var p map[string]any
	e.json("POST", "/api/v1/chat", map[string]any{"question": "q", "mode": "agentic"}, 400, &p)
}
