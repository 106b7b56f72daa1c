package server

import (
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
)

func TestSourceLabel(t *testing.T) {
	home := newPathRedactor(pathRoot{"/home/u", "~"})
	tests := []struct {
		key, lang, want string
	}{
		{"upload", i18n.En, "Uploaded"},
		{"upload", i18n.Ja, "アップロード"},
		{"drive", i18n.En, "Google Drive"},
		{"drive:1AbC", i18n.En, "Google Drive"},
		{"drive:1AbC", i18n.Ja, "Google ドライブ"},
		{"local:/home/u/Docs", i18n.En, "Local folder ~/Docs"},
		{"local:/home/u/Docs", i18n.Ja, "ローカルフォルダ ~/Docs"},
		{"local:/srv/shared", i18n.En, "Local folder /srv/shared"},
		{"local:/home/u2/x", i18n.En, "Local folder /home/u2/x"},
		{"local", i18n.En, "Local folder"},
		{"other:thing", i18n.En, "other:thing"},
	}
	for _, tc := range tests {
		if got := SourceLabel(tc.key, tc.lang, home.redact); got != tc.want {
			t.Errorf("SourceLabel(%q, %s) = %q, want %q", tc.key, tc.lang, got, tc.want)
		}
		if got := SourceLabel(tc.key, tc.lang, nil); strings.Contains(got, "source.") {
			t.Errorf("SourceLabel(%q, %s) = %q: a raw key", tc.key, tc.lang, got)
		}
	}
}
