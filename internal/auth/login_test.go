package auth_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/auth/authtest"
	"github.com/gds-cli/gds/internal/i18n"
)

// syncBuffer is a bytes.Buffer safe for the login goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// loginFixture runs Login against the fake server with a browser that
// follows the URL.
type loginFixture struct {
	srv      *authtest.Server
	store    auth.FileStore
	out      syncBuffer
	pageCode chan int
	beforeGo func(authURL string) // runs in the browser before it visits
	client   *auth.Client         // nil: the server's client
	now      func() time.Time     // nil: time.Now
}

func newLoginFixture(t *testing.T) *loginFixture {
	t.Helper()
	return &loginFixture{
		srv:      authtest.New(t),
		store:    auth.NewFileStore(filepath.Join(t.TempDir(), "home")),
		pageCode: make(chan int, 1),
	}
}

func (f *loginFixture) login(ctx context.Context) (*auth.Record, error) {
	client := f.srv.Client()
	if f.client != nil {
		client = *f.client
	}
	return auth.Login(ctx, auth.LoginOptions{
		Client:    client,
		Endpoints: f.srv.Endpoints(),
		Store:     f.store,
		ShowURL:   func(u string) { io.WriteString(&f.out, u+"\n") },
		OpenBrowser: func(_ context.Context, u string) error {
			if f.beforeGo != nil {
				f.beforeGo(u)
			}
			code, err := authtest.Visit(u)
			if err != nil {
				io.WriteString(&f.out, "browser: "+err.Error()+"\n")
			}
			f.pageCode <- code
			return nil
		},
		Warn:    func(err error) { io.WriteString(&f.out, "warn: "+err.Error()+"\n") },
		Timeout: 30 * time.Second,
		Now:     f.now,
	})
}

func TestLoginStoresTokenInPrivateFile(t *testing.T) {
	f := newLoginFixture(t)
	rec, err := f.login(context.Background())
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	if code := <-f.pageCode; code != http.StatusOK {
		t.Errorf("browser landed on HTTP %d, want 200", code)
	}
	if rec.Token.RefreshToken == "" || rec.ClientID != f.srv.ClientID || !rec.HasScope(auth.DriveReadonlyScope) {
		t.Errorf("record = client %q scopes %v refresh %v", rec.ClientID, rec.Scopes, rec.Token.RefreshToken != "")
	}
	if got := f.srv.TokenRequests(); len(got) != 1 || got[0] != "authorization_code" {
		t.Errorf("token requests %v", got)
	}
	// The authorization request asked for drive.readonly only.
	q := f.srv.AuthRequests()[0]
	if q.Get("scope") != auth.DriveReadonlyScope {
		t.Errorf("scope %q", q.Get("scope"))
	}

	fi, err := os.Stat(f.store.Path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %04o, want 0600", fi.Mode().Perm())
	}
	di, _ := os.Stat(filepath.Dir(f.store.Path))
	if di.Mode().Perm() != 0o700 {
		t.Errorf("credentials dir mode %04o, want 0700", di.Mode().Perm())
	}
	stored, err := f.store.Load(context.Background())
	if err != nil || stored.Token.RefreshToken != rec.Token.RefreshToken {
		t.Fatalf("load after login: %v", err)
	}

	// The stored token authorises requests.
	hc, err := auth.HTTPClient(context.Background(), auth.SessionOptions{Client: f.srv.Client(), Endpoints: f.srv.Endpoints(), Store: f.store})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := hc.Get(f.srv.ResourceURL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("resource: HTTP %d", resp.StatusCode)
	}
	if strings.Contains(f.out.String(), authtest.TokenMarker) {
		t.Errorf("a token leaked into the output: %q", f.out.String())
	}
	if !strings.Contains(f.out.String(), "code_challenge_method=S256") {
		t.Errorf("the sign-in URL was not shown: %q", f.out.String())
	}
}

func TestLoginListensOnLoopbackOnly(t *testing.T) {
	f := newLoginFixture(t)
	var redirect *url.URL
	otherDial := errors.New("no non-loopback address to try")
	f.beforeGo = func(authURL string) {
		u, _ := url.Parse(authURL)
		redirect, _ = url.Parse(u.Query().Get("redirect_uri"))
		addrs, _ := net.InterfaceAddrs()
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok || ipn.IP.IsLoopback() || ipn.IP.To4() == nil {
				continue
			}
			c, err := net.DialTimeout("tcp", net.JoinHostPort(ipn.IP.String(), redirect.Port()), 2*time.Second)
			if err == nil {
				c.Close()
				otherDial = nil
				return
			}
			otherDial = err
		}
	}
	if _, err := f.login(context.Background()); err != nil {
		t.Fatal(err)
	}
	if redirect.Hostname() != "127.0.0.1" || redirect.Port() == "" || redirect.Port() == "0" {
		t.Errorf("redirect_uri %s: want http://127.0.0.1:<random port>", redirect)
	}
	if otherDial == nil {
		t.Error("the callback server accepted a connection on a non-loopback address")
	}
}

