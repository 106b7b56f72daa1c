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

// The chat's agentic mode in a real browser: the mode switch shows the
// folder field, the agent's steps appear as they stream, and its evidence
// becomes numbered sources that link to the cited chunk.
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
	if err := os.MkdirAll(filepath.Join(root, "Meeting"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "Meeting", "memo.pdf"), memo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.d.Crawl(context.Background(), app.CrawlRequest{Source: "local:" + root}); err != nil {
		t.Fatal(err)
	}

	b.step(ctx, "open the chat in agentic mode",
		chromedp.Navigate(srv.url+"/ui/#/chat"),
		until(`document.body.dataset.ready === 'true' && document.querySelector('#chat-mode') !== null`),
		chromedp.SetValue(chromedp.CSS("#chat-mode"), "agentic"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#chat-mode').dispatchEvent(new Event('change'))`),
		until(`!document.querySelector('#chat-folder-field').hidden`),
		chromedp.SendKeys(chromedp.CSS("#chat-folder"), "Meeting"),
		chromedp.SendKeys(chromedp.CSS("#chat-question"), "How many blankets were delivered?"),
		chromedp.Click(chromedp.CSS("#chat-send")),
		until(`document.querySelectorAll('.turn[data-done="true"]').length === 1`),
	)
	reqs := srv.chatRequests()
	if len(reqs) != 1 || reqs[0]["mode"] != "agentic" || reqs[0]["folder"] != "Meeting" {
		t.Fatalf("chat request %v, want mode agentic and folder Meeting", reqs)
	}
	steps := value[int](b, ctx, "steps", `document.querySelectorAll('.turn .agent-steps li').length`)
	if steps < 2 {
		t.Errorf("%d agent steps shown, want tool calls and their results", steps)
	}
	answer := value[string](b, ctx, "answer", `document.querySelector('.turn .answer-text').textContent`)
	if !strings.Contains(answer, "10,000 blankets") {
		t.Errorf("answer %q does not quote the memo", answer)
	}
	src := value[string](b, ctx, "sources", `[...document.querySelectorAll('.turn .sources a.source-link')].map(a => a.textContent + ' ' + a.getAttribute('href')).join('\n')`)
	if !strings.Contains(src, "memo.pdf") || !strings.Contains(src, "#/documents/") {
		t.Errorf("sources %q: want memo.pdf linking to its document", src)
	}
	if errs := value[int](b, ctx, "errors", `document.querySelectorAll('.turn .error').length`); errs != 0 {
		t.Errorf("%d error notes in the turn", errs)
	}
}
