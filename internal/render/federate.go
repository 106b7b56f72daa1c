package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/gds-cli/gds/internal/federate"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/termsafe"
)

// FederateProgress returns the progress reporter of gds federate: one line
// per service step on w (standard error), and the summary's text as it
// streams on out. Results come from other services: everything shown is
// terminal-safe (termsafe), here and in FederateText.
func FederateProgress(w, out io.Writer, lang string) func(federate.Event) {
	return func(e federate.Event) {
		switch e.Stage {
		case "searching":
			fmt.Fprintln(w, termsafe.String(i18n.T(lang, "federate.searching", e.Server, e.Text)))
		case "found":
			fmt.Fprintln(w, i18n.T(lang, "federate.found", e.Server, e.Count))
		case "failed":
			fmt.Fprintln(w, termsafe.String(i18n.T(lang, "federate.failed", e.Server, e.Text)))
		case "reading":
			fmt.Fprintln(w, i18n.T(lang, "federate.reading", e.Count, e.Server))
		case "summarizing":
			fmt.Fprintln(w, i18n.T(lang, "federate.summarizing"))
		case "text":
			if out != nil {
				fmt.Fprint(out, termsafe.Text(e.Text))
			}
		}
	}
}

// FederateText writes what follows the streamed summary: the extractive
// label, the numbered sources per service (host-built links, with a
// warning where only the snippet was read), the generated queries,
// suggestions after zero hits, and the warnings.
func FederateText(w io.Writer, res federate.Result, lang string) {
	if len(res.Sources) == 0 {
		fmt.Fprintln(w, i18n.T(lang, "federate.no_results"))
	} else {
		if !strings.HasSuffix(res.Summary, "\n") {
			fmt.Fprintln(w)
		}
		if res.Extractive {
			fmt.Fprintln(w, i18n.T(lang, "federate.extractive"))
		}
		fmt.Fprintf(w, "\n## %s\n", i18n.T(lang, "federate.sources"))
		last := ""
		for _, s := range res.Sources {
			if s.Server != last {
				fmt.Fprintf(w, "%s:\n", s.Server)
				last = s.Server
			}
			line := fmt.Sprintf("  [%d] %s — %s", s.N, termsafe.String(s.Title), termsafe.String(s.URL))
			if s.Warning != "" {
				line += "  ⚠ " + termsafe.String(s.Warning)
			}
			fmt.Fprintln(w, line)
		}
	}
	fmt.Fprintf(w, "\n## %s\n", i18n.T(lang, "federate.queries"))
	for i, q := range res.Queries {
		by := ""
		if q.By == "rules" {
			by = " (" + i18n.T(lang, "federate.by_rules") + ")"
		}
		mock := ""
		if i < len(res.Services) && res.Services[i].Mock {
			mock = " " + i18n.T(lang, "federate.mock_note")
		}
		fmt.Fprintf(w, "  %s%s: %s%s\n", q.Server, mock, termsafe.String(q.Query), by)
	}
	for _, s := range res.Services {
		if len(s.Suggestions) > 0 {
			fmt.Fprintln(w, termsafe.String(i18n.T(lang, "federate.suggest", s.Server, strings.Join(s.Suggestions, " | "))))
		}
	}
	if len(res.Warnings) > 0 {
		fmt.Fprintf(w, "\n## %s\n", i18n.T(lang, "federate.warnings"))
		for _, x := range res.Warnings {
			fmt.Fprintln(w, "  ⚠ "+termsafe.String(x))
		}
	}
}
