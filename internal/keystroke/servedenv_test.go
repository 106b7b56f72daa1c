package keystroke

import (
	"slices"
	"testing"

	"github.com/gds-cli/gds/internal/launcher"
)

// The served environment's key changes with any variable, its value or the
// working directory, and ignores the order, a shell's bookkeeping and
// launcher.StartServerEnv.
func TestServedEnvKey(t *testing.T) {
	base := []string{"HOME=/home/u", "LANG=ja_JP.UTF-8", "GDS_HOME=/home/u/.gds", "source=local:~/Docs"}
	key := ServedEnvKey(base, "/wd")
	same := [][]string{
		{"source=local:~/Docs", "GDS_HOME=/home/u/.gds", "LANG=ja_JP.UTF-8", "HOME=/home/u"},
		append(slices.Clone(base), "_=/usr/bin/gds"),
		append(slices.Clone(base), launcher.StartServerEnv+"=1"),
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
