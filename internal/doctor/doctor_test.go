package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/schedule"
	"github.com/gds-cli/gds/internal/store"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func loadConfig(t *testing.T, env map[string]string) *config.Config {
	t.Helper()
	home := t.TempDir()
	cfg, err := config.Load(config.LoadOptions{
		LookupEnv: func(k string) (string, bool) {
			if k == config.EnvHome {
				return home, true
			}
			v, ok := env[k]
			return v, ok
		},
		WorkDir: t.TempDir(),
		GOOS:    "linux",
	})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

type fakeToken struct {
	st  TokenState
	err error
}

func (f fakeToken) InspectToken(context.Context, string) (TokenState, error) { return f.st, f.err }

// accountTokens answers each account's sign-in from a map ("" is the
// default account) and records the accounts asked.
type accountTokens struct {
	st    map[string]TokenState
	asked *[]string
}

func (a accountTokens) InspectToken(_ context.Context, account string) (TokenState, error) {
	*a.asked = append(*a.asked, account)
	return a.st[account], nil
}

type fakeSchedule struct {
	st  schedule.Status
	err error
}

func (f fakeSchedule) Status(context.Context) (schedule.Status, error) { return f.st, f.err }

func byID(r Report) map[string]Check {
	m := map[string]Check{}
	for _, c := range r.Checks {
		m[c.ID] = c
	}
	return m
}

func stats(files int, last time.Time) IndexStats {
	return func(context.Context) (store.Stats, error) {
		return store.Stats{Backend: "sqlite", Location: "/x/index.db", SchemaVersion: 2, Files: files, Chunks: files * 3,
			Space: store.EmbeddingSpace{Model: "offline-lexical", Dim: 256}, Sync: store.SyncState{UpdatedAt: last}}, nil
	}
}

func TestFreshDriveSetupListsEveryFix(t *testing.T) {
	cfg := loadConfig(t, nil)
	r := Run(context.Background(), Inputs{
		Lang: i18n.En, Now: now, Config: cfg,
		Stats:       func(context.Context) (store.Stats, error) { return store.Stats{}, ErrNoIndex },
		Token:       fakeToken{st: TokenState{LoggedIn: false}},
		Schedule:    fakeSchedule{st: schedule.Status{Backend: "launchd"}},
		ScheduleFix: "gds schedule install",
		Alfred:      func() (string, error) { return "", nil },
	})
	if r.Healthy {
		t.Fatal("a fresh setup is not healthy")
	}
	m := byID(r)
	want := map[string]struct {
		lvl Level
		fix string
	}{
		"config":       {OK, ""},
		"source":       {Fail, "GOOGLE_DRIVE_TARGET_FOLDER_IDS=<folder-id>' >> "},
		"oauth_client": {Fail, "GOOGLE_OAUTH_CLIENT_ID=<client-id>"},
		"index":        {Fail, "gds crawl"},
		"auth":         {Fail, "gds auth login"},
		"ai":           {OK, ""},
		"schedule":     {Warn, "gds schedule install"},
		"alfred":       {Warn, "gds alfred install"},
	}
	for id, w := range want {
		c, ok := m[id]
		if !ok {
			t.Errorf("no %s check", id)
			continue
		}
		if c.Level != w.lvl || (w.fix != "" && !strings.Contains(c.Fix, w.fix)) || (w.fix == "" && c.Fix != "") {
			t.Errorf("%s = %+v, want level %s fix containing %q", id, c, w.lvl, w.fix)
		}
	}
	if !strings.Contains(m["source"].Fix, cfg.EnvFilePath()) {
		t.Errorf("source fix does not name the .env: %s", m["source"].Fix)
	}
}

func TestHealthyLocalSetup(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"GDS_SOURCE": "local:" + t.TempDir(), "GDS_AI_PROVIDER": "offline"})
	ival := time.Hour
	zero := 0
	r := Run(context.Background(), Inputs{
		Lang: i18n.En, Now: now, Config: cfg, Stats: stats(78, now.Add(-3*time.Hour)), LatestSchema: 2,
		Integrity:      func(context.Context) (bool, error) { return true, nil },
		EmbeddingModel: store.EmbeddingSpace{Model: "offline-lexical", Dim: 256},
		Schedule:       fakeSchedule{st: schedule.Status{Backend: "launchd", Installed: true, Loaded: true, Interval: ival, Program: "/bin/sh", LastExitCode: &zero}},
		ProgramExists:  func(string) bool { return true },
		Alfred:         func() (string, error) { return "/prefs/workflows/user.workflow.X", nil },
		KeyServer:      func() KeyServerState { return KeyServerState{Socket: "/h/keystroke.sock", Running: true} },
	})
	if !r.Healthy {
		t.Fatalf("not healthy: %+v", r.Checks)
	}
	for _, c := range r.Checks {
		if c.Level != OK && !(c.ID == "auth" && c.Level == Skip) {
			t.Errorf("%s = %s (%s)", c.ID, c.Level, c.Detail)
		}
	}
	if d := byID(r)["freshness"].Detail; !strings.Contains(d, "78 files") || !strings.Contains(d, "3h ago") {
		t.Errorf("freshness detail %q", d)
	}
	var text bytes.Buffer
	if err := WriteText(&text, r, i18n.En); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "Everything looks good.") || strings.Contains(text.String(), "fix:") {
		t.Errorf("text:\n%s", text.String())
	}
}

