package server_test

// The real-browser end-to-end test of the web UI: Debian's headless
// Chromium (installed by scripts/browser.sh) driven with chromedp against
// the real server on a fresh gds home. It uploads a real PDF through the
// UI's file input, sees it listed, opens it, searches it, asks about it,
// watches the answer stream in and follows its cited source; then checks
// the tag filter, delete, the token prompt, Japanese, and /docs and /redoc —
// and that no page asked for anything outside the server.
//
// Without a browser the test skips locally and fails when CI is set. On a
// failure it saves a screenshot and the page's HTML under
// $GDS_ARTIFACT_DIR (default .artifacts/browser in the repository) and
// prints the path. GDS_UI_SCREENSHOT=docs/ui.png (relative to the
// repository) writes the screenshot the README shows.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/server"
)

const repoRoot = "../.."

// Hang guards only: on a busy 2-core machine under -race a step takes
// seconds; nothing here measures time.
const (
	stepTimeout    = 3 * time.Minute
	browserTimeout = 15 * time.Minute
)

// findBrowser is the headless Chromium to drive: $GDS_BROWSER, else the
// names scripts/browser.sh installs. chromedp's own lookup does not know
// chromium-headless-shell.
func findBrowser() string {
	if p := os.Getenv("GDS_BROWSER"); p != "" {
		return p
	}
	for _, name := range []string{"chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	for _, p := range []string{"/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/headless_shell", "/usr/lib/chromium/chromium"} {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// browser is one headless Chromium for a test, with its tabs' records.
type browser struct {
	t         *testing.T
	ctx       context.Context // the browser's first tab
	artifacts string

	mu         sync.Mutex
	origins    []string                     // the test servers' origins
	external   map[network.RequestID]string // requests to anywhere else
	blocked    map[network.RequestID]bool   // those the page's CSP stopped before they left
	exceptions []string                     // uncaught JavaScript errors
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	path := findBrowser()
	if path == "" {
		msg := "no headless Chromium: run `bash scripts/browser.sh` (installs Debian's chromium-headless-shell as root) or set GDS_BROWSER"
		if os.Getenv("CI") != "" {
			t.Fatal(msg + " — the browser test must run in CI")
		}
		t.Skip(msg)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
		// This machine's network is closed: keep the browser from calling home.
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		// English whatever the machine's locale (TestBrowserUIJapanese asks for Japanese).
		chromedp.Flag("lang", "en-US"),
		chromedp.Env("LANG=en_US.UTF-8", "LANGUAGE=en_US"),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	actx, cancelTimeout := context.WithTimeout(actx, browserTimeout)
	b := &browser{t: t, artifacts: artifactDir(t)}
	ctx, cancelCtx := chromedp.NewContext(actx, chromedp.WithErrorf(func(string, ...any) {}))
	t.Cleanup(func() {
		cancelCtx()
		cancelTimeout()
		cancelAlloc()
	})
	b.ctx = b.watch(ctx)
	return b
}

// artifactDir is where a failing browser test leaves its screenshots.
func artifactDir(t *testing.T) string {
	dir := os.Getenv("GDS_ARTIFACT_DIR")
	if dir == "" {
		dir = filepath.Join(repoRoot, ".artifacts", "browser")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// watch records a tab's requests outside the test servers and its uncaught
// exceptions, and starts the tab.
func (b *browser) watch(ctx context.Context) context.Context {
	b.t.Helper()
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			u := ev.Request.URL
			if strings.HasPrefix(u, "data:") || strings.HasPrefix(u, "blob:") {
				return
			}
			b.mu.Lock()
			defer b.mu.Unlock()
			for _, o := range b.origins {
				if u == o || strings.HasPrefix(u, o+"/") {
					return
				}
			}
			if b.external == nil {
				b.external = map[network.RequestID]string{}
			}
			b.external[ev.RequestID] = u
		case *network.EventLoadingFailed:
			if ev.BlockedReason == network.BlockedReasonCsp {
				b.mu.Lock()
				if b.blocked == nil {
					b.blocked = map[network.RequestID]bool{}
				}
				b.blocked[ev.RequestID] = true
				b.mu.Unlock()
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			b.mu.Lock()
			b.exceptions = append(b.exceptions, fmt.Sprintf("%s:%d: %s", d.URL, d.LineNumber+1, msg))
			b.mu.Unlock()
		}
	}); err != nil {
		b.t.Fatal(err)
	}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{})
		return err
	}))
	if err != nil {
		b.t.Fatalf("start the browser: %v", err)
	}
	return ctx
}

