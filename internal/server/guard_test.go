package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/server"
)

// hostReq sends a request with the Host header host.
func (e *env) hostReq(method, path, host, ctype string, body io.Reader, hdr ...string) (*http.Response, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.url+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Host = host
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

// A request whose Host the server is not known by (a page that rebound its
// name to 127.0.0.1) gets 421 on every path — reading, uploading,
// deleting, /health, the landing page, the UI and its files, a CORS
// preflight — and changes nothing; the same requests by an allowed name
// succeed.
func TestForeignHostRefusedEverywhere(t *testing.T) {
	e := newEnv(t, false, server.Options{AllowHosts: []string{"gds.test"}, CORSOrigin: "http://attacker.example"})
	doc := e.upload("memo.txt", []byte("The archive moves to the third floor in May."), http.StatusCreated)
	port := e.url[strings.LastIndexByte(e.url, ':')+1:]

	type request struct {
		name, method, path string
		upload             bool
		hdr                []string
	}
	requests := []request{
		{name: "health", method: "GET", path: "/health"},
		{name: "root JSON", method: "GET", path: "/"},
		{name: "landing page", method: "GET", path: "/", hdr: []string{"Accept", "text/html"}},
		{name: "web UI", method: "GET", path: "/ui/"},
		{name: "web UI script", method: "GET", path: "/ui/app.js"},
		{name: "API reference", method: "GET", path: "/docs"},
		{name: "OpenAPI", method: "GET", path: "/openapi.json"},
		{name: "list", method: "GET", path: "/api/v1/documents"},
		{name: "get", method: "GET", path: "/api/v1/documents/" + doc.ID},
		{name: "search", method: "POST", path: "/api/v1/search"},
		{name: "upload", method: "POST", path: "/api/v1/documents/upload", upload: true},
		{name: "preflight", method: "OPTIONS", path: "/api/v1/search", hdr: []string{"Origin", "http://attacker.example", "Access-Control-Request-Method", "POST"}},
		{name: "delete", method: "DELETE", path: "/api/v1/documents/" + doc.ID},
	}
	send := func(r request, host string, hdr ...string) (*http.Response, []byte) {
		hdr = append(append([]string{}, r.hdr...), hdr...)
		if r.upload {
			ct, body := multipartBody(t, "new.txt", []byte("A new note about the archive."))
			return e.hostReq(r.method, r.path, host, ct, body, hdr...)
		}
		if r.method == "POST" {
			return e.hostReq(r.method, r.path, host, "application/json", strings.NewReader(`{"query":"archive"}`), hdr...)
		}
		return e.hostReq(r.method, r.path, host, "", nil, hdr...)
	}
	for _, host := range []string{"attacker.example", "attacker.example:" + port, "localhost.attacker.example:" + port, "x.localhost:" + port, "gds.test.attacker.example"} {
		for _, r := range requests {
			resp, b := send(r, host)
			checkProblem(t, r.name+" for Host "+host, resp, b, http.StatusMisdirectedRequest)
			if !strings.Contains(string(b), "--allow-host") || resp.Header.Get("Access-Control-Allow-Origin") != "" {
				t.Errorf("%s for Host %s: %s %v", r.name, host, b, resp.Header)
			}
		}
	}
	// In the client's language.
	resp, b := send(requests[0], "attacker.example", "Accept-Language", "ja")
	if resp.StatusCode != http.StatusMisdirectedRequest || !strings.Contains(string(b), "DNS リバインディング") {
		t.Errorf("Japanese 421: %d %s", resp.StatusCode, b)
	}
	// A huge Host is quoted shortly.
	resp, b = send(requests[0], strings.Repeat("a", 4000)+".example")
	if resp.StatusCode != http.StatusMisdirectedRequest || len(b) > 2048 {
		t.Errorf("huge Host: %d, %d bytes: %.300s", resp.StatusCode, len(b), b)
	}

	// Nothing changed: one document, still there.
	var list struct{ Total int }
	e.json("GET", "/api/v1/documents", nil, http.StatusOK, &list)
	if list.Total != 1 {
		t.Fatalf("%d documents after the refused requests, want 1", list.Total)
	}

	// Allowed names: the bound address, localhost, ::1, a --allow-host name.
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "localhost", "[::1]:" + port, "gds.test:" + port, "GDS.TEST"} {
		for _, r := range requests[:len(requests)-2] { // the preflight and the delete below
			if resp, b := send(r, host); resp.StatusCode/100 != 2 {
				t.Errorf("%s for Host %s: %d %.300s", r.name, host, resp.StatusCode, b)
			}
		}
	}
	if resp, b := send(requests[len(requests)-1], "localhost:"+port); resp.StatusCode != http.StatusNoContent {
		t.Errorf("delete for Host localhost: %d %s", resp.StatusCode, b)
	}
}

