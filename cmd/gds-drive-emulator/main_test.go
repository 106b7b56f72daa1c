package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gds-cli/gds/internal/driveemu"
)

// syncBuffer is a bytes.Buffer safe for the server goroutine's writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// serve runs the command with args and returns its base URL and a stop func
// that returns the outputs and run's error.
func serve(t *testing.T, args ...string) (string, func() (string, string, error)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), &stdout, &stderr, ready) }()
	select {
	case base := <-ready:
		return base, func() (string, string, error) { cancel(); err := <-done; return stdout.String(), stderr.String(), err }
	case err := <-done:
		cancel()
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	return "", nil
}

func get(t *testing.T, url string) (int, []byte) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

func TestServesTheDefaultFixtureAndPrintsTheSettings(t *testing.T) {
	t.Setenv("LANG", "C")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	base, stop := serve(t)
	fx := driveemu.DefaultFixture()
	code, body := get(t, base+"/drive/v3/files?q="+strings.ReplaceAll("'"+fx.Targets[0]+"' in parents", " ", "%20")+"&fields=files(name)")
	var l struct{ Files []struct{ Name string } }
	if code != 200 || json.Unmarshal(body, &l) != nil || len(l.Files) != 2 {
		t.Fatalf("list: %d %s", code, body)
	}
	out, logs, err := stop()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GDS_DRIVE_ENDPOINT=" + base, "GOOGLE_DRIVE_TARGET_FOLDER_IDS=" + strings.Join(fx.Targets, ",")} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(logs, "GET /drive/v3/files?") || !strings.Contains(logs, "served 1 requests") {
		t.Errorf("log:\n%s", logs)
	}
}

func TestFaultFlagsAndDirFixture(t *testing.T) {
	t.Setenv("LANG", "ja_JP.UTF-8")
	t.Setenv("LC_ALL", "")
	dir := t.TempDir()
	base, stop := serve(t, "-fixture", "dir:"+dir, "-fault-rate", "1", "-fault-kinds", "503", "-quiet")
	for range 3 {
		if code, body := get(t, base+"/drive/v3/files/root"); code != 503 || !strings.Contains(string(body), "backendError") {
			t.Fatalf("want 503: %d %s", code, body)
		}
	}
	out, logs, err := stop()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Drive API エミュレーター") || strings.Contains(logs, "GET /drive") {
		t.Errorf("ja output or -quiet:\n%s\n%s", out, logs)
	}
}

func TestFaultRulesSplitTheRate(t *testing.T) {
	rules, err := faultRules("429,403user,drop,truncate", 0.4, 0)
	if err != nil || len(rules) != 4 {
		t.Fatal(err)
	}
	// Each rule fires on rate/n of all requests: p_i * Π(1-p_j<i) = 0.1.
	left := 1.0
	for i, r := range rules {
		if got := r.Probability * left; got < 0.0999 || got > 0.1001 {
			t.Errorf("rule %d fires on %.4f of requests, want 0.1", i, got)
		}
		left *= 1 - r.Probability
	}
	if _, err := faultRules("429,teapot", 0.1, 0); err == nil {
		t.Error("unknown kind accepted")
	}
}

func TestRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-fixture", "nowhere"},
		{"-fixture", "dir:/definitely/not/here"},
		{"-fault-rate", "2"},
		{"extra"},
		{"-addr", "not-an-address"},
		{"-user", "work"},
		{"-user", "work:tok="},
		{"-user", "work:tok=default", "-user", "home:tok=default"},
		{"-user", "work:tok=default", "-user", "work:tok2=default"},
		{"-user", "work:tok=default", "-fixture", "default"},
		{"-user", "work:tok=dir:/definitely/not/here"},
	} {
		err := run(context.Background(), args, io.Discard, io.Discard, nil)
		if err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}