// tab opens another tab (its own sessionStorage).
func (b *browser) tab() context.Context {
	b.t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	b.t.Cleanup(cancel)
	return b.watch(ctx)
}

func (b *browser) allow(origin string) {
	b.mu.Lock()
	b.origins = append(b.origins, origin)
	b.mu.Unlock()
}

// step runs actions in tab ctx under a hang guard; on failure it saves a
// screenshot and the page's HTML and fails the test.
func (b *browser) step(ctx context.Context, name string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	sctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(sctx, actions...); err != nil {
		b.fail(ctx, name, err)
	}
}

// value evaluates a JavaScript expression in tab ctx.
func value[T any](ctx context.Context, b *browser, name, expr string) T {
	b.t.Helper()
	sctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(sctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.fail(ctx, name, err)
	}
	return v
}

// until waits for a JavaScript condition (re-checked on every DOM change
// and every 100 ms) under the step's hang guard.
func until(cond string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(0), chromedp.WithPollingInterval(100*time.Millisecond))
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func (b *browser) fail(ctx context.Context, name string, err error) {
	b.t.Helper()
	b.saveArtifacts(ctx, name)
	b.t.Fatalf("browser step %q: %v", name, err)
}

func (b *browser) saveArtifacts(ctx context.Context, name string) {
	b.t.Helper()
	base := filepath.Join(b.artifacts, unsafeName.ReplaceAllString(b.t.Name()+"-"+name, "_"))
	if err := os.MkdirAll(b.artifacts, 0o755); err != nil {
		b.t.Logf("artifacts: %v", err)
		return
	}
	actx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if png, err := chromedp.Run(actx, chromedp.CaptureScreenshot()); err == nil {
		_ = os.WriteFile(base+".png", png, 0o644)
	}
	if html, err := chromedp.Run(actx, chromedp.Evaluate[string](`document.documentElement.outerHTML`)); err == nil {
		_ = os.WriteFile(base+".html", []byte(html), 0o644)
	}
	b.t.Logf("browser artefacts (screenshot and page HTML): %s.png, %s.html", base, base)
}

// uiServer is the real server on a fresh gds home (SQLite, the offline
// provider), recording the chat requests it gets.
type uiServer struct {
	url  string
	d    *app.Deps
	mu   sync.Mutex
	chat []map[string]any // bodies of POST /api/v1/chat/stream
}

func startUIServer(t *testing.T, opts server.Options) *uiServer {
	t.Helper()
	cfg := envConfig(t, false)
	d := app.New(app.Options{Config: cfg})
	st, err := d.OpenStore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	d.ShareStore(st)
	opts.UploadDir = cfg.UploadDir
	s := &uiServer{d: d}
	h := server.New(d, opts).Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/api/v1/chat/stream" {
			body, _ := io.ReadAll(r.Body)
			var m map[string]any
			_ = json.Unmarshal(body, &m)
			s.mu.Lock()
			s.chat = append(s.chat, m)
			s.mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	s.url = ts.URL
	return s
}

