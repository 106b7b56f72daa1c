package launcher

import (
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/config"
)

func TestKeyServerOffAndSocket(t *testing.T) {
	for v, off := range map[string]bool{"": false, "on": false, "off": true, "0": true, "FALSE": true, "no": true} {
		if got := KeyServerOff(func(string) (string, bool) { return v, v != "" }); got != off {
			t.Errorf("%s=%q: off = %v, want %v", KeyServerEnv, v, got, off)
		}
	}
	if s := KeySocket(&config.Config{DataDir: "/" + strings.Repeat("d", 120)}); s != "" {
		t.Errorf("a socket path over the limit: %q", s)
	}
	if s := KeySocket(&config.Config{DataDir: "/home/u/.gds"}); s != "/home/u/.gds/keystroke.sock" {
		t.Errorf("socket = %q", s)
	}
}

// The served environment's key changes with any variable, its value or the
// working directory, and ignores the order, a shell's bookkeeping and
// StartServerEnv.
func TestServedEnvKey(t *testing.T) {
	base := []string{"HOME=/home/u", "LANG=ja_JP.UTF-8", "GDS_HOME=/home/u/.gds", "source=local:~/Docs"}
	key := ServedEnvKey(base, "/wd")
	same := [][]string{
		{"source=local:~/Docs", "GDS_HOME=/home/u/.gds", "LANG=ja_JP.UTF-8", "HOME=/home/u"},
		append(slices.Clone(base), "_=/usr/bin/gds"),
		append(slices.Clone(base), StartServerEnv+"=1"),
		append(slices.Clone(base), "PWD=/wd", "SHLVL=2", "OLDPWD=/"),
	}
	for _, env := range same {
		if ServedEnvKey(env, "/wd") != key {
			t.Errorf("%q: another key", env)
		}
	}
	differ := [][]string{
		{"HOME=/home/u", "LANG=C", "GDS_HOME=/home/u/.gds", "source=local:~/Docs"},
		{"HOME=/home/u", "LANG=ja_JP.UTF-8", "GDS_HOME=/home/u/.gds"},
		append(slices.Clone(base), "GDS_AI_PROVIDER=openai"),
	}
	for _, env := range differ {
		if ServedEnvKey(env, "/wd") == key {
			t.Errorf("%q: the same key", env)
		}
	}
	if ServedEnvKey(base, "/elsewhere") == key {
		t.Error("another working directory: the same key")
	}
}