func TestLoginRejectsWrongState(t *testing.T) {
	f := newLoginFixture(t)
	f.srv.StateOverride = "forged-state"
	_, err := f.login(context.Background())
	if !errors.Is(err, auth.ErrLoginFailed) {
		t.Fatalf("err = %v, want ErrLoginFailed", err)
	}
	if !strings.Contains(err.Error(), "state mismatch") || !strings.Contains(err.Error(), "gds auth login") {
		t.Errorf("message %q", err)
	}
	if code := <-f.pageCode; code != http.StatusBadRequest {
		t.Errorf("browser page HTTP %d, want 400 (error page)", code)
	}
	if _, err := os.Stat(f.store.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a token was stored after a wrong state: %v", err)
	}
	if got := f.srv.TokenRequests(); len(got) != 0 {
		t.Errorf("the code was exchanged despite the wrong state: %v", got)
	}
}

func TestLoginRefusesMissingDriveScope(t *testing.T) {
	f := newLoginFixture(t)
	f.srv.Scope = "openid email" // the user unticked Drive on the consent screen
	_, err := f.login(context.Background())
	if !errors.Is(err, auth.ErrLoginFailed) || !strings.Contains(err.Error(), "drive.readonly") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(f.store.Path); !errors.Is(err, os.ErrNotExist) {
		t.Error("a token without Drive access was stored")
	}
}

func TestLoginTimesOut(t *testing.T) {
	srv := authtest.New(t)
	store := auth.NewFileStore(t.TempDir())
	_, err := auth.Login(context.Background(), auth.LoginOptions{
		Client: srv.Client(), Endpoints: srv.Endpoints(), Store: store, Timeout: 20 * time.Millisecond,
	})
	if !errors.Is(err, auth.ErrLoginFailed) || !strings.Contains(err.Error(), "20ms") {
		t.Fatalf("err = %v", err)
	}
}

func TestLoginNeedsClient(t *testing.T) {
	_, err := auth.Login(context.Background(), auth.LoginOptions{Client: auth.Client{ID: "x"}, Store: auth.NewFileStore(t.TempDir())})
	if !errors.Is(err, auth.ErrNoClient) {
		t.Fatalf("err = %v", err)
	}
	var ae *auth.Error
	if !errors.As(err, &ae) || !strings.Contains(ae.Message(i18n.En), "Create your OAuth client") || !strings.Contains(ae.Message(i18n.Ja), "GOOGLE_OAUTH_CLIENT_ID") {
		t.Errorf("message %q", err)
	}
}

func TestLoginWrongSecretIsClientError(t *testing.T) {
	f := newLoginFixture(t)
	f.client = &auth.Client{ID: f.srv.ClientID, Secret: "rotated"}
	_, err := f.login(context.Background())
	if !errors.Is(err, auth.ErrNoClient) || !strings.Contains(err.Error(), "GOOGLE_OAUTH_CLIENT_SECRET") {
		t.Fatalf("err = %v", err)
	}
}

