package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// `gds completion SHELL` prints a script its shell parses (bash -n, zsh -n,
// fish -n where installed: scripts/release-check.sh installs zsh), the
// root help lists it, and `gds man` documents every command of the tree.
func TestCompletionAndManPage(t *testing.T) {
	h := newHarness(t)
	if code := h.run("--help"); code != exitOK || !strings.Contains(h.stdout.String(), "   completion") {
		t.Errorf("root help does not list completion:\n%s", h.stdout.String())
	}
	for shell, file := range map[string]string{"bash": "gds.bash", "zsh": "_gds", "fish": "gds.fish"} {
		if code := h.run("completion", shell); code != exitOK || h.stdout.Len() == 0 {
			t.Fatalf("gds completion %s: exit %d, %s", shell, code, h.stderr.String())
		}
		bin, err := exec.LookPath(shell)
		if err != nil {
			t.Logf("%s is not installed: its script is not parsed", shell)
			continue
		}
		p := filepath.Join(t.TempDir(), file)
		if err := os.WriteFile(p, h.stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bin, "-n", p).CombinedOutput(); err != nil {
			t.Errorf("%s -n on gds completion %s: %v\n%s", shell, shell, err, out)
		}
	}
	if code := h.run("man"); code != exitOK {
		t.Fatalf("gds man: exit %d, %s", code, h.stderr.String())
	}
	man := h.stdout.String()
	for _, p := range commandPaths {
		if !strings.Contains(man, `.SS "gds `+strings.ReplaceAll(strings.Join(p, " "), "-", `\-`)) {
			t.Errorf("gds.1 lacks the command %q", strings.Join(p, " "))
		}
	}
	for _, want := range []string{`.SS "gds completion"`, `\fB\-\-jsonl\fR`, ".SH EXIT STATUS"} {
		if !strings.Contains(man, want) {
			t.Errorf("gds.1 lacks %q", want)
		}
	}
	if strings.Contains(man, "keyserver") || strings.Contains(man, `.SS "gds man"`) {
		t.Errorf("gds.1 documents a hidden command")
	}
}
