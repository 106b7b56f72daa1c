package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Sources side by side: a configured local folder A, a
// second folder B crawled with --source, search over both or narrowed with
// --source, a full crawl of A pruning only A, and a clean doctor for a
// local-only setup.
func TestSourcesSideBySide(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "A"), filepath.Join(root, "B")
	write := func(dir, name, text string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(a, "orchard.txt", "The orchard harvest report: apples picked in the north field.")
	write(a, "ledger.txt", "The pear ledger of the harvest, kept by the grove keeper.")
	write(b, "berries.txt", "The blueberry harvest report of the farm on the hill.")
	home := filepath.Join(root, "home")
	env := gdsEnv(home, "GDS_SOURCES=local:"+a)

	run := func(args ...string) (string, string) {
		t.Helper()
		out, errOut, code := runGds(t, env, args...)
		if code != 0 {
			t.Fatalf("gds %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out, errOut)
		}
		return out, errOut
	}
	// search returns name → source of the --json results.
	search := func(args ...string) map[string]string {
		t.Helper()
		out, _ := run(append([]string{"search", "--json"}, args...)...)
		var doc struct {
			Results []struct{ Name, Source string }
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("search %v: %v\n%s", args, err, out)
		}
		got := map[string]string{}
		for _, r := range doc.Results {
			got[r.Name] = r.Source
		}
		return got
	}
	names := func(m map[string]string) []string {
		var out []string
		for n := range m {
			out = append(out, n)
		}
		slices.Sort(out)
		return out
	}

	// A plain crawl crawls GDS_SOURCES.
	run("crawl")
	if got := search("harvest"); !slices.Equal(names(got), []string{"ledger.txt", "orchard.txt"}) || got["orchard.txt"] != "local:"+a {
		t.Fatalf("after crawling A, search harvest = %v; want A's two files, source local:%s", got, a)
	}
	// --source B adds B; A stays.
	run("crawl", "--source", "local:"+b)
	if got := search("harvest"); !slices.Equal(names(got), []string{"berries.txt", "ledger.txt", "orchard.txt"}) || got["berries.txt"] != "local:"+b {
		t.Fatalf("after crawling B, search harvest = %v; want the files of A and B", got)
	}
	// --source narrows the search.
	if got := search("--source", "local:"+b, "harvest"); !slices.Equal(names(got), []string{"berries.txt"}) {
		t.Errorf("search --source local:B harvest = %v; want B's file only", got)
	}
	if got := search("--source", "local:"+a+",local:"+b, "harvest"); len(got) != 3 {
		t.Errorf("search --source local:A,local:B harvest = %v; want all three", got)
	}
	// A full crawl of A removes what was deleted from A, never B's files.
	if err := os.Remove(filepath.Join(a, "ledger.txt")); err != nil {
		t.Fatal(err)
	}
	out, _ := run("crawl", "--full")
	if !strings.Contains(out, "Removed 1 file") {
		t.Errorf("full crawl of A:\n%s\nwant one file removed", out)
	}
	if got := search("harvest"); !slices.Equal(names(got), []string{"berries.txt", "orchard.txt"}) {
		t.Errorf("after the full crawl of A, search harvest = %v; want A's remaining file and B's", got)
	}
	// Both sources in one run (repeated flag): one summary per source.
	out, _ = run("crawl", "--source", "local:"+a, "--source", "local:"+b)
	if !strings.Contains(out, "local:"+a+":") || !strings.Contains(out, "local:"+b+":") {
		t.Errorf("crawl --source A --source B:\n%s\nwant a summary of each source", out)
	}
	// A bare path is refused with the spelling that works.
	_, errOut, code := runGds(t, env, "search", "--source", b, "harvest")
	if code == 0 || !strings.Contains(errOut, "local:"+b) {
		t.Errorf("search --source %s: exit %d, stderr %q; want a usage error suggesting local:", b, code, errOut)
	}
	// Doctor: a local-only setup with an index has nothing to fix.
	if out, errOut, code := runGds(t, env, "doctor"); code != 0 {
		t.Errorf("doctor on a local-only setup: exit %d\n%s%s", code, out, errOut)
	}
	if out, _ := run("config", "show"); !strings.Contains(out, "GDS_SOURCES") || !strings.Contains(out, "local:"+a) {
		t.Errorf("config show does not show GDS_SOURCES:\n%s", out)
	}
}
