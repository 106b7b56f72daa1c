package app

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/auth"
)

// authClient is the configured OAuth client.
func (d *Deps) authClient() (auth.Client, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return auth.Client{}, err
	}
	return auth.Client{ID: cfg.OAuthClientID, Secret: cfg.OAuthClientSecret}, nil
}

// AuthLoginRequest is one `gds auth login`.
type AuthLoginRequest struct {
	NoBrowser bool
	Timeout   time.Duration
	// ShowURL is told the consent URL (it carries no secret); Warn, a
	// browser that could not be opened.
	ShowURL func(url string)
	Warn    func(err error)
}

// AuthLogin signs in with the installed-app flow and stores the token; it
// returns where the token is kept.
func (d *Deps) AuthLogin(ctx context.Context, req AuthLoginRequest) (string, error) {
	if req.Timeout <= 0 {
		return "", apperr.L(apperr.Usage, "auth.bad_timeout", req.Timeout)
	}
	client, err := d.authClient()
	if err != nil {
		return "", err
	}
	store, err := d.TokenStore()
	if err != nil {
		return "", err
	}
	if fs, ok := store.(auth.FileStore); ok {
		// Before the browser: a sign-in that could not be saved is lost.
		if err := checkWritable(filepath.Dir(fs.Path)); err != nil {
			return "", err
		}
	}
	opener := d.OpenBrowser
	if req.NoBrowser {
		opener = nil
	}
	_, err = auth.Login(ctx, auth.LoginOptions{
		Client: client, Endpoints: d.OAuthEndpoints, Store: store,
		ShowURL: req.ShowURL, OpenBrowser: opener, Warn: req.Warn,
		Timeout: req.Timeout, Now: d.Now,
	})
	if fs, ok := store.(auth.FileStore); ok && err != nil {
		err = homeWriteError(filepath.Dir(fs.Path), err)
	}
	if err != nil {
		return "", err
	}
	return store.Location(), nil
}

// AuthStatus inspects the stored sign-in; with check it also refreshes the
// token against Google. The status is filled either way; problem is the
// failed check (also described in st.Problem), nil otherwise.
func (d *Deps) AuthStatus(ctx context.Context, check bool) (st auth.Status, problem error, err error) {
	client, err := d.authClient()
	if err != nil {
		return st, nil, err
	}
	store, err := d.TokenStore()
	if err != nil {
		return st, nil, err
	}
	if st, err = auth.Inspect(ctx, store, client.ID); err != nil {
		return st, nil, err
	}
	if check && st.LoggedIn {
		st.Checked = true
		s, err := auth.OpenSession(ctx, auth.SessionOptions{Client: client, Endpoints: d.OAuthEndpoints, Store: store, Now: d.Now})
		if err == nil {
			err = s.Verify()
		}
		if err != nil {
			st.Problem = apperr.Message(err, d.Lang)
			return st, err, nil
		}
		st.Valid = true
	}
	return st, nil, nil
}

// AuthLogoutResult says what `gds auth logout` did.
type AuthLogoutResult struct {
	Location  string // where the token was kept
	WasStored bool   // false: there was nothing to remove
	Revoked   bool   // the grant was revoked at Google first
}

// AuthLogout removes the stored token; with revoke it first revokes the
// grant at Google (on failure the token is kept, so it can be retried).
func (d *Deps) AuthLogout(ctx context.Context, revoke bool) (AuthLogoutResult, error) {
	store, err := d.TokenStore()
	if err != nil {
		return AuthLogoutResult{}, err
	}
	res := AuthLogoutResult{Location: store.Location()}
	rec, err := store.Load(ctx)
	if errors.Is(err, auth.ErrNotLoggedIn) {
		return res, nil
	}
	if err != nil && revoke {
		return res, err
	}
	res.WasStored = true
	if revoke {
		tok := rec.Token.RefreshToken // revoking it ends the whole grant
		if tok == "" {
			tok = rec.Token.AccessToken
		}
		if err := auth.Revoke(ctx, nil, d.OAuthEndpoints.RevokeURL, tok); err != nil {
			return res, err
		}
		res.Revoked = true
	}
	if err := store.Delete(ctx); err != nil {
		return res, err
	}
	return res, nil
}
