package server_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/server"
)

// TestWebPages: the UI, /docs and /redoc come from the binary with the
// settings that keep them offline, and GET / links them.
func TestWebPages(t *testing.T) {
	e := newEnv(t, false, server.Options{Version: "9.9.9"})

	// An API client gets JSON with the links; a browser gets a page.
	var root map[string]string
	e.json("GET", "/", nil, 200, &root)
	if root["docs"] != "/docs" || root["redoc"] != "/redoc" || root["ui"] != "/ui/" || root["openapi"] != "/openapi.json" {
		t.Fatalf("GET / = %v", root)
	}
	resp, b := e.do("GET", "/", "", nil, "Accept", "text/html,application/xhtml+xml,*/*;q=0.8", "Accept-Language", "ja")
	page := string(b)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("browser GET /: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{`href="/ui/"`, `href="/docs"`, `href="/redoc"`, `href="/openapi.json"`, `lang="ja"`, "9.9.9", "ドキュメント"} {
		if !strings.Contains(page, want) {
			t.Errorf("landing page lacks %s", want)
		}
	}

	pages := map[string][]string{
		"/docs":           {"/static/vendor/swagger-ui-dist/swagger-ui-bundle.js", "/static/docs.js"},
		"/redoc":          {`<script type="module" src="/static/vendor/redoc/redoc.standalone.js">`, `disable-telemetry="true"`, `spec-url="/openapi.json"`},
		"/ui/":            {`src="app.js"`, `src="i18n.js"`, `type="file"`},
		"/static/docs.js": {"validatorUrl: null", "url: '/openapi.json'"},
	}
	external := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//`)
	for path, wants := range pages {
		resp, b := e.do("GET", path, "", nil)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "connect-src 'self'") || !strings.Contains(csp, "script-src 'self';") {
			t.Errorf("GET %s: policy %q", path, csp)
		}
		for _, want := range wants {
			if !strings.Contains(string(b), want) {
				t.Errorf("GET %s lacks %q", path, want)
			}
		}
		if m := external.FindString(string(b)); m != "" {
			t.Errorf("GET %s loads from another host: %s", path, m)
		}
	}

	// The third-party files are there, with their licenses; the UI's own too.
	for _, path := range []string{
		"/static/vendor/swagger-ui-dist/swagger-ui-bundle.js", "/static/vendor/swagger-ui-dist/swagger-ui.css",
		"/static/vendor/swagger-ui-dist/LICENSE", "/static/vendor/redoc/redoc.standalone.js", "/static/vendor/redoc/LICENSE",
		"/ui/app.js", "/ui/i18n.js", "/ui/style.css",
	} {
		resp, b := e.do("GET", path, "", nil)
		if resp.StatusCode != 200 || len(b) < 100 {
			t.Fatalf("GET %s: %d, %d bytes", path, resp.StatusCode, len(b))
		}
		etag := resp.Header.Get("ETag")
		if etag == "" {
			t.Fatalf("GET %s: no ETag", path)
		}
		if again, _ := e.do("GET", path, "", nil, "If-None-Match", etag); again.StatusCode != http.StatusNotModified {
			t.Errorf("GET %s with its ETag: %d, want 304", path, again.StatusCode)
		}
	}
	if resp, _ := e.do("GET", "/ui/app.js", "", nil); !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("app.js served as %q", resp.Header.Get("Content-Type"))
	}

	// No listings, nothing outside the embedded folders.
	for _, path := range []string{"/static/", "/static/vendor/", "/static/vendor/redoc/", "/ui/nope.js"} {
		if resp, _ := e.do("GET", path, "", nil); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, resp.StatusCode)
		}
	}
	for _, path := range []string{"/ui/../server.go", "/static/../web.go", "/ui/%2e%2e/web.go", "/static/..%2fweb.go"} {
		if _, b := e.do("GET", path, "", nil); strings.Contains(string(b), "package server") {
			t.Errorf("GET %s served a source file", path)
		}
	}
	if resp, _ := e.do("GET", "/ui", "", nil); resp.StatusCode != 200 || resp.Request.URL.Path != "/ui/" {
		t.Errorf("GET /ui: %d at %s, want the UI at /ui/", resp.StatusCode, resp.Request.URL.Path)
	}
}

