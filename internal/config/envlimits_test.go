package config

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/envfile"
	"github.com/gds-cli/gds/internal/i18n"
)

// A .env file gds cannot read safely is a configuration error naming the
// file (and the line, or the limit) in both languages, never a value.
func TestEnvFileLimits(t *testing.T) {
	const secret = "sk-SECRET-in-env-0123456789"
	cases := []struct {
		name string
		body []byte
		want map[string]string // language → text the message holds
		line int
	}{
		{"binary", bytes.Repeat([]byte{0x9d, 0x01, '\n'}, 1000), map[string]string{i18n.En: "cannot be part of a variable name", i18n.Ja: "変数名に使えません"}, 1},
		{"bad character after a secret", []byte("OPENAI_API_KEY=" + secret + "\nBAD-NAME=" + secret + "\n"), map[string]string{i18n.En: `"-" cannot be part`, i18n.Ja: `"-" は変数名`}, 2},
		{"no equals", []byte("A=1\n\njust words\n"), map[string]string{i18n.En: "not a NAME=value line", i18n.Ja: "NAME=value"}, 3},
		{"unterminated", []byte("A=\"" + secret + "\nB=1\n"), map[string]string{i18n.En: "never closed", i18n.Ja: "閉じられていません"}, 1},
		{"too large", append([]byte("A=1\n#"), bytes.Repeat([]byte("x"), envfile.MaxSize)...), map[string]string{i18n.En: "larger than 1 MiB", i18n.Ja: "上限 1 MiB"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, ".env")
			if err := os.WriteFile(path, c.body, 0o600); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{EnvHome: home}
			_, err := Load(LoadOptions{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }, WorkDir: t.TempDir(), GOOS: "linux"})
			var ce *Error
			if !errors.As(err, &ce) || !errors.Is(err, apperr.Config) {
				t.Fatalf("err %v, want a *config.Error of kind config", err)
			}
			if ce.Line != c.line {
				t.Errorf("line %d, want %d", ce.Line, c.line)
			}
			for lang, want := range c.want {
				msg := ce.Message(lang)
				if !strings.HasPrefix(msg, path) || !strings.Contains(msg, want) {
					t.Errorf("%s: %q, want the file and %q", lang, msg, want)
				}
				if strings.Contains(msg, "SECRET") || len(msg) > 400 {
					t.Errorf("%s: the message shows file content: %q", lang, msg)
				}
			}
		})
	}
}

// The current directory's .env is held to the same limits.
func TestWorkDirEnvFileLimit(t *testing.T) {
	wd := t.TempDir()
	if err := os.WriteFile(filepath.Join(wd, ".env"), bytes.Repeat([]byte("#\n"), envfile.MaxSize), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(LoadOptions{LookupEnv: func(k string) (string, bool) { return "", false }, WorkDir: wd, HomeDir: t.TempDir(), GOOS: "linux"})
	if !errors.Is(err, envfile.ErrTooLarge) || !errors.Is(err, apperr.Config) {
		t.Errorf("err %v, want ErrTooLarge as a config error", err)
	}
}
