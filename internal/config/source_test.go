package config

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A folder path written without "local:" is refused with the spelling that
// works; other unknown words get no suggestion.
func TestParseSourceSuggestsLocal(t *testing.T) {
	cases := []struct {
		in, suggest string
	}{
		{"/data/docs", "local:/data/docs"},
		{"~/Documents", "local:~/Documents"},
		{"./docs", "local:./docs"},
		{"../docs", "local:../docs"},
		{"docs/2024", "local:docs/2024"},
		{".", "local:."},
		{"dirve", ""},
		{"s3", ""},
	}
	for _, c := range cases {
		_, err := ParseSource(c.in, "/work", "/home/u")
		var se *SourceError
		if !errors.As(err, &se) {
			t.Fatalf("%q: err %v, want *SourceError", c.in, err)
		}
		if se.Suggest != c.suggest {
			t.Errorf("%q: suggest %q, want %q", c.in, se.Suggest, c.suggest)
		}
	}
	if _, err := ParseSource("local:/data", "/work", "/home/u"); err != nil {
		t.Errorf("local:/data: %v", err)
	}
}

func TestLoadBadSourceSuggestsLocal(t *testing.T) {
	env := map[string]string{EnvHome: t.TempDir(), EnvSource: "/data/docs"}
	_, err := Load(LoadOptions{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }, WorkDir: t.TempDir(), GOOS: "linux"})
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("err %v, want *config.Error", err)
	}
	if got, want := ce.Message("en"), "for a local folder write local:/data/docs"; !strings.Contains(got, want) {
		t.Errorf("message %q lacks %q", got, want)
	}
}

// A .env line the parser refuses is named by file and line number.
func TestEnvFileErrorNamesLine(t *testing.T) {
	cases := []struct {
		body string
		line int
	}{
		{"GDS_SOURCE=drive\nGDS_AI_PROVIDER=offline\nTHIS IS NOT A SETTING\nOPENAI_MODEL=x\n", 3},
		{"BROKEN LINE\n", 1},
		{"A=1\nB=\"multi\nline\"\nC=3\nD E\n", 5},
	}
	for _, c := range cases {
		home := t.TempDir()
		if err := os.WriteFile(filepath.Join(home, ".env"), []byte(c.body), 0o600); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{EnvHome: home}
		_, err := Load(LoadOptions{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }, WorkDir: t.TempDir(), GOOS: "linux"})
		var ce *Error
		if !errors.As(err, &ce) {
			t.Fatalf("%q: err %v, want *config.Error", c.body, err)
		}
		want := filepath.Join(home, ".env") + ":" + strconv.Itoa(c.line) + ": "
		if got := ce.Message("en"); !strings.HasPrefix(got, want) {
			t.Errorf("%q: message %q, want prefix %q", c.body, got, want)
		}
	}
}

// LoadAll goes past bad values: every problem, and the readable values.
func TestLoadAllKeepsReadableValues(t *testing.T) {
	env := map[string]string{EnvHome: t.TempDir(), EnvAIProvider: "bogus", EnvSource: "/data", EnvOpenAIModel: "m-1"}
	opts := LoadOptions{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }, WorkDir: t.TempDir(), GOOS: "linux"}
	if _, err := Load(opts); err == nil {
		t.Fatal("Load accepted bad values")
	}
	cfg, problems := LoadAll(opts)
	if cfg == nil || len(problems) != 2 {
		t.Fatalf("LoadAll: cfg %v, problems %v", cfg, problems)
	}
	if cfg.OpenAIModel != "m-1" {
		t.Errorf("OpenAIModel = %q", cfg.OpenAIModel)
	}
}
