package config

import (
	"fmt"

	"github.com/gds-cli/gds/internal/apperr"
)

// DefaultAccount is the name of the Google account signed in with a plain
// `gds auth login` (no --account) and used by the "drive" and
// "drive:FOLDER_ID" sources. Written as an account name it means that
// account: `--account default` and "drive@default" are the same as
// leaving the name out.
const DefaultAccount = "default"

// MaxAccountLen is the longest account name.
const MaxAccountLen = 32

// AccountError is an account name gds does not accept. It is an
// apperr.Usage error whose message (English and Japanese) says which
// characters a name may have.
type AccountError struct {
	Name string
}

func (e *AccountError) Error() string {
	return fmt.Sprintf("account name %q: use 1 to %d lowercase letters, digits, \"-\" or \"_\", starting with a letter or digit (e.g. work)", e.Name, MaxAccountLen)
}

// Unwrap gives the localized usage error.
func (e *AccountError) Unwrap() error {
	return apperr.L(apperr.Usage, "account.bad_name", e.Name, MaxAccountLen)
}

// CheckAccount checks an account name and returns it in its canonical
// form: "" for the default account ("" or "default"), else the name
// itself. A name is 1 to MaxAccountLen characters of a-z, 0-9, "-" and "_",
// starting with a letter or digit, so it is safe in a source key, a file
// name and a Keychain item; anything else is an *AccountError.
func CheckAccount(name string) (string, error) {
	if name == "" || name == DefaultAccount {
		return "", nil
	}
	if len(name) > MaxAccountLen {
		return "", &AccountError{Name: name}
	}
	for i, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || i > 0 && (r == '-' || r == '_')
		if !ok {
			return "", &AccountError{Name: name}
		}
	}
	return name, nil
}

// AccountLabel is the name an account is shown by: DefaultAccount for "".
func AccountLabel(account string) string {
	if account == "" {
		return DefaultAccount
	}
	return account
}

// Accounts lists the distinct accounts of the Drive sources, in order
// ("" for the default account).
func Accounts(sources []CrawlSource) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range sources {
		if s.Kind == SourceDrive && !seen[s.Account] {
			seen[s.Account] = true
			out = append(out, s.Account)
		}
	}
	return out
}
