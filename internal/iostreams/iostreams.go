// Package iostreams is gds's one view of the terminal and the locale, in
// the style of gh's pkg/iostreams: the standard streams, whether each is a
// terminal, whether to colour and hyperlink stdout, how wide to wrap, and
// the user's language. main builds it once (System) and passes it down
// through app.Deps; nothing else reads NO_COLOR, CLICOLOR, COLUMNS, TERM or
// the locale variables, or asks whether a file is a terminal
// (internal/archtest keeps it so). Tests build one with New, buffers and
// an environment of their own.
package iostreams

import (
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/gds-cli/gds/internal/i18n"
)

// DefaultWidth is the wrap width when neither COLUMNS nor the terminal
// says one.
const DefaultWidth = 80

// IOStreams are the process's standard streams and what was decided about
// them. The zero value is usable: no terminal, no colour, English, width 0
// (a renderer then uses DefaultWidth).
type IOStreams struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	StdinTTY  bool // stdin is a terminal (questions can be asked)
	StdoutTTY bool // stdout is a terminal (readable lists instead of plain text)
	StderrTTY bool // stderr is a terminal (spinners and progress bars)

	Color      bool   // colour stdout (see New)
	Hyperlinks bool   // write OSC 8 hyperlinks to stdout (see HyperlinksSupported)
	Width      int    // columns to wrap stdout at
	Lang       string // i18n.En or i18n.Ja
}

// Facts are what the process knows about its environment: how to read a
// variable, which streams are terminals, and the width of the terminal
// stdout is (0: unknown or not a terminal).
type Facts struct {
	Lookup    func(key string) (string, bool) // os.LookupEnv in production; nil: an empty environment
	StdinTTY  bool
	StdoutTTY bool
	StderrTTY bool
	TermWidth int
}

// New decides the streams' settings from f; it reads nothing else.
//
//   - Colour: never when NO_COLOR is set (to anything) or CLICOLOR=0;
//     always when CLICOLOR_FORCE is set to anything but "" or "0";
//     otherwise when stdout is a terminal that is not TERM=dumb.
//   - Width: COLUMNS when it is a positive number, else the terminal's,
//     else DefaultWidth.
//   - Language: i18n.Detect (LC_ALL, LC_MESSAGES, LANG).
//   - Hyperlinks: HyperlinksSupported.
func New(stdin io.Reader, stdout, stderr io.Writer, f Facts) IOStreams {
	lookup := f.Lookup
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	return IOStreams{
		Stdin: stdin, Stdout: stdout, Stderr: stderr,
		StdinTTY: f.StdinTTY, StdoutTTY: f.StdoutTTY, StderrTTY: f.StderrTTY,
		Color:      colorEnabled(lookup, f.StdoutTTY),
		Hyperlinks: HyperlinksSupported(lookup, f.StdoutTTY),
		Width:      width(lookup, f.TermWidth),
		Lang:       i18n.Detect(lookup),
	}
}

func colorEnabled(lookup func(string) (string, bool), stdoutTTY bool) bool {
	if _, set := lookup("NO_COLOR"); set {
		return false
	}
	if v, _ := lookup("CLICOLOR"); v == "0" {
		return false
	}
	if v, _ := lookup("CLICOLOR_FORCE"); v != "" && v != "0" {
		return true
	}
	v, _ := lookup("TERM")
	return stdoutTTY && v != "dumb"
}

func width(lookup func(string) (string, bool), termWidth int) int {
	v, _ := lookup("COLUMNS")
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
		return n
	}
	if termWidth > 0 {
		return termWidth
	}
	return DefaultWidth
}

// HyperlinksSupported decides whether to write OSC 8 hyperlinks to stdout.
// GDS_HYPERLINKS=1 or 0 decides outright; otherwise never when stdout is
// not a terminal, and yes only in terminals known to support them (iTerm2,
// WezTerm, VS Code, Ghostty, Windows Terminal, kitty, foot, GNOME Terminal
// and other VTE ≥ 0.50, Konsole ≥ 20.12).
func HyperlinksSupported(lookup func(string) (string, bool), stdoutTTY bool) bool {
	get := func(k string) string { v, _ := lookup(k); return strings.TrimSpace(v) }
	switch strings.ToLower(get("GDS_HYPERLINKS")) {
	case "1", "true", "yes", "on":
		return true
	case "0", "false", "no", "off":
		return false
	}
	if !stdoutTTY || get("TERM") == "dumb" {
		return false
	}
	switch get("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "vscode", "ghostty":
		return true
	}
	switch get("TERM") {
	case "xterm-kitty", "xterm-ghostty", "wezterm", "foot", "foot-extra":
		return true
	}
	if get("WT_SESSION") != "" || get("KITTY_WINDOW_ID") != "" {
		return true
	}
	if v, err := strconv.Atoi(get("VTE_VERSION")); err == nil && v >= 5000 {
		return true
	}
	if v, err := strconv.Atoi(get("KONSOLE_VERSION")); err == nil && v >= 201200 {
		return true
	}
	return false
}

// System is New for the real process: its standard streams, its
// environment, and what the terminal says about them.
func System() IOStreams {
	return New(os.Stdin, os.Stdout, os.Stderr, OSFacts(os.Stdin, os.Stdout, os.Stderr))
}

// OSFacts are the facts of the real process for the given streams (a
// stream that is not an *os.File is not a terminal).
func OSFacts(stdin io.Reader, stdout, stderr io.Writer) Facts {
	f := Facts{Lookup: os.LookupEnv, StdinTTY: isTerminal(stdin), StdoutTTY: isTerminal(stdout), StderrTTY: isTerminal(stderr)}
	if f.StdoutTTY {
		if cols, _, err := term.GetSize(int(stdout.(*os.File).Fd())); err == nil && cols > 0 {
			f.TermWidth = cols
		}
	}
	return f
}

// isTerminal reports whether s is a file open on a terminal.
func isTerminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && f != nil && term.IsTerminal(int(f.Fd()))
}

// Captured is New for a command line this process runs with its output
// captured (the keystroke server's served searches): stdout and stderr are
// not terminals, stdin is empty, and the environment is the process's.
func Captured(stdout, stderr io.Writer) IOStreams {
	return New(nil, stdout, stderr, Facts{Lookup: os.LookupEnv})
}
