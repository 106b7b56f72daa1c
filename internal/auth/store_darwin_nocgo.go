//go:build darwin && !cgo

package auth

// DefaultStore returns the token store of this build: the Keychain
// through /usr/bin/security (no cgo). dataDir is not used.
func DefaultStore(dataDir string) TokenStore { return NewSecurityStore() }

// AccountStore returns the token store of a Google account ("" is the
// default account, the same item as DefaultStore).
func AccountStore(dataDir, account string) TokenStore {
	s := NewSecurityStore()
	s.Account = KeychainAccountFor(account)
	return s
}
