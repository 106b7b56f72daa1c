package main

import (
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
)

// Unknown commands and flags get the closest name of that command as the
// hint; garbage gets the generic hint. The suggestion comes from argv and
// the command's own flags, not from the parser's text.
func TestUsageSuggestsCommandsAndFlags(t *testing.T) {
	cases := []struct {
		args      []string
		lang      string
		msg, hint string
		noSuggest bool
	}{
		{args: []string{"serch", "q"}, msg: `unknown command "serch"`, hint: "did you mean gds search?"},
		{args: []string{"docter"}, msg: `unknown command "docter"`, hint: "did you mean gds doctor?"},
		{args: []string{"serch"}, lang: i18n.Ja, msg: `不明なコマンド "serch"`, hint: "gds search のことですか"},
		{args: []string{"xyzzyq"}, msg: `unknown command "xyzzyq"`, noSuggest: true},
		{args: []string{"search", "--limt", "3", "q"}, msg: "unknown flag --limt", hint: "did you mean --limit?"},
		{args: []string{"search", "--jsno", "q"}, msg: "unknown flag --jsno", hint: "did you mean --json?"},
		{args: []string{"ask", "--top_k=3", "q"}, msg: "unknown flag --top_k", hint: "did you mean --top-k?"},
		{args: []string{"crawl", "--ful"}, msg: "unknown flag --ful", hint: "did you mean --full?"},
		{args: []string{"search", "--frobnicate", "q"}, msg: "unknown flag --frobnicate", noSuggest: true},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, "_")+c.lang, func(t *testing.T) {
			h := newHarness(t)
			if c.lang != "" {
				h.lang = c.lang
			}
			if code := h.run(c.args...); code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitUsage, h.stderr.String())
			}
			errOut := h.stderr.String()
			if !strings.Contains(errOut, c.msg) {
				t.Errorf("stderr lacks %q:\n%s", c.msg, errOut)
			}
			if c.noSuggest {
				if strings.Contains(errOut, "did you mean") {
					t.Errorf("garbage got a suggestion:\n%s", errOut)
				}
				return
			}
			if !strings.Contains(errOut, c.hint) {
				t.Errorf("stderr lacks hint %q:\n%s", c.hint, errOut)
			}
		})
	}
}
