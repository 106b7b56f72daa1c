package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/server"
	"github.com/gds-cli/gds/internal/store/storetest"
)

const realPDF = "../../testdata/realdocs/markitdown-autogen-page.pdf"

type env struct {
	t   *testing.T
	url string
	d   *app.Deps
	cfg *config.Config
}

// newEnv starts a server on a fresh gds home with the offline provider:
// SQLite, or Postgres when pg is set and GDS_TEST_DATABASE_URL is.
func newEnv(t *testing.T, pg bool, opts server.Options) *env {
	t.Helper()
	return startEnv(t, envConfig(t, pg), opts)
}

// envConfig is the configuration of a fresh gds home (see newEnv).
func envConfig(t *testing.T, pg bool) *config.Config {
	t.Helper()
	home := t.TempDir()
	vars := map[string]string{"GDS_HOME": home, "GDS_AI_PROVIDER": "offline"}
	if pg {
		url := os.Getenv("GDS_TEST_DATABASE_URL")
		if url == "" {
			t.Skip("GDS_TEST_DATABASE_URL is not set")
		}
		vars["DATABASE_URL"] = url
		vars["GDS_DB_SCHEMA"] = storetest.FreshSchema(t, url, "serve")
	}
	cfg, err := config.Load(config.LoadOptions{LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, HomeDir: home})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// startEnv starts a server (its own Deps and store connection) on cfg;
// several may share one configuration, as processes share a database.
func startEnv(t *testing.T, cfg *config.Config, opts server.Options) *env {
	t.Helper()
	d := app.New(app.Options{Config: cfg})
	st, err := d.OpenStore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	d.ShareStore(st)
	opts.UploadDir = cfg.UploadDir
	ts := httptest.NewServer(server.New(d, opts).Handler())
	t.Cleanup(ts.Close)
	return &env{t: t, url: ts.URL, d: d, cfg: cfg}
}

func (e *env) do(method, path, ctype string, body io.Reader, hdr ...string) (*http.Response, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.url+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func (e *env) json(method, path string, body any, want int, out any, hdr ...string) {
	e.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	resp, b := e.do(method, path, "application/json", r, hdr...)
	if resp.StatusCode != want {
		e.t.Fatalf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, b)
	}
	if want >= 400 && !strings.HasPrefix(resp.Header.Get("Content-Type"), apperr.ProblemContentType) {
		e.t.Fatalf("%s %s: error content type %q, want problem+json", method, path, resp.Header.Get("Content-Type"))
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s %s: %v: %s", method, path, err, b)
		}
	}
}

func multipartBody(t *testing.T, name string, content []byte, fields ...string) (string, *bytes.Buffer) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, err := w.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(content)
	for i := 0; i+1 < len(fields); i += 2 {
		w.WriteField(fields[i], fields[i+1])
	}
	w.Close()
	return w.FormDataContentType(), &buf
}

type problem struct {
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Code   string `json:"code"`
}

type docBody struct {
	ID         string   `json:"id"`
	Filename   string   `json:"filename"`
	Title      string   `json:"title"`
	FilePath   string   `json:"file_path"`
	MimeType   string   `json:"mime_type"`
	Tags       []string `json:"tags"`
	Status     string   `json:"status"`
	ChunkCount int      `json:"chunk_count"`
	Chunks     []struct {
		Content    string `json:"content"`
		PageNumber *int   `json:"page_number"`
	} `json:"chunks"`
}

func (e *env) upload(name string, content []byte, want int, fields ...string) docBody {
	e.t.Helper()
	ct, body := multipartBody(e.t, name, content, fields...)
	resp, b := e.do("POST", "/api/v1/documents/upload", ct, body)
	if resp.StatusCode != want {
		e.t.Fatalf("upload %s: status %d, want %d: %s", name, resp.StatusCode, want, b)
	}
	var d docBody
	json.Unmarshal(b, &d)
	return d
}

func TestAPISQLite(t *testing.T)   { testAPI(t, false) }
func TestAPIPostgres(t *testing.T) { testAPI(t, true) }

