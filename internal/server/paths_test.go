package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// Messages bound for clients name no directory of the machine: each root
// is replaced where it stands as a whole path, the most specific first.
func TestRedactPaths(t *testing.T) {
	r := newPathRedactor(
		pathRoot{"/Users/me/Library/Application Support/gds", "<gds home>"},
		pathRoot{"/srv/uploads", "<upload dir>"},
		pathRoot{"/Users/me", "~"},
		pathRoot{"/Users/me/proj/", "."},
		pathRoot{"relative/dir", "?"}, // not absolute: left out
		pathRoot{"/", "?"},            // the root: left out
		pathRoot{"", "?"},
	)
	for _, c := range []struct{ in, want string }{
		{"create the upload directory /srv/uploads: mkdir /srv/uploads: not a directory",
			"create the upload directory <upload dir>: mkdir <upload dir>: not a directory"},
		{"open /Users/me/Library/Application Support/gds/index.db: permission denied", "open <gds home>/index.db: permission denied"},
		{"/Users/me/proj/.env:3: bad line", "./.env:3: bad line"},
		{"/Users/me/notes.txt and /Users/me", "~/notes.txt and ~"},
		{"the folder /Users/me.", "the folder ~."},
		{`"/srv/uploads/x.pdf"`, `"<upload dir>/x.pdf"`},
		{"/Users/meg/x and /srv/uploads2 and /x/srv/uploads and /Users/me.bak", "/Users/meg/x and /srv/uploads2 and /x/srv/uploads and /Users/me.bak"},
		{"relative/dir is / here", "relative/dir is / here"},
		{"ファイル /srv/uploads/資料.pdf を開けません", "ファイル <upload dir>/資料.pdf を開けません"},
		{"", ""},
	} {
		if got := r.redact(c.in); got != c.want {
			t.Errorf("redact(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestShortenAndShownValue(t *testing.T) {
	if got := shorten("short", 10); got != "short" {
		t.Errorf("shorten kept %q", got)
	}
	got := shorten(strings.Repeat("資", 100), 10) // 3 bytes a rune: cut on a rune boundary
	if got != "資資資… (300 bytes)" {
		t.Errorf("shorten = %q", got)
	}
	for _, c := range []struct {
		in   any
		want string // JSON of the shown value
	}{
		{nil, `null`},
		{42.0, `42`},
		{"x", `"x"`},
		{strings.Repeat("a", 1000), `"` + strings.Repeat("a", maxShownValue) + `… (1000 bytes)"`},
		{map[string]any{"k": strings.Repeat("\x1b", 100)}, ``}, // checked below: escaped, short
		{[]any{"a", "b"}, `["a","b"]`},
	} {
		b, err := json.Marshal(shownValue(c.in))
		if err != nil {
			t.Fatal(err)
		}
		if c.want != "" && string(b) != c.want {
			t.Errorf("shownValue(%.40v) = %s, want %s", c.in, b, c.want)
		}
		if len(b) > 2*maxShownValue+40 || strings.Contains(string(b), "\x1b") {
			t.Errorf("shownValue(%.40v) = %s: too long or unescaped", c.in, b)
		}
	}
}