// TestVendoredAssetsMatchTheScript: the committed bundles are the versions
// scripts/web-assets.sh pins, each with its license.
func TestVendoredAssetsMatchTheScript(t *testing.T) {
	script, err := os.ReadFile(filepath.Join(repoRoot, "scripts", "web-assets.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"swagger-ui-dist", "redoc"} {
		v, err := os.ReadFile(filepath.Join("web", "static", "vendor", name, "VERSION"))
		if err != nil {
			t.Fatal(err)
		}
		if pin := strings.TrimSpace(string(v)); !strings.Contains(string(script), "\n"+pin+"\n") {
			t.Errorf("web/static/vendor/%s/VERSION says %q, which scripts/web-assets.sh does not pin", name, pin)
		}
		if _, err := os.Stat(filepath.Join("web", "static", "vendor", name, "LICENSE")); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestSameOriginPosts: a page on another site cannot post to the API
// through the user's browser (upload, delete, chat); the API's own pages,
// plain clients and the --cors-origin origin can.
func TestSameOriginPosts(t *testing.T) {
	e := newEnv(t, false, server.Options{CORSOrigin: "https://ui.example"})
	body := `{"query":"x"}`
	for _, c := range []struct {
		name string
		hdr  []string
		want int
	}{
		{"curl", nil, 200},
		{"same origin", []string{"Sec-Fetch-Site", "same-origin", "Origin", e.url}, 200},
		{"another site", []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}, 403},
		{"another site, old browser", []string{"Origin", "https://evil.example"}, 403},
		{"the CORS origin", []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://ui.example"}, 200},
	} {
		// A form's media type: what a page elsewhere can post without asking.
		resp, b := e.do("POST", "/api/v1/search", "application/x-www-form-urlencoded", strings.NewReader(body), c.hdr...)
		if resp.StatusCode != c.want {
			t.Errorf("%s: %d, want %d: %s", c.name, resp.StatusCode, c.want, b)
		}
		if c.want == 403 {
			var p map[string]any
			if err := json.Unmarshal(b, &p); err != nil || p["status"] != float64(403) || p["detail"] == "" {
				t.Errorf("%s: body %s", c.name, b)
			}
		}
	}
	// A form posted from another site is refused before it is read.
	resp, _ := e.do("POST", "/api/v1/documents/upload", "multipart/form-data; boundary=x", strings.NewReader("--x--\r\n"), "Sec-Fetch-Site", "cross-site")
	if resp.StatusCode != 403 {
		t.Errorf("cross-site upload: %d", resp.StatusCode)
	}
}

// TestChatStreamMarksExtracts: the last frame says when the answer is an
// extract (the offline provider), so the UI can label it.
func TestChatStreamMarksExtracts(t *testing.T) {
	e := newEnv(t, false, server.Options{})
	e.upload("notes.md", []byte("# Notes\n\nThe quarterly budget review is on Friday."), 201)
	resp, err := http.Post(e.url+"/api/v1/chat/stream", "application/json", strings.NewReader(`{"question":"When is the budget review?"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	frames := readSSE(t, resp.Body)
	if len(frames) == 0 {
		t.Fatal("no frames")
	}
	for _, f := range frames[:len(frames)-1] {
		if _, ok := f["extractive"]; ok {
			t.Fatalf("a text frame carries extractive: %v", f)
		}
	}
	if last := frames[len(frames)-1]; last["done"] != true || last["extractive"] != true {
		t.Fatalf("last frame %v, want done and extractive", last)
	}
}
