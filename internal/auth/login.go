package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// CallbackPath is the path of the loopback redirect URI.
const CallbackPath = "/callback"

// LoginOptions are the inputs of Login.
type LoginOptions struct {
	Client    Client
	Endpoints Endpoints // zero: Google
	Store     TokenStore
	// ShowURL presents the sign-in URL for copy-paste (always called,
	// before the browser is opened).
	ShowURL func(authURL string)
	// OpenBrowser opens the URL in the user's browser; nil skips it
	// (--no-browser). Its failure is reported through Warn, not fatal.
	OpenBrowser func(ctx context.Context, url string) error
	// Warn reports a problem that does not stop the login.
	Warn func(err error)
	// Timeout bounds the wait for the browser and the code exchange;
	// 0 means DefaultLoginTimeout.
	Timeout time.Duration
	// HTTPClient makes the token request; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Now is the clock for Record.ObtainedAt; nil means time.Now.
	Now func() time.Time
	// SelectAccount asks Google to show its account chooser before the
	// consent (prompt=select_account consent), so a second Google account
	// can be picked in a browser already signed in to the first.
	SelectAccount bool
}

// Login runs the installed-app OAuth flow and saves the record in
// opts.Store. Nothing is stored unless the whole flow succeeds.
func Login(ctx context.Context, opts LoginOptions) (*Record, error) {
	if err := opts.Client.check(); err != nil {
		return nil, err
	}
	if opts.Store == nil {
		return nil, errors.New("login: no token store")
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultLoginTimeout
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// Loopback only: the code must never be deliverable from another host.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the sign-in callback on 127.0.0.1: %w", err)
	}
	redirect := "http://" + ln.Addr().String() + CallbackPath
	conf := oauthConfig(opts.Client, opts.Endpoints, redirect)
	state, err := randomState()
	if err != nil {
		ln.Close()
		return nil, err
	}
	verifier := oauth2.GenerateVerifier()
	prompt := oauth2.ApprovalForce // prompt=consent
	if opts.SelectAccount {
		prompt = oauth2.SetAuthURLParam("prompt", "select_account consent")
	}
	authURL := conf.AuthCodeURL(state, oauth2.AccessTypeOffline, prompt, oauth2.S256ChallengeOption(verifier))

	results := make(chan callbackResult, 1)
	srv := &http.Server{Handler: callbackHandler(state, results), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // returns http.ErrServerClosed on Shutdown
	defer func() {
		// Let the browser receive the result page, then stop.
		sctx, scancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer scancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
	}()

	if opts.ShowURL != nil {
		opts.ShowURL(authURL)
	}
	if opts.OpenBrowser != nil {
		// In the background: some openers (xdg-open) may not return until
		// the browser does, and the callback must be served meanwhile.
		go func() {
			if err := opts.OpenBrowser(ctx, authURL); err != nil && opts.Warn != nil && ctx.Err() == nil {
				opts.Warn(fmt.Errorf("open the browser: %w", err))
			}
		}()
	}

	var code string
	select {
	case r := <-results:
		if r.err != nil {
			return nil, r.err
		}
		code = r.code
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, newError(ErrLoginFailed, "auth.err.login_timeout", ctx.Err(), timeout.String())
		}
		return nil, fmt.Errorf("wait for the sign-in: %w", ctx.Err())
	}

	xctx := ctx
	if opts.HTTPClient != nil {
		xctx = context.WithValue(ctx, oauth2.HTTPClient, opts.HTTPClient)
	}
	tok, err := conf.Exchange(xctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, exchangeError(err)
	}
	if tok.RefreshToken == "" {
		return nil, newError(ErrLoginFailed, "auth.err.no_refresh_token", nil)
	}
	scopes := grantedScopes(tok, conf.Scopes)
	rec := &Record{Version: recordVersion, ClientID: opts.Client.ID, Scopes: scopes, ObtainedAt: now().UTC(), Token: stripExtra(tok)}
	if !rec.HasScope(DriveReadonlyScope) {
		return nil, newError(ErrLoginFailed, "auth.err.scope_not_granted", nil, DriveReadonlyScope)
	}
	if err := opts.Store.Save(ctx, rec); err != nil {
		return nil, fmt.Errorf("store the token in %s: %w", opts.Store.Location(), err)
	}
	return rec, nil
}

