package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/schedule"
)

// harness runs gds in-process with buffers and an isolated GDS_HOME.
type harness struct {
	t    *testing.T
	env  map[string]string
	work string
	lang string
	// driveRetry is the Drive clients' retry policy (zero: the defaults).
	driveRetry drive.RetryPolicy
	stdout     bytes.Buffer
	stderr     bytes.Buffer
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	return &harness{
		t:    t,
		env:  map[string]string{config.EnvHome: t.TempDir()},
		work: t.TempDir(),
		lang: i18n.En,
	}
}

func (h *harness) run(args ...string) int {
	h.t.Helper()
	h.stdout.Reset()
	h.stderr.Reset()
	lo := config.LoadOptions{
		LookupEnv: func(k string) (string, bool) { v, ok := h.env[k]; return v, ok },
		WorkDir:   h.work,
		GOOS:      "linux",
	}
	cfg, err := config.Load(lo)
	d := app.New(app.Options{Config: cfg, ConfigErr: err, LoadAllConfig: func() (*config.Config, []error) { return config.LoadAll(lo) },
		IO: iostreams.IOStreams{Stdout: &h.stdout, Stderr: &h.stderr, Lang: h.lang}, DriveRetry: h.driveRetry})
	return run(context.Background(), d, append([]string{"gds"}, args...), buildInfo{Version: "1.2.3", Commit: "abc1234", Date: "2025-01-02"})
}

// commandPaths are every command and subcommand of gds.
var commandPaths = [][]string{
	{"search"}, {"ask"}, {"crawl"}, {"graph"}, {"graph", "build"}, {"graph", "query"},
	{"auth"}, {"auth", "login"}, {"auth", "status"}, {"auth", "logout"},
	{"schedule"}, {"schedule", "install"}, {"schedule", "uninstall"}, {"schedule", "status"}, {"schedule", "run-now"},
	{"alfred"}, {"alfred", "filter"}, {"alfred", "workflow"}, {"alfred", "install"},
	{"config"}, {"config", "show"}, {"config", "path"},
	{"db"}, {"db", "migrate"}, {"db", "rebuild"}, {"db", "status"},
	{"doctor"}, {"eval"}, {"version"}, {"mcp"}, {"federate"},
}

func TestRootHelpListsEveryCommand(t *testing.T) {
	h := newHarness(t)
	if code := h.run("--help"); code != exitOK {
		t.Fatalf("--help exit %d, stderr %s", code, h.stderr.String())
	}
	out := h.stdout.String()
	for _, p := range commandPaths {
		if len(p) != 1 {
			continue
		}
		usage := i18n.T(i18n.En, i18n.Key("cmd."+p[0]+".usage"))
		if !strings.Contains(out, "   "+p[0]) || !strings.Contains(out, usage) {
			t.Errorf("root help lacks %q with usage %q", p[0], usage)
		}
	}
	for _, want := range []string{"Examples:", "gds config path", "--version"} {
		if !strings.Contains(out, want) {
			t.Errorf("root help lacks %q", want)
		}
	}
}

func TestEveryCommandHasHelp(t *testing.T) {
	for _, p := range commandPaths {
		t.Run(strings.Join(p, "_"), func(t *testing.T) {
			h := newHarness(t)
			code := h.run(append(append([]string{}, p...), "--help")...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr %s", code, h.stderr.String())
			}
			out := h.stdout.String()
			key := "cmd." + strings.ReplaceAll(strings.Join(p, "."), "-", "_") + ".usage"
			if usage := i18n.T(i18n.En, i18n.Key(key)); !strings.Contains(out, "gds "+strings.Join(p, " ")+" - "+usage) {
				t.Errorf("help lacks the name line with usage %q:\n%s", usage, out)
			}
			if strings.Contains(out, "cmd.") || strings.Contains(out, "flag.") {
				t.Errorf("help shows a raw message key:\n%s", out)
			}
		})
	}
}

