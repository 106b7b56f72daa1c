package app

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/auth/authtest"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/doctor"
	"github.com/gds-cli/gds/internal/iostreams"
)

func TestGoogleHTTPClient(t *testing.T) {
	srv := authtest.New(t)
	ctx := context.Background()
	var stderr bytes.Buffer

	// No OAuth client configured.
	d := New(Options{Config: loadConfig(t, nil), IO: iostreams.IOStreams{Stderr: &stderr}})
	if _, err := d.GoogleHTTPClient(ctx, ""); !errors.Is(err, auth.ErrNoClient) {
		t.Fatalf("no client: %v", err)
	}

	cfg := loadConfig(t, map[string]string{config.EnvOAuthClientID: srv.ClientID, config.EnvOAuthClientSecret: srv.ClientSecret})
	d = New(Options{Config: cfg, IO: iostreams.IOStreams{Stderr: &stderr}})
	d.OAuthEndpoints = srv.Endpoints()
	if runtime.GOOS != "darwin" {
		ts, _ := d.TokenStore("")
		if fs, ok := ts.(auth.FileStore); !ok || fs.Path != auth.TokenFilePath(cfg.DataDir) {
			t.Errorf("default token store %#v, want the file in the gds home", ts)
		}
	} else {
		// Never touch the developer's real Keychain from a test.
		d.TokenStore = func(string) (auth.TokenStore, error) { return auth.NewFileStore(cfg.DataDir), nil }
	}
	if _, err := d.GoogleHTTPClient(ctx, ""); !errors.Is(err, auth.ErrNotLoggedIn) {
		t.Fatalf("no token: %v", err)
	}

	ts, _ := d.TokenStore("")
	rec, err := auth.Login(ctx, auth.LoginOptions{
		Client: srv.Client(), Endpoints: srv.Endpoints(), Store: ts,
		OpenBrowser: func(_ context.Context, u string) error { _, err := authtest.Visit(u); return err },
	})
	if err != nil {
		t.Fatal(err)
	}
	hc, err := d.GoogleHTTPClient(ctx, "")
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
	hc, err = d.GoogleHTTPClient(ctx, "")
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

// doctor's view of a sign-in made with a user's own OAuth client: from day
// 6 a warning with the Testing expiry date; on day 8 with the app still in
// Testing, the refresh fails with the Testing explanation; with a
// published app, the refresh on day 8 is recorded and the warning stops.
func TestDoctorInspectsTheTestingExpiry(t *testing.T) {
	for _, published := range []bool{false, true} {
		srv := authtest.New(t)
		var mu sync.Mutex
		now := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
		srv.Now = clock
		if !published {
			srv.RefreshLifetime = auth.TestingRefreshLifetime
		}
		cfg := loadConfig(t, map[string]string{config.EnvOAuthClientID: srv.ClientID, config.EnvOAuthClientSecret: srv.ClientSecret})
		d := New(Options{Config: cfg, Now: clock, IO: iostreams.IOStreams{Stderr: &bytes.Buffer{}}})
		d.OAuthEndpoints = srv.Endpoints()
		d.TokenStore = func(string) (auth.TokenStore, error) { return auth.NewFileStore(cfg.DataDir), nil }
		ts, _ := d.TokenStore("")
		ctx := context.Background()
		if _, err := auth.Login(ctx, auth.LoginOptions{Client: srv.Client(), Endpoints: srv.Endpoints(), Store: ts, Now: clock,
			OpenBrowser: func(_ context.Context, u string) error { _, err := authtest.Visit(u); return err }}); err != nil {
			t.Fatal(err)
		}
		inspect := func() doctor.TokenState {
			t.Helper()
			rec, err := ts.Load(ctx)
			if err != nil {
				t.Fatal(err)
			}
			rec.Token.Expiry = time.Now().Add(-time.Minute) // the next use refreshes
			if err := ts.Save(ctx, rec); err != nil {
				t.Fatal(err)
			}
			st, err := authInspector{d: d}.InspectToken(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		advance(2 * 24 * time.Hour)
		if st := inspect(); !st.TestingExpiry.IsZero() || st.Problem != "" {
			t.Errorf("published=%v day 2: %+v", published, st)
		}
		advance(4*24*time.Hour + time.Hour) // day 6
		st := inspect()
		if want := time.Date(2026, 11, 8, 9, 0, 0, 0, time.UTC); !st.TestingExpiry.Equal(want) || st.AgeDays != 6 || st.Problem != "" {
			t.Errorf("published=%v day 6: %+v, want a warning for %v", published, st, want)
		}
		advance(2 * 24 * time.Hour) // day 8
		st = inspect()
		switch {
		case !published && !strings.Contains(st.Problem, `"Testing"`):
			t.Errorf("Testing app, day 8: %+v", st)
		case published && (st.Problem != "" || !st.TestingExpiry.IsZero()):
			t.Errorf("published app, day 8: the refresh should prove it published: %+v", st)
		}
	}
}
