// Package sysopen opens a link with the system's handler (macOS `open`,
// elsewhere `xdg-open`) and copies text to the clipboard (`pbcopy` where
// it is installed, else the OSC 52 escape sequence, which most terminals
// — iTerm2, kitty, WezTerm, Windows Terminal, tmux with set-clipboard —
// turn into a clipboard write, also over SSH).
package sysopen

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// System is the machine's opener and clipboard.
type System struct {
	GOOS     string                                 // runtime.GOOS unless set
	LookPath func(file string) (string, error)      // exec.LookPath unless set
	Term     io.Writer                              // the terminal, for OSC 52
	Run      func(cmd *exec.Cmd) error              // (*exec.Cmd).Run unless set
	Stat     func(name string) (fs.FileInfo, error) // os.Stat unless set
}

// New is the System of this machine, writing OSC 52 to term.
func New(term io.Writer) System {
	return System{GOOS: runtime.GOOS, LookPath: exec.LookPath, Term: term, Run: (*exec.Cmd).Run}
}

// OpenCommand is the program that opens links on goos.
func OpenCommand(goos string) string {
	if goos == "darwin" {
		return "open"
	}
	return "xdg-open"
}

// Open opens link with the system's handler. A local file (file://) that is
// no longer there is named as such; the errors' hints say what to do about
// the file or the opener, never to check the network.
func (s System) Open(ctx context.Context, link string) error {
	file := localPath(link)
	if file != "" {
		stat := s.Stat
		if stat == nil {
			stat = os.Stat
		}
		if _, err := stat(file); errors.Is(err, fs.ErrNotExist) {
			return hinted{apperr.L(apperr.NotFound, "repl.file_gone", file).Wrap(err), "repl.file_gone_hint", nil}
		}
	}
	name := OpenCommand(s.GOOS)
	path, err := s.LookPath(name)
	if err != nil {
		return hinted{apperr.L(apperr.Unavailable, "repl.no_opener", name).Wrap(err), "repl.no_opener_hint", nil}
	}
	cmd := exec.CommandContext(ctx, path, link)
	if err := s.Run(cmd); err != nil {
		hint := i18n.Key("repl.open_failed_hint")
		if file != "" {
			hint = "repl.open_failed_file_hint"
		}
		return hinted{apperr.L(apperr.Unavailable, "repl.open_failed", name, link).Wrap(err), hint, nil}
	}
	return nil
}

// localPath is the file a file:// link names ("" for any other link).
func localPath(link string) string {
	u, err := url.Parse(link)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return u.Path
}

// hinted is an error with its own hint (apperr.Hinter), in place of its
// kind's.
type hinted struct {
	*apperr.Localized
	key  i18n.Key
	args []any
}

func (h hinted) Hint(lang string) string { return i18n.T(lang, h.key, h.args...) }

// Copy puts text on the clipboard: through pbcopy when it is installed
// (terminal false), else as an OSC 52 sequence written to the terminal
// (terminal true: whether it lands depends on the terminal).
func (s System) Copy(ctx context.Context, text string) (terminal bool, err error) {
	if path, err := s.LookPath("pbcopy"); err == nil {
		cmd := exec.CommandContext(ctx, path)
		cmd.Stdin = strings.NewReader(text)
		if err := s.Run(cmd); err != nil {
			return false, apperr.L(apperr.Unavailable, "repl.copy_failed").Wrap(err)
		}
		return false, nil
	}
	if _, err := io.WriteString(s.Term, OSC52(text)); err != nil {
		return true, fmt.Errorf("write the clipboard sequence: %w", err)
	}
	return true, nil
}

// OSC52 is the escape sequence that asks the terminal to put text on the
// system clipboard ("c").
func OSC52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a"
}
