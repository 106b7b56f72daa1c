package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// SessionOptions are the inputs of OpenSession.
type SessionOptions struct {
	Client    Client
	Endpoints Endpoints // zero: Google
	Store     TokenStore
	// Account is the Google account whose sign-in Store holds ("" for the
	// default account): failures of a named account name it and its fix
	// (ForAccount).
	Account string
	// HTTPClient makes token refresh requests and is the base transport of
	// Session.HTTPClient; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Warn reports a refreshed token that could not be saved (the request
	// still proceeds with the new token); nil ignores it.
	Warn func(err error)
	// Now is the clock of Record.RefreshedAt and of the Testing inference
	// (TestingRisk) when a refresh is refused; nil means time.Now.
	Now func() time.Time
}

// Session is a stored sign-in ready to authorise requests.
type Session struct {
	rec *Record
	src *persistingSource
	ctx context.Context
}

// OpenSession loads the stored record and checks that it belongs to
// opts.Client and grants Drive access. ctx is used for token refreshes
// for the life of the session.
func OpenSession(ctx context.Context, opts SessionOptions) (*Session, error) {
	s, err := openSession(ctx, opts)
	return s, ForAccount(err, opts.Account)
}

func openSession(ctx context.Context, opts SessionOptions) (*Session, error) {
	if err := opts.Client.check(); err != nil {
		return nil, err
	}
	if opts.Store == nil {
		return nil, errors.New("open the Google session: no token store")
	}
	rec, err := opts.Store.Load(ctx)
	if err != nil {
		return nil, err
	}
	if rec.ClientID != "" && rec.ClientID != opts.Client.ID {
		return nil, newError(ErrReauthRequired, "auth.err.client_mismatch", nil)
	}
	if !rec.HasScope(DriveReadonlyScope) {
		return nil, newError(ErrReauthRequired, "auth.err.scope_not_granted", nil, DriveReadonlyScope)
	}
	if opts.HTTPClient != nil {
		ctx = context.WithValue(ctx, oauth2.HTTPClient, opts.HTTPClient)
	}
	conf := oauthConfig(opts.Client, opts.Endpoints, "")
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	src := &persistingSource{
		now:     now,
		conf:    conf,
		base:    conf.TokenSource(ctx, rec.Token),
		store:   opts.Store,
		ctx:     ctx,
		rec:     *rec,
		warn:    opts.Warn,
		account: opts.Account,
	}
	return &Session{rec: rec, src: src, ctx: ctx}, nil
}

// Record returns a copy of the record the session started from.
func (s *Session) Record() Record { return *s.rec }

// TokenSource returns the session's token source: it refreshes expired
// access tokens, saves refreshed ones, and maps invalid_grant to
// ErrReauthRequired.
func (s *Session) TokenSource() oauth2.TokenSource { return s.src }

// HTTPClient returns a client that sends the session's bearer token. A
// request the API refuses with 401 while the token has not expired (the
// grant was revoked: the user removed gds's access, or changed the
// password) is sent once more after a forced refresh, so a revoked
// sign-in surfaces as ErrReauthRequired naming its fix, not as an API
// error.
func (s *Session) HTTPClient() *http.Client {
	base := http.DefaultTransport
	if hc, ok := s.ctx.Value(oauth2.HTTPClient).(*http.Client); ok && hc != nil && hc.Transport != nil {
		base = hc.Transport
	}
	return &http.Client{Transport: &bearer{src: s.src, base: base}}
}

// bearer authorises requests with the session's token (as
// oauth2.Transport does) and retries a 401 once after a refresh.
type bearer struct {
	src  *persistingSource
	base http.RoundTripper
}

func (t *bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	tok, err := t.src.Token()
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.base.RoundTrip(withToken(req, tok))
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		return resp, err
	}
	if req.Body != nil && req.GetBody == nil || !t.src.invalidate(tok.AccessToken) {
		return resp, nil // cannot be sent again, or nothing to refresh with
	}
	fresh, err := t.src.Token()
	if err != nil {
		resp.Body.Close()
		return nil, err
	}
	again := withToken(req, fresh)
	if req.GetBody != nil {
		if again.Body, err = req.GetBody(); err != nil {
			return resp, nil
		}
	}
	resp.Body.Close()
	return t.base.RoundTrip(again)
}

// withToken is a copy of req carrying tok.
func withToken(req *http.Request, tok *oauth2.Token) *http.Request {
	r := req.Clone(req.Context())
	tok.SetAuthHeader(r)
	return r
}

