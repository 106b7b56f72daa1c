// Package authtest is a local fake of Google's OAuth 2.0 server for tests:
// an authorization endpoint that checks the request (client, loopback
// redirect URI, PKCE S256 challenge, offline access, consent prompt) and
// redirects back with a code and the state, a token endpoint for the
// authorization_code (checking the PKCE verifier) and refresh_token grants,
// a revocation endpoint, and a protected resource that accepts only live
// access tokens.
//
// Issued tokens contain TokenMarker, so a test can assert that no token
// leaks into output by searching for it.
package authtest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/auth"
)

// TokenMarker is part of every token the server issues.
const TokenMarker = "SECRETTOKEN"

// Server is the fake OAuth server.
type Server struct {
	*httptest.Server
	ClientID     string
	ClientSecret string
	// Scope is the scope granted (the "scope" of token responses);
	// "" grants what was asked for.
	Scope string
	// ExpiresIn is the access token lifetime in seconds (default 3600).
	ExpiresIn int
	// StateOverride, when set, replaces the state sent back to the
	// redirect URI (a forged or stale response).
	StateOverride string
	// RefreshLifetime, when set, is how long a refresh token lives after
	// the consent that issued it: Google's rule for an app whose publishing
	// status is "Testing" is 7 days (auth.TestingRefreshLifetime). A
	// refresh after that gets invalid_grant. Now is the server's clock
	// (nil: time.Now); set both before the first request.
	RefreshLifetime time.Duration
	Now             func() time.Time

	mu        sync.Mutex
	user      string            // who the browser signs in as (SignInAs)
	subject   map[string]string // refresh or access token → user
	n         int
	codes     map[string]pending
	refresh   map[string]bool      // refresh token → live
	issued    map[string]time.Time // refresh token → consent time
	access    map[string]bool      // access token → live
	revoked   []string
	requests  []string // "grant_type" of token requests, in order
	authCalls []url.Values
}

type pending struct {
	challenge string
	redirect  string
	scope     string
	user      string
}

// New starts a fake server; it is closed when the test ends.
func New(t testing.TB) *Server {
	s := &Server{
		ClientID:     "test-client.apps.googleusercontent.com",
		ClientSecret: "test-client-secret",
		codes:        map[string]pending{},
		refresh:      map[string]bool{},
		issued:       map[string]time.Time{},
		access:       map[string]bool{},
		subject:      map[string]string{},
		user:         DefaultUser,
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /auth", s.authorize)
	mux.HandleFunc("POST /token", s.token)
	mux.HandleFunc("POST /revoke", s.revoke)
	mux.HandleFunc("GET /resource", s.resource)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// DefaultUser is the Google user the browser signs in as until SignInAs
// picks another.
const DefaultUser = "user"

// SignInAs makes the following sign-ins those of Google user name (the
// account the user picks in Google's account chooser); every token they
// issue belongs to that user (UserOf).
func (s *Server) SignInAs(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.user = name
}

// UserOf returns the user of a live access token: what a Google API
// checks (driveemu.Users.Auth). A revoked or unknown token is ok false.
func (s *Server) UserOf(accessToken string) (user string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.access[accessToken] {
		return "", false
	}
	return s.subject[accessToken], true
}

// RevokeUser ends every grant of user: their refresh and access tokens
// stop working (as when they remove the app's access in their Google
// account), while other users' tokens keep working.
func (s *Server) RevokeUser(user string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for tok, u := range s.subject {
		if u == user {
			s.refresh[tok] = false
			s.access[tok] = false
		}
	}
}

// Endpoints returns the server's endpoints.
func (s *Server) Endpoints() auth.Endpoints {
	return auth.Endpoints{AuthURL: s.URL + "/auth", TokenURL: s.URL + "/token", RevokeURL: s.URL + "/revoke"}
}

// Client returns the OAuth client the server accepts.
func (s *Server) Client() auth.Client { return auth.Client{ID: s.ClientID, Secret: s.ClientSecret} }

// ResourceURL is a protected endpoint answering 200 "ok" to a live bearer
// token and 401 otherwise.
func (s *Server) ResourceURL() string { return s.URL + "/resource" }

// RevokeAllRefreshTokens makes every refresh token invalid (as when the
// user removes the app's access, or a "Testing" app's 7 days are over).
func (s *Server) RevokeAllRefreshTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.refresh {
		s.refresh[k] = false
	}
}

// Revoked returns the tokens revoked through the revocation endpoint.
func (s *Server) Revoked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.revoked...)
}

// TokenRequests returns the grant types of the token requests so far.
func (s *Server) TokenRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// AuthRequests returns the query of every authorization request.
func (s *Server) AuthRequests() []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]url.Values(nil), s.authCalls...)
}

