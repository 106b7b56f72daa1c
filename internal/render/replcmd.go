package render

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/termsafe"
)

// REPLAction is what a line typed at the search prompt asks for.
type REPLAction int

const (
	REPLSearch   REPLAction = iota // search for the line
	REPLOpen                       // open result N
	REPLCopy                       // copy result N's link
	REPLBadIndex                   // a result number that is not on the list
)

// REPLCommand is a parsed line of the search prompt.
type REPLCommand struct {
	Action REPLAction
	Index  int // 1-based result number (REPLOpen, REPLCopy, REPLBadIndex)
}

// ParseREPLLine reads a line typed at the search prompt after a search
// that listed shown results: "N" or "o N" opens result N, "c N" copies its
// link; anything else (and any command when nothing is listed) is a new
// search, so "o 2" before the first search, or "o ring", searches for
// those words. "o N" or "c N" with N out of 1..shown is REPLBadIndex; a
// bare number out of that range is a search (a year, a code).
func ParseREPLLine(line string, shown int) REPLCommand {
	f := strings.Fields(line)
	if shown <= 0 || len(f) == 0 || len(f) > 2 {
		return REPLCommand{Action: REPLSearch}
	}
	act, num := REPLOpen, f[0]
	if len(f) == 2 {
		switch strings.ToLower(f[0]) {
		case "o", "open":
		case "c", "copy":
			act = REPLCopy
		default:
			return REPLCommand{Action: REPLSearch}
		}
		num = f[1]
	}
	n, err := strconv.Atoi(num)
	if err != nil || strings.HasPrefix(num, "+") {
		return REPLCommand{Action: REPLSearch}
	}
	if n < 1 || n > shown {
		if len(f) == 1 {
			return REPLCommand{Action: REPLSearch}
		}
		return REPLCommand{Action: REPLBadIndex, Index: n}
	}
	return REPLCommand{Action: act, Index: n}
}

// Opener opens a link and copies text to the clipboard (sysopen.System;
// tests record the calls). Copy reports whether the text went to the
// terminal (OSC 52) rather than a clipboard program.
type Opener interface {
	Open(ctx context.Context, link string) error
	Copy(ctx context.Context, text string) (terminal bool, err error)
}

// ResultLinks acts on the results the search prompt listed last.
type ResultLinks struct {
	Links  []string // the listed results' links, in order ("" when one has none)
	Opener Opener
	Msgs   io.Writer
	T      func(key i18n.Key, args ...any) string
}

// List remembers the results shown (the first limit of them, none when
// the search ended without a list).
func (l *ResultLinks) List(out search.Outcome, limit int) {
	l.Links = l.Links[:0]
	if out.State.End == search.EndNotFound || out.State.End == search.EndLoopCap {
		return
	}
	for i, r := range out.Results {
		if limit > 0 && i >= limit {
			break
		}
		l.Links = append(l.Links, r.File.WebLink)
	}
}

// Handle acts on line when it names a listed result (ParseREPLLine) and
// reports whether it did; otherwise the line is a search.
func (l *ResultLinks) Handle(ctx context.Context, line string) (bool, error) {
	c := ParseREPLLine(line, len(l.Links))
	switch c.Action {
	case REPLSearch:
		return false, nil
	case REPLBadIndex:
		return true, apperr.L(apperr.Usage, "repl.bad_index", c.Index, len(l.Links))
	}
	link := l.Links[c.Index-1]
	if link == "" {
		return true, apperr.L(apperr.NotFound, "repl.no_link", c.Index)
	}
	if c.Action == REPLOpen {
		if err := l.Opener.Open(ctx, link); err != nil {
			return true, err
		}
		fmt.Fprintln(l.Msgs, l.T("repl.opened", c.Index, termsafe.String(link)))
		return true, nil
	}
	terminal, err := l.Opener.Copy(ctx, link)
	if err != nil {
		return true, err
	}
	key := i18n.Key("repl.copied")
	if terminal {
		key = "repl.copied_terminal"
	}
	fmt.Fprintln(l.Msgs, l.T(key, c.Index, termsafe.String(link)))
	return true, nil
}
