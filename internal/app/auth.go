package app

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/config"
)

// authClient is the configured OAuth client.
func (d *Deps) authClient() (auth.Client, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return auth.Client{}, err
	}
	return auth.Client{ID: cfg.OAuthClientID, Secret: cfg.OAuthClientSecret}, nil
}

// checkAccount checks an --account value: the canonical name ("" for the
// default account), or an apperr.Usage error saying which names work.
func checkAccount(name string) (string, error) {
	a, err := config.CheckAccount(name)
	if err != nil {
		return "", apperr.Mark(err, apperr.Usage)
	}
	return a, nil
}

// AuthLoginRequest is one `gds auth login`.
type AuthLoginRequest struct {
	// Account is the Google account to sign in ("" or "default": the
	// default account; --account NAME).
	Account   string
	NoBrowser bool
	Timeout   time.Duration
	// ShowURL is told the consent URL (it carries no secret); Warn, a
	// browser that could not be opened.
	ShowURL func(url string)
	Warn    func(err error)
}

// AuthLogin signs in with the installed-app flow and stores the token of
// the request's account; it returns where the token is kept.
func (d *Deps) AuthLogin(ctx context.Context, req AuthLoginRequest) (string, error) {
	account, err := checkAccount(req.Account)
	if err != nil {
		return "", err
	}
	if req.Timeout <= 0 {
		return "", apperr.L(apperr.Usage, "auth.bad_timeout", req.Timeout)
	}
	client, err := d.authClient()
	if err != nil {
		return "", err
	}
	store, err := d.TokenStore(account)
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
		Timeout: req.Timeout, Now: d.Now, SelectAccount: account != "", HTTPClient: d.GoogleBaseClient,
	})
	if fs, ok := store.(auth.FileStore); ok && err != nil {
		err = homeWriteError(filepath.Dir(fs.Path), err)
	}
	if err != nil {
		return "", auth.ForAccount(err, account)
	}
	if account != "" {
		cfg, _ := d.RequireConfig()
		if err := auth.NewRegistry(cfg.DataDir).Add(account); err != nil {
			return "", err
		}
	}
	return store.Location(), nil
}

// Accounts lists the Google accounts gds knows, the default account ("")
// first: those signed in with `gds auth login --account NAME` and those
// the configured sources name (drive@NAME), sorted.
func (d *Deps) Accounts() ([]string, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	names, err := auth.NewRegistry(cfg.DataDir).Names()
	if err != nil {
		return nil, err
	}
	for _, a := range config.Accounts(cfg.Sources) {
		if a != "" && !slices.Contains(names, a) {
			names = append(names, a)
		}
	}
	slices.Sort(names)
	return append([]string{""}, names...), nil
}

// AuthReport is `gds auth status`: the default account's sign-in at the
// top level (as before accounts existed) and every account's in Accounts,
// the default first.
type AuthReport struct {
	auth.Status
	Accounts []auth.AccountStatus `json:"accounts"`
}

// AuthStatus inspects the stored sign-in of every account (Accounts);
// with check it also refreshes each token against Google. The report is
// filled either way; problem is the first failed check (each account's
// is also in its Problem), nil otherwise.
func (d *Deps) AuthStatus(ctx context.Context, check bool) (rep AuthReport, problem error, err error) {
	client, err := d.authClient()
	if err != nil {
		return rep, nil, err
	}
	accounts, err := d.Accounts()
	if err != nil {
		return rep, nil, err
	}
	for _, account := range accounts {
		st, perr, err := d.accountStatus(ctx, client, account, check)
		if err != nil {
			return rep, nil, err
		}
		if problem == nil {
			problem = perr
		}
		if account == "" {
			rep.Status = st
		}
		rep.Accounts = append(rep.Accounts, auth.AccountStatus{Account: config.AccountLabel(account), Status: st})
	}
	return rep, problem, nil
}

func (d *Deps) accountStatus(ctx context.Context, client auth.Client, account string, check bool) (st auth.Status, problem error, err error) {
	store, err := d.TokenStore(account)
	if err != nil {
		return st, nil, err
	}
	if st, err = auth.Inspect(ctx, store, client.ID); err != nil {
		return st, nil, auth.ForAccount(err, account)
	}
	if check && st.LoggedIn {
		st.Checked = true
		s, err := auth.OpenSession(ctx, auth.SessionOptions{Client: client, Endpoints: d.OAuthEndpoints, Store: store,
			Account: account, HTTPClient: d.GoogleBaseClient, Now: d.Now})
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

// AuthLogout removes the stored token of account ("" or "default": the
// default account); with revoke it first revokes the grant at Google (on
// failure the token is kept, so it can be retried). Other accounts keep
// theirs.
func (d *Deps) AuthLogout(ctx context.Context, account string, revoke bool) (AuthLogoutResult, error) {
	account, err := checkAccount(account)
	if err != nil {
		return AuthLogoutResult{}, err
	}
	store, err := d.TokenStore(account)
	if err != nil {
		return AuthLogoutResult{}, err
	}
	res := AuthLogoutResult{Location: store.Location()}
	forget := func() error {
		if account == "" {
			return nil
		}
		cfg, _ := d.RequireConfig()
		return auth.NewRegistry(cfg.DataDir).Remove(account)
	}
	rec, err := store.Load(ctx)
	if errors.Is(err, auth.ErrNotLoggedIn) {
		return res, forget()
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
		if err := auth.Revoke(ctx, d.GoogleBaseClient, d.OAuthEndpoints.RevokeURL, tok); err != nil {
			return res, err
		}
		res.Revoked = true
	}
	if err := store.Delete(ctx); err != nil {
		return res, err
	}
	return res, forget()
}
