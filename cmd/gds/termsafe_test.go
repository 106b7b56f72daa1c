package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
)

// TestHostileFileNameIsSafeOnTheTerminal crawls a folder holding a file
// whose name carries terminal escape sequences (the probe: ESC ] 0 ;
// … BEL retitles the window, ESC [ 31 m turns the text red), then searches
// and asks: no text output holds a raw ESC or BEL (the name is shown as
// \e…\x07), while --json and Alfred's items hold the true name.
func TestHostileFileNameIsSafeOnTheTerminal(t *testing.T) {
	t.Parallel()
	const evil = "evil\x1b]0;PWNED\x07\x1b[31mred\u202etxt.exe.txt"
	docs := t.TempDir()
	if err := os.WriteFile(filepath.Join(docs, evil), []byte("the quarterly zebra report names the \x1b[2J budget"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(docs, "plain.txt"), []byte("minutes of the weekly meeting"), 0o600); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".env"), []byte("GDS_SOURCES=local:"+docs+"\nGDS_AI_PROVIDER=offline\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	raw := func(name, out string) {
		t.Helper()
		for _, bad := range []string{"\x1b", "\x07", "\u202e"} {
			if strings.Contains(out, bad) {
				t.Errorf("gds %s writes a raw %q:\n%q", name, bad, out)
			}
		}
	}
	const shown = `evil\e]0;PWNED\x07\e[31mred\u202etxt.exe.txt`
	for _, args := range [][]string{{"crawl"}, {"crawl", "--full"}, {"search", "quarterly zebra"}, {"ask", "what does the quarterly zebra report name"}} {
		out, errOut, code := gdsIn(t, home, args...)
		name := strings.Join(args, " ")
		if code != 0 {
			t.Fatalf("gds %s: exit %d\n%s%s", name, code, out, errOut)
		}
		raw(name, out+errOut)
		if !strings.Contains(out+errOut, shown) {
			t.Errorf("gds %s does not show the name escaped (%s):\n%s%s", name, shown, out, errOut)
		}
	}
	out, errOut, code := gdsIn(t, home, "search", "--json", "quarterly zebra")
	if code != 0 {
		t.Fatalf("search --json: exit %d\n%s%s", code, out, errOut)
	}
	var doc struct {
		Results []struct {
			Name string `json:"name"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("search --json: %v\n%s", err, out)
	}
	if len(doc.Results) == 0 || doc.Results[0].Name != evil {
		t.Errorf("search --json does not hold the true name %q: %+v", evil, doc.Results)
	}
	// Alfred is no terminal: the paths its actions use are the true ones
	// (its titles show control characters as spaces, as they always did:
	// Alfred would draw a bidi override).
	out, _, _ = gdsIn(t, home, "alfred", "filter", "⌕ quarterly zebra")
	var items struct {
		Items []struct {
			Title        string `json:"title"`
			QuicklookURL string `json:"quicklookurl"`
			Mods         map[string]struct {
				Arg string `json:"arg"`
			} `json:"mods"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatalf("alfred filter: %v\n%s", err, out)
	}
	want := filepath.Join(docs, evil)
	found := false
	for _, it := range items.Items {
		if it.QuicklookURL == want && it.Mods["alt"].Arg == want {
			found = true
			raw("alfred filter (title)", it.Title)
		}
	}
	if !found {
		t.Errorf("no Alfred item with the true path %q for Quick Look and reveal:\n%s", want, out)
	}
}

// An error that quotes a file's name is printed terminal-safe.
func TestPrintErrorIsTerminalSafe(t *testing.T) {
	var stderr strings.Builder
	d := app.New(app.Options{IO: iostreams.IOStreams{Stderr: &stderr, Lang: i18n.En}})
	printError(d, fmt.Errorf("read %s: %w", "/docs/evil\x1b]0;PWNED\x07.txt", fs.ErrPermission))
	if got := stderr.String(); strings.ContainsAny(got, "\x1b\x07") || !strings.Contains(got, `evil\e]0;PWNED\x07.txt`) {
		t.Errorf("stderr %q", got)
	}
}