func TestHelpShowsFlags(t *testing.T) {
	cases := map[string][]string{
		"search": {"--json", "--alfred", "--verbose", "--answer", "--state", "--limit", "[QUERY]", "(default: 10)",
			"search, e.g. 5s (also GDS_SEARCH_TIMEOUT) (default: 5s)", "(also GDS_SEARCH_DRIVE_TIMEOUT) (default: 2s)", "(also GDS_SEARCH_DB_TIMEOUT) (default: 3s)"},
		"crawl":            {"--source", "--full", "--dry-run", "--concurrency", "local:PATH"},
		"auth login":       {"--no-browser"},
		"schedule install": {"--interval", "(default: 1h0m0s)"},
		"alfred workflow":  {"--output"},
		"config show":      {"--json"},
		"db status":        {"--json"},
		"db rebuild":       {"--json", "--concurrency", "damaged-"},
		"doctor":           {"--offline", "--json"},
	}
	for cmd, flags := range cases {
		h := newHarness(t)
		h.run(append(strings.Fields(cmd), "--help")...)
		for _, f := range flags {
			if !strings.Contains(h.stdout.String(), f) {
				t.Errorf("%s --help lacks %q", cmd, f)
			}
		}
	}
}

func TestHelpInJapanese(t *testing.T) {
	h := newHarness(t)
	h.lang = i18n.Ja
	h.run("crawl", "--help")
	if !strings.Contains(h.stdout.String(), "設定したソースをインデックスします") {
		t.Errorf("Japanese help not used:\n%s", h.stdout.String())
	}
}

// Every command is built now; the not-implemented error (kept for
// commands a later release adds) still prints one error line and a hint,
// in the user's language, and exits 4.
func TestNotImplementedError(t *testing.T) {
	for lang, prefix := range map[string]string{
		i18n.En: "Error: gds frob is not implemented yet",
		i18n.Ja: "エラー: gds frob はこのビルドではまだ実装されていません",
	} {
		var stderr bytes.Buffer
		d := app.New(app.Options{IO: iostreams.IOStreams{Stderr: &stderr, Lang: lang}})
		err := notImplementedError{command: "gds frob"}
		if code := exitCode(fmt.Errorf("wrapped: %w", err)); code != exitNotImplemented {
			t.Errorf("exit %d, want %d", code, exitNotImplemented)
		}
		printError(d, err)
		out := stderr.String()
		if !strings.HasPrefix(out, prefix) || strings.Count(strings.TrimSpace(out), "\n") != 1 {
			t.Errorf("%s: stderr %q", lang, out)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"search", "--bogus"},
		{"search", "--json", "--alfred", "q"},
		{"crawl", "--concurrency", "many"},
		{"crawl", "extra"},
		{"config", "show", "extra"},
		{"no-such-command"},
	} {
		h := newHarness(t)
		if code := h.run(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, exitUsage, h.stderr.String())
		}
		if !strings.HasPrefix(h.stderr.String(), "Error: ") || strings.Contains(h.stdout.String(), "USAGE:") {
			t.Errorf("%v: stdout %q stderr %q", args, h.stdout.String(), h.stderr.String())
		}
	}
}

func TestConfigErrorExitCode(t *testing.T) {
	cases := []struct {
		name, value, want string
	}{
		{config.EnvSearchMaxLoopCount, "five", "SEARCH_MAX_LOOP_COUNT=\"five\""},
		{config.EnvDatabaseURL, "mysql://u:topsecretpw@h/db", "postgres://"},
		{config.EnvAIProvider, "gpt", "auto, openai or offline"},
	}
	for _, tc := range cases {
		for _, args := range [][]string{{"config", "show"}, {"config", "path"}, {"db", "status"}, {"db", "migrate"}} {
			h := newHarness(t)
			h.env[tc.name] = tc.value
			if code := h.run(args...); code != exitConfig {
				t.Errorf("%s=%s %v: exit %d, want %d", tc.name, tc.value, args, code, exitConfig)
			}
			errOut := h.stderr.String()
			if !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "Hint: ") || strings.Contains(errOut, "topsecretpw") {
				t.Errorf("%s=%s %v: stderr %q", tc.name, tc.value, args, errOut)
			}
		}
	}
	// Help and version keep working with a broken configuration.
	h := newHarness(t)
	h.env[config.EnvSearchMaxLoopCount] = "five"
	if code := h.run("version"); code != exitOK {
		t.Errorf("version with a bad config: exit %d", code)
	}
	if code := h.run("search", "--help"); code != exitOK {
		t.Errorf("help with a bad config: exit %d", code)
	}
}

