package envfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRewriteKeepsOtherLines(t *testing.T) {
	in := `# my settings
export OPENAI_MODEL=gpt-4o   # inline comment

GDS_SOURCE=drive
GOOGLE_DRIVE_TARGET_FOLDER_IDS=abc,def
MULTI="line one
line two"
GDS_AI_PROVIDER=openai
OTHER='x'
GDS_AI_PROVIDER=auto
`
	got := string(Rewrite([]byte(in), Edit{
		Set:     []KV{{"GDS_SOURCES", "local:/docs"}, {"GDS_AI_PROVIDER", "offline"}},
		Comment: []string{"GDS_SOURCE", "GOOGLE_DRIVE_TARGET_FOLDER_IDS"},
		Note:    "replaced by GDS_SOURCES",
	}))
	want := `# my settings
export OPENAI_MODEL=gpt-4o   # inline comment

# GDS_SOURCE=drive  # replaced by GDS_SOURCES
# GOOGLE_DRIVE_TARGET_FOLDER_IDS=abc,def  # replaced by GDS_SOURCES
MULTI="line one
line two"
GDS_AI_PROVIDER=offline
OTHER='x'
GDS_SOURCES=local:/docs
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	vals, err := Parse([]byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if vals["MULTI"] != "line one\nline two" || vals["OPENAI_MODEL"] != "gpt-4o" || vals["GDS_AI_PROVIDER"] != "offline" {
		t.Errorf("values: %q", vals)
	}
	if _, ok := vals["GDS_SOURCE"]; ok {
		t.Error("GDS_SOURCE still set")
	}
}

func TestRewriteEdgeCases(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"empty file", "", "K=v\n"},
		{"no trailing newline", "A=1", "A=1\nK=v\n"},
		{"CRLF lines are kept", "A=1\r\nK=old\r\n", "A=1\r\nK=v\n"},
		{"a commented key is not a setting", "# K=old\n", "# K=old\nK=v\n"},
		{"a key that only shares a prefix", "KK=1\n", "KK=1\nK=v\n"},
		{"spaces around =", "  K = old\n", "K=v\n"},
		{"unchanged", "K=v\n", "K=v\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Rewrite([]byte(tc.in), Edit{Set: []KV{{"K", "v"}}})); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLineRoundTrips checks that every value is read back unchanged by the
// parser gds loads .env files with.
func TestLineRoundTrips(t *testing.T) {
	for _, v := range []string{
		"", "plain", "local:/Users/me/My Drive", "local:/a b,local:/c", `it's`, `say "hi"`, `back\slash`,
		`$HOME and ${HOME}`, `it's $HOME "q" \ end`, "two\nlines", "tab\there", "#notacomment", "sk-proj-AbC_123",
		"日本語のフォルダ", `'`, `"`, `C:\Docs`,
	} {
		line := Line("K", v)
		vals, err := Parse([]byte("A=1\n" + line + "\nB=2\n"))
		if err != nil {
			t.Errorf("%q → %s: %v", v, line, err)
			continue
		}
		if vals["K"] != v || vals["A"] != "1" || vals["B"] != "2" {
			t.Errorf("%q → %s → %q", v, line, vals["K"])
		}
	}
}

// TestApplyRefusesUnwritable: a value the parser would misread is refused
// and nothing is written.
func TestApplyRefusesUnwritable(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	if err := os.WriteFile(path, []byte("A=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Apply(path, Edit{Set: []KV{{"K", `a b\`}}})
	if !errors.Is(err, ErrUnwritable) {
		t.Fatalf("err = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "A=1\n" {
		t.Errorf("file changed: %q", data)
	}
}

func TestApplyAtomic0600(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "home", ".env")
	changed, err := Apply(path, Edit{Set: []KV{{"OPENAI_API_KEY", "sk-secret"}}})
	if err != nil || !changed {
		t.Fatalf("changed %v err %v", changed, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != Perm {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	// An existing 0644 file becomes 0600 when rewritten.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(path, Edit{Set: []KV{{"A", "1"}}}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if string(data) != "OPENAI_API_KEY=sk-secret\nA=1\n" {
		t.Errorf("content %q", data)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != Perm {
		t.Errorf("mode after rewrite %v", st.Mode().Perm())
	}
	changed, err = Apply(path, Edit{Set: []KV{{"A", "1"}}})
	if err != nil || changed {
		t.Errorf("no-op edit: changed %v err %v", changed, err)
	}
	ents, _ := os.ReadDir(filepath.Dir(path))
	if len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestApplyFailureKeepsOriginal: when the new file cannot replace the old
// one, the old one is intact and no temporary file is left.
func TestApplyFailureKeepsOriginal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".env")
	// A non-empty directory where the file should be: the rename fails.
	if err := os.MkdirAll(filepath.Join(path, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := Apply(path, Edit{Set: []KV{{"OPENAI_API_KEY", "sk-secret-value"}}})
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), "sk-secret-value") {
		t.Errorf("the error shows the value: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != ".env" || !ents[0].IsDir() {
		t.Errorf("dir now holds %v", ents)
	}
}