// exchangeError maps a failed code exchange to a message without tokens.
func exchangeError(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		switch re.ErrorCode {
		case "invalid_client", "unauthorized_client":
			return newError(ErrNoClient, "auth.err.invalid_client", err)
		case "":
			return newError(ErrLoginFailed, "auth.err.exchange", err, fmt.Sprintf("HTTP %d", statusOf(re)))
		default:
			return newError(ErrLoginFailed, "auth.err.exchange", err, re.ErrorCode)
		}
	}
	return fmt.Errorf("exchange the sign-in code for a token: %w", err)
}

func statusOf(re *oauth2.RetrieveError) int {
	if re.Response == nil {
		return 0
	}
	return re.Response.StatusCode
}

// grantedScopes returns the scopes of the token response ("scope",
// space-separated; users can untick scopes on Google's consent screen), or
// the requested ones when the server did not say.
func grantedScopes(tok *oauth2.Token, requested []string) []string {
	if s, ok := tok.Extra("scope").(string); ok && strings.TrimSpace(s) != "" {
		return strings.Fields(s)
	}
	return append([]string(nil), requested...)
}

// stripExtra drops the raw token response (it may hold an id_token) and
// keeps the fields gds needs.
func stripExtra(t *oauth2.Token) *oauth2.Token {
	return &oauth2.Token{AccessToken: t.AccessToken, TokenType: t.TokenType, RefreshToken: t.RefreshToken, Expiry: t.Expiry}
}

// randomState returns 32 random bytes, base64url-encoded.
func randomState() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate the OAuth state: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// callbackResult is the outcome of the redirect to the loopback server.
type callbackResult struct {
	code string
	err  error
}

// parseCallback decides what a redirect means: the authorization code, or
// why there is none. The state is compared in constant time.
func parseCallback(q url.Values, wantState string) (string, error) {
	if e := q.Get("error"); e != "" {
		return "", newError(ErrLoginFailed, "auth.err.denied", nil, e)
	}
	got := q.Get("state")
	if got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(wantState)) != 1 {
		return "", newError(ErrLoginFailed, "auth.err.state_mismatch", nil)
	}
	code := q.Get("code")
	if code == "" {
		return "", newError(ErrLoginFailed, "auth.err.no_code", nil)
	}
	return code, nil
}

// callbackHandler serves the redirect: the first request to CallbackPath
// decides the login (a wrong state ends it with an error); later requests
// get a page saying the login is over.
func callbackHandler(state string, results chan<- callbackResult) http.Handler {
	var (
		mu       sync.Mutex
		finished bool
	)
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+CallbackPath, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if finished {
			writePage(w, http.StatusGone, "gds: this sign-in has already finished. You can close this tab.", "gds: このサインインは終了しています。このタブを閉じてください。")
			return
		}
		finished = true
		code, err := parseCallback(r.URL.Query(), state)
		// The page is written before Login learns the result, so the
		// browser gets it even though Login then shuts the server down.
		if err != nil {
			writePage(w, http.StatusBadRequest, "gds: sign-in failed. "+err.Error()+" Return to the terminal.", "gds: サインインに失敗しました。ターミナルに戻ってください。")
		} else {
			writePage(w, http.StatusOK, "gds: the sign-in was received. Return to the terminal for the result; you can close this tab.", "gds: サインインを受け取りました。結果はターミナルで確認してください。このタブは閉じてかまいません。")
		}
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		results <- callbackResult{code: code, err: err}
	})
	return mux
}

func writePage(w http.ResponseWriter, status int, en, ja string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><meta charset=\"utf-8\"><title>gds</title><p>%s</p><p>%s</p>\n", html.EscapeString(en), html.EscapeString(ja))
}
