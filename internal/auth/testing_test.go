package auth_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/auth/authtest"
	"github.com/gds-cli/gds/internal/i18n"
)

func TestTestingRisk(t *testing.T) {
	day := 24 * time.Hour
	t0 := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		name              string
		obtained, refresh time.Time
		now               time.Time
		likely, expired   bool
		days              int
	}{
		{"fresh sign-in", t0, time.Time{}, t0.Add(2 * day), false, false, 2},
		{"refreshed on day 3", t0, t0.Add(3 * day), t0.Add(5 * day), false, false, 5},
		{"day 6: warn ahead", t0, t0.Add(3 * day), t0.Add(6 * day), true, false, 6},
		{"just before day 7", t0, time.Time{}, t0.Add(7*day - time.Minute), true, false, 6},
		{"day 7: expired if Testing", t0, time.Time{}, t0.Add(7 * day), true, true, 7},
		{"day 40, never refreshed past day 7", t0, t0.Add(6 * day), t0.Add(40 * day), true, true, 40},
		{"refreshed on day 7: published", t0, t0.Add(7 * day), t0.Add(8 * day), false, false, 8},
		{"refreshed on day 30: published", t0, t0.Add(30 * day), t0.Add(200 * day), false, false, 200},
		{"no sign-in time (old record)", time.Time{}, time.Time{}, t0, false, false, 0},
	}
	for _, c := range cases {
		got := auth.TestingRisk(c.obtained, c.refresh, c.now)
		if got.Likely != c.likely || got.Expired != c.expired || got.Days() != c.days {
			t.Errorf("%s: %+v (days %d), want likely %v expired %v days %d", c.name, got, got.Days(), c.likely, c.expired, c.days)
		}
		if c.likely && !got.Expires.Equal(c.obtained.Add(auth.TestingRefreshLifetime)) {
			t.Errorf("%s: expires %v", c.name, got.Expires)
		}
	}
}

// clock is a settable clock shared by the fake server and gds.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// verifyAfter signs in at the clock's time, moves the clock on by d,
// expires the access token and verifies the session (a refresh).
func verifyAfter(t *testing.T, f *loginFixture, clk *clock, d time.Duration) error {
	t.Helper()
	clk.advance(d)
	rec, err := f.store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rec.Token.Expiry = time.Now().Add(-time.Hour) // oauth2 checks expiry against the real clock
	if err := f.store.Save(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	s, err := auth.OpenSession(context.Background(), auth.SessionOptions{Client: f.srv.Client(), Endpoints: f.srv.Endpoints(), Store: f.store, Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	return s.Verify()
}

func newTestingFixture(t *testing.T, lifetime time.Duration) (*loginFixture, *clock) {
	t.Helper()
	clk := &clock{t: time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)}
	f := newLoginFixture(t)
	f.now = clk.now
	f.srv.Now, f.srv.RefreshLifetime = clk.now, lifetime
	if _, err := f.login(context.Background()); err != nil {
		t.Fatal(err)
	}
	return f, clk
}

// An app in "Testing": the fake token endpoint refuses the refresh token 7
// days after the consent with invalid_grant (RFC 6749 error JSON), and the
// error explains the Testing expiry and how to publish the app.
func TestInvalidGrantAfterSevenDaysExplainsTesting(t *testing.T) {
	f, clk := newTestingFixture(t, auth.TestingRefreshLifetime)
	if err := verifyAfter(t, f, clk, 3*24*time.Hour); err != nil {
		t.Fatalf("day 3: %v", err)
	}
	rec, _ := f.store.Load(context.Background())
	if !rec.RefreshedAt.Equal(clk.now()) {
		t.Errorf("the refresh was not recorded: RefreshedAt %v, now %v", rec.RefreshedAt, clk.now())
	}
	err := verifyAfter(t, f, clk, 5*24*time.Hour) // day 8
	if !errors.Is(err, auth.ErrReauthRequired) {
		t.Fatalf("day 8: %v, want ErrReauthRequired", err)
	}
	var ae *auth.Error
	if !errors.As(err, &ae) {
		t.Fatalf("no *auth.Error in %v", err)
	}
	for lang, wants := range map[string][]string{
		i18n.En: {"8 days ago", `"Testing"`, "7 days", "Publish app", "`gds auth login`"},
		i18n.Ja: {"8 日前", "テスト中", "7 日", "アプリを公開", "`gds auth login`"},
	} {
		msg := ae.Message(lang)
		for _, w := range wants {
			if !strings.Contains(msg, w) {
				t.Errorf("%s message lacks %q: %s", lang, w, msg)
			}
		}
	}
	if strings.Contains(err.Error(), authtest.TokenMarker) {
		t.Errorf("the error shows a token: %v", err)
	}
}

// A published app: a refresh on day 8 works and is recorded, which proves
// the app is not in Testing; a later invalid_grant (revoked access) gets
// the generic message, as does one within the first 7 days.
func TestInvalidGrantOfAPublishedAppIsGeneric(t *testing.T) {
	f, clk := newTestingFixture(t, 0)
	if err := verifyAfter(t, f, clk, 8*24*time.Hour); err != nil {
		t.Fatalf("day 8: %v", err)
	}
	if risk := riskOf(t, f, clk); risk.Likely {
		t.Errorf("a refresh on day 8 did not prove the app published: %+v", risk)
	}
	f.srv.RevokeAllRefreshTokens()
	err := verifyAfter(t, f, clk, 24*time.Hour)
	var ae *auth.Error
	if !errors.As(err, &ae) || ae.Key != "auth.err.reauth" {
		t.Errorf("revoked after publishing: %v", err)
	}

	f, clk = newTestingFixture(t, 0)
	f.srv.RevokeAllRefreshTokens()
	err = verifyAfter(t, f, clk, 2*24*time.Hour)
	if !errors.As(err, &ae) || ae.Key != "auth.err.reauth" {
		t.Errorf("revoked on day 2: %v", err)
	}
}

func riskOf(t *testing.T, f *loginFixture, clk *clock) auth.Testing {
	t.Helper()
	rec, err := f.store.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return auth.TestingRisk(rec.ObtainedAt, rec.RefreshedAt, clk.now())
}