func TestIndexProblems(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"GDS_SOURCE": "local:/data"})
	cases := []struct {
		name  string
		in    Inputs
		id    string
		level Level
		fix   string
	}{
		{"stale", Inputs{Stats: stats(5, now.Add(-72*time.Hour))}, "freshness", Warn, "gds crawl"},
		{"empty", Inputs{Stats: stats(0, time.Time{})}, "freshness", Fail, "gds crawl"},
		{"old schema", Inputs{Stats: stats(5, now), LatestSchema: 3}, "index", Warn, "gds db migrate"},
		{"too new", Inputs{Stats: func(context.Context) (store.Stats, error) {
			return store.Stats{}, store.ErrSchemaTooNew
		}}, "index", Fail, "brew upgrade --cask gds"},
		{"unreachable", Inputs{Stats: func(context.Context) (store.Stats, error) {
			return store.Stats{}, errors.New("connection refused")
		}}, "index", Fail, ""},
		{"damaged", Inputs{Stats: func(context.Context) (store.Stats, error) {
			return store.Stats{}, fmt.Errorf("open: %w", &store.DamagedError{Backend: "sqlite", Location: "/h/index.db", Err: errors.New("file is not a database (26)")})
		}}, "index", Fail, "gds db rebuild"},
		{"damaged pages", Inputs{Stats: stats(5, now), Integrity: func(context.Context) (bool, error) {
			return true, &store.DamagedError{Backend: "sqlite", Location: "/h/index.db", Err: errors.New("quick_check: Page 71: never used")}
		}}, "integrity", Fail, "gds db rebuild"},
		{"checked in part", Inputs{Stats: stats(5, now), Integrity: func(context.Context) (bool, error) { return false, nil }}, "integrity", OK, ""},
		{"postgres damaged", Inputs{Stats: func(context.Context) (store.Stats, error) {
			return store.Stats{}, &store.DamagedError{Backend: "postgres", Location: "db", Err: errors.New("invalid page")}
		}}, "index", Fail, "gds crawl --full   # after the database's administrator repaired it"},
		{"model changed", Inputs{Stats: stats(5, now), EmbeddingModel: store.EmbeddingSpace{Model: "text-embedding-3-small", Dim: 1536}}, "embedding", Fail, "gds crawl --full"},
		{"schedule failed", Inputs{Stats: stats(5, now), Schedule: fakeSchedule{st: schedule.Status{Installed: true, Loaded: true, LastExitCode: ptr(1), ErrLogPath: "/l/crawl err.log"}}}, "schedule", Warn, "tail -n 50 '/l/crawl err.log'"},
		{"schedule program gone", Inputs{Stats: stats(5, now), ScheduleFix: "gds schedule install", ProgramExists: func(string) bool { return false },
			Schedule: fakeSchedule{st: schedule.Status{Installed: true, Loaded: true, Program: "/old/gds"}}}, "schedule", Fail, "gds schedule install"},
		{"schedule not loaded", Inputs{Stats: stats(5, now), ScheduleFix: "gds schedule install", Schedule: fakeSchedule{st: schedule.Status{Installed: true}}}, "schedule", Warn, "gds schedule install"},
	}
	for _, tc := range cases {
		tc.in.Lang, tc.in.Now, tc.in.Config = i18n.En, now, cfg
		c := byID(Run(context.Background(), tc.in))[tc.id]
		if c.Level != tc.level || c.Fix != tc.fix {
			t.Errorf("%s: %s = %+v, want %s with fix %q", tc.name, tc.id, c, tc.level, tc.fix)
		}
	}
}

