package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/search"
)

// SearchText prints search results for a terminal or a pipe: name, folder
// and date, summary, link. With hyperlinks, names are OSC 8 links.
func SearchText(w io.Writer, out search.Outcome, verbose, hyperlinks bool, lang string) {
	if verbose {
		fmt.Fprintln(w, i18n.T(lang, "search.analysis", strings.Join(out.Analysis.Keywords, ", "), FiltersText(out.Analysis.Filters, lang), out.Provider))
		fmt.Fprintln(w, i18n.T(lang, "search.hits", out.Hits))
	}
	if len(out.Results) == 0 {
		fmt.Fprintln(w, i18n.T(lang, i18n.NoFilesFound))
		return
	}
	for i, r := range out.Results {
		f := r.File
		name := f.Name
		if hyperlinks && f.WebLink != "" {
			name = "\x1b]8;;" + f.WebLink + "\x1b\\" + name + "\x1b]8;;\x1b\\"
		}
		meta := f.ModifiedAt.Local().Format("2006-01-02")
		if f.Path != "" {
			meta = f.Path + " · " + meta
		}
		fmt.Fprintf(w, "%2d. %s  (%s)\n", i+1, name, meta)
		if f.Summary != "" {
			fmt.Fprintf(w, "    %s\n", oneLine(f.Summary))
		}
		fmt.Fprintf(w, "    %s\n", f.WebLink)
	}
}

// FiltersText describes filters in words.
func FiltersText(f ai.Filters, lang string) string {
	var parts []string
	if f.FileType != "" {
		parts = append(parts, f.FileType)
	}
	if f.ModifiedAfter != "" || f.ModifiedBefore != "" {
		parts = append(parts, f.ModifiedAfter+"…"+f.ModifiedBefore)
	}
	if len(parts) == 0 {
		return i18n.T(lang, "search.filters.none")
	}
	return strings.Join(parts, ", ")
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
