package render

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pterm/pterm"

	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/termsafe"
)

// graphUnits are the units whose rate the model-bound phases show.
var graphUnits = map[string]i18n.Key{graph.PhaseExtract: "progress.unit.chunks", graph.PhaseReport: "progress.unit.reports"}

// GraphProgressRates reports a graph build on ios.Stderr: a progress bar
// per phase when stderr is a terminal, otherwise one line when a phase
// starts and one when a counted phase ends. It also says, in the model-bound
// phases (extraction, reports), the rate, the ETA and, when calls is not
// nil, the model calls per second against their limit: in the bar's title
// on a terminal, otherwise on a line every tenth of the phase.
func GraphProgressRates(ios iostreams.IOStreams, calls Calls) func(graph.Progress) {
	w, tty, lang := ios.Stderr, ios.StderrTTY, ios.Lang
	var (
		mu    sync.Mutex
		phase string
		bar   *pterm.ProgressbarPrinter
		r     *rates
	)
	title := func(p string) string { return i18n.T(lang, i18n.Key("graph.phase."+p)) }
	rateLine := func(p graph.Progress) string {
		unit, ok := graphUnits[p.Phase]
		if !ok || r == nil {
			return ""
		}
		r.observe(time.Now(), p.Done)
		return r.line(lang, unit, p.Done, p.Total)
	}
	return func(p graph.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Phase != phase {
			if bar != nil {
				_, _ = bar.Stop()
				bar = nil
			}
			phase = p.Phase
			r = newRates(calls)
			r.observe(time.Now(), 0)
			if !tty || p.Total == 0 {
				fmt.Fprintln(w, title(p.Phase)+"…")
			}
		}
		if !tty {
			line := rateLine(p)
			switch {
			case p.Total > 0 && p.Done == p.Total:
				fmt.Fprintf(w, "%s: %d/%d\n", title(p.Phase), p.Done, p.Total)
			case line != "" && p.Total >= 10 && p.Done%(p.Total/10) == 0:
				fmt.Fprintf(w, "%s: %d/%d · %s\n", title(p.Phase), p.Done, p.Total, line)
			}
			return
		}
		if p.Total == 0 {
			return
		}
		if bar == nil {
			b, err := pterm.DefaultProgressbar.WithTotal(p.Total).WithWriter(w).WithTitle(title(p.Phase)).WithRemoveWhenDone(true).Start()
			if err != nil {
				return
			}
			bar = b
		}
		if line := rateLine(p); line != "" {
			bar.UpdateTitle(title(p.Phase) + " · " + line)
		}
		if d := p.Done - bar.Current; d > 0 {
			bar.Add(d)
		}
		if p.Done >= p.Total {
			_, _ = bar.Stop()
			bar = nil
		}
	}
}

// GraphBuildSummary prints what a build did.
func GraphBuildSummary(w io.Writer, s graph.BuildStats, lang string) {
	levels := make([]int, 0, len(s.CommunitiesPerLevel))
	for l := range s.CommunitiesPerLevel {
		levels = append(levels, l)
	}
	sort.Ints(levels)
	var per []string
	for _, l := range levels {
		per = append(per, fmt.Sprintf("L%d: %d", l, s.CommunitiesPerLevel[l]))
	}
	fmt.Fprintln(w, i18n.T(lang, "graph.built", s.Provider, s.Chunks, s.Extracted, s.Reused, s.Removed, s.Entities, s.Relationships,
		s.Communities, strings.Join(per, ", "), s.Reports, s.ReportsReused, s.ExtractCalls, s.ReportCalls))
}

// GraphIntro labels an offline answer as an extract.
func GraphIntro(w io.Writer, lang string) {
	fmt.Fprintln(w, "> "+i18n.T(lang, "graph.offline_note"))
	fmt.Fprintln(w)
}

// GraphSources ends a Markdown answer: the call counts, the reports it
// rests on and the documents of the reference chain with their links.
func GraphSources(w io.Writer, r graph.Result, lang string) {
	refs := r.References
	fmt.Fprintf(w, "\n\n---\n\n## %s\n\n", i18n.T(lang, "graph.sources"))
	fmt.Fprintln(w, i18n.T(lang, "graph.sources.line", len(refs.Reports), len(refs.Entities), len(refs.Chunks), len(refs.Documents)))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "_"+i18n.T(lang, "graph.calls", r.Mode, r.Calls.Map+r.Calls.Drift+r.Calls.Answer, r.Calls.Map, r.Calls.Drift, r.Calls.Answer, r.Calls.PromptTokens)+"_")
	if len(refs.Reports) > 0 {
		fmt.Fprintf(w, "\n### %s\n\n", i18n.T(lang, "graph.reports"))
		for i, rep := range refs.Reports {
			if i == 20 {
				fmt.Fprintf(w, "- … (+%d)\n", len(refs.Reports)-i)
				break
			}
			fmt.Fprintf(w, "- [%s] %s (level %d, rank %g)\n", rep.ID, termsafe.String(rep.Title), rep.Level, rep.Rank)
		}
	}
	if len(refs.Documents) > 0 {
		fmt.Fprintf(w, "\n### %s\n\n", i18n.T(lang, "graph.documents"))
		for _, d := range refs.Documents {
			if d.Link != "" {
				fmt.Fprintf(w, "- [%s](%s)\n", termsafe.String(d.Name), termsafe.String(d.Link))
			} else {
				fmt.Fprintf(w, "- %s\n", termsafe.String(d.Name))
			}
		}
	}
}