func ptr(n int) *int { return &n }

func TestConfigErrorSkipsTheRest(t *testing.T) {
	cerr := &config.Error{Var: config.EnvSearchMaxLoopCount, Value: "x", Problem: "config.problem.not_integer"}
	r := Run(context.Background(), Inputs{Lang: i18n.Ja, Now: now, ConfigErr: cerr})
	m := byID(r)
	if r.Healthy || m["config"].Level != Fail || !strings.Contains(m["config"].Detail, config.EnvSearchMaxLoopCount) || m["config"].Fix != "gds config show" {
		t.Errorf("config check %+v", m["config"])
	}
	if m["index"].Level != Skip || m["ai"].Level != Skip {
		t.Errorf("later checks should skip: %+v", r.Checks)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Healthy || len(back.Checks) != len(r.Checks) || back.Checks[0].Level != Fail {
		t.Errorf("json round trip: %v %+v", err, back)
	}
}

func TestAuthStates(t *testing.T) {
	cfg := loadConfig(t, map[string]string{config.EnvDriveFolderIDs: "abcdefghij0123456789", config.EnvOAuthClientID: "id", config.EnvOAuthClientSecret: "s"})
	for name, tc := range map[string]struct {
		tok   TokenInspector
		level Level
	}{
		"no auth package": {nil, Warn},
		"signed in":       {fakeToken{st: TokenState{LoggedIn: true, Store: "macOS Keychain"}}, OK},
		"other client":    {fakeToken{st: TokenState{LoggedIn: true, Problem: "issued to another OAuth client"}}, Fail},
		"store error":     {fakeToken{err: errors.New("keychain locked")}, Fail},
	} {
		c := byID(Run(context.Background(), Inputs{Lang: i18n.En, Now: now, Config: cfg, Token: tc.tok}))["auth"]
		if c.Level != tc.level || (tc.level == Fail && c.Fix != "gds auth login") {
			t.Errorf("%s: %+v", name, c)
		}
	}
}

// Every account the Drive sources use gets its own sign-in line, named,
// with its own login command; an account no source uses is not asked.
func TestAuthChecksEveryAccount(t *testing.T) {
	fine := TokenState{LoggedIn: true, Store: "file"}
	for name, tc := range map[string]struct {
		sources string
		st      map[string]TokenState
		want    []Check // ID, Level, Account, Fix
	}{
		"default only": {"drive:F1", map[string]TokenState{"": fine},
			[]Check{{Level: OK}}},
		"work revoked": {"drive:F1,drive@work:F2,drive@work:F3", map[string]TokenState{"": fine, "work": {LoggedIn: true, Problem: "revoked"}},
			[]Check{{Level: OK, Account: "default"}, {Level: Fail, Account: "work", Fix: "gds auth login --account work"}}},
		"default signed out": {"drive@work:F2,drive:F1", map[string]TokenState{"work": fine},
			[]Check{{Level: OK, Account: "work"}, {Level: Fail, Account: "default", Fix: "gds auth login"}}},
		"named only": {"drive@home,local:/data", map[string]TokenState{},
			[]Check{{Level: Fail, Account: "home", Fix: "gds auth login --account home"}}},
	} {
		cfg := loadConfig(t, map[string]string{"GDS_SOURCES": tc.sources, config.EnvOAuthClientID: "id", config.EnvOAuthClientSecret: "s"})
		var asked []string
		r := Run(context.Background(), Inputs{Lang: i18n.En, Now: now, Config: cfg, Token: accountTokens{st: tc.st, asked: &asked}})
		var got []Check
		for _, c := range r.Checks {
			if c.ID == "auth" {
				got = append(got, c)
			}
		}
		if len(got) != len(tc.want) || len(asked) != len(tc.want) {
			t.Fatalf("%s: %d auth checks, %d accounts asked (%v), want %d", name, len(got), len(asked), asked, len(tc.want))
		}
		for i, w := range tc.want {
			g := got[i]
			if g.Level != w.Level || g.Account != w.Account || g.Fix != w.Fix {
				t.Errorf("%s: check %d = %+v, want level %s account %q fix %q", name, i, g, w.Level, w.Account, w.Fix)
			}
			if w.Account != "" && !strings.Contains(g.Title, "("+w.Account+")") {
				t.Errorf("%s: title %q does not name %s", name, g.Title, w.Account)
			}
		}
	}
}

func TestProbeModels(t *testing.T) {
	var gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		switch {
		case r.URL.Path != "/v1/models":
			http.NotFound(w, r)
		case gotAuth != "Bearer sk-good":
			w.WriteHeader(http.StatusUnauthorized)
		default:
			_, _ = w.Write([]byte(`{"data":[]}`))
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	if err := (HTTPModelsProbe{BaseURL: srv.URL + "/v1/", APIKey: "sk-good"}).ProbeModels(ctx); err != nil {
		t.Errorf("good key: %v", err)
	}
	err := HTTPModelsProbe{BaseURL: srv.URL + "/v1", APIKey: "sk-bad-secret"}.ProbeModels(ctx)
	if err == nil || !strings.Contains(err.Error(), "rejected") || strings.Contains(err.Error(), "sk-bad-secret") {
		t.Errorf("bad key: %v", err)
	}
	if err := (HTTPModelsProbe{BaseURL: "http://127.0.0.1:1/v1", Timeout: time.Second}).ProbeModels(ctx); err == nil {
		t.Error("closed port: want an error")
	}
	cfg := loadConfig(t, map[string]string{"GDS_SOURCE": "local:/d", config.EnvOpenAIAPIKey: "sk-bad-secret", config.EnvOpenAIBaseURL: srv.URL + "/v1"})
	c := byID(Run(ctx, Inputs{Lang: i18n.En, Now: now, Config: cfg, Prober: HTTPModelsProbe{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey}}))["ai"]
	if c.Level != Fail || strings.Contains(c.Detail, "sk-bad") {
		t.Errorf("ai check %+v", c)
	}
	c = byID(Run(ctx, Inputs{Lang: i18n.En, Now: now, Config: cfg, Offline: true, Prober: HTTPModelsProbe{}}))["ai"]
	if c.Level != Skip {
		t.Errorf("--offline: %+v", c)
	}
}

func TestFindAlfredWorkflow(t *testing.T) {
	home := t.TempDir()
	base := filepath.Join(home, "Library/Application Support/Alfred")
	synced := filepath.Join(home, "Dropbox/Alfred.alfredpreferences")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plistWith := func(id string) string {
		return `<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>bundleid</key><string>` + id + `</string></dict></plist>`
	}
	write(filepath.Join(base, "Alfred.alfredpreferences/workflows/user.workflow.A/info.plist"), plistWith("com.other"))
	dirs := AlfredPrefsDirs(home)
	if got, err := FindAlfredWorkflow(dirs, "dev.gds.alfred"); err != nil || got != "" {
		t.Errorf("not installed: %q %v", got, err)
	}
	write(filepath.Join(base, "prefs.json"), `{"current":"`+synced+`"}`)
	write(filepath.Join(synced, "workflows/user.workflow.B/info.plist"), plistWith("dev.gds.alfred"))
	dirs = AlfredPrefsDirs(home)
	if got, _ := FindAlfredWorkflow(dirs, "dev.gds.alfred"); got != filepath.Join(synced, "workflows/user.workflow.B") {
		t.Errorf("synced prefs: %q (dirs %q)", got, dirs)
	}
}

// GDS_SOURCES: doctor checks what the configured sources need. Local
// folders only: nothing of Drive, a missing folder warned about. With a
// "drive:ID" source: the OAuth client and sign-in, but not
// GOOGLE_DRIVE_TARGET_FOLDER_IDS, which only the plain "drive" source reads.
func TestSourcesDecideTheChecks(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	run := func(sources string) map[string]Check {
		cfg := loadConfig(t, map[string]string{"GDS_SOURCES": sources, "GDS_AI_PROVIDER": "offline"})
		return byID(Run(context.Background(), Inputs{Lang: i18n.En, Now: now, Config: cfg, Stats: stats(3, now.Add(-time.Hour)), LatestSchema: 2,
			Token: fakeToken{}}))
	}
	m := run("local:" + a + ",local:" + b)
	if c := m["source"]; c.Level != OK || !strings.Contains(c.Detail, "2 sources") {
		t.Errorf("two local folders: source = %+v", c)
	}
	if _, ok := m["oauth_client"]; ok {
		t.Errorf("two local folders: an OAuth client check %+v", m["oauth_client"])
	}
	if m["auth"].Level != Skip {
		t.Errorf("two local folders: auth = %+v, want skipped", m["auth"])
	}
	if c := run("local:" + filepath.Join(a, "gone"))["source"]; c.Level != Warn || !strings.Contains(c.Detail, "gone") {
		t.Errorf("missing local folder: source = %+v, want a warning naming it", c)
	}
	m = run("local:" + a + ",drive:1AbC_x-9")
	if c := m["source"]; c.Level != OK {
		t.Errorf("local + drive:ID: source = %+v, want OK (no target-folder variable needed)", c)
	}
	if c := m["oauth_client"]; c.Level != Fail {
		t.Errorf("local + drive:ID without a client: oauth_client = %+v, want a failure", c)
	}
	if m["auth"].Level == Skip {
		t.Errorf("local + drive:ID: auth skipped, want checked")
	}
}

// A sign-in likely to end with a "Testing" app's 7 days is a warning that
// names the date and how to publish the app; the check still passes.
func TestAuthWarnsBeforeTheTestingExpiry(t *testing.T) {
	cfg := loadConfig(t, map[string]string{config.EnvDriveFolderIDs: "abcdefghij0123456789", config.EnvOAuthClientID: "id", config.EnvOAuthClientSecret: "s"})
	exp := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	tok := fakeToken{st: TokenState{LoggedIn: true, Store: "file", TestingExpiry: exp, AgeDays: 6}}
	for lang, wants := range map[string][]string{
		i18n.En: {"signed in 6 days ago", `"Testing"`, "2026-11-22 09:30", "Publish app"},
		i18n.Ja: {"6 日前", "テスト中", "2026-11-22 09:30", "アプリを公開"},
	} {
		c := byID(Run(context.Background(), Inputs{Lang: lang, Now: now, Config: cfg, Token: tok}))["auth"]
		if c.Level != Warn {
			t.Fatalf("%s: %+v", lang, c)
		}
		for _, w := range wants {
			if !strings.Contains(c.Detail+" "+c.Fix, w) {
				t.Errorf("%s: lacks %q: %+v", lang, w, c)
			}
		}
	}
}

// The keystroke server's line: never a failure; a warning only when the
// gds home's path is too long for its socket.
func TestKeyServerCheck(t *testing.T) {
	local := loadConfig(t, map[string]string{"GDS_SOURCE": "local:/data"})
	pg := loadConfig(t, map[string]string{"GDS_SOURCE": "local:/data", config.EnvDatabaseURL: "postgres://u@h/db"})
	probe := func(st KeyServerState) func() KeyServerState { return func() KeyServerState { return st } }
	for _, tc := range []struct {
		name   string
		cfg    *config.Config
		probe  func() KeyServerState
		lang   string
		level  Level
		detail string
	}{
		{"not macOS", local, nil, i18n.En, Skip, "Alfred runs on macOS only"},
		{"postgres", pg, probe(KeyServerState{Socket: "/s", Running: true}), i18n.En, Skip, "Postgres"},
		{"off", local, probe(KeyServerState{Off: true, Socket: "/s"}), i18n.En, OK, "GDS_KEYSTROKE_SERVER"},
		{"path too long", local, probe(KeyServerState{}), i18n.En, Warn, "too long"},
		{"running", local, probe(KeyServerState{Socket: "/h/keystroke.sock", Running: true}), i18n.En, OK, "running (/h/keystroke.sock)"},
		{"idle", local, probe(KeyServerState{Socket: "/h/keystroke.sock"}), i18n.En, OK, "next keystroke"},
		{"idle ja", local, probe(KeyServerState{Socket: "/h/keystroke.sock"}), i18n.Ja, OK, "停止中"},
	} {
		r := Run(context.Background(), Inputs{Lang: tc.lang, Now: now, Config: tc.cfg, Stats: stats(5, now), KeyServer: tc.probe})
		c := byID(r)["keyserver"]
		if c.Level != tc.level || !strings.Contains(c.Detail, tc.detail) {
			t.Errorf("%s: %+v, want %s with %q", tc.name, c, tc.level, tc.detail)
		}
		if tc.level == Warn && c.Fix == "" {
			t.Errorf("%s: a warning without a fix", tc.name)
		}
	}
}
