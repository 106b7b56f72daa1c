package iostreams

import (
	"bytes"
	"os"
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
)

func env(kv ...string) func(string) (string, bool) {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestNewDecidesColour(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		tty  bool
		want bool
	}{
		{"terminal", nil, true, true},
		{"not a terminal", nil, false, false},
		{"NO_COLOR", []string{"NO_COLOR", "1"}, true, false},
		{"NO_COLOR empty still counts", []string{"NO_COLOR", ""}, true, false},
		{"CLICOLOR=0", []string{"CLICOLOR", "0"}, true, false},
		{"CLICOLOR=1 on a terminal", []string{"CLICOLOR", "1"}, true, true},
		{"TERM=dumb", []string{"TERM", "dumb"}, true, false},
		{"TERM=xterm", []string{"TERM", "xterm-256color"}, true, true},
		{"CLICOLOR_FORCE into a pipe", []string{"CLICOLOR_FORCE", "1"}, false, true},
		{"CLICOLOR_FORCE on a dumb terminal", []string{"CLICOLOR_FORCE", "1", "TERM", "dumb"}, true, true},
		{"CLICOLOR_FORCE=0", []string{"CLICOLOR_FORCE", "0"}, false, false},
		{"NO_COLOR beats CLICOLOR_FORCE", []string{"CLICOLOR_FORCE", "1", "NO_COLOR", "1"}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(nil, nil, nil, Facts{Lookup: env(tc.env...), StdoutTTY: tc.tty})
			if s.Color != tc.want {
				t.Errorf("Color = %v, want %v", s.Color, tc.want)
			}
		})
	}
}

func TestNewDecidesWidth(t *testing.T) {
	for _, tc := range []struct {
		name    string
		columns []string
		term    int
		want    int
	}{
		{"COLUMNS first", []string{"COLUMNS", "60"}, 120, 60},
		{"the terminal's", nil, 120, 120},
		{"default", nil, 0, DefaultWidth},
		{"COLUMNS not a number", []string{"COLUMNS", "wide"}, 100, 100},
		{"COLUMNS zero", []string{"COLUMNS", "0"}, 0, DefaultWidth},
		{"COLUMNS negative", []string{"COLUMNS", "-5"}, 0, DefaultWidth},
		{"COLUMNS with spaces", []string{"COLUMNS", " 72 "}, 0, 72},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(nil, nil, nil, Facts{Lookup: env(tc.columns...), TermWidth: tc.term, StdoutTTY: tc.term > 0})
			if s.Width != tc.want {
				t.Errorf("Width = %d, want %d", s.Width, tc.want)
			}
		})
	}
}

func TestNewDecidesLanguage(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		want string
	}{
		{"nothing set", nil, i18n.En},
		{"LANG", []string{"LANG", "ja_JP.UTF-8"}, i18n.Ja},
		{"LC_ALL beats LANG", []string{"LC_ALL", "en_US.UTF-8", "LANG", "ja_JP.UTF-8"}, i18n.En},
		{"LC_MESSAGES beats LANG", []string{"LC_MESSAGES", "ja_JP.UTF-8", "LANG", "C"}, i18n.Ja},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := New(nil, nil, nil, Facts{Lookup: env(tc.env...)}).Lang; got != tc.want {
				t.Errorf("Lang = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNewKeepsStreamsAndTerminals(t *testing.T) {
	var in, out, errOut bytes.Buffer
	s := New(&in, &out, &errOut, Facts{StdinTTY: true, StderrTTY: true})
	if s.Stdin != &in || s.Stdout != &out || s.Stderr != &errOut {
		t.Error("the streams are not the ones given")
	}
	if !s.StdinTTY || s.StdoutTTY || !s.StderrTTY {
		t.Errorf("terminals = %v %v %v, want true false true", s.StdinTTY, s.StdoutTTY, s.StderrTTY)
	}
	if s.Color || s.Hyperlinks {
		t.Error("colour or hyperlinks on a stdout that is not a terminal")
	}
}

func TestHyperlinksSupported(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		tty  bool
		want bool
	}{
		{map[string]string{"TERM_PROGRAM": "iTerm.app"}, true, true},
		{map[string]string{"TERM_PROGRAM": "iTerm.app"}, false, false},
		{map[string]string{"TERM_PROGRAM": "WezTerm"}, true, true},
		{map[string]string{"TERM_PROGRAM": "vscode"}, true, true},
		{map[string]string{"TERM_PROGRAM": "Apple_Terminal"}, true, false},
		{map[string]string{"TERM_PROGRAM": "tmux"}, true, false},
		{map[string]string{"VTE_VERSION": "6003"}, true, true},
		{map[string]string{"VTE_VERSION": "4205"}, true, false},
		{map[string]string{"VTE_VERSION": "x"}, true, false},
		{map[string]string{"WT_SESSION": "5d3c…"}, true, true},
		{map[string]string{"KITTY_WINDOW_ID": "1"}, true, true},
		{map[string]string{"TERM": "xterm-kitty"}, true, true},
		{map[string]string{"KONSOLE_VERSION": "230805"}, true, true},
		{map[string]string{"KONSOLE_VERSION": "190800"}, true, false},
		{map[string]string{"TERM": "dumb", "TERM_PROGRAM": "vscode"}, true, false},
		{map[string]string{}, true, false},
		{map[string]string{"GDS_HYPERLINKS": "0", "TERM_PROGRAM": "iTerm.app"}, true, false},
		{map[string]string{"GDS_HYPERLINKS": "1"}, true, true},
		{map[string]string{"GDS_HYPERLINKS": "1"}, false, true},
		{map[string]string{"GDS_HYPERLINKS": "", "WT_SESSION": "x"}, true, true},
	} {
		lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		if got := HyperlinksSupported(lookup, tc.tty); got != tc.want {
			t.Errorf("%v tty=%v: %v, want %v", tc.env, tc.tty, got, tc.want)
		}
	}
}

func TestOSFactsOnFilesThatAreNotTerminals(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	facts := OSFacts(f, f, &buf)
	if facts.StdinTTY || facts.StdoutTTY || facts.StderrTTY || facts.TermWidth != 0 {
		t.Errorf("a regular file or a buffer counted as a terminal: %+v", facts)
	}
	if facts.Lookup == nil {
		t.Error("no environment lookup")
	}
}
