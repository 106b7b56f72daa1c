package app

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/auth/authtest"
	"github.com/gds-cli/gds/internal/config"
)

func TestGoogleHTTPClient(t *testing.T) {
	srv := authtest.New(t)
	ctx := context.Background()
	var stderr bytes.Buffer

	// No OAuth client configured.
	d := New(Options{Config: loadConfig(t, nil), Stderr: &stderr})
	if _, err := d.GoogleHTTPClient(ctx); !errors.Is(err, auth.ErrNoClient) {
		t.Fatalf("no client: %v", err)
	}

	cfg := loadConfig(t, map[string]string{config.EnvOAuthClientID: srv.ClientID, config.EnvOAuthClientSecret: srv.ClientSecret})
	d = New(Options{Config: cfg, Stderr: &stderr})
	d.OAuthEndpoints = srv.Endpoints()
	if runtime.GOOS != "darwin" {
		ts, _ := d.TokenStore()
		if fs, ok := ts.(auth.FileStore); !ok || fs.Path != auth.TokenFilePath(cfg.DataDir) {
			t.Errorf("default token store %#v, want the file in the gds home", ts)
		}
	} else {
		// Never touch the developer's real Keychain from a test.
		d.TokenStore = func() (auth.TokenStore, error) { return auth.NewFileStore(cfg.DataDir), nil }
	}
	if _, err := d.GoogleHTTPClient(ctx); !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Fatalf("no token: %v", err)
	}

	ts, _ := d.TokenStore()
	rec, err := auth.Login(ctx, auth.LoginOptions{
		Client: srv.Client(), Endpoints: srv.Endpoints(), Store: ts,
		OpenBrowser: func(_ context.Context, u string) error { _, err := authtest.Visit(u); return err },
	})
	if err != nil {
		t.Fatal(err)
	}
	hc, err := d.GoogleHTTPClient(ctx)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := hc.Get(srv.ResourceURL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("resource: HTTP %d", resp.StatusCode)
	}

	// A revoked sign-in asks for `gds auth login`.
	rec.Token.Expiry = time.Now().Add(-time.Minute)
	if err := ts.Save(ctx, rec); err != nil {
		t.Fatal(err)
	}
	srv.RevokeAllRefreshTokens()
	hc, err = d.GoogleHTTPClient(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = hc.Get(srv.ResourceURL())
	if !errors.Is(err, auth.ErrReauthRequired) || !strings.Contains(err.Error(), "gds auth login") {
		t.Errorf("revoked: %v", err)
	}
	if strings.Contains(err.Error()+stderr.String(), authtest.TokenMarker) {
		t.Error("a token leaked into an error or stderr")
	}
}
