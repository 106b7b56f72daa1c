package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// gdsIn runs the gds binary on home with stdin empty (not a terminal).
func gdsIn(t *testing.T, home string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(gdsBinary(t), args...)
	// The settings init writes must come from the home .env, so the
	// environment must not hold them (an empty variable still overrides).
	for _, kv := range os.Environ() {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "GDS_HOME", "LANG", "LC_ALL", "LC_MESSAGES", "GDS_AI_PROVIDER", "GDS_SOURCES", "GDS_SOURCE", "GOOGLE_DRIVE_TARGET_FOLDER_IDS",
			"OPENAI_API_KEY", "OPENAI_BASE_URL", "DATABASE_URL", "SUPABASE_DB_URL":
		default:
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "GDS_HOME="+home, "LANG=C")
	cmd.Dir = t.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestInitNoInputThenConfigShow: on a fresh home, `gds init --source
// local:A --no-input` writes the home .env and `gds config show` shows the
// source coming from it.
func TestInitNoInputThenConfigShow(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	a := t.TempDir()
	if err := os.WriteFile(filepath.Join(a, "notes.txt"), []byte("the quarterly plan for the init test"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := gdsIn(t, home, "init", "--source", "local:"+a, "--no-input")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	envFile := filepath.Join(home, ".env")
	for _, want := range []string{envFile, "GDS_SOURCES=local:" + a, "GDS_AI_PROVIDER=offline", "gds crawl"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if st, err := os.Stat(envFile); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v", st, err)
	}

	out, errOut, code = gdsIn(t, home, "config", "show", "--json")
	if code != 0 {
		t.Fatalf("config show: exit %d\n%s%s", code, out, errOut)
	}
	var shown configShowJSON
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range shown.Settings {
		if s.Name == "GDS_SOURCES" {
			found = s.Value == "local:"+a && s.Source == envFile
		}
	}
	if !found {
		t.Errorf("config show does not show GDS_SOURCES from %s:\n%s", envFile, out)
	}

	// Without --no-input, a stdin that is not a terminal asks nothing
	// either; a bare path is refused with the local: spelling and nothing
	// is written.
	before, _ := os.ReadFile(envFile)
	_, errOut, code = gdsIn(t, home, "init", "--source", a)
	if code != 2 || !strings.Contains(errOut, "local:"+a) {
		t.Errorf("bare path: exit %d\n%s", code, errOut)
	}
	if after, _ := os.ReadFile(envFile); !bytes.Equal(before, after) {
		t.Errorf(".env changed:\n%s", after)
	}
}

// TestInitThenPlainCrawl is the acceptance path of sources side by side: after
// `gds init --source local:A --no-input`, a plain `gds crawl` indexes A and
// `gds doctor` exits 0; a file moved in with an old modification time and
// a deleted file are reflected by the next plain crawl; `gds crawl
// --source local:B` adds B and A stays searchable.
func TestInitThenPlainCrawl(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	a := t.TempDir()
	if err := os.WriteFile(filepath.Join(a, "notes.txt"), []byte("the quarterly plan for the init test"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := gdsIn(t, home, "init", "--source", "local:"+a, "--no-input"); code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code := gdsIn(t, home, "crawl")
	if code != 0 {
		t.Fatalf("crawl: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = gdsIn(t, home, "db", "status", "--json")
	var st struct {
		Files int `json:"files"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.Files != 1 {
		t.Errorf("db status: exit %d files %d\n%s%s", code, st.Files, out, errOut)
	}
	// A local-only setup with an index is clean.
	if out, errOut, code := gdsIn(t, home, "doctor"); code != 0 {
		t.Errorf("doctor after init and crawl: exit %d\n%s%s", code, out, errOut)
	}

	// A file moved into A with an old modification time and a file deleted
	// from A are both seen by a plain incremental crawl.
	outside := filepath.Join(t.TempDir(), "archive-memo.txt")
	if err := os.WriteFile(outside, []byte("the archived budget memo moved in later"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2015, 3, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(outside, old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(outside, filepath.Join(a, "archive-memo.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(a, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := gdsIn(t, home, "crawl"); code != 0 {
		t.Fatalf("second crawl: exit %d\n%s%s", code, out, errOut)
	}
	if names := searchNames(t, home, "archived budget memo"); !slices.Contains(names, "archive-memo.txt") {
		t.Errorf("the file moved in with a 2015 modification time is not found: %v", names)
	}
	if names := searchNames(t, home, "quarterly plan"); slices.Contains(names, "notes.txt") {
		t.Errorf("the deleted file is still found: %v", names)
	}

	// Another folder crawled on its own joins the index; A stays searchable.
	b := t.TempDir()
	if err := os.WriteFile(filepath.Join(b, "roadmap.txt"), []byte("the product roadmap for the second folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := gdsIn(t, home, "crawl", "--source", "local:"+b); code != 0 {
		t.Fatalf("crawl of B: exit %d\n%s%s", code, out, errOut)
	}
	if names := searchNames(t, home, "product roadmap"); !slices.Contains(names, "roadmap.txt") {
		t.Errorf("B's file is not found after crawling B: %v", names)
	}
	if names := searchNames(t, home, "archived budget memo"); !slices.Contains(names, "archive-memo.txt") {
		t.Errorf("A's file is lost after crawling B: %v", names)
	}
}

// searchNames runs `gds search --json QUERY` on home and returns the
// result names.
func searchNames(t *testing.T, home, query string) []string {
	t.Helper()
	out, errOut, code := gdsIn(t, home, "search", "--json", query)
	var doc struct {
		Results []struct {
			Name string `json:"name"`
		} `json:"results"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("search %q: exit %d\n%s%s", query, code, out, errOut)
	}
	var names []string
	for _, r := range doc.Results {
		names = append(names, r.Name)
	}
	return names
}
