package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/auth/authtest"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
)

// lockedBuffer is a bytes.Buffer shared with the login goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// authHarness runs gds in-process against the fake OAuth server, with the
// token in a file of a temporary GDS_HOME (also on macOS: tests never touch
// the real Keychain).
type authHarness struct {
	t       *testing.T
	srv     *authtest.Server
	env     map[string]string
	lang    string
	browser bool // OpenBrowser visits the URL
	store   auth.FileStore
	stdout  lockedBuffer
	stderr  lockedBuffer
}

func newAuthHarness(t *testing.T) *authHarness {
	srv := authtest.New(t)
	home := t.TempDir()
	return &authHarness{
		t:   t,
		srv: srv,
		env: map[string]string{
			config.EnvHome:              home,
			config.EnvOAuthClientID:     srv.ClientID,
			config.EnvOAuthClientSecret: srv.ClientSecret,
		},
		lang:    i18n.En,
		browser: true,
		store:   auth.NewFileStore(home),
	}
}

func (h *authHarness) run(args ...string) int {
	h.t.Helper()
	h.stdout.Reset()
	h.stderr.Reset()
	cfg, err := config.Load(config.LoadOptions{
		LookupEnv: func(k string) (string, bool) { v, ok := h.env[k]; return v, ok },
		WorkDir:   h.t.TempDir(),
		GOOS:      "linux",
	})
	d := app.New(app.Options{Config: cfg, ConfigErr: err, IO: iostreams.IOStreams{Stdout: &h.stdout, Stderr: &h.stderr, Lang: h.lang}})
	d.OAuthEndpoints = h.srv.Endpoints()
	d.TokenStore = func(string) (auth.TokenStore, error) { return h.store, nil }
	d.OpenBrowser = func(_ context.Context, u string) error {
		if !h.browser {
			return errors.New("no browser in this test")
		}
		_, err := authtest.Visit(u)
		return err
	}
	return run(context.Background(), d, append([]string{"gds"}, args...), buildInfo{Version: "1.2.3"})
}

// noTokens fails when a token appears in the output.
func (h *authHarness) noTokens() {
	h.t.Helper()
	if out := h.stdout.String() + h.stderr.String(); strings.Contains(out, authtest.TokenMarker) {
		h.t.Errorf("a token appears in the output:\n%s", out)
	}
}

func TestAuthLoginStatusLogout(t *testing.T) {
	h := newAuthHarness(t)
	if code := h.run("auth", "status"); code != exitOK || !strings.Contains(h.stdout.String(), "Not signed in") {
		t.Fatalf("status before login: exit %d\n%s%s", code, h.stdout.String(), h.stderr.String())
	}
	if code := h.run("auth", "login"); code != exitOK {
		t.Fatalf("login: exit %d\n%s", code, h.stderr.String())
	}
	if !strings.Contains(h.stdout.String(), "Signed in to Google Drive") || !strings.Contains(h.stdout.String(), h.store.Path) {
		t.Errorf("login stdout %q", h.stdout.String())
	}
	if !strings.Contains(h.stderr.String(), "https://") && !strings.Contains(h.stderr.String(), h.srv.URL+"/auth?") {
		t.Errorf("the URL was not printed: %q", h.stderr.String())
	}
	if !strings.Contains(h.stderr.String(), "7 days") {
		t.Errorf("no note on Testing apps: %q", h.stderr.String())
	}
	h.noTokens()
	if fi, err := os.Stat(h.store.Path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v", err)
	}

	if code := h.run("auth", "status"); code != exitOK {
		t.Fatalf("status: exit %d %s", code, h.stderr.String())
	}
	for _, want := range []string{"Signed in", h.store.Path, auth.DriveReadonlyScope, h.srv.ClientID, "present"} {
		if !strings.Contains(h.stdout.String(), want) {
			t.Errorf("status lacks %q:\n%s", want, h.stdout.String())
		}
	}
	h.noTokens()

	if code := h.run("auth", "status", "--json", "--check"); code != exitOK {
		t.Fatalf("status --json --check: exit %d %s", code, h.stderr.String())
	}
	var st auth.Status
	if err := json.Unmarshal([]byte(h.stdout.String()), &st); err != nil {
		t.Fatalf("status JSON: %v\n%s", err, h.stdout.String())
	}
	if !st.LoggedIn || !st.Checked || !st.Valid || st.Store != h.store.Path || st.AccessExpiry == nil {
		t.Errorf("status %+v", st)
	}
	h.noTokens()

	if code := h.run("auth", "logout", "--revoke"); code != exitOK {
		t.Fatalf("logout: exit %d %s", code, h.stderr.String())
	}
	if len(h.srv.Revoked()) != 1 || !strings.Contains(h.stdout.String(), "revoked") {
		t.Errorf("revoked %d tokens; stdout %q", len(h.srv.Revoked()), h.stdout.String())
	}
	if _, err := os.Stat(h.store.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("token file still there: %v", err)
	}
	h.noTokens()
	if code := h.run("auth", "logout"); code != exitOK || !strings.Contains(h.stdout.String(), "No token was stored") {
		t.Errorf("second logout: exit %d %q", code, h.stdout.String())
	}
}

