package auth_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/auth/authtest"
	"github.com/gds-cli/gds/internal/i18n"
)

// The default account keeps the token file gds always used; a named
// account gets its own file beside it.
func TestAccountStorePaths(t *testing.T) {
	dir := t.TempDir()
	if got := auth.NewAccountFileStore(dir, "").Path; got != auth.TokenFilePath(dir) {
		t.Errorf("default account file %q, want the existing %q", got, auth.TokenFilePath(dir))
	}
	if got := auth.NewAccountFileStore(dir, "work").Path; got != filepath.Join(dir, "credentials", "google-oauth-token@work.json") {
		t.Errorf("work account file %q", got)
	}
	if auth.KeychainAccountFor("") != auth.KeychainAccount || auth.KeychainAccountFor("work") != "work" {
		t.Error("Keychain accounts")
	}
}

func TestRegistry(t *testing.T) {
	r := auth.NewRegistry(t.TempDir())
	if n, err := r.Names(); err != nil || len(n) != 0 {
		t.Fatalf("empty: %v %v", n, err)
	}
	for _, n := range []string{"work", "home", "work", ""} {
		if err := r.Add(n); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := r.Names(); !slices.Equal(n, []string{"home", "work"}) {
		t.Errorf("names %v", n)
	}
	if err := r.Remove("work"); err != nil {
		t.Fatal(err)
	}
	if n, _ := r.Names(); !slices.Equal(n, []string{"home"}) {
		t.Errorf("after remove: %v", n)
	}
}

// Two accounts signed in side by side: revoking one makes its requests
// fail with ErrReauthRequired naming `gds auth login --account work`
// (even before its access token expires: the API's 401 forces a refresh,
// which Google refuses), while the other account's requests still work.
func TestRevokedAccountFailsAloneNamingItsFix(t *testing.T) {
	f := newLoginFixture(t)
	dir := filepath.Dir(filepath.Dir(f.store.Path)) // the data directory
	f.srv.SignInAs("alice@home")
	if _, err := f.login(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-f.pageCode
	work := auth.NewAccountFileStore(dir, "work")
	f.store = work
	f.srv.SignInAs("alice@work")
	if _, err := f.login(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-f.pageCode
	client := func(store auth.TokenStore, account string) *http.Client {
		hc, err := auth.HTTPClient(context.Background(), auth.SessionOptions{Client: f.srv.Client(), Endpoints: f.srv.Endpoints(), Store: store, Account: account})
		if err != nil {
			t.Fatal(err)
		}
		return hc
	}
	home, workHC := client(auth.NewAccountFileStore(dir, ""), ""), client(work, "work")
	get := func(hc *http.Client) (int, error) {
		resp, err := hc.Get(f.srv.ResourceURL())
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	for _, hc := range []*http.Client{home, workHC} {
		if code, err := get(hc); code != http.StatusOK {
			t.Fatalf("before the revocation: %d %v", code, err)
		}
	}

	f.srv.RevokeUser("alice@work")
	_, err := get(workHC)
	if !errors.Is(err, auth.ErrReauthRequired) || !errors.Is(err, apperr.Auth) {
		t.Fatalf("revoked account: %v, want ErrReauthRequired", err)
	}
	for _, lang := range []string{i18n.En, i18n.Ja} {
		msg, hint := apperr.Message(err, lang), apperr.Hint(err, lang)
		if !strings.Contains(msg, "`gds auth login --account work`") || !strings.Contains(hint, "gds auth login --account work") {
			t.Errorf("%s: message %q hint %q do not name the fix", lang, msg, hint)
		}
		if strings.Contains(msg+hint, authtest.TokenMarker) {
			t.Errorf("%s: a token leaked: %q %q", lang, msg, hint)
		}
	}
	if code, err := get(home); code != http.StatusOK {
		t.Errorf("the default account after work's revocation: %d %v", code, err)
	}
}

// The default account's failures keep their message (no account named).
func TestForAccountDefault(t *testing.T) {
	err := auth.ForAccount(auth.ErrNotLoggedIn, "")
	if err != auth.ErrNotLoggedIn {
		t.Errorf("default account: %v", err)
	}
	plain := errors.New("network down")
	if auth.ForAccount(plain, "work") != plain {
		t.Error("a non-auth error was changed")
	}
}