func TestConfigShowMasksSecrets(t *testing.T) {
	const (
		apiKey = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123wxyz"
		secret = "GOCSPX-oauthclientsecretvalue"
		dbPass = "dbs3cretPassw0rd"
	)
	h := newHarness(t)
	h.env[config.EnvOpenAIAPIKey] = apiKey
	h.env[config.EnvOAuthClientSecret] = secret
	h.env[config.EnvDatabaseURL] = "postgresql://app:" + dbPass + "@db.example.com:5432/gds"
	envFile := filepath.Join(h.work, ".env")
	if err := os.WriteFile(envFile, []byte("SUMMARY_MAX_LENGTH=150\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	if code := h.run("config", "show"); code != exitOK {
		t.Fatalf("config show: exit %d, %s", code, h.stderr.String())
	}
	text := h.stdout.String()
	for _, leak := range []string{apiKey, secret, dbPass} {
		if strings.Contains(text, leak) {
			t.Errorf("config show leaks %q", leak)
		}
	}
	for _, want := range []string{"sk-…wxyz", "postgresql://app:****@db.example.com:5432/gds", envFile} {
		if !strings.Contains(text, want) {
			t.Errorf("config show lacks %q:\n%s", want, text)
		}
	}
	var line string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "SUMMARY_MAX_LENGTH") {
			line = l
		}
	}
	if f := strings.Fields(line); len(f) != 3 || f[1] != "150" || f[2] != envFile {
		t.Errorf("SUMMARY_MAX_LENGTH line = %q, want value 150 from %s", line, envFile)
	}

	if code := h.run("config", "show", "--json"); code != exitOK {
		t.Fatalf("config show --json: exit %d", code)
	}
	var out render.ConfigShowDoc
	if err := json.Unmarshal(h.stdout.Bytes(), &out); err != nil {
		t.Fatalf("config show --json: %v\n%s", err, h.stdout.String())
	}
	if len(out.Settings) != len(config.Names) || out.Home != h.env[config.EnvHome] {
		t.Errorf("json = %+v", out)
	}
	for _, s := range out.Settings {
		if s.Name == config.EnvOpenAIAPIKey && (s.Value != "sk-…wxyz" || s.Source != "env" || !s.Secret) {
			t.Errorf("api key in json = %+v", s)
		}
	}
	for _, leak := range []string{apiKey, secret, dbPass} {
		if strings.Contains(h.stdout.String(), leak) {
			t.Errorf("config show --json leaks %q", leak)
		}
	}
}

