package launcher

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render/alfred"
)

func TestRoute(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		act   Action
		query string
	}{
		{[]string{"gds"}, Core, ""},
		{[]string{}, Core, ""},
		{[]string{"gds", "version"}, Version, ""},
		{[]string{"gds", "version", "--json"}, VersionJSON, ""},
		{[]string{"gds", "version", "--help"}, Core, ""},
		{[]string{"gds", "version", "-json"}, Core, ""},
		{[]string{"gds", "version", "x"}, Core, ""},
		{[]string{"gds", "--version"}, Core, ""},
		{[]string{"gds", "--help"}, Core, ""},
		{[]string{"gds", "search", "x"}, Served, ""},
		{[]string{"gds", "search", "two", "words"}, Served, ""},
		{[]string{"gds", "search"}, Core, ""},
		{[]string{"gds", "search", "  "}, Core, ""},
		{[]string{"gds", "search", "--json", "x"}, Core, ""},
		{[]string{"gds", "search", "x", "--verbose"}, Core, ""},
		{[]string{"gds", "search", "help"}, Core, ""},
		{[]string{"gds", "searchx", "x"}, Core, ""},
		{[]string{"gds", "alfred"}, Core, ""},
		{[]string{"gds", "alfred", "workflow"}, Core, ""},
		{[]string{"gds", "alfred", "filter"}, Keystroke, ""},
		{[]string{"gds", "alfred", "filter", "  budget  "}, Keystroke, "budget"},
		{[]string{"gds", "alfred", "filter", "steam", "engine"}, Keystroke, "steam engine"},
		{[]string{"gds", "alfred", "filter", "先月の議事録"}, Keystroke, "先月の議事録"},
		{[]string{"gds", "alfred", "filter", "--state", "T", "x"}, Core, ""},
		{[]string{"gds", "alfred", "filter", "x", "--help"}, Core, ""},
		{[]string{"gds", "alfred", "filter", "-x"}, Core, ""},
		{[]string{"gds", "alfred", "filter", "help"}, Core, ""},
		{[]string{"gds", "alfred", "filter", alfred.RunText("budget")}, Served, ""},
		{[]string{"gds", "alfred", "filter", alfred.AnswerText("tok", "1")}, Served, ""},
		{[]string{"gds", "alfred", "filter", alfred.PendingText("tok")}, Served, ""},
		{[]string{"gds", "alfred", "filter", "--folder", "f", alfred.RunText("budget")}, Served, ""},
		{[]string{"gds", "alfred", "filter", alfred.Marker}, Core, ""},
		{[]string{"gds", "alfred", "filter", "--state", "T", alfred.RunText("budget")}, Core, ""},
	} {
		act, typed := Route(tc.args)
		if q := typed.Query; act != tc.act || q != tc.query || typed.FolderSet {
			t.Errorf("Route(%q) = %v %q, want %v %q", tc.args, act, q, tc.act, tc.query)
		}
	}
}

func TestRouteFolder(t *testing.T) {
	env := func(v string) func(string) (string, bool) {
		return func(k string) (string, bool) { return v, k == FolderEnv && v != "" }
	}
	for _, tc := range []struct {
		args   []string
		env    string
		act    Action
		query  string
		folder string
	}{
		{[]string{"gds", "alfred", "filter", "--folder", "Sales/2025", "budget"}, "", Keystroke, "budget", "Sales/2025"},
		{[]string{"gds", "alfred", "filter", "--folder=営業", "先月の", "議事録"}, "", Keystroke, "先月の 議事録", "営業"},
		{[]string{"gds", "alfred", "filter", "--folder", "A", "x"}, "B", Keystroke, "x", "A"}, // the flag wins
		{[]string{"gds", "alfred", "filter", "--folder=", "x"}, "B", Keystroke, "x", ""},      // an empty flag too
		{[]string{"gds", "alfred", "filter", "x"}, "B", Keystroke, "x", "B"},                  // the workflow variable
		{[]string{"gds", "alfred", "filter", "--folder", "A"}, "", Keystroke, "", "A"},
		{[]string{"gds", "alfred", "filter", "--folder"}, "", Core, "", ""},
		{[]string{"gds", "alfred", "filter", "x", "--folder", "A"}, "", Core, "", ""},
		{[]string{"gds", "alfred", "filter", "--folder", "A", "--folder", "B", "x"}, "", Core, "", ""},
		{[]string{"gds", "alfred", "filter", "--folder", "A", "--state", "T", "x"}, "", Core, "", ""},
		{[]string{"gds", "alfred", "filter", "--folder", "A", alfred.RunText("x")}, "", Served, "", ""},
	} {
		act, typed := Route(tc.args)
		if act != tc.act || typed.Query != tc.query || typed.FolderFrom(env(tc.env)) != tc.folder && act == Keystroke {
			t.Errorf("Route(%q) with %s=%q = %v %+v (folder %q), want %v %q folder %q", tc.args, FolderEnv, tc.env, act, typed,
				typed.FolderFrom(env(tc.env)), tc.act, tc.query, tc.folder)
		}
	}
}

