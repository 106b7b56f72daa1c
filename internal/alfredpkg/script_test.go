package alfredpkg

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"howett.net/plist"

	"github.com/gds-cli/gds/alfred"
	"github.com/gds-cli/gds/internal/launcher"
)

// scriptFilterScript returns the inline script of the workflow's Script Filter.
func scriptFilterScript(t *testing.T) string {
	t.Helper()
	data, err := alfred.Source.ReadFile("info.plist")
	if err != nil {
		t.Fatal(err)
	}
	var info infoPlist
	if _, err := plist.Unmarshal(data, &info); err != nil {
		t.Fatal(err)
	}
	for _, o := range info.Objects {
		if o.Type == "alfred.workflow.input.scriptfilter" {
			return o.Config["script"].(string)
		}
	}
	t.Fatal("no script filter")
	return ""
}

// stubbedScript returns bash, the Script Filter's script and a stub gds
// (a shell script with body) in a new directory dir; the test is skipped
// without bash.
func stubbedScript(t *testing.T, body string) (bash, script, dir, stub string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir = t.TempDir()
	stub = filepath.Join(dir, "gds")
	if err := os.WriteFile(stub, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return bash, scriptFilterScript(t), dir, stub
}

// TestScriptFilterRunsGds runs the Script Filter's script the way Alfred
// does (type 0 = /bin/bash, the query as $1) against a stub gds.
func TestScriptFilterRunsGds(t *testing.T) {
	bash, script, dir, stub := stubbedScript(t, "for a in \"$@\"; do printf '[%s]' \"$a\"; done\n")
	run := func(env ...string) string {
		cmd := exec.Command(bash, "-c", script, "bash", `先月の "議事録" $HOME`)
		cmd.Env = append([]string{"HOME=" + dir, "PATH=/usr/bin:/bin"}, env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("script: %v", err)
		}
		return string(out)
	}
	if got := run("gds_path=" + stub); got != `[alfred][filter][先月の "議事録" $HOME]` {
		t.Errorf("with gds_path: %q", got)
	}
	// Without gds_path, gds is found on the PATH the script sets up (~/go/bin here).
	if err := os.MkdirAll(filepath.Join(dir, "go", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(stub, filepath.Join(dir, "go", "bin", "gds")); err != nil {
		t.Fatal(err)
	}
	if got := run(); !strings.HasPrefix(got, "[alfred][filter]") {
		t.Errorf("from PATH: %q", got)
	}
	// gds missing: valid Script Filter JSON that says so.
	got := run("gds_path=" + filepath.Join(dir, "nope"))
	var out struct {
		Items []struct {
			Title string `json:"title"`
			Valid bool   `json:"valid"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(got), &out); err != nil || len(out.Items) != 1 || out.Items[0].Valid || !strings.Contains(out.Items[0].Title, "not found") {
		t.Errorf("missing gds: %q (%v)", got, err)
	}
}

// TestScriptFilterTakesTheFrontsFastPath: the workflow runs the installed
// gds — the front binary (cmd/gds-front) — on every keystroke, and the
// front answers a typed query itself only for the exact command line
// launcher.Route accepts; anything else costs a hand-over to gds-core. The
// script's command line must stay one the front answers.
func TestScriptFilterTakesTheFrontsFastPath(t *testing.T) {
	bash, script, dir, stub := stubbedScript(t, "for a in \"$@\"; do printf '%s\\0' \"$a\"; done\n")
	for query, want := range map[string]launcher.Action{
		"先月の議事録":       launcher.Keystroke,
		"steam engine": launcher.Keystroke,
		"":             launcher.Keystroke,
		"⌕ budget":     launcher.Served, // the full loop: the keystroke server runs it, else gds-core
	} {
		cmd := exec.Command(bash, "-c", script, "bash", query)
		cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "gds_path=" + stub}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("script: %v", err)
		}
		argv := append([]string{"gds"}, strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")...)
		if act, _ := launcher.Route(argv); act != want {
			t.Errorf("query %q: the script runs %q, which the front routes to %v, want %v", query, argv, act, want)
		}
	}
}

// TestScriptFilterRunsGdsOnOneP: the script starts gds with GOMAXPROCS=1
// (a keystroke process starts fewer threads; docs/BENCHMARKS.md), unless
// the environment sets GOMAXPROCS already.
func TestScriptFilterRunsGdsOnOneP(t *testing.T) {
	bash, script, dir, stub := stubbedScript(t, "printf '%s' \"${GOMAXPROCS-unset}\"\n")
	for env, want := range map[string]string{"": "1", "GOMAXPROCS=4": "4"} {
		cmd := exec.Command(bash, "-c", script, "bash", "budget")
		cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "gds_path=" + stub}
		if env != "" {
			cmd.Env = append(cmd.Env, env)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("script: %v", err)
		}
		if string(out) != want {
			t.Errorf("environment %q: gds ran with GOMAXPROCS %q, want %q", env, out, want)
		}
	}
}
