//go:build darwin && !cgo

package auth

// DefaultStore returns the token store of this build: the Keychain
// through /usr/bin/security (no cgo). dataDir is not used.
func DefaultStore(dataDir string) TokenStore { return NewSecurityStore() }
