package render

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render/alfred"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/termsafe"
)

// SearchText prints the end of a search for a terminal or a pipe: the
// results (name, folder and date, summary, link; names are OSC 8 links when
// hyperlinks is set), or the seed's end messages. With verbose, every
// round's keywords, filters, hit count and branch come first.
func SearchText(w io.Writer, out search.Outcome, verbose, hyperlinks bool, lang string) {
	s := out.State
	if verbose {
		for _, r := range s.Rounds {
			fmt.Fprintln(w, termsafe.String(i18n.T(lang, "search.round", r.Loop, KeywordsText(r.Conditions), alfred.FiltersText(r.Conditions.Filters, lang), r.Hits, string(r.Branch))))
		}
		fmt.Fprintln(w, i18n.T(lang, "search.provider", out.Provider))
	}
	switch s.End {
	case search.EndNotFound:
		fmt.Fprintln(w, i18n.T(lang, i18n.NoFilesFound))
		return
	case search.EndLoopCap:
		fmt.Fprintln(w, i18n.T(lang, i18n.LoopLimitReached, s.MaxLoops))
		return
	}
	for _, l := range s.Loosened {
		fmt.Fprintln(w, termsafe.String(l.Text(lang)))
	}
	if s.FullText {
		fmt.Fprintln(w, i18n.T(lang, "search.fulltext_fallback"))
	}
	labels := sourceLabels(out.Results)
	for i, r := range out.Results {
		f := r.File
		// Names, folders, summaries and links come from the files: shown
		// safe for a terminal (termsafe).
		name, link := termsafe.String(f.Name), termsafe.String(f.WebLink)
		if hyperlinks && f.WebLink != "" {
			name = "\x1b]8;;" + link + "\x1b\\" + name + "\x1b]8;;\x1b\\"
		}
		meta := f.ModifiedAt.Local().Format("2006-01-02")
		if f.Path != "" {
			meta = termsafe.String(f.Path) + " · " + meta
		}
		meta = withSource(labels, i, meta)
		fmt.Fprintf(w, "%2d. %s  (%s)\n", i+1, name, meta)
		if f.Summary != "" {
			fmt.Fprintf(w, "    %s\n", oneLine(f.Summary))
		}
		if f.NameOnly() {
			fmt.Fprintf(w, "    %s\n", i18n.T(lang, "result.name_only", oneLine(f.SkipReason)))
		}
		fmt.Fprintf(w, "    %s\n", link)
	}
}

// KeywordsText lists keywords, required ones marked with "+".
func KeywordsText(c search.Conditions) string {
	parts := append([]string{}, c.Keywords...)
	for _, r := range c.Required {
		parts = append(parts, "+"+r)
	}
	return strings.Join(parts, ", ")
}

// oneLine is s on one line, safe for a terminal.
func oneLine(s string) string {
	return termsafe.String(strings.Join(strings.Fields(s), " "))
}

// DegradedText prints one line per degraded step of a search (to stderr,
// so the results on stdout keep their form).
func DegradedText(w io.Writer, notices []budget.Notice, lang string) {
	for _, n := range notices {
		fmt.Fprintln(w, i18n.T(lang, "budget.notice_prefix")+n.Text(lang))
	}
}

// TerminalWidth is the width of the terminal w, else COLUMNS, else 80.
func TerminalWidth(w any) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 80
}