func testAPI(t *testing.T, pg bool) {
	e := newEnv(t, pg, server.Options{Version: "1.2.3", MaxUpload: 1 << 20})
	var root map[string]string
	e.json("GET", "/", nil, 200, &root)
	if root["version"] != "1.2.3" || root["docs"] != "/docs" || root["message"] == "" {
		t.Fatalf("GET / = %v", root)
	}
	var health struct {
		Status     string            `json:"status"`
		Components map[string]string `json:"components"`
	}
	e.json("GET", "/health", nil, 200, &health)
	if health.Status != "healthy" || health.Components["database"] != "ok" {
		t.Fatalf("health = %+v", health)
	}

	pdf, err := os.ReadFile(realPDF)
	if err != nil {
		t.Fatal(err)
	}
	doc := e.upload("../../etc/passwd/規程.pdf", pdf, 201, "title", "就業規則", "tags", "hr,rules")
	if doc.Status != "indexed" || doc.ChunkCount == 0 || doc.Title != "就業規則" || doc.Filename != "規程.pdf" ||
		doc.MimeType != "application/pdf" || strings.Join(doc.Tags, ",") != "hr,rules" || doc.FilePath != doc.ID+".pdf" {
		t.Fatalf("upload = %+v", doc)
	}
	if _, err := os.Stat(filepath.Join(e.cfg.UploadDir, doc.FilePath)); err != nil {
		t.Fatalf("stored file: %v", err)
	}
	other := e.upload("notes.md", []byte("# Notes\n\nThe quarterly budget review is on Friday."), 201, "tags", "eng")

	// Unsupported by name, by content, and over the size limit.
	var p problem
	ct, body := multipartBody(t, "x.exe", []byte("MZ\x90\x00"))
	resp, b := e.do("POST", "/api/v1/documents/upload", ct, body)
	json.Unmarshal(b, &p)
	if resp.StatusCode != 400 || p.Detail != "unsupported file type: x.exe" {
		t.Fatalf("exe upload: %d %s", resp.StatusCode, b)
	}
	ct, body = multipartBody(t, "fake.pdf", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	if resp, b := e.do("POST", "/api/v1/documents/upload", ct, body); resp.StatusCode != 400 {
		t.Fatalf("PNG named .pdf: %d %s", resp.StatusCode, b)
	}
	ct, body = multipartBody(t, "big.txt", bytes.Repeat([]byte("a"), 3<<20))
	if resp, b := e.do("POST", "/api/v1/documents/upload", ct, body); resp.StatusCode != 413 {
		t.Fatalf("big upload: %d %s", resp.StatusCode, b)
	}
	entries, _ := os.ReadDir(e.cfg.UploadDir)
	if len(entries) != 2 {
		t.Fatalf("upload dir holds %d files, want 2 (refused uploads leave nothing)", len(entries))
	}

	var list struct {
		Items   []docBody `json:"items"`
		Total   int       `json:"total"`
		Page    int       `json:"page"`
		PerPage int       `json:"per_page"`
	}
	e.json("GET", "/api/v1/documents", nil, 200, &list)
	if list.Total != 2 || list.Page != 1 || list.PerPage != 20 || len(list.Items) != 2 {
		t.Fatalf("list = %+v", list)
	}
	e.json("GET", "/api/v1/documents?tag=hr", nil, 200, &list)
	if list.Total != 1 || list.Items[0].ID != doc.ID {
		t.Fatalf("list tag=hr = %+v", list)
	}
	e.json("GET", "/api/v1/documents?per_page=0", nil, 422, nil)

	var detail docBody
	e.json("GET", "/api/v1/documents/"+doc.ID, nil, 200, &detail)
	if len(detail.Chunks) != doc.ChunkCount || detail.Chunks[0].PageNumber == nil || *detail.Chunks[0].PageNumber != 1 {
		t.Fatalf("detail: %d chunks (want %d), first %+v", len(detail.Chunks), doc.ChunkCount, detail.Chunks[0])
	}
	e.json("GET", "/api/v1/documents/nope", nil, 404, &p)
	if p.Detail != "document not found" {
		t.Fatalf("404 detail %q", p.Detail)
	}
	e.json("GET", "/api/v1/documents/nope", nil, 404, &p, "Accept-Language", "ja,en;q=0.5")
	if p.Detail != "ドキュメントが見つかりません" {
		t.Fatalf("404 detail in Japanese %q", p.Detail)
	}

	type searchResp struct {
		Results []struct {
			DocumentID string   `json:"document_id"`
			Content    string   `json:"content"`
			Score      float64  `json:"score"`
			Missing    []string `json:"missing"`
			Metadata   struct {
				Filename string   `json:"filename"`
				Title    string   `json:"title"`
				Tags     []string `json:"tags"`
			} `json:"metadata"`
		} `json:"results"`
		Total     int    `json:"total"`
		Query     string `json:"query"`
		Unmatched []struct {
			Word       string `json:"word"`
			Suggestion string `json:"suggestion"`
		} `json:"unmatched"`
		Corrected *struct {
			Query   string `json:"query"`
			Instead string `json:"instead"`
			Message string `json:"message"`
		} `json:"corrected"`
		Partial *struct {
			Words   []string `json:"words"`
			Message string   `json:"message"`
		} `json:"partial"`
	}
	var sr searchResp
	sr = searchResp{}
	e.json("POST", "/api/v1/search", map[string]any{"query": "quarterly budget review"}, 200, &sr)
	if sr.Total == 0 || sr.Results[0].DocumentID != other.ID || sr.Results[0].Metadata.Tags[0] != "eng" || sr.Unmatched == nil || len(sr.Unmatched) != 0 {
		t.Fatalf("search = %+v", sr)
	}
	if sr.Corrected != nil || sr.Partial != nil || sr.Results[0].Missing == nil || len(sr.Results[0].Missing) != 0 {
		t.Fatalf("a clean search says it was corrected or weak, or its best result misses a word: %+v", sr)
	}
	// A word no indexed file contains is named, and left out of the search.
	sr = searchResp{}
	e.json("POST", "/api/v1/search", map[string]any{"query": "quarterly zqxjvw budget"}, 200, &sr)
	if len(sr.Unmatched) != 1 || sr.Unmatched[0].Word != "zqxjvw" || sr.Unmatched[0].Suggestion != "" || sr.Total == 0 || sr.Corrected != nil {
		t.Fatalf("search with an unknown word = %+v", sr)
	}
	// Did you mean: a typo is searched as the index's word, with the way back.
	sr = searchResp{}
	e.json("POST", "/api/v1/search", map[string]any{"query": "quartelry budget"}, 200, &sr)
	if len(sr.Unmatched) != 1 || sr.Unmatched[0].Word != "quartelry" || sr.Unmatched[0].Suggestion != "quarterly" ||
		sr.Corrected == nil || sr.Corrected.Query != "quarterly budget" || sr.Corrected.Instead != `"quartelry" budget` ||
		!strings.Contains(sr.Corrected.Message, "quarterly budget") || !strings.Contains(sr.Corrected.Message, `"quartelry"`) ||
		sr.Total == 0 || sr.Results[0].DocumentID != other.ID || len(sr.Results[0].Missing) != 0 {
		t.Fatalf("search with a typo = %+v", sr)
	}
	instead, english := sr.Corrected.Instead, sr.Corrected.Message
	// The way back searches the word as typed: named, not corrected.
	sr = searchResp{}
	e.json("POST", "/api/v1/search", map[string]any{"query": instead}, 200, &sr)
	if len(sr.Unmatched) != 1 || sr.Unmatched[0].Suggestion != "" || sr.Corrected != nil {
		t.Fatalf("the way back = %+v", sr)
	}
	// In the request's language.
	sr = searchResp{}
	e.json("POST", "/api/v1/search", map[string]any{"query": "quartelry budget"}, 200, &sr, "Accept-Language", "ja")
	if sr.Corrected == nil || !strings.Contains(sr.Corrected.Message, "quarterly budget") || sr.Corrected.Message == english {
		t.Fatalf("corrected in Japanese = %+v", sr.Corrected)
	}
	// Nothing the index holds: nothing found, the words named.
	sr = searchResp{}
	e.json("POST", "/api/v1/search", map[string]any{"query": "zqxjvw qwzzyx"}, 200, &sr)
	if sr.Total != 0 || len(sr.Results) != 0 || len(sr.Unmatched) != 2 {
		t.Fatalf("search of words no file holds = %+v", sr)
	}
	// A weak match: the best documents each lack the rare words; every
	// result names what its document misses.
	sr = searchResp{}
	e.json("POST", "/api/v1/search", map[string]any{"query": "quarterly budget AutoGen agents"}, 200, &sr)
	if sr.Partial == nil || len(sr.Partial.Words) == 0 || !strings.HasPrefix(sr.Partial.Message, "Weak match") || sr.Total == 0 {
		t.Fatalf("a weak match = %+v", sr)
	}
	for _, r := range sr.Results {
		if r.Missing == nil {
			t.Fatalf("result without missing: %+v", sr)
		}
	}
	sr = searchResp{}
	e.json("POST", "/api/v1/search", map[string]any{"query": "quarterly budget review", "filter": map[string]any{"tags": []string{"hr"}}}, 200, &sr)
	for _, r := range sr.Results {
		if r.DocumentID != doc.ID {
			t.Fatalf("tag filter let %s through", r.DocumentID)
		}
	}
	e.json("POST", "/api/v1/search", map[string]any{"query": "x", "top_k": 101}, 422, &p)
	e.json("POST", "/api/v1/search", map[string]any{"query": ""}, 422, nil)
	e.json("POST", "/api/v1/search", map[string]any{"query": "x", "score_threshold": 1.5}, 422, nil)
	if resp, b := e.do("POST", "/api/v1/search", "application/json", strings.NewReader("{not json")); resp.StatusCode != 400 && resp.StatusCode != 422 {
		t.Fatalf("bad JSON: %d %s", resp.StatusCode, b)
	}

	var chat struct {
		Answer   string `json:"answer"`
		Question string `json:"question"`
		Sources  []struct {
			DocumentID string `json:"document_id"`
			Title      string `json:"title"`
		} `json:"sources"`
	}
	e.json("POST", "/api/v1/chat", map[string]any{"question": "When is the quarterly budget review?",
		"chat_history": []map[string]string{{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}}}, 200, &chat)
	if chat.Answer == "" || chat.Question == "" || len(chat.Sources) == 0 || chat.Sources[0].DocumentID != other.ID {
		t.Fatalf("chat = %+v", chat)
	}
	e.json("POST", "/api/v1/chat", map[string]any{"question": "x", "top_k": 21}, 422, nil)

	// Delete: 204, then 404; the stored file is gone and search no longer finds it.
	resp, b = e.do("DELETE", "/api/v1/documents/"+other.ID, "", nil)
	if resp.StatusCode != 204 {
		t.Fatalf("delete: %d %s", resp.StatusCode, b)
	}
	e.json("DELETE", "/api/v1/documents/"+other.ID, nil, 404, nil)
	e.json("GET", "/api/v1/documents/"+other.ID, nil, 404, nil)
	if _, err := os.Stat(filepath.Join(e.cfg.UploadDir, other.FilePath)); !os.IsNotExist(err) {
		t.Fatalf("stored file after delete: %v", err)
	}
	sr = searchResp{}
	e.json("POST", "/api/v1/search", map[string]any{"query": "quarterly budget review"}, 200, &sr)
	for _, r := range sr.Results {
		if r.DocumentID == other.ID {
			t.Fatal("a deleted document is still found")
		}
	}

	// The OpenAPI document is generated and describes the endpoints.
	var oapi struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	e.json("GET", "/openapi.json", nil, 200, &oapi)
	for _, p := range []string{"/", "/health", "/api/v1/search", "/api/v1/chat", "/api/v1/chat/stream", "/api/v1/documents", "/api/v1/documents/upload", "/api/v1/documents/{document_id}"} {
		if oapi.Paths[p] == nil {
			t.Errorf("openapi.json lacks %s", p)
		}
	}
	if !strings.HasPrefix(oapi.OpenAPI, "3.1") {
		t.Errorf("openapi %q", oapi.OpenAPI)
	}

	// An uploaded document is in the same index as the CLI's.
	srcs, err := e.d.Retrieve(context.Background(), app.RetrieveRequest{Query: "markitdown"})
	if err != nil || len(srcs) == 0 || srcs[0].FileID != doc.ID {
		t.Fatalf("app.Retrieve after upload: %v, %+v", err, srcs)
	}
}

// readSSE reads the frames of a stream as a client does.
func readSSE(t *testing.T, r io.Reader) []map[string]any {
	t.Helper()
	var frames []map[string]any
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("unexpected line %q", line)
		}
		var f map[string]any
		if err := json.Unmarshal([]byte(data), &f); err != nil {
			t.Fatalf("frame %q: %v", data, err)
		}
		frames = append(frames, f)
	}
	return frames
}