// Verify refreshes the access token against Google (or, without a
// refresh token, checks the one stored is still valid): nil means the
// sign-in works. A refresh is what proves a grant was not revoked: an
// access token revoked before its expiry still looks valid here.
func (s *Session) Verify() error {
	s.src.mu.Lock()
	access := s.src.rec.Token.AccessToken
	s.src.mu.Unlock()
	s.src.invalidate(access)
	_, err := s.src.Token()
	return err
}

// HTTPClient is OpenSession followed by Session.HTTPClient: what the Drive
// crawl and search use to reach the API.
func HTTPClient(ctx context.Context, opts SessionOptions) (*http.Client, error) {
	s, err := OpenSession(ctx, opts)
	if err != nil {
		return nil, err
	}
	return s.HTTPClient(), nil
}

// persistingSource wraps oauth2's refreshing source and saves a token
// whose access token changed.
type persistingSource struct {
	conf  *oauth2.Config
	base  oauth2.TokenSource
	store TokenStore
	ctx   context.Context
	warn  func(error)
	now   func() time.Time
	// account names a named account's failures (ForAccount).
	account string

	mu  sync.Mutex
	rec Record
}

// invalidate makes the next Token refresh when access is still the
// current access token (a request refused it); false when there is no
// refresh token to refresh with.
func (p *persistingSource) invalidate(access string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rec.Token.RefreshToken == "" || p.conf == nil {
		return false
	}
	if p.rec.Token.AccessToken == access {
		t := *p.rec.Token
		t.Expiry = time.Unix(1, 0) // expired: the next Token refreshes
		p.base = p.conf.TokenSource(p.ctx, &t)
	}
	return true
}

func (p *persistingSource) Token() (*oauth2.Token, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	tok, err := p.base.Token()
	if err != nil {
		return nil, ForAccount(tokenError(err, p.rec.Token.RefreshToken != "", TestingRisk(p.rec.ObtainedAt, p.rec.RefreshedAt, p.now())), p.account)
	}
	if tok.AccessToken != p.rec.Token.AccessToken {
		next := p.rec
		next.RefreshedAt = p.now().UTC()
		next.Token = stripExtra(tok)
		if next.Token.RefreshToken == "" {
			next.Token.RefreshToken = p.rec.Token.RefreshToken
		}
		if serr := p.store.Save(p.ctx, &next); serr != nil {
			if p.warn != nil {
				p.warn(fmt.Errorf("save the refreshed Google token in %s: %w", p.store.Location(), serr))
			}
		}
		p.rec = next
	}
	return tok, nil
}

// tokenError maps a failed refresh to a user-facing error without tokens.
// The token endpoint's error code (RFC 6749 §5.2, parsed by oauth2 into
// RetrieveError.ErrorCode) decides; an invalid_grant of a sign-in that is
// likely in "Testing" and past its 7 days says so (TestingRisk).
func tokenError(err error, hadRefresh bool, testing Testing) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		switch re.ErrorCode {
		case "invalid_grant":
			if testing.Expired {
				return newError(ErrReauthRequired, "auth.err.reauth_testing", err, testing.Days())
			}
			return newError(ErrReauthRequired, "auth.err.reauth", err)
		case "invalid_client", "unauthorized_client":
			return newError(ErrNoClient, "auth.err.invalid_client", err)
		}
		return fmt.Errorf("refresh the Google token: %s", refreshFailure(re))
	}
	if !hadRefresh {
		return newError(ErrReauthRequired, "auth.err.reauth", err)
	}
	return fmt.Errorf("refresh the Google token: %w", err)
}

// refreshFailure describes a RetrieveError by status and error code only:
// its body is never shown.
func refreshFailure(re *oauth2.RetrieveError) string {
	s := fmt.Sprintf("the token endpoint answered HTTP %d", statusOf(re))
	if re.ErrorCode != "" {
		s += " " + re.ErrorCode
	}
	return s
}

// Revoke revokes token (a refresh token revokes the whole grant) at
// revokeURL (Google's when empty). A token the server does not know
// (already revoked or expired) is not an error.
func Revoke(ctx context.Context, hc *http.Client, revokeURL, token string) error {
	if revokeURL == "" {
		revokeURL = GoogleRevokeURL
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, revokeURL, strings.NewReader(url.Values{"token": {token}}.Encode()))
	if err != nil {
		return fmt.Errorf("revoke the Google token: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("revoke the Google token: %w", err)
	}
	defer resp.Body.Close()
	var body struct {
		Error string `json:"error"`
	}
	_ = decodeJSON(resp, &body)
	switch {
	case resp.StatusCode == http.StatusOK:
		return nil
	case resp.StatusCode == http.StatusBadRequest && (body.Error == "invalid_token" || body.Error == "invalid_grant"):
		return nil
	default:
		return fmt.Errorf("revoke the Google token: %s answered HTTP %d %s", revokeURL, resp.StatusCode, body.Error)
	}
}