func (s *Server) next(prefix string) string {
	s.n++
	return fmt.Sprintf("%s-%s-%d", prefix, TokenMarker, s.n)
}

func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.authCalls = append(s.authCalls, q)
	s.mu.Unlock()
	fail := func(msg string) { http.Error(w, "authtest: "+msg, http.StatusBadRequest) }
	switch {
	case q.Get("client_id") != s.ClientID:
		fail("unknown client_id")
		return
	case q.Get("response_type") != "code":
		fail("response_type must be code")
		return
	case q.Get("code_challenge") == "":
		fail("PKCE code_challenge missing")
		return
	case q.Get("code_challenge_method") != "S256":
		fail("code_challenge_method must be S256")
		return
	case q.Get("access_type") != "offline":
		fail("access_type must be offline")
		return
	case !slices.Contains(strings.Fields(q.Get("prompt")), "consent"):
		fail("prompt must include consent")
		return
	case q.Get("state") == "":
		fail("state missing")
		return
	}
	ru, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || ru.Scheme != "http" || ru.Hostname() != "127.0.0.1" {
		fail("redirect_uri must be http://127.0.0.1:PORT/...")
		return
	}
	if ip := net.ParseIP(ru.Hostname()); ip == nil || !ip.IsLoopback() {
		fail("redirect_uri is not loopback")
		return
	}
	s.mu.Lock()
	code := s.next("code")
	s.codes[code] = pending{challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"), scope: q.Get("scope"), user: s.user}
	s.mu.Unlock()
	state := q.Get("state")
	if s.StateOverride != "" {
		state = s.StateOverride
	}
	back := *ru
	v := back.Query()
	v.Set("code", code)
	v.Set("state", state)
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (s *Server) clientOK(r *http.Request) bool {
	id, secret, ok := r.BasicAuth()
	if ok {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	return id == s.ClientID && secret == s.ClientSecret
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc}) // the client went away
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "bad form")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.PostForm.Get("grant_type"))
	if !s.clientOK(r) {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "The OAuth client was not found.")
		return
	}
	var scope, refresh, user string
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		code := r.PostForm.Get("code")
		p, ok := s.codes[code]
		delete(s.codes, code) // single use
		if !ok {
			oauthError(w, http.StatusBadRequest, "invalid_grant", "Malformed auth code.")
			return
		}
		if r.PostForm.Get("redirect_uri") != p.redirect {
			oauthError(w, http.StatusBadRequest, "redirect_uri_mismatch", "Bad Request")
			return
		}
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if r.PostForm.Get("code_verifier") == "" || base64.RawURLEncoding.EncodeToString(sum[:]) != p.challenge {
			oauthError(w, http.StatusBadRequest, "invalid_grant", "Invalid code verifier.")
			return
		}
		scope, user = p.scope, p.user
		refresh = s.next("refresh")
		s.refresh[refresh] = true
		s.subject[refresh] = user
		s.issued[refresh] = s.now()
	case "refresh_token":
		rt := r.PostForm.Get("refresh_token")
		expired := s.RefreshLifetime > 0 && s.now().Sub(s.issued[rt]) >= s.RefreshLifetime
		if !s.refresh[rt] || expired {
			oauthError(w, http.StatusBadRequest, "invalid_grant", "Token has been expired or revoked.")
			return
		}
		scope = "https://www.googleapis.com/auth/drive.readonly"
		user = s.subject[rt]
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "")
		return
	}
	if s.Scope != "" {
		scope = s.Scope
	}
	exp := s.ExpiresIn
	if exp == 0 {
		exp = 3600
	}
	at := s.next("access")
	s.access[at] = true
	s.subject[at] = user
	resp := map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": exp, "scope": scope}
	if refresh != "" {
		resp["refresh_token"] = refresh
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp) // the client went away
}

func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "bad form")
		return
	}
	tok := r.PostForm.Get("token")
	s.mu.Lock()
	defer s.mu.Unlock()
	live := s.refresh[tok] || s.access[tok]
	if !live {
		oauthError(w, http.StatusBadRequest, "invalid_token", "Token expired or revoked")
		return
	}
	s.refresh[tok] = false
	s.access[tok] = false
	s.revoked = append(s.revoked, tok)
	w.WriteHeader(http.StatusOK)
}

func (s *Server) resource(w http.ResponseWriter, r *http.Request) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	live := ok && s.access[tok]
	s.mu.Unlock()
	if !live {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	fmt.Fprint(w, "ok")
}

// Browser returns an HTTP client that plays the user's browser: it
// follows the authorization URL and its redirect to the loopback server.
func Browser() *http.Client { return &http.Client{} }

// Visit follows authURL like a browser whose user clicks "Allow" and
// returns the final page's status code.
func Visit(authURL string) (int, error) {
	resp, err := Browser().Get(authURL)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}
