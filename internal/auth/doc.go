// Package auth signs gds in to Google Drive and keeps the sign-in.
//
// Login runs the OAuth 2.0 flow for installed apps: a callback server on a
// random port of 127.0.0.1 (never another interface), PKCE with S256, a
// random state checked on the callback, offline access with a forced consent
// prompt (so Google returns a refresh token), and the scope
// drive.readonly only. The user's browser is opened through an injectable
// opener and the URL is always shown for copy-paste.
//
// The result is a Record (token, scopes, client ID) kept in a TokenStore:
//
//   - darwin with cgo: the macOS Keychain through github.com/keybase/go-keychain
//     (KeychainStore, keychain_darwin_cgo.go);
//   - darwin without cgo: the same Keychain item through /usr/bin/security
//     (SecurityStore; the token travels on stdin, never on argv);
//   - other systems: a 0600 JSON file in a 0700 directory of the gds home
//     (FileStore).
//
// Both darwin variants use the same item: generic password, service
// KeychainService, account KeychainAccount, data = the Record as compact
// printable-ASCII JSON. So switching between a cgo and a cgo-free build
// never loses a login. (The Keychain's access control list may still ask
// once to let the other binary read the item; see docs/google-drive.md.)
//
// Session turns a stored Record into an oauth2.TokenSource and an
// *http.Client. Refreshed tokens are saved back; a refresh token that
// Google no longer accepts (invalid_grant: revoked, unused for six months,
// or seven days old for an app left in "Testing") becomes an *Error that
// matches ErrReauthRequired and tells the user to run `gds auth login`.
// No error text, log line or output of this package contains a token.
package auth
