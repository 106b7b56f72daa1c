package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/config"
)

// A fresh home, as a new user has it: every command that needs a source
// says to run gds init; after `gds init --source local:DIR --no-input` the
// same commands work.
func TestFirstRunPointsToInit(t *testing.T) {
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOffline

	for _, c := range []struct {
		args []string
		exit int
		msg  string
	}{
		{[]string{"crawl"}, exitConfig, "nothing to crawl: no source is configured yet"},
		{[]string{"search", "budget"}, exitError, "nothing is indexed yet, and no source is configured"},
		{[]string{"ask", "what is the budget?"}, exitError, "nothing is indexed yet, and no source is configured"},
		{[]string{"ask", "--mode", "agentic", "what is the budget?"}, exitError, "nothing is indexed yet"},
	} {
		if code := h.run(c.args...); code != c.exit {
			t.Errorf("gds %s: exit %d, want %d; stderr %s", strings.Join(c.args, " "), code, c.exit, h.stderr.String())
		}
		if e := h.stderr.String(); !strings.Contains(e, c.msg) || !strings.Contains(e, "Hint: run `gds init`") || !strings.Contains(e, "--source local:PATH --no-input") {
			t.Errorf("gds %s: stderr does not point to gds init:\n%s", strings.Join(c.args, " "), e)
		}
	}

	// --json: the same hint in the error document.
	h.run("search", "--json", "budget")
	var doc struct {
		Error struct{ Code, Message, Hint string }
	}
	if err := json.Unmarshal(h.stdout.Bytes(), &doc); err != nil || doc.Error.Code != "no_index" || !strings.Contains(doc.Error.Hint, "gds init") {
		t.Errorf("search --json: %v %+v\n%s", err, doc, h.stdout.String())
	}

	// doctor: one problem, fixed by gds init; no Drive or OAuth checks, no
	// old GDS_SOURCE advice.
	if code := h.run("doctor", "--offline"); code != exitError {
		t.Errorf("doctor: exit %d", code)
	}
	out := h.stdout.String()
	if !strings.Contains(out, "no source is configured yet") || !strings.Contains(out, "fix:  gds init") || !strings.Contains(out, "1 problem, ") {
		t.Errorf("doctor does not name the missing source and gds init:\n%s", out)
	}
	for _, bad := range []string{"GOOGLE_OAUTH_CLIENT_ID", "GOOGLE_DRIVE_TARGET_FOLDER_IDS", "GDS_SOURCE=", "gds auth login", "fix:  gds crawl"} {
		if strings.Contains(out, bad) {
			t.Errorf("doctor on a fresh home mentions %q:\n%s", bad, out)
		}
	}

	// The way out the messages name.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "budget.txt"), []byte("The budget for the launch is 12,000 euros."), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := h.run("init", "--source", "local:"+dir, "--no-input"); code != exitOK {
		t.Fatalf("init: exit %d, stderr %s", code, h.stderr.String())
	}
	if code := h.run("crawl"); code != exitOK {
		t.Fatalf("crawl after init: exit %d, stderr %s", code, h.stderr.String())
	}
	if code := h.run("search", "budget"); code != exitOK || !strings.Contains(h.stdout.String(), "budget.txt") {
		t.Errorf("search after init and crawl: exit %d\n%s%s", code, h.stdout.String(), h.stderr.String())
	}
	if code := h.run("doctor", "--offline"); strings.Contains(h.stdout.String(), "no source is configured") {
		t.Errorf("doctor after init still says no source (exit %d):\n%s", code, h.stdout.String())
	}
}

// With a source configured but nothing crawled yet, the empty index still
// says to crawl, not to set up.
func TestEmptyIndexWithASourceSaysCrawl(t *testing.T) {
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOffline
	h.env[config.EnvSources] = "local:" + t.TempDir()
	if code := h.run("search", "budget"); code != exitError {
		t.Fatalf("exit %d", code)
	}
	if e := h.stderr.String(); !strings.Contains(e, "run `gds crawl` first") || strings.Contains(e, "gds init") {
		t.Errorf("stderr:\n%s", e)
	}
}

