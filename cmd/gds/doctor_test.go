package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/doctor"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
)

// doctorDeps builds Deps over a fresh GDS_HOME with extra settings, and a
// fake schedule environment for goos.
func doctorDeps(t *testing.T, goos string, settings map[string]string) (*app.Deps, scheduleEnv, *strings.Builder) {
	t.Helper()
	home := t.TempDir()
	cfg, err := config.Load(config.LoadOptions{
		LookupEnv: func(k string) (string, bool) {
			if k == config.EnvHome {
				return home, true
			}
			v, ok := settings[k]
			return v, ok
		},
		WorkDir: t.TempDir(),
		GOOS:    goos,
	})
	if err != nil {
		t.Fatal(err)
	}
	out := &strings.Builder{}
	d := app.New(app.Options{Config: cfg, IO: iostreams.IOStreams{Stdout: out, Stderr: out, Lang: i18n.En}})
	user := t.TempDir()
	bin := fakeBinary(t, filepath.Join(user, "bin", "gds"))
	env := scheduleEnv{GOOS: goos, UserHome: user, ConfigHome: filepath.Join(user, ".config"), UID: 501, Runner: &recRunner{},
		Executable: func() (string, error) { return bin, nil }}
	return d, env, out
}

// On a fresh GDS_HOME with Google Drive chosen as the source, doctor lists
// every missing piece with the command that fixes it and fails. (With no
// source at all it says to run gds init: TestFirstRunPointsToInit.)
func TestDoctorFreshHome(t *testing.T) {
	d, env, out := doctorDeps(t, "darwin", map[string]string{"GDS_AI_PROVIDER": "offline", "GDS_SOURCES": "drive"})
	err := runDoctor(context.Background(), d, doctorOptions{}, env)
	if !errors.Is(err, doctor.ErrUnhealthy) || exitCode(err) != exitError {
		t.Fatalf("err %v (exit %d)", err, exitCode(err))
	}
	text := out.String()
	for _, want := range []string{
		"✗ source", "fix:  echo 'GOOGLE_DRIVE_TARGET_FOLDER_IDS=<folder-id>' >> ",
		"✗ OAuth client", "GOOGLE_OAUTH_CLIENT_ID=<client-id>",
		"✗ index", "no index yet", "fix:  gds crawl",
		"! schedule", "fix:  gds schedule install",
		"! Alfred workflow", "fix:  gds alfred install",
		"✗ Google sign-in", "fix:  gds auth login",
		"✓ AI provider", "offline",
		"problems,",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, text)
		}
	}
	var stderr strings.Builder
	d.Stderr = &stderr
	printError(d, err)
	if !strings.Contains(stderr.String(), "4 problems") || strings.Contains(stderr.String(), "Hint") {
		t.Errorf("error line %q: want the problem count and no hint", stderr.String())
	}
	if _, err := os.Stat(d.Config.IndexPath()); !os.IsNotExist(err) {
		t.Errorf("doctor created the index: %v", err)
	}

	out.Reset()
	_ = runDoctor(context.Background(), d, doctorOptions{JSON: true}, env)
	var r doctor.Report
	if err := json.Unmarshal([]byte(out.String()), &r); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if r.Healthy || len(r.Checks) < 8 {
		t.Errorf("json report %+v", r)
	}
}

// A crawled local folder with the offline provider passes every check
// that can pass here (the schedule is only a warning).
func TestDoctorHealthyLocalSetup(t *testing.T) {
	docs := t.TempDir()
	for name, text := range map[string]string{
		"minutes.txt": "Minutes of the Q3 roadmap meeting: budget, hiring and the launch plan.",
		"notes.md":    "# Release notes\n\nThe search loop now asks a clarifying question above 100 hits.",
	} {
		if err := os.WriteFile(filepath.Join(docs, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, env, out := doctorDeps(t, "linux", map[string]string{"GDS_AI_PROVIDER": "offline", "GDS_SOURCE": "local:" + docs})
	if err := runCrawl(context.Background(), d, app.CrawlRequest{}); err != nil {
		t.Fatalf("crawl: %v\n%s", err, out)
	}
	out.Reset()
	d.Now = func() time.Time { return time.Now().Add(time.Hour) }
	if err := runDoctor(context.Background(), d, doctorOptions{JSON: true}, env); err != nil {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	var r doctor.Report
	if err := json.Unmarshal([]byte(out.String()), &r); err != nil {
		t.Fatal(err)
	}
	levels := map[string]doctor.Level{}
	details := map[string]string{}
	for _, c := range r.Checks {
		levels[c.ID], details[c.ID] = c.Level, c.Detail
	}
	want := map[string]doctor.Level{
		"config": doctor.OK, "source": doctor.OK, "index": doctor.OK, "embedding": doctor.OK, "freshness": doctor.OK,
		"auth": doctor.Skip, "ai": doctor.OK, "schedule": doctor.Warn, "alfred": doctor.Skip,
	}
	for id, lvl := range want {
		if levels[id] != lvl {
			t.Errorf("%s = %s (%s), want %s", id, levels[id], details[id], lvl)
		}
	}
	if !r.Healthy || !strings.Contains(details["freshness"], "2 files") || !strings.Contains(details["index"], "(current)") {
		t.Errorf("report %+v", r)
	}
}

func TestLatestMigration(t *testing.T) {
	d, env, _ := doctorDeps(t, "linux", nil)
	if n := d.DoctorInputs(context.Background(), false, env).LatestSchema; n < 2 {
		t.Errorf("latest SQLite migration %d, want ≥ 2 (0002_covering_filter_indexes.sql exists)", n)
	}
}

// doctor reads the sign-in through internal/auth (against the fake OAuth
// server): not signed in, signed in and verified, issued to another client.
func TestDoctorAuthInspector(t *testing.T) {
	h := newAuthHarness(t)
	deps := func() *app.Deps {
		cfg, err := config.Load(config.LoadOptions{
			LookupEnv: func(k string) (string, bool) { v, ok := h.env[k]; return v, ok },
			WorkDir:   t.TempDir(),
			GOOS:      "linux",
		})
		if err != nil {
			t.Fatal(err)
		}
		d := app.New(app.Options{Config: cfg, IO: iostreams.IOStreams{Lang: i18n.En}})
		d.OAuthEndpoints = h.srv.Endpoints()
		d.TokenStore = func(string) (auth.TokenStore, error) { return h.store, nil }
		return d
	}
	ctx := context.Background()
	ts, err := deps().DoctorInputs(ctx, false, scheduleEnv{}).Token.InspectToken(ctx, "")
	if err != nil || ts.LoggedIn {
		t.Fatalf("before login: %+v %v", ts, err)
	}
	if code := h.run("auth", "login"); code != exitOK {
		t.Fatalf("login: exit %d %s", code, h.stderr.String())
	}
	ts, err = deps().DoctorInputs(ctx, false, scheduleEnv{}).Token.InspectToken(ctx, "")
	if err != nil || !ts.LoggedIn || ts.Problem != "" || ts.Store != h.store.Path {
		t.Errorf("after login: %+v %v", ts, err)
	}
	h.env[config.EnvOAuthClientID] = "another-client.apps.googleusercontent.com"
	ts, _ = deps().DoctorInputs(ctx, true, scheduleEnv{}).Token.InspectToken(ctx, "")
	if !strings.Contains(ts.Problem, "another OAuth client") {
		t.Errorf("other client: %+v", ts)
	}
}
