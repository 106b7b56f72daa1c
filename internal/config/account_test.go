package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

func TestParseSourceAccounts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want CrawlSource
		key  string
	}{
		{"drive", CrawlSource{Kind: SourceDrive}, "drive"},
		{"drive@work", CrawlSource{Kind: SourceDrive, Account: "work"}, "drive@work"},
		{"drive@default", CrawlSource{Kind: SourceDrive}, "drive"},
		{"drive@default:F1", CrawlSource{Kind: SourceDrive, FolderID: "F1"}, "drive:F1"},
		{"drive@work:F1-_x", CrawlSource{Kind: SourceDrive, Account: "work", FolderID: "F1-_x"}, "drive@work:F1-_x"},
		{"drive@my-home_2:https://drive.google.com/drive/folders/F9?usp=x", CrawlSource{Kind: SourceDrive, Account: "my-home_2", FolderID: "F9"}, "drive@my-home_2:F9"},
		{" drive@work ", CrawlSource{Kind: SourceDrive, Account: "work"}, "drive@work"},
	} {
		got, err := ParseSource(tc.in, "/w", "/h")
		if err != nil {
			t.Errorf("ParseSource(%q): %v", tc.in, err)
			continue
		}
		if got != tc.want || got.Key() != tc.key {
			t.Errorf("ParseSource(%q) = %+v key %q, want %+v key %q", tc.in, got, got.Key(), tc.want, tc.key)
		}
		// The key parses back to the same source.
		if back, err := ParseSource(got.Key(), "/w", "/h"); err != nil || back != got {
			t.Errorf("ParseSource(%q) = %+v, %v; want %+v", got.Key(), back, err, got)
		}
	}
}

func TestParseSourceBadAccounts(t *testing.T) {
	for _, in := range []string{
		"drive@", "drive@:F1", "drive@Work", "drive@wörk", "drive@a b", "drive@-x", "drive@_x",
		"drive@" + strings.Repeat("a", MaxAccountLen+1), "drive@x/y", "drive@x@y", "drive@work:", "drive@work:a/b",
		"drive@x.y", "drive@x'y",
	} {
		_, err := ParseSource(in, "/w", "/h")
		var se *SourceError
		if !errors.As(err, &se) || se.Value != strings.TrimSpace(in) {
			t.Errorf("ParseSource(%q) = %v, want a *SourceError for it", in, err)
			continue
		}
		var ae *AccountError
		folder := strings.HasSuffix(in, "work:") || strings.HasSuffix(in, "a/b")
		if errors.As(err, &ae) == folder {
			t.Errorf("ParseSource(%q): AccountError %v, want %v (%v)", in, !folder, folder, err)
		}
		if !folder && !errors.Is(err, apperr.Usage) {
			t.Errorf("ParseSource(%q): %v is not a usage error", in, err)
		}
	}
}

func TestAccountErrorMessages(t *testing.T) {
	_, err := CheckAccount("Work")
	for _, lang := range []string{i18n.En, i18n.Ja} {
		msg := apperr.Message(err, lang)
		if !strings.Contains(msg, `"Work"`) || !strings.Contains(msg, "32") {
			t.Errorf("%s: %q names neither the name nor the limit", lang, msg)
		}
	}
	if msg := apperr.Message(err, i18n.Ja); !strings.Contains(msg, "アカウント名") {
		t.Errorf("ja message not Japanese: %q", msg)
	}
}

func TestCheckAccount(t *testing.T) {
	for in, want := range map[string]string{"": "", "default": "", "work": "work", "a": "a", "0x": "0x", "a-b_c": "a-b_c"} {
		if got, err := CheckAccount(in); err != nil || got != want {
			t.Errorf("CheckAccount(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if AccountLabel("") != DefaultAccount || AccountLabel("work") != "work" {
		t.Error("AccountLabel")
	}
	srcs, err := ParseSources("drive,drive@work:F1,local:/x,drive@work,drive:F2,drive@home", "/w", "/h")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(Accounts(srcs), ","); got != ",work,home" {
		t.Errorf("Accounts = %q", got)
	}
}

func TestSourcesBadAccountConfigError(t *testing.T) {
	_, err := Load(LoadOptions{
		LookupEnv: func(k string) (string, bool) {
			if k == EnvSources {
				return "drive,drive@Work", true
			}
			return "", false
		},
		WorkDir: t.TempDir(), GOOS: "linux", HomeDir: t.TempDir(),
	})
	var ce *Error
	if !errors.As(err, &ce) || ce.Problem != "config.problem.bad_account" || ce.Value != "drive@Work" {
		t.Fatalf("Load: %v (%+v)", err, ce)
	}
}
