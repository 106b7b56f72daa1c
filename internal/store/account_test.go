package store

import "testing"

func TestSourceAccounts(t *testing.T) {
	for _, c := range []struct{ key, kind, account, drive string }{
		{"drive", "drive", "", "default"},
		{"drive:F1", "drive", "", "default"},
		{"drive@work", "drive", "work", "work"},
		{"drive@work:F1", "drive", "work", "work"},
		{"local:/a@b", "local", "", ""},
		{"local:/a@b:c", "local", "", ""},
		{"upload", "upload", "", ""},
	} {
		if k, a, d := SourceKindOf(c.key), SourceAccountOf(c.key), DriveAccount(c.key); k != c.kind || a != c.account || d != c.drive {
			t.Errorf("%q: kind %q account %q drive account %q, want %q %q %q", c.key, k, a, d, c.kind, c.account, c.drive)
		}
	}
	// "drive@work" keeps the account's sources only; "drive" the default
	// account's.
	for _, c := range []struct {
		source, filter string
		in             bool
	}{
		{"drive@work", "drive@work", true},
		{"drive@work:F1", "drive@work", true},
		{"drive@workshop:F1", "drive@work", false},
		{"drive", "drive@work", false},
		{"drive@work:F1", "drive", false},
		{"drive:F1", "drive", true},
	} {
		if got := InSources(c.source, []string{c.filter}); got != c.in {
			t.Errorf("InSources(%q, %q) = %v", c.source, c.filter, got)
		}
	}
}