func TestAuthLoginNoBrowserPrintsURL(t *testing.T) {
	h := newAuthHarness(t)
	h.browser = false
	// The user copies the URL from stderr into a browser.
	go func() {
		for range 500 {
			for _, line := range strings.Split(h.stderr.String(), "\n") {
				if u := strings.TrimSpace(line); strings.HasPrefix(u, h.srv.URL+"/auth?") {
					authtest.Visit(u)
					return
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	if code := h.run("auth", "login", "--no-browser", "--timeout", "20s"); code != exitOK {
		t.Fatalf("login: exit %d\n%s", code, h.stderr.String())
	}
	if strings.Contains(h.stderr.String(), "Could not open the browser") {
		t.Error("--no-browser still tried to open a browser")
	}
	u, _ := url.Parse(strings.TrimSpace(strings.Split(h.stderr.String(), "\n")[1]))
	if u.Query().Get("code_challenge_method") != "S256" || u.Query().Get("scope") != auth.DriveReadonlyScope {
		t.Errorf("printed URL %s", u)
	}
	h.noTokens()
}

func TestAuthLoginWrongState(t *testing.T) {
	h := newAuthHarness(t)
	h.srv.StateOverride = "forged"
	code := h.run("auth", "login")
	if code != exitAuth {
		t.Fatalf("exit %d, want %d\n%s", code, exitAuth, h.stderr.String())
	}
	errOut := h.stderr.String()
	if !strings.Contains(errOut, "Error: the sign-in response did not belong to this login") || !strings.Contains(errOut, "Hint: ") {
		t.Errorf("stderr %q", errOut)
	}
	if _, err := os.Stat(h.store.Path); !errors.Is(err, os.ErrNotExist) {
		t.Error("a token was stored")
	}
}

func TestAuthLoginWithoutClient(t *testing.T) {
	h := newAuthHarness(t)
	delete(h.env, config.EnvOAuthClientSecret)
	if code := h.run("auth", "login"); code != exitConfig {
		t.Fatalf("exit %d, want %d", code, exitConfig)
	}
	if !strings.Contains(h.stderr.String(), "Create your OAuth client") {
		t.Errorf("stderr %q", h.stderr.String())
	}
}

func TestAuthRevokedSignIn(t *testing.T) {
	h := newAuthHarness(t)
	if code := h.run("auth", "login"); code != exitOK {
		t.Fatal(h.stderr.String())
	}
	rec, err := h.store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rec.Token.Expiry = time.Now().Add(-time.Hour)
	h.store.Save(context.Background(), rec)
	h.srv.RevokeAllRefreshTokens()

	h.lang = i18n.Ja
	code := h.run("auth", "status", "--check")
	if code != exitAuth {
		t.Fatalf("exit %d, want %d", code, exitAuth)
	}
	errOut := h.stderr.String()
	if !strings.HasPrefix(errOut, "エラー: Google のサインインが期限切れか無効化されています。`gds auth login`") || strings.Count(strings.TrimSpace(errOut), "\n") != 1 {
		t.Errorf("stderr %q", errOut)
	}
	if !strings.Contains(h.stdout.String(), "サインイン済み") {
		t.Errorf("stdout %q", h.stdout.String())
	}
	h.noTokens()
}

func TestAuthHelp(t *testing.T) {
	h := newAuthHarness(t)
	h.run("auth", "login", "--help")
	for _, f := range []string{"--no-browser", "--timeout", "(default: 5m0s)"} {
		if !strings.Contains(h.stdout.String(), f) {
			t.Errorf("auth login --help lacks %q", f)
		}
	}
	h.run("auth", "logout", "--help")
	if !strings.Contains(h.stdout.String(), "--revoke") {
		t.Error("auth logout --help lacks --revoke")
	}
	h.run("auth", "status", "--help")
	if !strings.Contains(h.stdout.String(), "--check") || !strings.Contains(h.stdout.String(), "--json") {
		t.Error("auth status --help lacks --check/--json")
	}
}
