package server_test

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/server"
)

// crawlFolders crawls a local source with Reports/, Reports/2024/ and
// Minutes/ into e's index, and returns the source folder.
func crawlFolders(t *testing.T, e *env) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"Reports/estimate.txt": "Engine repair estimate for the pump station. The cost is 4500 dollars.",
		"Reports/2024/q1.md":   "Quarterly report 2024: revenue grew by a third.",
		"Minutes/m1.txt":       "Meeting minutes: agenda items, budget approval for the pump station.",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.d.Crawl(context.Background(), app.CrawlRequest{Source: "local:" + root}); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestFoldersAndChatFolderSQLite(t *testing.T)   { testFoldersAndChatFolder(t, false) }
func TestFoldersAndChatFolderPostgres(t *testing.T) { testFoldersAndChatFolder(t, true) }

// GET /api/v1/folders lists the folders with their document counts; a
// chat's folder scopes the answer (case-insensitively) and an unknown one
// is a 404 naming the closest folders, in /chat and /chat/stream alike.
func testFoldersAndChatFolder(t *testing.T, pg bool) {
	e := newEnv(t, pg, server.Options{})
	var empty struct {
		Items []map[string]any `json:"items"`
		Total int              `json:"total"`
	}
	e.json("GET", "/api/v1/folders", nil, 200, &empty)
	if empty.Total != 0 || empty.Items == nil {
		t.Fatalf("folders of an empty index = %+v, want [] and 0", empty)
	}
	root := crawlFolders(t, e)
	e.upload("note.txt", []byte("an uploaded note about pumps"), 201)
	var list struct {
		Items []struct {
			Name          string `json:"name"`
			Path          string `json:"path"`
			Source        string `json:"source"`
			SourceLabel   string `json:"source_label"`
			DocumentCount int    `json:"document_count"`
		} `json:"items"`
		Total int `json:"total"`
	}
	e.json("GET", "/api/v1/folders", nil, 200, &list)
	var got []string
	for _, f := range list.Items {
		got = append(got, f.Name+"|"+f.Path+"|"+f.Source+"|"+strconv.Itoa(f.DocumentCount))
		if !strings.HasPrefix(f.SourceLabel, "Local folder ") {
			t.Errorf("folder %s: source_label %q", f.Path, f.SourceLabel)
		}
	}
	if strings.Join(got, " ") != "Minutes|Minutes|local|1 Reports|Reports|local|2 2024|Reports/2024|local|1" || list.Total != 3 {
		t.Fatalf("folders = %v (total %d)", got, list.Total)
	}
	var ja struct {
		Items []struct {
			SourceLabel string `json:"source_label"`
		} `json:"items"`
	}
	e.json("GET", "/api/v1/folders", nil, 200, &ja, "Accept-Language", "ja")
	if !strings.HasPrefix(ja.Items[0].SourceLabel, "ローカルフォルダ ") {
		t.Errorf("Japanese source label %q", ja.Items[0].SourceLabel)
	}

	type chatOut struct {
		Answer  string `json:"answer"`
		Sources []struct {
			Filename string `json:"filename"`
		} `json:"sources"`
	}
	var c chatOut
	e.json("POST", "/api/v1/chat", map[string]any{"question": "pump station", "folder": "minutes"}, 200, &c)
	if len(c.Sources) == 0 {
		t.Fatalf("chat in minutes: no sources: %+v", c)
	}
	for _, s := range c.Sources {
		if s.Filename != "m1.txt" {
			t.Errorf("chat in folder minutes cites %s", s.Filename)
		}
	}
	e.json("POST", "/api/v1/chat", map[string]any{"question": "pump station"}, 200, &c)
	if len(c.Sources) < 2 {
		t.Errorf("chat without a folder cites %d sources, want the estimate and the minutes", len(c.Sources))
	}
	// A folder as the CLI takes it: the source folder's name or local
	// path, a path inside it, a local: spec — in any case.
	for _, typed := range []string{"reports/2024", filepath.Base(root) + "/REPORTS/2024", filepath.Join(root, "Reports", "2024"), "local:" + filepath.Join(root, "reports", "2024")} {
		c = chatOut{}
		e.json("POST", "/api/v1/chat", map[string]any{"question": "quarterly report revenue pump", "folder": typed}, 200, &c)
		if len(c.Sources) == 0 {
			t.Errorf("chat in %q: no sources", typed)
		}
		for _, s := range c.Sources {
			if s.Filename != "q1.md" {
				t.Errorf("chat in %q cites %s", typed, s.Filename)
			}
		}
	}
	var p struct {
		problem
		Hint           string   `json:"hint"`
		ClosestFolders []string `json:"closest_folders"`
	}
	e.json("POST", "/api/v1/chat", map[string]any{"question": "pump station", "folder": "Reprots"}, 404, &p)
	if p.Code != "not_found" || !strings.Contains(p.Detail, `"Reprots"`) || !strings.Contains(p.Detail, `"Reports"`) ||
		len(p.ClosestFolders) == 0 || p.ClosestFolders[0] != "Reports" || !strings.Contains(p.Hint, "Minutes") || strings.Contains(p.Detail+p.Hint, root) {
		t.Errorf("unknown folder: %+v", p)
	}
	e.json("POST", "/api/v1/chat", map[string]any{"question": "pump station", "folder": "Nope"}, 404, &p, "Accept-Language", "ja")
	if !strings.Contains(p.Detail, "近いフォルダ") || !strings.Contains(p.Detail, `"Reports"`) {
		t.Errorf("unknown folder (ja): %+v", p)
	}
	resp, b := e.do("POST", "/api/v1/chat/stream", "application/json", strings.NewReader(`{"question":"pump","folder":"Nope"}`))
	if resp.StatusCode != 404 || !strings.Contains(string(b), `\"Reports\"`) {
		t.Errorf("stream, unknown folder: %d %s", resp.StatusCode, b)
	}
	resp, b = e.do("POST", "/api/v1/chat/stream", "application/json", strings.NewReader(`{"question":"pump station","folder":"Reports/2024"}`))
	if resp.StatusCode != 200 {
		t.Fatalf("stream in Reports/2024: %d %s", resp.StatusCode, b)
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"filename":`) && !strings.Contains(sc.Text(), `"filename":"q1.md"`) {
			t.Errorf("stream in Reports/2024 cites another file: %s", sc.Text())
		}
	}
}

// HTTP messages speak of the API, never of the CLI's commands and flags;
// a body that is not JSON is a 400 naming the position; tags may be a JSON
// array; an upload's title and tags find it.
func TestHTTPWording(t *testing.T) {
	e := newEnv(t, false, server.Options{})
	var p problem
	e.json("POST", "/api/v1/chat", map[string]any{"question": "anything"}, 409, &p)
	if !strings.Contains(p.Detail, "upload") || strings.Contains(p.Detail, "gds crawl") {
		t.Errorf("empty index: %+v", p)
	}
	resp, b := e.do("POST", "/api/v1/chat", "application/json", strings.NewReader(`{"question": nope}`))
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "line 1, column 15") || strings.Contains(string(b), "invalid character") {
		t.Errorf("bad JSON: %d %s", resp.StatusCode, b)
	}
	resp, b = e.do("POST", "/api/v1/search", "application/json", strings.NewReader("{\n  \"query\": \"x\",\n}"), "Accept-Language", "ja")
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "3 行 1 列") {
		t.Errorf("bad JSON (ja): %d %s", resp.StatusCode, b)
	}

	doc := e.upload("pump.txt", []byte("a list of spare parts for the pump"), 201, "title", "修理見積", "tags", `["見積書","2025 budget"]`)
	if strings.Join(doc.Tags, "|") != "見積書|2025 budget" {
		t.Errorf("tags from a JSON array = %q", doc.Tags)
	}
	ct, body := multipartBody(t, "x.txt", []byte("x"), "tags", `["a",`)
	if resp, b := e.do("POST", "/api/v1/documents/upload", ct, body); resp.StatusCode != 400 || !strings.Contains(string(b), "JSON array") {
		t.Errorf("bad tags JSON: %d %s", resp.StatusCode, b)
	}
	for _, q := range []string{"修理見積", "見積書"} {
		res, err := e.d.Search(context.Background(), app.SearchRequest{Query: q})
		if err != nil {
			t.Fatalf("search %s: %v", q, err)
		}
		found := false
		for _, r := range res.Outcome.Results {
			found = found || r.File.ID == doc.ID
		}
		if !found {
			t.Errorf("search %q does not find the upload titled 修理見積 tagged 見積書", q)
		}
	}
	var sr struct {
		Results []struct {
			DocumentID string `json:"document_id"`
		} `json:"results"`
	}
	e.json("POST", "/api/v1/search", map[string]any{"query": "spare parts"}, 200, &sr)
	if len(sr.Results) == 0 || sr.Results[0].DocumentID != doc.ID {
		t.Errorf("chunk search for the upload: %+v", sr)
	}
	var d struct {
		Source      string `json:"source"`
		SourceLabel string `json:"source_label"`
	}
	e.json("GET", "/api/v1/documents/"+doc.ID, nil, 200, &d)
	if d.Source != "upload" || d.SourceLabel != "Uploaded" {
		t.Errorf("upload's source = %+v", d)
	}
	var c struct {
		Answer string `json:"answer"`
	}
	e.json("POST", "/api/v1/chat", map[string]any{"question": "zzzz qqqq", "score_threshold": 1}, 200, &c)
	if !strings.Contains(c.Answer, "score_threshold") || strings.Contains(c.Answer, "--") {
		t.Errorf("no passage over the threshold: %q", c.Answer)
	}
}
