//go:build darwin && cgo

package auth

import (
	"context"
	"errors"
	"fmt"

	"github.com/keybase/go-keychain"
)

// KeychainStore keeps the record in the macOS login Keychain through the
// Security framework (github.com/keybase/go-keychain; needs cgo). It reads
// and writes the same item as SecurityStore.
//
// Accessibility: AfterFirstUnlock, because the launchd crawl runs in the
// background, often while the screen is locked; WhenUnlocked would make
// those runs fail. Not synchronizable: the token stays on this Mac and out
// of iCloud Keychain (and in the login keychain, where /usr/bin/security
// finds it too).
type KeychainStore struct {
	Service string
	Account string
}

var _ TokenStore = KeychainStore{}

// Location names the Keychain item.
func (s KeychainStore) Location() string {
	return fmt.Sprintf("macOS Keychain (service %s, account %s)", s.Service, s.Account)
}

func (s KeychainStore) query() keychain.Item {
	q := keychain.NewItem()
	q.SetSecClass(keychain.SecClassGenericPassword)
	q.SetService(s.Service)
	q.SetAccount(s.Account)
	return q
}

// Load reads the item.
func (s KeychainStore) Load(_ context.Context) (*Record, error) {
	q := s.query()
	q.SetMatchLimit(keychain.MatchLimitOne)
	q.SetReturnData(true)
	res, err := keychain.QueryItem(q)
	if errors.Is(err, keychain.ErrorItemNotFound) || (err == nil && len(res) == 0) {
		return nil, newError(ErrNotLoggedIn, "auth.err.not_logged_in", err)
	}
	if err != nil {
		return nil, keychainError("read", s.Service, err)
	}
	r, err := decodeRecord(res[0].Data)
	if err != nil {
		return nil, fmt.Errorf("decode the Keychain item %s: %w", s.Service, err)
	}
	return r, nil
}

// Save adds the item, or updates its data when it exists.
func (s KeychainStore) Save(_ context.Context, r *Record) error {
	data, err := encodeRecord(r)
	if err != nil {
		return err
	}
	item := s.query()
	item.SetLabel(KeychainLabel)
	item.SetData(data)
	item.SetAccessible(keychain.AccessibleAfterFirstUnlock)
	item.SetSynchronizable(keychain.SynchronizableNo)
	err = keychain.AddItem(item)
	if errors.Is(err, keychain.ErrorDuplicateItem) {
		upd := keychain.NewItem()
		upd.SetData(data)
		err = keychain.UpdateItem(s.query(), upd)
	}
	if err != nil {
		return keychainError("save", s.Service, err)
	}
	return nil
}

// Delete removes the item.
func (s KeychainStore) Delete(_ context.Context) error {
	err := keychain.DeleteItem(s.query())
	if err != nil && !errors.Is(err, keychain.ErrorItemNotFound) {
		return keychainError("delete", s.Service, err)
	}
	return nil
}

func keychainError(op, service string, err error) error {
	cause := fmt.Errorf("%s the Keychain item %s: %w", op, service, err)
	if errors.Is(err, keychain.ErrorInteractionNotAllowed) || errors.Is(err, keychain.ErrorUserCanceled) || errors.Is(err, keychain.ErrorAuthFailed) {
		return newError(ErrKeychain, "auth.err.keychain", cause)
	}
	return cause
}

// DefaultStore returns the token store of this build: the Keychain
// through the Security framework. dataDir is not used.
func DefaultStore(dataDir string) TokenStore {
	return KeychainStore{Service: KeychainService, Account: KeychainAccount}
}

// AccountStore returns the token store of a Google account ("" is the
// default account, the same item as DefaultStore).
func AccountStore(dataDir, account string) TokenStore {
	return KeychainStore{Service: KeychainService, Account: KeychainAccountFor(account)}
}
