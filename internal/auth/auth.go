package auth

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/endpoints"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// DriveReadonlyScope is the only scope gds asks for. The crawl exports
// Google Docs/Sheets/Slides and downloads other files to extract their
// text, which needs read access to file content: the metadata-only scope
// (drive.metadata.readonly) cannot export or download, and drive.file only
// sees files opened with gds. gds never writes to Drive, so no write scope.
const DriveReadonlyScope = "https://www.googleapis.com/auth/drive.readonly"

// Where the token lives in the macOS Keychain (both darwin variants).
const (
	KeychainService = "dev.gds.oauth"
	KeychainAccount = "default"
	KeychainLabel   = "gds Google OAuth token"
)

// GoogleRevokeURL is Google's token revocation endpoint.
const GoogleRevokeURL = "https://oauth2.googleapis.com/revoke"

// DefaultLoginTimeout bounds how long Login waits for the browser.
const DefaultLoginTimeout = 5 * time.Minute

// Endpoints are the OAuth server's URLs. Production uses GoogleEndpoints;
// tests point them at a local fake server.
type Endpoints struct {
	AuthURL   string
	TokenURL  string
	RevokeURL string
}

// GoogleEndpoints returns Google's OAuth endpoints.
func GoogleEndpoints() Endpoints {
	return Endpoints{AuthURL: endpoints.Google.AuthURL, TokenURL: endpoints.Google.TokenURL, RevokeURL: GoogleRevokeURL}
}

// orGoogle returns e, or Google's endpoints when e is zero.
func (e Endpoints) orGoogle() Endpoints {
	if e == (Endpoints{}) {
		return GoogleEndpoints()
	}
	return e
}

// Client is the user's own OAuth client ("Desktop app" type) from
// GOOGLE_OAUTH_CLIENT_ID / GOOGLE_OAUTH_CLIENT_SECRET. For installed apps
// the secret is not confidential, but gds still never prints it.
type Client struct {
	ID     string
	Secret string
}

// check returns ErrNoClient (as an *Error) when the client is incomplete.
func (c Client) check() error {
	if strings.TrimSpace(c.ID) == "" || strings.TrimSpace(c.Secret) == "" {
		return newError(ErrNoClient, "auth.err.no_client", nil)
	}
	return nil
}

// oauthConfig builds the oauth2 configuration for c.
func oauthConfig(c Client, ep Endpoints, redirectURL string) *oauth2.Config {
	ep = ep.orGoogle()
	return &oauth2.Config{
		ClientID:     c.ID,
		ClientSecret: c.Secret,
		Endpoint:     oauth2.Endpoint{AuthURL: ep.AuthURL, TokenURL: ep.TokenURL},
		RedirectURL:  redirectURL,
		Scopes:       []string{DriveReadonlyScope},
	}
}

// Record is what a TokenStore keeps: the token and what it is for.
type Record struct {
	Version    int       `json:"version"`
	ClientID   string    `json:"client_id"`
	Scopes     []string  `json:"scopes"`
	ObtainedAt time.Time `json:"obtained_at"` // the sign-in (consent); kept across refreshes
	// RefreshedAt is the last refresh the token endpoint accepted (zero:
	// none yet); with ObtainedAt it tells an app in "Testing" (TestingRisk).
	RefreshedAt time.Time     `json:"refreshed_at,omitzero"`
	Token       *oauth2.Token `json:"token"`
}

// recordVersion is the current Record format.
const recordVersion = 1

// HasScope reports whether the record grants scope.
func (r *Record) HasScope(scope string) bool { return slices.Contains(r.Scopes, scope) }

// encodeRecord renders r as compact JSON made of printable ASCII only, with
// no single quote: the same bytes go into the Keychain through go-keychain
// and through `security -i` (inside single quotes), and
// `security find-generic-password -w` prints printable data verbatim.
func encodeRecord(r *Record) ([]byte, error) {
	if r == nil || r.Token == nil {
		return nil, errors.New("encode the token record: no token")
	}
	raw, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encode the token record: %w", err)
	}
	var b bytes.Buffer
	for _, c := range string(raw) {
		switch {
		case c == '\'':
			b.WriteString(`\u0027`)
		case c < 0x20 || c > 0x7e:
			if c > 0xffff {
				r1, r2 := utf16Pair(c)
				fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
			} else {
				fmt.Fprintf(&b, `\u%04x`, c)
			}
		default:
			b.WriteRune(c)
		}
	}
	return b.Bytes(), nil
}

// utf16Pair splits a supplementary rune into its UTF-16 surrogates.
func utf16Pair(c rune) (rune, rune) {
	c -= 0x10000
	return 0xd800 + (c>>10)&0x3ff, 0xdc00 + c&0x3ff
}

// decodeRecord parses what encodeRecord wrote. It also accepts the data as
// hex, which is how `security find-generic-password -w` prints data that
// is not printable.
func decodeRecord(data []byte) (*Record, error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] != '{' {
		if h, err := hex.DecodeString(string(data)); err == nil {
			data = bytes.TrimSpace(h)
		}
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		// The JSON error may quote the input; never show it.
		return nil, errors.New("decode the stored token: not valid gds token data")
	}
	if r.Token == nil || (r.Token.AccessToken == "" && r.Token.RefreshToken == "") {
		return nil, errors.New("decode the stored token: no token in the stored data")
	}
	if r.Version > recordVersion {
		return nil, fmt.Errorf("decode the stored token: format version %d is newer than this gds (%d)", r.Version, recordVersion)
	}
	return &r, nil
}

// Sentinels of user-visible auth failures. Errors returned by this package
// match them with errors.Is.
var (
	// ErrNotLoggedIn: no token is stored.
	ErrNotLoggedIn = apperr.Mark(errors.New("not signed in to Google"), apperr.Auth)
	// ErrReauthRequired: the stored sign-in no longer works (refresh token
	// revoked or expired, issued to another client, or without Drive access).
	ErrReauthRequired = apperr.Mark(errors.New("the Google sign-in must be renewed"), apperr.Auth)
	// ErrNoClient: GOOGLE_OAUTH_CLIENT_ID or GOOGLE_OAUTH_CLIENT_SECRET is missing.
	ErrNoClient = apperr.Mark(errors.New("no Google OAuth client configured"), apperr.Config)
	// ErrLoginFailed: the browser step did not produce a usable code
	// (state mismatch, access denied, timeout).
	ErrLoginFailed = apperr.Mark(errors.New("Google sign-in failed"), apperr.Auth) //nolint:staticcheck // Google is a name
	// ErrKeychain: the macOS Keychain refused access.
	ErrKeychain = apperr.Mark(errors.New("the macOS Keychain refused access"), apperr.Auth)
)

// Error is a user-facing auth failure: a kind (one of the sentinels), a
// message in English and Japanese (i18n key and arguments, never a token)
// and the underlying cause.
type Error struct {
	Kind error
	Key  i18n.Key
	Args []any
	Err  error
}

func newError(kind error, key i18n.Key, cause error, args ...any) *Error {
	return &Error{Kind: kind, Key: key, Args: args, Err: cause}
}

// Error returns the English message.
func (e *Error) Error() string { return e.Message(i18n.En) }

// Message returns the message in lang.
func (e *Error) Message(lang string) string { return i18n.T(lang, e.Key, e.Args...) }

// Is matches the error's kind.
func (e *Error) Is(target error) bool {
	return target == e.Kind || (e.Kind != nil && errors.Is(e.Kind, target))
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