func TestConfigPath(t *testing.T) {
	h := newHarness(t)
	home := h.env[config.EnvHome]
	if code := h.run("config", "path", "--json"); code != exitOK {
		t.Fatalf("exit %d: %s", code, h.stderr.String())
	}
	var out render.ConfigPathDoc
	if err := json.Unmarshal(h.stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	want := render.ConfigPathDoc{Home: home, EnvFile: filepath.Join(home, ".env"), DataDir: home, Index: filepath.Join(home, "index.db")}
	if out != want {
		t.Errorf("config path = %+v, want %+v", out, want)
	}
	h.run("config", "path")
	for _, v := range []string{want.EnvFile, want.Index} {
		if !strings.Contains(h.stdout.String(), v) {
			t.Errorf("config path lacks %s", v)
		}
	}
}

func TestDBMigrateAndStatusSQLite(t *testing.T) {
	h := newHarness(t)
	index := filepath.Join(h.env[config.EnvHome], "index.db")
	if code := h.run("db", "migrate"); code != exitOK {
		t.Fatalf("db migrate: exit %d: %s", code, h.stderr.String())
	}
	if !strings.Contains(h.stdout.String(), "sqlite at "+index+", schema version ") {
		t.Errorf("db migrate output: %q", h.stdout.String())
	}
	if _, err := os.Stat(index); err != nil {
		t.Fatalf("index not created: %v", err)
	}
	if code := h.run("db", "status", "--json"); code != exitOK {
		t.Fatalf("db status: exit %d: %s", code, h.stderr.String())
	}
	var st render.IndexStatusDoc
	if err := json.Unmarshal(h.stdout.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	if st.Backend != "sqlite" || st.Location != index || st.SchemaVersion < 1 || st.Files != 0 || st.LastSync != nil {
		t.Errorf("db status = %+v", st)
	}
	h.run("db", "status")
	for _, want := range []string{"backend", "sqlite", "never", "none yet"} {
		if !strings.Contains(h.stdout.String(), want) {
			t.Errorf("db status lacks %q:\n%s", want, h.stdout.String())
		}
	}
}

func TestDBMigratePostgres(t *testing.T) {
	url := os.Getenv("GDS_TEST_DATABASE_URL")
	if url == "" {
		t.Skip("GDS_TEST_DATABASE_URL is not set (scripts/test.sh starts PGlite and sets it)")
	}
	h := newHarness(t)
	h.env[config.EnvDatabaseURL] = url
	if code := h.run("db", "migrate", "--json"); code != exitOK {
		t.Fatalf("db migrate: exit %d: %s", code, h.stderr.String())
	}
	var st render.IndexStatusDoc
	if err := json.Unmarshal(h.stdout.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	if st.Backend != "postgres" || st.SchemaVersion < 1 {
		t.Errorf("db migrate = %+v", st)
	}
}

func TestVersion(t *testing.T) {
	h := newHarness(t)
	if code := h.run("version"); code != exitOK {
		t.Fatal(code)
	}
	if !strings.HasPrefix(h.stdout.String(), "gds 1.2.3 (commit abc1234, built 2025-01-02,") {
		t.Errorf("version = %q", h.stdout.String())
	}
	h.run("--version")
	if !strings.Contains(h.stdout.String(), "1.2.3") {
		t.Errorf("--version = %q", h.stdout.String())
	}
}

// TestVersionStamping checks that the values the real binary was stamped
// with (-ldflags testbin.Stamp) reach `gds version --json`.
func TestVersionStamping(t *testing.T) {
	bin := gdsBinary(t)
	cmd := exec.Command(bin, "version", "--json")
	cmd.Env = append(os.Environ(), "GDS_HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gds version: %v", err)
	}
	var v map[string]string
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if v["version"] != "9.8.7" || v["commit"] != "feedbee" || v["date"] != "2030-01-01T00:00:00Z" {
		t.Errorf("stamped version = %v", v)
	}
	// An unstamped build says "dev".
	if version != "dev" || commit != "dev" || date != "dev" {
		t.Errorf("defaults = %s %s %s, want dev", version, commit, date)
	}
}

func TestExitCodeMapping(t *testing.T) {
	cases := []struct {
		err  error
		want int
	}{
		{nil, exitOK},
		{context.Canceled, exitInterrupted},
		{&config.Error{Var: "X"}, exitConfig},
		{notImplementedError{command: "gds x"}, exitNotImplemented},
		{usageError{err: os.ErrInvalid}, exitUsage},
		{os.ErrPermission, exitError},
		{fmt.Errorf("crawl: %w", &schedule.BusyError{Path: "x", PID: 1}), exitBusy},
	}
	for _, tc := range cases {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}