// `gds crawl --source local:/missing` is a usage error naming the folder,
// and it touches nothing.
func TestCrawlMissingSourceFolderIsAUsageError(t *testing.T) {
	h := newHarness(t)
	missing := filepath.Join(t.TempDir(), "no-such-folder")
	if code := h.run("crawl", "--source", "local:"+missing); code != exitUsage {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitUsage, h.stderr.String())
	}
	if e := h.stderr.String(); !strings.Contains(e, "--source local:"+missing+": the folder "+missing+" does not exist") || strings.Contains(e, "stat ") {
		t.Errorf("stderr:\n%s", e)
	}
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := h.run("crawl", "--source", "local:"+file); code != exitUsage || !strings.Contains(h.stderr.String(), file+" is not a folder") {
		t.Errorf("a file as the folder: exit %d, stderr %s", code, h.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(h.env[config.EnvHome], "index.db")); !os.IsNotExist(err) {
		t.Errorf("the refused crawl created the index (%v)", err)
	}
}

// `gds serve` on a fresh home says, when it starts, how to fill the index.
func TestServeOnAnEmptyIndexSaysWhatToDo(t *testing.T) {
	bin := gdsBinary(t)
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GDS_HOME="+t.TempDir(), "GDS_AI_PROVIDER=offline", "DATABASE_URL=", "SUPABASE_DB_URL=",
		"GDS_SOURCES=", "GDS_SOURCE=", "GOOGLE_DRIVE_TARGET_FOLDER_IDS=", "LANG=C", "LC_ALL=", "LC_MESSAGES=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(60 * time.Second) // a hang guard, not a timing
	var seen []string
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("gds serve ended; stderr:\n%s", strings.Join(seen, "\n"))
			}
			seen = append(seen, l)
			if strings.Contains(l, "The index is empty and no source is configured: run `gds init`") {
				return
			}
		case <-deadline:
			t.Fatalf("no empty-index notice; stderr so far:\n%s", strings.Join(seen, "\n"))
		}
	}
}

// The demo indexes the sample, searches it, and says how to keep using
// its binary and index; following what it prints works.
func TestDemoSaysHowToKeepUsingItsIndex(t *testing.T) {
	bin := gdsBinary(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	home := filepath.Join(t.TempDir(), "demo")
	cmd := exec.Command("bash", "../../scripts/demo.sh", "steam engine")
	cmd.Env = append(os.Environ(), "GDS_DEMO_BIN="+bin, "GDS_DEMO_HOME="+home, "LANG=C", "LC_ALL=", "LC_MESSAGES=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("demo.sh: %v\n%s", err, out)
	}
	text := string(out)
	if !strings.Contains(text, "Steam_engine-1.txt") {
		t.Errorf("the demo's search found no steam engine:\n%s", text)
	}
	m := regexp.MustCompile(`(?m)^==> done\. The binary is (\S+); this index is in (\S+)\. To keep using it:\n\s+export GDS_HOME="([^"]+)" GDS_AI_PROVIDER=offline\n\s+(\S+) search "steam engine"`).FindStringSubmatch(text)
	if m == nil || m[1] != bin || m[2] != home || m[3] != home || m[4] != bin {
		t.Fatalf("the demo's closing lines do not name the binary and the index (%q):\n%s", m, text)
	}
	if !strings.Contains(text, bin+" init") {
		t.Errorf("the demo does not point to gds init for one's own folder:\n%s", text)
	}
	// Follow the printed instructions from another directory.
	follow := exec.Command(m[4], "search", "Rankine cycle")
	follow.Dir = t.TempDir()
	follow.Env = append(os.Environ(), "GDS_HOME="+m[3], "GDS_AI_PROVIDER=offline", "DATABASE_URL=", "SUPABASE_DB_URL=", "LANG=C")
	if res, err := follow.CombinedOutput(); err != nil || !strings.Contains(string(res), "Steam_engine") {
		t.Errorf("searching the demo's index as printed: %v\n%s", err, res)
	}
}
