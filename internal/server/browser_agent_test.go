package server_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/server"
)

// The chat's agentic mode in a real browser: the folder picker lists the
// indexed folders (from GET /api/v1/folders) and scopes the question, the
// agent's steps appear as they stream with human labels (no tool names),
// its evidence becomes numbered sources in citation order that link to the
// cited chunk, the crawled documents show a readable source, and the
// question form stays compact.
func TestBrowserUIAgentic(t *testing.T) {
	b := newBrowser(t)
	srv := startUIServer(t, server.Options{Version: "test"})
	b.allow(srv.url)
	ctx := b.ctx

	root := t.TempDir()
	memo, err := os.ReadFile(filepath.Join("..", "..", "testdata", "realdocs", "unstructured-fake-memo.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"Meeting", "Other"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "Meeting", "memo.pdf"), memo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "Other", "note.txt"), []byte("Blankets are kept in the store room."), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.d.Crawl(context.Background(), app.CrawlRequest{Source: "local:" + root}); err != nil {
		t.Fatal(err)
	}

	b.step(ctx, "open the chat; the folder picker lists the folders",
		chromedp.Navigate(srv.url+"/ui/#/chat"),
		until(`document.body.dataset.ready === 'true' && document.querySelector('#chat-mode') !== null`),
		until(`document.querySelector('#chat-folder').dataset.loaded === '2'`),
	)
	options := value[string](ctx, b, "folder options", `[...document.querySelectorAll('#chat-folder option')].map(o => o.value + '=' + o.textContent).join('\n')`)
	if !strings.Contains(options, "Meeting=Meeting (1) · Local folder ") || !strings.Contains(options, "Other=Other (1)") || !strings.HasPrefix(options, "=All folders") {
		t.Errorf("folder options:\n%s\nwant All folders, Meeting (1) and Other (1) with their source", options)
	}
	formHeight := value[float64](ctx, b, "form height", `document.querySelector('#chat-form').getBoundingClientRect().height`)
	if formHeight > 900/4 {
		t.Errorf("the question form is %.0f px high on a 900 px window, want at most a quarter", formHeight)
	}

	b.step(ctx, "ask in the rag mode, scoped to Other",
		chromedp.SetValue(chromedp.CSS("#chat-folder"), "Other"),
		chromedp.SendKeys(chromedp.CSS("#chat-question"), "Where are blankets kept?"),
		chromedp.Click(chromedp.CSS("#chat-send")),
		until(`document.querySelectorAll('.turn[data-done="true"]').length === 1`),
	)
	if reqs := srv.chatRequests(); len(reqs) != 1 || reqs[0]["folder"] != "Other" {
		t.Fatalf("chat request %v, want folder Other", reqs)
	}
	if src := value[string](ctx, b, "rag sources", `[...document.querySelectorAll('.turn .sources a.source-link')].map(a => a.textContent).join(',')`); src != "note.txt" {
		t.Errorf("rag sources in Other = %q, want note.txt only", src)
	}

	b.step(ctx, "ask the agent about Meeting",
		chromedp.SetValue(chromedp.CSS("#chat-mode"), "agentic"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#chat-mode').dispatchEvent(new Event('change'))`),
		chromedp.SetValue(chromedp.CSS("#chat-folder"), "Meeting"),
		chromedp.SendKeys(chromedp.CSS("#chat-question"), "How many blankets were delivered?"),
		chromedp.Click(chromedp.CSS("#chat-send")),
		until(`document.querySelectorAll('.turn[data-done="true"]').length === 2`),
	)
	reqs := srv.chatRequests()
	if len(reqs) != 2 || reqs[1]["mode"] != "agentic" || reqs[1]["folder"] != "Meeting" {
		t.Fatalf("chat requests %v, want mode agentic and folder Meeting", reqs)
	}
	steps := value[string](ctx, b, "steps", `[...document.querySelectorAll('.turn:last-child .agent-steps li')].map(li => li.textContent).join('\n')`)
	if strings.Count(steps, "\n") < 1 {
		t.Errorf("agent steps %q, want several", steps)
	}
	for _, raw := range []string{"_documents", "search_evidence", "→", "🔍"} {
		if strings.Contains(steps, raw) {
			t.Errorf("agent steps show %q:\n%s", raw, steps)
		}
	}
	if !strings.Contains(steps, "Searching the documents for") && !strings.Contains(steps, "Looking for agendas") {
		t.Errorf("agent steps without human labels:\n%s", steps)
	}
	answer := value[string](ctx, b, "answer", `document.querySelector('.turn:last-child .answer-text').textContent`)
	if !strings.Contains(answer, "10,000 blankets") {
		t.Errorf("answer %q does not quote the memo", answer)
	}
	src := value[string](ctx, b, "sources", `[...document.querySelectorAll('.turn:last-child .sources a.source-link')].map(a => a.textContent + ' ' + a.getAttribute('href')).join('\n')`)
	if !strings.Contains(src, "memo.pdf") || !strings.Contains(src, "#/documents/") {
		t.Errorf("sources %q: want memo.pdf linking to its document", src)
	}
	refs := value[string](ctx, b, "source refs", `[...document.querySelectorAll('.turn:last-child .sources li')].map(li => li.value).join(',')`)
	if !sortedRefs(refs) {
		t.Errorf("sources listed as refs %s, want citation order", refs)
	}
	if errs := value[int](ctx, b, "errors", `document.querySelectorAll('.turn .error').length`); errs != 0 {
		t.Errorf("%d error notes in the turns", errs)
	}

	b.step(ctx, "the documents list names the source readably",
		chromedp.Navigate(srv.url+"/ui/#/documents"),
		until(`document.querySelectorAll('#doc-rows tr').length === 2`),
	)
	sources := value[string](ctx, b, "document sources", `[...document.querySelectorAll('#doc-rows td.source')].map(td => td.textContent).join('\n')`)
	if strings.Contains(sources, "source.") || strings.Contains(sources, "local:") || !strings.Contains(sources, "Local folder ") {
		t.Errorf("document sources:\n%s\nwant \"Local folder …\", no raw key", sources)
	}

	b.step(ctx, "Japanese step labels",
		chromedp.Navigate(srv.url+"/ui/?lang=ja#/chat"),
		until(`document.body.dataset.ready === 'true' && document.querySelector('#chat-folder').dataset.loaded === '2'`),
		chromedp.SetValue(chromedp.CSS("#chat-mode"), "agentic"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#chat-mode').dispatchEvent(new Event('change'))`),
		chromedp.SetValue(chromedp.CSS("#chat-folder"), "Meeting"),
		chromedp.SendKeys(chromedp.CSS("#chat-question"), "毛布は何枚届きましたか"),
		chromedp.Click(chromedp.CSS("#chat-send")),
		until(`document.querySelectorAll('.turn[data-done="true"]').length === 1`),
	)
	steps = value[string](ctx, b, "steps (ja)", `[...document.querySelectorAll('.turn .agent-steps li')].map(li => li.textContent).join('\n')`)
	if !strings.Contains(steps, "しています") || strings.Contains(steps, "search_evidence") {
		t.Errorf("Japanese agent steps:\n%s", steps)
	}
}

// sortedRefs reports whether a comma-separated list of numbers ascends.
func sortedRefs(s string) bool {
	prev := -1
	for _, f := range strings.Split(s, ",") {
		n := 0
		for _, c := range f {
			if c < '0' || c > '9' {
				return false
			}
			n = n*10 + int(c-'0')
		}
		if n < prev {
			return false
		}
		prev = n
	}
	return true
}