// ListenAndServe checks the Host against the address it binds.
func TestListenAndServeChecksHost(t *testing.T) {
	e := newEnv(t, false, server.Options{}) // for its Deps
	srv := server.New(e.d, server.Options{AllowHosts: []string{"gds.test"}, UploadDir: e.cfg.UploadDir})
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- srv.ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addrc <- a }) }()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatalf("ListenAndServe: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not listen within 30 s")
	}
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ListenAndServe: %v", err)
		}
	}()
	le := &env{t: t, url: "http://" + addr.String()}
	for host, want := range map[string]int{addr.String(): 200, "gds.test": 200, "localhost": 200, "attacker.example": 421} {
		if resp, b := le.hostReq("GET", "/health", host, "", nil); resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d: %s", host, resp.StatusCode, want, b)
		}
	}
}

// Tokens that do not protect are refused, with the reason, before the
// server starts; a non-loopback address still needs one.
func TestTokenRule(t *testing.T) {
	good := "0123456789abcdef"
	for _, c := range []struct {
		addr, token string
		want        string // "" = accepted; else a word of the reason
	}{
		{"127.0.0.1:8000", "", ""},
		{"127.0.0.1:8000", good, ""},
		{"0.0.0.0:8000", good, ""},
		{"0.0.0.0:8000", "トークン付きの十六文字以上の秘密の文字列です", ""}, // characters, not bytes
		{"0.0.0.0:8000", "", "--token"},
		{"0.0.0.0:8000", "Z", "1 characters"},
		{"0.0.0.0:8000", " ", "white space"},
		{"0.0.0.0:8000", strings.Repeat(" ", 20), "white space"},
		{"0.0.0.0:8000", "\t\n ", "white space"},
		{"0.0.0.0:8000", "0123456789abcde", "15 characters"},
		{"127.0.0.1:8000", "shorT9", "6 characters"}, // a token given on loopback must protect too
		{"0.0.0.0:8000", " " + good, "white space at an end"},
		{"0.0.0.0:8000", good + "\n", "white space at an end"},
		{"0.0.0.0:8000", "0123456789\x07abcdef", "control character"},
	} {
		err := server.CheckAddr(c.addr, c.token)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckAddr(%q, %q) = %v, want accepted", c.addr, c.token, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || apperr.Classify(err).Exit != apperr.ExitUsage):
			t.Errorf("CheckAddr(%q, %q) = %v, want a usage error saying %q", c.addr, c.token, err, c.want)
		case err != nil && c.token != "" && strings.TrimSpace(c.token) != "" && strings.Contains(err.Error(), strings.TrimSpace(c.token)):
			t.Errorf("CheckAddr(%q, %q) = %v: the message shows the token", c.addr, c.token, err)
		}
	}
	// ListenAndServe applies the same rule (nothing listens).
	e := newEnv(t, false, server.Options{})
	err := server.New(e.d, server.Options{Token: "a"}).ListenAndServe(context.Background(), "0.0.0.0:0", nil)
	if err == nil || apperr.Classify(err).Exit != apperr.ExitUsage {
		t.Fatalf("ListenAndServe with token \"a\" = %v", err)
	}
}

// blockingEmbed is the offline provider whose Embed waits for its
// context: indexing that outlives the upload's time limit.
type blockingEmbed struct{ ai.Provider }

func (p blockingEmbed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	select {
	case <-ctx.Done():
		return nil, fmt.Errorf("embed: %w", ctx.Err())
	case <-time.After(time.Minute):
		return nil, errors.New("the context did not end within a minute")
	}
}

// failingEmbed is the offline provider whose Embed fails with err.
type failingEmbed struct {
	ai.Provider
	err error
}

func (p failingEmbed) Embed(context.Context, []string) ([][]float32, error) { return nil, p.err }

