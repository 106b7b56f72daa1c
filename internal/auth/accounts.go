package auth

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gds-cli/gds/internal/i18n"
)

// Several Google accounts. `gds auth login --account NAME` keeps the
// sign-in of account NAME beside the default one, in the same kind of
// store (package config checks names: a-z, 0-9, "-" and "_"):
//
//   - the default account (account ""): the item or file gds has always
//     used — Keychain account KeychainAccount, file TokenFileName — so an
//     existing sign-in is the default account with no migration;
//   - account NAME: Keychain account NAME of the same service (never
//     "default": that name means the default account), or the file
//     google-oauth-token@NAME.json beside the default one.
//
// The Keychain cannot be listed without reading every item, so the names
// signed in are also recorded, without any secret, in AccountsFileName
// (Registry); `gds auth status` lists them with the accounts the
// configured sources name.

// AccountsFileName is the list of named accounts signed in, one name a
// line, in the credentials directory of the gds home.
const AccountsFileName = "accounts"

// AccountTokenFilePath returns where FileStore keeps the token of account
// ("" is the default account) under the gds data directory.
func AccountTokenFilePath(dataDir, account string) string {
	if account == "" {
		return TokenFilePath(dataDir)
	}
	return filepath.Join(dataDir, CredentialsDirName, "google-oauth-token@"+account+".json")
}

// NewAccountFileStore returns the file store of account in the gds data
// directory.
func NewAccountFileStore(dataDir, account string) FileStore {
	return FileStore{Path: AccountTokenFilePath(dataDir, account)}
}

// KeychainAccountFor is the Keychain item's account of a Google account.
func KeychainAccountFor(account string) string {
	if account == "" {
		return KeychainAccount
	}
	return account
}

// Registry records the names of the accounts signed in (never a secret).
type Registry struct {
	Path string
}

// NewRegistry returns the registry of the gds data directory.
func NewRegistry(dataDir string) Registry {
	return Registry{Path: filepath.Join(dataDir, CredentialsDirName, AccountsFileName)}
}

// Names returns the recorded names, sorted; none when the file is missing.
func (r Registry) Names() ([]string, error) {
	data, err := os.ReadFile(r.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the account list %s: %w", r.Path, err)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if n := strings.TrimSpace(sc.Text()); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Add records name ("" is the default account, never recorded).
func (r Registry) Add(name string) error {
	names, err := r.Names()
	if err != nil || name == "" || slices.Contains(names, name) {
		return err
	}
	return r.write(append(names, name))
}

// Remove forgets name.
func (r Registry) Remove(name string) error {
	names, err := r.Names()
	if err != nil || !slices.Contains(names, name) {
		return err
	}
	return r.write(slices.DeleteFunc(names, func(n string) bool { return n == name }))
}

func (r Registry) write(names []string) error {
	slices.Sort(names)
	dir := filepath.Dir(r.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create the credentials directory %s: %w", dir, err)
	}
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	tmp := r.Path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("write the account list %s: %w", r.Path, err)
	}
	if err := os.Rename(tmp, r.Path); err != nil {
		return fmt.Errorf("write the account list %s: %w", r.Path, err)
	}
	return nil
}

// accountKeys are the messages that name a named account and its own fix
// (`gds auth login --account NAME`); their first argument is the account,
// the rest the base message's arguments.
var accountKeys = map[i18n.Key]i18n.Key{
	"auth.err.not_logged_in":  "auth.err.not_logged_in_account",
	"auth.err.reauth":         "auth.err.reauth_account",
	"auth.err.reauth_testing": "auth.err.reauth_testing_account",
}

// AccountError is a sign-in failure of a named account: its message and
// hint name the account and its fix, `gds auth login --account NAME`. It
// matches what the error it wraps matches (ErrNotLoggedIn,
// ErrReauthRequired, apperr.Auth, …).
type AccountError struct {
	Account string
	Err     error
}

// ForAccount returns err naming account when err is a sign-in failure
// (an *Error: not signed in, the sign-in expired or was revoked, …). The
// default account ("") and other errors are returned as they are.
func ForAccount(err error, account string) error {
	var e *Error
	var ae *AccountError
	if account == "" || !errors.As(err, &e) || errors.As(err, &ae) {
		return err
	}
	return &AccountError{Account: account, Err: err}
}

// Error returns the English message.
func (e *AccountError) Error() string { return e.Message(i18n.En) }

// Message names the account: the base message's own variant for the
// usual failures, else the base message after the account's name.
func (e *AccountError) Message(lang string) string {
	var base *Error
	if !errors.As(e.Err, &base) {
		return e.Err.Error()
	}
	if k, ok := accountKeys[base.Key]; ok {
		return i18n.T(lang, k, append([]any{e.Account}, base.Args...)...)
	}
	return i18n.T(lang, "auth.err.account", e.Account, base.Message(lang))
}

// Hint names the account's own login.
func (e *AccountError) Hint(lang string) string {
	return i18n.T(lang, "auth.hint.account", loginCommand(e.Account))
}

// Unwrap returns the sign-in failure.
func (e *AccountError) Unwrap() error { return e.Err }

// loginCommand is the command that signs account in again.
func loginCommand(account string) string {
	if account == "" {
		return "gds auth login"
	}
	return "gds auth login --account " + account
}
