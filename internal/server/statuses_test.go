package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/server"
)

func TestEveryErrorStatusSQLite(t *testing.T)   { testEveryErrorStatus(t, false) }
func TestEveryErrorStatusPostgres(t *testing.T) { testEveryErrorStatus(t, true) }

// Every error status of the API on one store, each a problem+json body
// with its status, a detail and a code, and no stack or internals: 400;
// 404, also for a path no route has (the root route is no catch-all); 405
// with Allow for a route's path with another method; 413; 422; 401 on a
// server with a token (no bearer, a wrong one); and 503 from /health when
// the store fails.
func testEveryErrorStatus(t *testing.T, pg bool) {
	cfg := envConfig(t, pg)
	e := startEnv(t, cfg, server.Options{Token: "tok-123", MaxUpload: 1 << 20})
	auth := []string{"Authorization", "Bearer tok-123"}
	doc := e.upload2(auth, "memo.txt", []byte("The archive moves to the third floor in May."))

	big := bytes.Repeat([]byte("a"), 2<<20)
	for _, c := range []struct {
		name   string
		method string
		path   string
		file   string // upload this file name (multipart) instead of body
		data   []byte
		body   string
		hdr    []string
		status int
		allow  string
	}{
		{name: "unsupported upload", method: "POST", path: "/api/v1/documents/upload", file: "tool.exe", data: []byte("MZ\x90\x00"), hdr: auth, status: 400},
		{name: "malformed JSON", method: "POST", path: "/api/v1/search", body: `{"query":`, hdr: auth, status: 400},
		{name: "missing document", method: "GET", path: "/api/v1/documents/no-such-id", hdr: auth, status: 404},
		{name: "delete a missing document", method: "DELETE", path: "/api/v1/documents/no-such-id", hdr: auth, status: 404},
		{name: "unknown path", method: "GET", path: "/api/v1/nothing", hdr: auth, status: 404},
		{name: "unknown path outside /api/", method: "GET", path: "/nothing.html", status: 404},
		{name: "unknown path, POST", method: "POST", path: "/api/v1/nothing", body: `{}`, hdr: auth, status: 404},
		{name: "GET on a POST route", method: "GET", path: "/api/v1/search", hdr: auth, status: 405, allow: "POST"},
		{name: "DELETE on /health", method: "DELETE", path: "/health", status: 405, allow: "GET"},
		{name: "PUT on a document", method: "PUT", path: "/api/v1/documents/" + doc, hdr: auth, status: 405, allow: "GET, DELETE"},
		{name: "upload over the limit", method: "POST", path: "/api/v1/documents/upload", file: "big.txt", data: big, hdr: auth, status: 413},
		{name: "JSON body over the limit", method: "POST", path: "/api/v1/chat", body: `{"question":"` + strings.Repeat("q", server.MaxJSONBody) + `"}`, hdr: auth, status: 413},
		{name: "upload without a file", method: "POST", path: "/api/v1/documents/upload", file: "-", hdr: auth, status: 422},
		{name: "empty query", method: "POST", path: "/api/v1/search", body: `{"query":""}`, hdr: auth, status: 422},
		{name: "top_k over 100", method: "POST", path: "/api/v1/search", body: `{"query":"x","top_k":101}`, hdr: auth, status: 422},
		{name: "threshold over 1", method: "POST", path: "/api/v1/chat", body: `{"question":"x","score_threshold":1.5}`, hdr: auth, status: 422},
		{name: "per_page over 100", method: "GET", path: "/api/v1/documents?per_page=101", hdr: auth, status: 422},
		{name: "no bearer", method: "GET", path: "/api/v1/documents", status: 401},
		{name: "wrong bearer", method: "POST", path: "/api/v1/search", body: `{"query":"x"}`, hdr: []string{"Authorization", "Bearer tok-124"}, status: 401},
		{name: "no bearer on delete", method: "DELETE", path: "/api/v1/documents/" + doc, status: 401},
		{name: "no bearer on the stream", method: "POST", path: "/api/v1/chat/stream", body: `{"question":"x"}`, status: 401},
	} {
		var resp *http.Response
		var b []byte
		switch {
		case c.file == "-":
			ct, body := multipartBody(t, "x.txt", nil)
			body.Reset()
			body.WriteString("--" + strings.TrimPrefix(ct, "multipart/form-data; boundary=") + "--\r\n")
			resp, b = e.do(c.method, c.path, ct, body, c.hdr...)
		case c.file != "":
			ct, body := multipartBody(t, c.file, c.data)
			resp, b = e.do(c.method, c.path, ct, body, c.hdr...)
		default:
			resp, b = e.do(c.method, c.path, "application/json", strings.NewReader(c.body), c.hdr...)
		}
		checkProblem(t, c.name, resp, b, c.status)
		if got := resp.Header.Get("Allow"); got != c.allow {
			t.Errorf("%s: Allow %q, want %q", c.name, got, c.allow)
		}
		if c.status == 401 && resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: 401 without WWW-Authenticate", c.name)
		}
	}
	// The token guards /api/ only; the document is still there.
	e.json("GET", "/health", nil, 200, nil)
	e.json("GET", "/api/v1/documents/"+doc, nil, 200, nil, auth...)

	// 503: /health really checks the store.
	st, err := app.OpenStore(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	e.d.ShareStore(st)
	resp, b := e.do("GET", "/health", "", nil)
	var health struct {
		Status     string            `json:"status"`
		Components map[string]string `json:"components"`
	}
	if err := json.Unmarshal(b, &health); err != nil || resp.StatusCode != 503 || health.Status != "unhealthy" ||
		!strings.HasPrefix(health.Components["database"], "error") || health.Components["ai"] != "ok" {
		t.Fatalf("health with a closed store: %d %s", resp.StatusCode, b)
	}
}

// upload2 uploads with extra headers and returns the new document's ID.
func (e *env) upload2(hdr []string, name string, content []byte) string {
	e.t.Helper()
	ct, body := multipartBody(e.t, name, content)
	resp, b := e.do("POST", "/api/v1/documents/upload", ct, body, hdr...)
	if resp.StatusCode != http.StatusCreated {
		e.t.Fatalf("upload %s: %d %s", name, resp.StatusCode, b)
	}
	var d docBody
	json.Unmarshal(b, &d)
	return d.ID
}

// checkProblem asserts an error response is a problem+json body of status.
func checkProblem(t *testing.T, name string, resp *http.Response, b []byte, status int) {
	t.Helper()
	var p problem
	if resp.StatusCode != status {
		t.Errorf("%s: status %d, want %d: %.300s", name, resp.StatusCode, status, b)
		return
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), apperr.ProblemContentType) {
		t.Errorf("%s: content type %q, want problem+json", name, resp.Header.Get("Content-Type"))
	}
	if err := json.Unmarshal(b, &p); err != nil || p.Status != status || p.Detail == "" || p.Code == "" {
		t.Errorf("%s: problem %.300s", name, b)
	}
	for _, leak := range []string{"goroutine", ".go:", "tok-123", "panic"} {
		if strings.Contains(string(b), leak) {
			t.Errorf("%s: the body carries %q: %.300s", name, leak, b)
		}
	}
}