func (s *uiServer) chatRequests() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.chat)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestBrowserUI(t *testing.T) {
	b := newBrowser(t)
	srv := startUIServer(t, server.Options{Version: "test"})
	b.allow(srv.url)
	ctx := b.ctx
	pdf, err := filepath.Abs(realPDF)
	if err != nil {
		t.Fatal(err)
	}
	const pdfName = "markitdown-autogen-page.pdf"

	// listed is true when the document list has finished loading.
	const listed = `document.querySelector('#doc-table').getAttribute('aria-busy') === 'false' && `

	// Upload through the file input, with tags; the list shows it.
	b.step(ctx, "open the UI",
		chromedp.Navigate(srv.url+"/"),
		until(`document.querySelector('a[href="/ui/"]') !== null && document.querySelector('a[href="/docs"]') !== null && document.querySelector('a[href="/redoc"]') !== null`),
		chromedp.Navigate(srv.url+"/ui/"), // the landing page's link
		until(`document.body.dataset.ready === 'true' && document.querySelector('#doc-empty') && !document.querySelector('#doc-empty').hidden`),
	)
	// Every control has a label, every button and link a name.
	unnamed := value[[]string](ctx, b, "accessible names", `(() => {
		const out = [];
		for (const c of document.querySelectorAll('input, select, textarea'))
			if (!c.labels || c.labels.length === 0 || !c.labels[0].textContent.trim()) out.push(c.id || c.outerHTML);
		for (const c of document.querySelectorAll('button, a'))
			if (!(c.getAttribute('aria-label') || c.textContent).trim()) out.push(c.id || c.outerHTML);
		return out;
	})()`)
	if len(unnamed) > 0 {
		t.Fatalf("controls without a label or name: %q", unnamed)
	}
	b.step(ctx, "upload the PDF",
		chromedp.SetUploadFiles(chromedp.CSS("#upload-file"), []string{pdf}),
		until(`document.querySelector('#upload-file-name').textContent.includes(`+jsString(pdfName)+`)`),
		chromedp.SendKeys(chromedp.CSS("#upload-tags"), "paper, agents"),
		chromedp.Click(chromedp.CSS("#upload-submit")),
		until(listed+`[...document.querySelectorAll('#doc-rows td.file')].some(td => td.textContent === `+jsString(pdfName)+`)`),
	)
	var list struct {
		Items []struct {
			ID         string   `json:"id"`
			ChunkCount int      `json:"chunk_count"`
			Tags       []string `json:"tags"`
		} `json:"items"`
		Total int `json:"total"`
	}
	getJSON(t, srv.url+"/api/v1/documents", &list)
	if list.Total != 1 || list.Items[0].ChunkCount < 1 || !slices.Equal(list.Items[0].Tags, []string{"paper", "agents"}) {
		t.Fatalf("after the upload the API lists %+v", list)
	}
	docID, chunks := list.Items[0].ID, list.Items[0].ChunkCount
	msg := value[string](ctx, b, "upload message", `document.querySelector('#upload-result').textContent`)
	if !strings.Contains(msg, fmt.Sprint(chunks)) || value[bool](ctx, b, "upload error", `document.querySelector('#upload-result').classList.contains('error')`) {
		t.Fatalf("upload message %q, want one naming %d chunks", msg, chunks)
	}
	if got := value[string](ctx, b, "pager", `document.querySelector('#doc-page').textContent`); !strings.Contains(got, "1") {
		t.Fatalf("pager says %q", got)
	}

	// Tag filter: a tag of the document keeps it, another empties the list.
	b.step(ctx, "filter by a tag it lacks",
		chromedp.SendKeys(chromedp.CSS("#doc-tag"), "budget"),
		chromedp.Click(chromedp.CSS(`#doc-filter button[type="submit"]`)),
		until(listed+`document.querySelectorAll('#doc-rows tr').length === 0 && !document.querySelector('#doc-empty').hidden`),
	)
	b.step(ctx, "filter by its tag (click the tag)",
		chromedp.Click(chromedp.CSS("#doc-tag-clear")),
		until(listed+`document.querySelectorAll('#doc-rows tr').length === 1`),
		chromedp.Click(chromedp.CSS(`#doc-rows button.tag`)),
		until(listed+`document.querySelector('#doc-tag').value === 'paper' && document.querySelectorAll('#doc-rows tr').length === 1`),
	)

	// Detail: every chunk of the document.
	b.step(ctx, "open the document",
		chromedp.Click(chromedp.CSS(`#doc-rows th a`)),
		until(fmt.Sprintf(`document.querySelectorAll('#doc-chunks li.chunk').length === %d && !document.querySelector('section[data-view="document"]').hidden`, chunks)),
	)
	if got := value[string](ctx, b, "detail title", `document.querySelector('#doc-title').textContent`); got != pdfName {
		t.Fatalf("detail title %q", got)
	}

	// Search with top_k and a threshold.
	b.step(ctx, "search",
		chromedp.Click(chromedp.CSS(`a[data-nav="search"]`)),
		until(`!document.querySelector('section[data-view="search"]').hidden`),
		chromedp.SendKeys(chromedp.CSS("#search-query"), "multiple agents that cooperate"),
		chromedp.SetValue(chromedp.CSS("#search-top-k"), "2"),
		chromedp.Click(chromedp.CSS("#search-submit")),
		until(`document.querySelectorAll('#search-results li').length > 0`),
	)
	hits := value[[]string](ctx, b, "search results", `[...document.querySelectorAll('#search-results li .result-head a')].map(a => a.getAttribute('href'))`)
	if len(hits) == 0 || len(hits) > 2 {
		t.Fatalf("search with top_k 2 showed %d results", len(hits))
	}
	for _, h := range hits {
		if !strings.HasPrefix(h, "#/documents/"+docID+"/chunk/") {
			t.Fatalf("search result links to %q, want a chunk of %s", h, docID)
		}
	}
	// The highest threshold keeps only chunks that score 1.
	b.step(ctx, "search with a threshold",
		chromedp.SetValue(chromedp.CSS("#search-threshold"), "1"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#search-summary').textContent = ''; true`),
		chromedp.Click(chromedp.CSS("#search-submit")),
		until(`document.querySelector('#search-summary').textContent.includes('multiple agents')`),
	)
	if bad := value[int](ctx, b, "threshold", `[...document.querySelectorAll('#search-results li .result-head')].filter(h => !h.textContent.includes('score 1.000')).length`); bad != 0 {
		t.Fatalf("%d results under the threshold 1 shown", bad)
	}
	// A typo is searched as the index's word, with the way back; the way
	// back searches the word as typed and names it.
	b.step(ctx, "search with a typo",
		chromedp.SetValue(chromedp.CSS("#search-threshold"), "0"),
		chromedp.SetValue(chromedp.CSS("#search-query"), "multiple agnets cooperate"),
		chromedp.Click(chromedp.CSS("#search-submit")),
		until(`document.querySelector('#search-notices .corrected button.instead') !== null`),
	)
	if shown := value[string](ctx, b, "corrected", `document.querySelector('#search-notices .corrected').textContent`); !strings.Contains(shown, "agents") || !strings.Contains(shown, `"agnets"`) {
		t.Fatalf("corrected notice %q", shown)
	}
	b.step(ctx, "search instead",
		chromedp.Click(chromedp.CSS("#search-notices .corrected button.instead")),
		until(`document.querySelector('#search-notices .corrected') === null && document.querySelector('#search-notices .notice') !== null`),
	)
	if shown := value[string](ctx, b, "unmatched", `document.querySelector('#search-notices .notice').textContent`); !strings.Contains(shown, "agnets") {
		t.Fatalf("the way back's notice %q", shown)
	}

	// Chat: the answer streams in, then its sources; a source opens its
	// chunk.
	b.step(ctx, "ask a question",
		chromedp.Click(chromedp.CSS(`a[data-nav="chat"]`)),
		until(`!document.querySelector('section[data-view="chat"]').hidden`),
		chromedp.SendKeys(chromedp.CSS("#chat-question"), "What do multiple agents that cooperate do?"),
		chromedp.Click(chromedp.CSS("#chat-send")),
		until(`document.querySelectorAll('.turn[data-done="true"]').length === 1`),
	)
	answer := value[string](ctx, b, "answer", `document.querySelector('.turn .answer-text').textContent`)
	if strings.TrimSpace(answer) == "" || value[int](ctx, b, "answer errors", `document.querySelectorAll('.turn .error').length`) != 0 {
		t.Fatalf("answer %q (or an error shown)", answer)
	}
	// The UI read the stream frame by frame (the server's framing is tested
	// in server_test.go): the answer's pieces (one per sentence; an offline
	// answer is often one sentence), then the last frame.
	if n := value[int](ctx, b, "stream frames", `Number(document.querySelector('.turn').dataset.frames)`); n < 2 {
		t.Fatalf("the UI read %d frames, want pieces of the answer and a last frame", n)
	}
	if note := value[string](ctx, b, "extract note", `(document.querySelector('.turn .extract-note') || {}).textContent || ''`); !strings.Contains(note, "offline") {
		t.Fatalf("the offline answer is not labelled as an extract: %q", note)
	}
	sources := value[[]string](ctx, b, "sources", `[...document.querySelectorAll('.turn .sources a.source-link')].map(a => a.getAttribute('href'))`)
	if len(sources) == 0 || !strings.HasPrefix(sources[0], "#/documents/"+docID+"/chunk/") {
		t.Fatalf("cited sources %q, want chunks of %s", sources, docID)
	}
	if shot := os.Getenv("GDS_UI_SCREENSHOT"); shot != "" {
		if !filepath.IsAbs(shot) {
			shot = filepath.Join(repoRoot, shot)
		}
		sctx, cancel := context.WithTimeout(ctx, stepTimeout)
		_ = chromedp.Do(sctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('.turn .sources details').open = true; document.activeElement.blur(); true`))
		png, err := chromedp.Run(sctx, chromedp.CaptureScreenshot())
		cancel()
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		if err := os.WriteFile(shot, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", shot)
	}

	// A follow-up question carries the conversation so far.
	b.step(ctx, "ask a follow-up",
		chromedp.SendKeys(chromedp.CSS("#chat-question"), "Which paper is it from?"),
		chromedp.Click(chromedp.CSS("#chat-send")),
		until(`document.querySelectorAll('.turn[data-done="true"]').length === 2`),
	)
	reqs := srv.chatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	if hist, _ := reqs[1]["chat_history"].([]any); len(hist) != 2 {
		t.Fatalf("the follow-up sent chat_history %v, want the first question and answer", reqs[1]["chat_history"])
	}
	b.step(ctx, "follow the cited source",
		chromedp.Click(chromedp.CSS(`.turn .sources a.source-link`)),
		until(`!document.querySelector('section[data-view="document"]').hidden && document.activeElement && document.activeElement.classList.contains('target')`),
	)

	// Delete: asked once more in place, then gone from the API.
	b.step(ctx, "delete the document",
		chromedp.Click(chromedp.CSS("#doc-delete-ask")),
		chromedp.Click(chromedp.CSS("#doc-delete-yes")),
		until(listed+`!document.querySelector('section[data-view="documents"]').hidden && document.querySelectorAll('#doc-rows tr').length === 0`),
	)
	resp, err := http.Get(srv.url + "/api/v1/documents/" + docID)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("after the UI deleted it, GET the document: %d", resp.StatusCode)
	}

	// The API reference pages render from the embedded bundles.
	b.step(ctx, "Swagger UI",
		chromedp.Navigate(srv.url+"/docs"),
		until(`document.querySelector('.swagger-ui .info .title') !== null && document.querySelector('.swagger-ui .info .title').textContent.includes('gds API') && document.querySelectorAll('.opblock').length >= 8`),
	)
	b.step(ctx, "ReDoc",
		chromedp.Navigate(srv.url+"/redoc"),
		until(`document.body.innerText.includes('gds API') && document.body.innerText.includes('Check the index and the AI provider')`),
	)

	if left := b.leftTheServer(); len(left) > 0 {
		t.Errorf("pages asked for something outside the server, and the page's Content-Security-Policy did not stop it: %q", left)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.exceptions) > 0 {
		t.Errorf("uncaught JavaScript errors: %q", b.exceptions)
	}
}

// leftTheServer returns the requests to anywhere but the test servers
// that the page's Content-Security-Policy did not block. A bundled page
// may try to load something from its vendor (ReDoc's sidebar shows
// Redocly's logo from cdn.redoc.ly once it has rendered, whenever that
// is): the policy must stop it before it leaves. Chromium reports the
// block just after the request, so an outside request gets up to ten
// seconds to be reported blocked; any other is returned at once when
// every outside request is blocked.
func (b *browser) leftTheServer() []string {
	deadline := time.Now().Add(10 * time.Second)
	for {
		b.mu.Lock()
		var left, stopped []string
		for id, u := range b.external {
			if b.blocked[id] {
				stopped = append(stopped, u)
			} else {
				left = append(left, u)
			}
		}
		b.mu.Unlock()
		if len(left) == 0 || time.Now().After(deadline) {
			slices.Sort(left)
			slices.Sort(stopped)
			for _, u := range stopped {
				b.t.Logf("blocked by the page's Content-Security-Policy: %s", u)
			}
			return left
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestBrowserUIToken: with a token, the UI asks for it, keeps it in the
// tab's sessionStorage and sends it as a bearer token.
func TestBrowserUIToken(t *testing.T) {
	b := newBrowser(t)
	srv := startUIServer(t, server.Options{Token: "s3cret-token"})
	b.allow(srv.url)
	ctx := b.ctx
	b.step(ctx, "open the UI without a token",
		chromedp.Navigate(srv.url+"/ui/"),
		until(`document.querySelector('#token-panel').open && document.querySelector('#status').classList.contains('error')`),
	)
	b.step(ctx, "enter the token",
		chromedp.SendKeys(chromedp.CSS("#token-input"), "s3cret-token"),
		chromedp.Click(chromedp.CSS(`#token-form button[type="submit"]`)),
		until(`!document.querySelector('#doc-empty').hidden && document.querySelector('#doc-page').textContent.includes('1')`),
	)
	if got := value[string](ctx, b, "stored token", `sessionStorage.getItem('gds.token')`); got != "s3cret-token" {
		t.Fatalf("sessionStorage holds %q", got)
	}
	if got := value[string](ctx, b, "local storage", `JSON.stringify(localStorage)`); strings.Contains(got, "s3cret") {
		t.Fatal("the token reached localStorage")
	}
	b.step(ctx, "search with the token",
		chromedp.Click(chromedp.CSS(`a[data-nav="search"]`)),
		chromedp.SendKeys(chromedp.CSS("#search-query"), "anything"),
		chromedp.Click(chromedp.CSS("#search-submit")),
		until(`document.querySelector('#search-summary').textContent.includes('anything') && !document.querySelector('#search-summary').classList.contains('error')`),
	)
	// Drag and drop: a file dropped on the zone is uploaded with the token.
	b.step(ctx, "drop a file and upload it",
		chromedp.Click(chromedp.CSS(`a[data-nav="documents"]`)),
		until(`!document.querySelector('section[data-view="documents"]').hidden`),
		chromedp.Evaluate[chromedp.Void](`(() => {
			const dt = new DataTransfer();
			dt.items.add(new File(['# Dropped\n\nThe dropped note mentions the harbour lighthouse.'], 'dropped-note.md', {type: 'text/markdown'}));
			const zone = document.querySelector('#drop-zone');
			zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
			zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
			return true;
		})()`),
		until(`document.querySelector('#upload-file-name').textContent.includes('dropped-note.md')`),
		chromedp.Click(chromedp.CSS("#upload-submit")),
		until(`document.querySelector('#doc-table').getAttribute('aria-busy') === 'false' && [...document.querySelectorAll('#doc-rows td.file')].some(td => td.textContent === 'dropped-note.md')`),
	)
	// Another tab has its own sessionStorage: no token there.
	other := b.tab()
	b.step(other, "a new tab",
		chromedp.Navigate(srv.url+"/ui/"),
		until(`document.querySelector('#token-panel').open`),
	)
}

// TestBrowserUIJapanese: a browser whose first language is Japanese gets
// the UI in Japanese, and both languages have every string.
func TestBrowserUIJapanese(t *testing.T) {
	b := newBrowser(t)
	srv := startUIServer(t, server.Options{})
	b.allow(srv.url)
	ctx := b.ctx
	b.step(ctx, "Japanese browser",
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			ua, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.userAgent`))
			if err != nil {
				return err
			}
			_, err = cdp.Call(ctx, tg, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: "ja-JP,ja,en"})
			return err
		}),
		chromedp.Navigate(srv.url+"/ui/"),
		until(`document.body.dataset.ready === 'true' && !document.querySelector('#doc-empty').hidden`),
	)
	if got := value[string](ctx, b, "lang", `document.documentElement.lang + ' ' + document.querySelector('a[data-nav="documents"]').textContent`); got != "ja ドキュメント" {
		t.Fatalf("Japanese browser: %q", got)
	}
	if got := value[string](ctx, b, "empty list", `document.querySelector('#doc-empty').textContent`); !strings.Contains(got, "ドキュメントはまだありません") {
		t.Fatalf("empty list text %q", got)
	}
	missing := value[[]string](ctx, b, "keys", `(() => {
		const en = Object.keys(GDS_I18N.en), ja = Object.keys(GDS_I18N.ja);
		const used = [...document.querySelectorAll('[data-i18n]')].map(n => n.dataset.i18n)
			.concat([...document.querySelectorAll('[data-i18n-aria-label]')].map(n => n.dataset.i18nAriaLabel));
		return en.filter(k => !ja.includes(k)).map(k => 'ja lacks ' + k)
			.concat(ja.filter(k => !en.includes(k)).map(k => 'en lacks ' + k))
			.concat(used.filter(k => !en.includes(k)).map(k => 'no string for ' + k))
			.concat(en.filter(k => ja.includes(k)).filter(k => {
				const args = s => (s.match(/\{\d+\}/g) || []).sort().join();
				return args(GDS_I18N.en[k]) !== args(GDS_I18N.ja[k]);
			}).map(k => 'arguments differ in ' + k));
	})()`)
	if len(missing) > 0 {
		t.Fatalf("strings: %q", missing)
	}
	b.step(ctx, "a server error in Japanese",
		chromedp.Navigate(srv.url+"/ui/#/documents/no-such-document"),
		until(`document.querySelector('#status').classList.contains('error') && /[ぁ-んァ-ン一-龯]/.test(document.querySelector('#status').textContent)`),
	)
}

func getJSON(t *testing.T, url string, out any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// TestBrowserUIPaging: the document list pages through the API's pages,
// and a tag filter narrows it.
func TestBrowserUIPaging(t *testing.T) {
	b := newBrowser(t)
	srv := startUIServer(t, server.Options{})
	b.allow(srv.url)
	for i := range 12 {
		tag := "even"
		if i%2 == 1 {
			tag = "odd"
		}
		ct, body := multipartBody(t, fmt.Sprintf("note-%02d.md", i), []byte(fmt.Sprintf("# Note %d\n\nMeeting minutes number %d.", i, i)), "tags", tag)
		resp, err := http.Post(srv.url+"/api/v1/documents/upload", ct, body)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("upload %d: %d", i, resp.StatusCode)
		}
	}
	ctx := b.ctx
	const listed = `document.querySelector('#doc-table').getAttribute('aria-busy') === 'false' && `
	rows := func(n int, page string) chromedp.Action[chromedp.Void] {
		return until(listed + fmt.Sprintf(`document.querySelectorAll('#doc-rows tr').length === %d && document.querySelector('#doc-page').textContent === %s`, n, jsString(page)))
	}
	b.step(ctx, "first page of 20",
		chromedp.Navigate(srv.url+"/ui/"),
		rows(12, "Page 1 of 1 · 12 documents"),
	)
	b.step(ctx, "10 per page",
		chromedp.SetValue(chromedp.CSS("#doc-per-page"), "10"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#doc-per-page').dispatchEvent(new Event('change')); true`),
		rows(10, "Page 1 of 2 · 12 documents"),
		chromedp.Click(chromedp.CSS("#doc-next")),
		rows(2, "Page 2 of 2 · 12 documents"),
	)
	if !value[bool](ctx, b, "pager buttons", `document.querySelector('#doc-next').disabled && !document.querySelector('#doc-prev').disabled`) {
		t.Fatal("on the last page: next should be disabled, previous enabled")
	}
	b.step(ctx, "back and filtered",
		chromedp.Click(chromedp.CSS("#doc-prev")),
		rows(10, "Page 1 of 2 · 12 documents"),
		chromedp.SendKeys(chromedp.CSS("#doc-tag"), "odd"),
		chromedp.Click(chromedp.CSS(`#doc-filter button[type="submit"]`)),
		rows(6, "Page 1 of 1 · 6 documents"),
	)
	tags := value[[]string](ctx, b, "tags shown", `[...document.querySelectorAll('#doc-rows button.tag')].map(b => b.textContent)`)
	if len(tags) != 6 || slices.ContainsFunc(tags, func(s string) bool { return s != "odd" }) {
		t.Fatalf("filtered by odd, the list shows tags %q", tags)
	}
}