// TestHelpSaysWhatSearchIndexes: -help names the two variables and says
// that fullText covers PDF and Office text.
func TestHelpSaysWhatSearchIndexes(t *testing.T) {
	var b strings.Builder
	if _, err := parseFlags([]string{"-help"}, &b); err == nil {
		t.Fatal("-help parsed as a run")
	}
	for _, want := range []string{"GDS_DRIVE_ENDPOINT", "GOOGLE_DRIVE_TARGET_FOLDER_IDS", "dir:PATH", "PDF", ".docx", "-fault-rate", "-user NAME:TOKEN=FIXTURE", "Bearer"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("-help does not mention %s:\n%s", want, b.String())
		}
	}
}

// getAs is get with a bearer token ("" sends none).
func getAs(t *testing.T, url, token string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// Several -user flags serve several users behind one address, each with
// their own files, Shared drives and token, as driveemu.Users does in
// tests; no token or another is Drive's 401.
func TestServesSeveralUsers(t *testing.T) {
	t.Setenv("LANG", "C")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	home, work := t.TempDir(), t.TempDir()
	for dir, name := range map[string]string{home: "recipes.txt", work: "roadmap.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("the "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	manifest := filepath.Join(t.TempDir(), "team.json")
	if err := os.WriteFile(manifest, []byte(`{"user": {"displayName": "Bob", "emailAddress": "bob@team.example"},
		"sharedDrives": [{"id": "0ATeamDrive", "name": "Team"}],
		"files": [{"id": "1offsite", "name": "Offsite plan", "mimeType": "text/plain", "parents": ["0ATeamDrive"], "content": "agenda"}],
		"targets": ["0ATeamDrive"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	base, stop := serve(t, "-quiet", "-user", "home:tok-home=dir:"+home, "-user", "work:tok-work=dir:"+work, "-user", "team:tok-team="+manifest)
	names := func(token, q string) []string {
		code, body := getAs(t, base+"/drive/v3/files?supportsAllDrives=true&includeItemsFromAllDrives=true&corpora=allDrives&q="+
			strings.ReplaceAll(q, " ", "%20")+"&fields=files(name)", token)
		var l struct{ Files []struct{ Name string } }
		if code != http.StatusOK || json.Unmarshal(body, &l) != nil {
			t.Fatalf("list as %s: %d %s", token, code, body)
		}
		var out []string
		for _, f := range l.Files {
			out = append(out, f.Name)
		}
		return out
	}
	q := "mimeType != 'application/vnd.google-apps.folder'"
	if got := names("tok-home", q); len(got) != 1 || got[0] != "recipes.txt" {
		t.Errorf("home's files: %v", got)
	}
	if got := names("tok-work", q); len(got) != 1 || got[0] != "roadmap.txt" {
		t.Errorf("work's files: %v", got)
	}
	if got := names("tok-team", q); len(got) != 1 || got[0] != "Offsite plan" {
		t.Errorf("team's files: %v", got)
	}
	for token, want := range map[string]string{"tok-team": "Team", "tok-work": ""} {
		code, body := getAs(t, base+"/drive/v3/drives", token)
		if code != http.StatusOK || (want != "") != strings.Contains(string(body), `"Team"`) {
			t.Errorf("drives as %s: %d %s", token, code, body)
		}
	}
	for token, email := range map[string]string{"tok-work": "work@example.com", "tok-team": "bob@team.example"} {
		if code, body := getAs(t, base+"/drive/v3/about?fields=user", token); code != http.StatusOK || !strings.Contains(string(body), email) {
			t.Errorf("about as %s: %d %s", token, code, body)
		}
	}
	for _, token := range []string{"", "tok-nobody"} {
		if code, body := getAs(t, base+"/drive/v3/files", token); code != http.StatusUnauthorized || !strings.Contains(string(body), "authError") {
			t.Errorf("token %q: %d %s", token, code, body)
		}
	}
	out, _, err := stop()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3 users", "home: token tok-home", "work: token tok-work", "team: token tok-team", "target folders 0ATeamDrive"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Folders laid out alike get IDs of their own per user.
	if strings.Count(out, driveemu.StableID("dir:.")) != 0 {
		t.Errorf("a user's folder has the single-user ID:\n%s", out)
	}
}