func TestChatStreamAndConcurrency(t *testing.T) {
	e := newEnv(t, false, server.Options{})
	e.upload("notes.md", []byte("# Notes\n\nThe quarterly budget review is on Friday. The office closes at six."), 201)
	stream := func() []map[string]any {
		req, _ := http.NewRequest("POST", e.url+"/api/v1/chat/stream", strings.NewReader(`{"question":"When is the budget review?"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return nil
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Errorf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		return readSSE(t, resp.Body)
	}
	frames := stream()
	if len(frames) < 2 {
		t.Fatalf("%d frames, want text frames and a last one", len(frames))
	}
	var text strings.Builder
	for _, f := range frames[:len(frames)-1] {
		if f["done"] != false || f["sources"] != nil {
			t.Fatalf("text frame %v", f)
		}
		text.WriteString(f["content"].(string))
	}
	last := frames[len(frames)-1]
	if last["done"] != true || last["content"] != "" || len(last["sources"].([]any)) == 0 {
		t.Fatalf("last frame %v", last)
	}
	if !strings.Contains(text.String(), "Friday") {
		t.Fatalf("streamed answer %q lacks the fact", text.String())
	}

	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() { defer wg.Done(); stream() }()
		go func() {
			defer wg.Done()
			ct, body := multipartBody(t, fmt.Sprintf("n%d.txt", i), []byte(fmt.Sprintf("document number %d about concurrency", i)))
			req, _ := http.NewRequest("POST", e.url+"/api/v1/documents/upload", body)
			req.Header.Set("Content-Type", ct)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != 201 {
				t.Errorf("concurrent upload %d: %d", i, resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	var list struct{ Total int }
	e.json("GET", "/api/v1/documents", nil, 200, &list)
	if list.Total != 9 {
		t.Fatalf("%d documents after concurrent uploads, want 9", list.Total)
	}
}

func TestTokenCORSAndAddr(t *testing.T) {
	e := newEnv(t, false, server.Options{Token: "s3cret", CORSOrigin: "https://ui.example"})
	var p problem
	e.json("POST", "/api/v1/search", map[string]any{"query": "x"}, 401, &p)
	e.json("GET", "/api/v1/documents", nil, 401, nil, "Authorization", "Bearer wrong")
	e.json("GET", "/api/v1/documents", nil, 200, nil, "Authorization", "Bearer s3cret")
	e.json("GET", "/health", nil, 200, nil) // outside /api/
	resp, _ := e.do("OPTIONS", "/api/v1/search", "", nil, "Origin", "https://ui.example", "Access-Control-Request-Method", "POST")
	if resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Origin") != "https://ui.example" {
		t.Fatalf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	resp, _ = e.do("GET", "/", "", nil, "Origin", "https://evil.example")
	if resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatal("another origin got CORS headers")
	}
	for addr, ok := range map[string]bool{"127.0.0.1:8000": true, "localhost:1": true, "[::1]:8000": true, "0.0.0.0:8000": false, ":8000": false, "192.168.1.2:80": false} {
		err := server.CheckAddr(addr, "")
		if (err == nil) != ok {
			t.Errorf("CheckAddr(%q, no token) = %v", addr, err)
		}
		if err := server.CheckAddr(addr, "t0ken-of-16-chars"); err != nil {
			t.Errorf("CheckAddr(%q, token) = %v", addr, err)
		}
	}
}

func TestHealthBrokenStore(t *testing.T) {
	e := newEnv(t, false, server.Options{})
	st, err := app.OpenStore(context.Background(), e.cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Close() // a store whose database is gone
	e.d.ShareStore(st)
	var health struct {
		Status     string            `json:"status"`
		Components map[string]string `json:"components"`
	}
	resp, b := e.do("GET", "/health", "", nil)
	json.Unmarshal(b, &health)
	if resp.StatusCode != 503 || health.Status != "unhealthy" || !strings.HasPrefix(health.Components["database"], "error") || health.Components["ai"] != "ok" {
		t.Fatalf("health with a closed store: %d %s", resp.StatusCode, b)
	}
}

func TestPanicIsA500Problem(t *testing.T) {
	e := newEnv(t, false, server.Options{})
	e.d.Provider = func() (ai.Provider, error) { panic("secret-in-panic") }
	resp, b := e.do("POST", "/api/v1/search", "application/json", strings.NewReader(`{"query":"x"}`))
	if resp.StatusCode != 500 || strings.Contains(string(b), "secret") || strings.Contains(string(b), "goroutine") {
		t.Fatalf("panic: %d %s", resp.StatusCode, b)
	}
}