// An upload that cannot be read within the server's limits gets 422 "too
// complex to read safely" — the upload's time limit passing while the
// file is read, or extract.ErrTooComplex from the reader — and leaves
// nothing behind; the limit passing after the file was read (the provider
// is slow) is a 503, not a 500 or a 499.
func TestUploadLimits(t *testing.T) {
	note := []byte("The archive moves to the third floor in May.")
	check := func(name string, opts server.Options, prov ai.Provider, status int, code string, words ...string) {
		t.Helper()
		e := newEnv(t, false, opts)
		if prov != nil {
			e.d.Provider = func() (ai.Provider, error) { return prov, nil }
		}
		ct, body := multipartBody(t, "note.txt", note)
		resp, b := e.do("POST", "/api/v1/documents/upload", ct, body)
		checkProblem(t, name, resp, b, status)
		var p problem
		_ = json.Unmarshal(b, &p)
		if p.Code != code {
			t.Errorf("%s: code %q, want %q", name, p.Code, code)
		}
		for _, w := range words {
			if !strings.Contains(p.Detail, w) {
				t.Errorf("%s: the detail %q lacks %q", name, p.Detail, w)
			}
		}
		var list struct{ Total int }
		e.json("GET", "/api/v1/documents", nil, http.StatusOK, &list)
		entries, _ := os.ReadDir(e.cfg.UploadDir)
		if list.Total != 0 || len(entries) != 0 {
			t.Errorf("%s: %d documents and %d stored files after the refusal, want none", name, list.Total, len(entries))
		}
	}
	check("deadline while reading", server.Options{UploadTimeout: time.Nanosecond}, nil,
		http.StatusUnprocessableEntity, "too_complex", "note.txt", "too complex to read safely", "1ns", "--upload-timeout")
	check("the reader gives up", server.Options{}, failingEmbed{offline.New(), fmt.Errorf("pdf: xref chain over 10000 sections: %w", extract.ErrTooComplex)},
		http.StatusUnprocessableEntity, "too_complex", "note.txt", "too complex to read safely")
	check("deadline while indexing", server.Options{UploadTimeout: 200 * time.Millisecond}, blockingEmbed{offline.New()},
		http.StatusServiceUnavailable, "unavailable", "note.txt", "200ms", "--upload-timeout")
}

// lockedBuffer is a log several requests may write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A 500 names no path of the machine (the upload directory that cannot
// be created is in the server's log, not in the body).
func TestInternalErrorBodyHasNoPath(t *testing.T) {
	log := &lockedBuffer{}
	e := newEnv(t, false, server.Options{Log: log})
	if err := os.RemoveAll(e.cfg.UploadDir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.cfg.UploadDir, []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "ja"} {
		ct, body := multipartBody(t, "note.txt", []byte("a note"))
		resp, b := e.do("POST", "/api/v1/documents/upload", ct, body, "Accept-Language", lang)
		checkProblem(t, "upload into a file", resp, b, http.StatusInternalServerError)
		home, _ := os.UserHomeDir()
		for _, p := range []string{e.cfg.Home, e.cfg.UploadDir, home, os.TempDir(), "not a directory"} {
			if p != "" && strings.Contains(string(b), p) {
				t.Errorf("the 500 body names %q: %s", p, b)
			}
		}
	}
	if !strings.Contains(log.String(), e.cfg.UploadDir) {
		t.Errorf("the server log lacks the failure: %q", log.String())
	}
}

// Error bodies quote at most a short prefix of what the client sent:
// never a large field, a large unknown property name or a large body
// that does not parse, and never twice.
func TestErrorBodiesDoNotEchoTheRequest(t *testing.T) {
	e := newEnv(t, false, server.Options{})
	huge := strings.Repeat("a", 206<<10)
	for _, c := range []struct {
		name   string
		path   string
		body   string
		status int
	}{
		{"query over its length", "/api/v1/search", `{"query":"` + huge + `"}`, 422},
		{"question over its length", "/api/v1/chat", `{"question":"` + huge + `"}`, 422},
		{"history content over its length", "/api/v1/chat", `{"question":"x","chat_history":[{"role":"user","content":"` + huge + `"}]}`, 422},
		{"huge unknown property", "/api/v1/search", `{"query":"x","` + huge + `":1}`, 422},
		{"huge wrong type", "/api/v1/search", `{"query":["` + huge + `"]}`, 422},
		{"huge JSON syntax error", "/api/v1/search", `{"query": ` + huge, 400},
		{"huge JSON syntax error at the end", "/api/v1/search", `{"query":"` + huge + `"`, 400},
	} {
		resp, b := e.do("POST", c.path, "application/json", strings.NewReader(c.body))
		checkProblem(t, c.name, resp, b, c.status)
		if len(b) > 4096 || strings.Contains(string(b), strings.Repeat("a", 100)) {
			t.Errorf("%s: %d bytes, echoing the request: %.400s", c.name, len(b), b)
		}
	}
}