// storeExpired saves a signed-in record whose access token has expired.
func storeExpired(t *testing.T, f *loginFixture) *auth.Record {
	t.Helper()
	rec, err := f.login(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rec.Token.Expiry = time.Now().Add(-time.Hour)
	if err := f.store.Save(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestRefreshedTokenIsPersisted(t *testing.T) {
	f := newLoginFixture(t)
	old := storeExpired(t, f)
	var warns syncBuffer
	s, err := auth.OpenSession(context.Background(), auth.SessionOptions{
		Client: f.srv.Client(), Endpoints: f.srv.Endpoints(), Store: f.store,
		Warn: func(err error) { io.WriteString(&warns, err.Error()) },
	})
	if err != nil {
		t.Fatal(err)
	}
	hc := s.HTTPClient()
	for range 2 {
		resp, err := hc.Get(f.srv.ResourceURL())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("resource: HTTP %d", resp.StatusCode)
		}
	}
	if got := f.srv.TokenRequests(); len(got) != 2 || got[1] != "refresh_token" {
		t.Errorf("token requests %v, want one code exchange then one refresh", got)
	}
	now, err := f.store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if now.Token.AccessToken == old.Token.AccessToken || !now.Token.Expiry.After(time.Now()) {
		t.Error("the refreshed token was not saved")
	}
	if now.Token.RefreshToken != old.Token.RefreshToken || now.ClientID != old.ClientID || !now.HasScope(auth.DriveReadonlyScope) {
		t.Errorf("refresh lost fields: %+v", now)
	}
	if warns.String() != "" {
		t.Errorf("warnings: %s", warns.String())
	}
}

func TestInvalidGrantAsksForLogin(t *testing.T) {
	f := newLoginFixture(t)
	storeExpired(t, f)
	f.srv.RevokeAllRefreshTokens()
	hc, err := auth.HTTPClient(context.Background(), auth.SessionOptions{Client: f.srv.Client(), Endpoints: f.srv.Endpoints(), Store: f.store})
	if err != nil {
		t.Fatal(err)
	}
	_, err = hc.Get(f.srv.ResourceURL())
	if !errors.Is(err, auth.ErrReauthRequired) {
		t.Fatalf("err = %v, want ErrReauthRequired", err)
	}
	var ae *auth.Error
	if !errors.As(err, &ae) {
		t.Fatalf("no *auth.Error in %v", err)
	}
	for _, lang := range []string{i18n.En, i18n.Ja} {
		msg := ae.Message(lang)
		if !strings.Contains(msg, "`gds auth login`") || strings.Contains(msg, "oauth2:") {
			t.Errorf("%s message %q", lang, msg)
		}
	}
	if strings.Contains(err.Error(), authtest.TokenMarker) {
		t.Errorf("the error shows a token: %v", err)
	}
	// The stored record is kept (status still shows it) until a new login.
	if _, err := f.store.Load(context.Background()); err != nil {
		t.Errorf("load: %v", err)
	}
}

func TestSessionChecks(t *testing.T) {
	f := newLoginFixture(t)
	ctx := context.Background()
	_, err := auth.OpenSession(ctx, auth.SessionOptions{Client: f.srv.Client(), Endpoints: f.srv.Endpoints(), Store: f.store})
	if !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Errorf("no token: err = %v", err)
	}
	if _, err := f.login(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = auth.OpenSession(ctx, auth.SessionOptions{Client: auth.Client{ID: "other-client", Secret: "s"}, Endpoints: f.srv.Endpoints(), Store: f.store})
	if !errors.Is(err, auth.ErrReauthRequired) || !strings.Contains(err.Error(), "different OAuth client") {
		t.Errorf("other client: err = %v", err)
	}
	s, err := auth.OpenSession(ctx, auth.SessionOptions{Client: f.srv.Client(), Endpoints: f.srv.Endpoints(), Store: f.store})
	if err != nil || s.Verify() != nil {
		t.Fatalf("open/verify: %v", err)
	}
}

func TestRevoke(t *testing.T) {
	f := newLoginFixture(t)
	rec, err := f.login(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := auth.Revoke(ctx, nil, f.srv.Endpoints().RevokeURL, rec.Token.RefreshToken); err != nil {
		t.Fatal(err)
	}
	if got := f.srv.Revoked(); len(got) != 1 || got[0] != rec.Token.RefreshToken {
		t.Errorf("revoked %d tokens", len(got))
	}
	// Revoking again (unknown token) is fine.
	if err := auth.Revoke(ctx, nil, f.srv.Endpoints().RevokeURL, rec.Token.RefreshToken); err != nil {
		t.Errorf("second revoke: %v", err)
	}
	err = auth.Revoke(ctx, nil, f.srv.URL+"/nowhere", rec.Token.RefreshToken)
	if err == nil || strings.Contains(err.Error(), authtest.TokenMarker) {
		t.Errorf("revoke at a bad URL: %v", err)
	}
}

func TestInspect(t *testing.T) {
	f := newLoginFixture(t)
	ctx := context.Background()
	st, err := auth.Inspect(ctx, f.store, f.srv.ClientID)
	if err != nil || st.LoggedIn || st.Store != f.store.Path {
		t.Fatalf("before login: %+v %v", st, err)
	}
	if _, err := f.login(ctx); err != nil {
		t.Fatal(err)
	}
	st, err = auth.Inspect(ctx, f.store, f.srv.ClientID)
	if err != nil || !st.LoggedIn || !st.ClientMatches || !st.HasRefreshToken || st.AccessExpiry == nil || len(st.Scopes) != 1 {
		t.Fatalf("after login: %+v %v", st, err)
	}
	st, _ = auth.Inspect(ctx, f.store, "another")
	if st.ClientMatches {
		t.Error("ClientMatches with another client ID")
	}
}
