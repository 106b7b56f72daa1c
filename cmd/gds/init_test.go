package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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

// TestInitThenPlainCrawl is the acceptance path of issue 16: after
// `gds init --source local:A --no-input`, a plain `gds crawl` indexes A.
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
}