func TestWriteVersion(t *testing.T) {
	b := BuildInfo{Version: "1.2.3", Commit: "abc", Date: "2030-01-01"}
	var text, js bytes.Buffer
	if err := WriteVersion(&text, b, false); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text.String(), "gds 1.2.3 (commit abc, built 2030-01-01, ") || !strings.HasSuffix(text.String(), ")\n") {
		t.Errorf("text = %q", text.String())
	}
	if err := WriteVersion(&js, b, true); err != nil {
		t.Fatal(err)
	}
	if js.String() != "{\n  \"commit\": \"abc\",\n  \"date\": \"2030-01-01\",\n  \"version\": \"1.2.3\"\n}\n" {
		t.Errorf("json = %q", js.String())
	}
}

func TestCorePath(t *testing.T) {
	dir := t.TempDir()
	keg := filepath.Join(dir, "Cellar", "gds", "1.0", "bin")
	if err := os.MkdirAll(keg, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gds", CoreName} {
		if err := os.WriteFile(filepath.Join(keg, name), []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(bin, "gds")
	if err := os.Symlink(filepath.Join(keg, "gds"), link); err != nil {
		t.Fatal(err)
	}
	noEnv := func(string) string { return "" }
	// Through the symlink, to the keg.
	p, err := CorePath(link, noEnv)
	if err != nil || p != filepath.Join(keg, CoreName) {
		t.Errorf("CorePath(symlink) = %q, %v", p, err)
	}
	// GDS_CORE wins.
	other := filepath.Join(dir, "elsewhere")
	if err := os.WriteFile(other, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err = CorePath(link, func(k string) string {
		if k == CoreEnv {
			return other
		}
		return ""
	})
	if err != nil || p != other {
		t.Errorf("CorePath with GDS_CORE = %q, %v", p, err)
	}
	// Missing: a *CoreError naming the file, exit code of a config error.
	_, err = CorePath(filepath.Join(bin, "gds-alone"), noEnv)
	var ce *CoreError
	if !errors.As(err, &ce) || ce.Path != filepath.Join(bin, CoreName) || ce.Env || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("CorePath(missing) = %v", err)
	}
	r := apperr.Describe(err, i18n.Ja)
	if r.Exit != apperr.ExitConfig || !strings.Contains(r.Message, ce.Path) || !strings.Contains(r.Hint, CoreName) {
		t.Errorf("report = %+v", r)
	}
	// A directory is not a program.
	_, err = CorePath(link, func(k string) string {
		if k == CoreEnv {
			return dir
		}
		return ""
	})
	if !errors.As(err, &ce) || !ce.Env || !strings.Contains(apperr.Hint(err, i18n.En), CoreEnv) {
		t.Errorf("GDS_CORE=a directory: %v", err)
	}
}

func TestRespondAlfredAlwaysWritesItems(t *testing.T) {
	cfg := &config.Config{OpenAIAPIKey: "sk-secret-value-123456"}
	for name, answer := range map[string]func() (alfred.Output, error){
		"error": func() (alfred.Output, error) { return alfred.Output{}, apperr.L(apperr.NoIndex, "search.empty_index") },
		"panic": func() (alfred.Output, error) { panic("boom with sk-secret-value-123456") },
	} {
		var out, errb bytes.Buffer
		if err := RespondAlfred(&out, &errb, func(s string) string { return config.Redact(cfg, s) }, i18n.En, answer); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var doc struct{ Items []struct{ Title string } }
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Items) != 1 {
			t.Errorf("%s: stdout %q (%v)", name, out.String(), err)
		}
		if errb.Len() == 0 || strings.Contains(out.String()+errb.String(), "sk-secret-value-123456") {
			t.Errorf("%s: stderr %q, stdout %q (want a line on stderr and no secret)", name, errb.String(), out.String())
		}
	}
}
