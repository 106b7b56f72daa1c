//go:build !darwin

package auth

// DefaultStore returns the token store of this build: a 0600 file in the
// gds data directory (no Keychain on this system).
func DefaultStore(dataDir string) TokenStore { return NewFileStore(dataDir) }

// AccountStore returns the token store of a Google account ("" is the
// default account, the same store as DefaultStore).
func AccountStore(dataDir, account string) TokenStore { return NewAccountFileStore(dataDir, account) }
