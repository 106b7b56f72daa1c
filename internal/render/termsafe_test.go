package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/agent"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/federate"
	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// A name from a file, with what a terminal would act on: a window title
// (OSC 0 … BEL), a colour (CSI 31 m), a carriage return, an 8-bit CSI and
// a right-to-left override.
const hostile = "evil\x1b]0;PWNED\x07\x1b[31mred\r\u009b2J\u202etxt.exe"

// leaked lists what of hostile reached out raw. (The bar and the styles
// write escape sequences of their own, so the test looks for hostile's.)
func leaked(out string) []string {
	var found []string
	for _, s := range []string{"\x1b]0;PWNED", "\x07", "\x1b[31mred", "\r\u009b", "\u009b", "\u202e"} {
		if strings.Contains(out, s) {
			found = append(found, s)
		}
	}
	return found
}

// TestTextSurfacesAreTerminalSafe feeds a hostile name, folder, summary,
// link and error to every text surface that shows them.
func TestTextSurfacesAreTerminalSafe(t *testing.T) {
	mod := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	file := store.File{ID: "x", Name: hostile, Path: "/" + hostile, ModifiedAt: mod, WebLink: "https://h/" + hostile,
		Summary: "summary " + hostile, SkipReason: "reason " + hostile, Source: "local:/" + hostile}
	other := store.File{ID: "y", Name: "plain.txt", ModifiedAt: mod, Source: "drive"}
	outcome := search.Outcome{State: search.State{End: search.EndResults, Rounds: []search.Round{{Loop: 1,
		Conditions: search.Conditions{Keywords: []string{hostile}}}}}, Results: []search.Result{{File: file}, {File: other}}}
	entry := crawl.Entry{Name: hostile, Path: hostile}
	sum := crawl.Summary{New: 1, Skipped: []crawl.Problem{{Name: hostile, Path: hostile, Reason: "bad " + hostile}},
		Failed: []crawl.Problem{{Name: hostile, Reason: hostile}}, Notice: hostile, Checkpoint: mod}
	src := AskSource{Ref: 1, Name: hostile, Link: "https://h/" + hostile, Text: hostile}
	surfaces := map[string]func(w *bytes.Buffer){
		"search text":        func(w *bytes.Buffer) { SearchText(w, outcome, true, false, i18n.En) },
		"search text, links": func(w *bytes.Buffer) { SearchText(w, outcome, false, true, i18n.En) },
		"search interactive": func(w *bytes.Buffer) {
			(&Interactive{Out: w, Err: w, Lang: i18n.En, Color: true, Hyperlinks: true, Verbose: true}).Finish(outcome, 0)
		},
		"crawl lines": func(w *bytes.Buffer) {
			p := CrawlProgress(iostreams.IOStreams{Stderr: w, Lang: i18n.En})
			p.Begin(1, true)
			p.File(entry, crawl.StatusFailed, hostile)
		},
		"crawl count": func(w *bytes.Buffer) {
			p := CountProgress(iostreams.IOStreams{Stderr: w, Lang: i18n.En})
			p.Begin(1, true)
			p.File(entry, crawl.StatusSkipped, hostile)
		},
		"crawl bar (terminal)": func(w *bytes.Buffer) {
			p := CrawlProgress(iostreams.IOStreams{Stderr: w, StderrTTY: true, Lang: i18n.En})
			p.Begin(1, true) // the file ends the bar: its redraws stop before w is read
			p.File(entry, crawl.StatusFailed, hostile)
		},
		"crawl summary": func(w *bytes.Buffer) { CrawlSummary(w, sum, false, i18n.En) },
		"crawl report": func(w *bytes.Buffer) {
			CrawlReport(w, []crawl.SourceResult{{Source: "local:/" + hostile, Started: true, Summary: sum}, {Source: "drive"}}, false, i18n.En)
		},
		"ask sources": func(w *bytes.Buffer) { AskSources(w, []AskSource{src}, false, 80, true, i18n.En) },
		"ask stream": func(w *bytes.Buffer) {
			s := &TextStream{W: w, Lang: i18n.En}
			_ = s.Write("answer " + hostile[:6])
			_ = s.Write(hostile[6:] + " 日本"[:5]) // 本 cut between two pieces
			_ = s.Write(" 日本"[5:])
			s.End()
		},
		"agent": func(w *bytes.Buffer) {
			v := &AgentView{W: w, Lang: i18n.En, Width: 80}
			_ = v.Event(agent.Event{Type: agent.TypeToolCall, Tool: agent.ToolSummary, Target: hostile})
			_ = v.Event(agent.Event{Type: agent.TypeToolResult, Summary: hostile})
			_ = v.Event(agent.Event{Type: agent.TypeChunk, Content: hostile})
			_ = v.Event(agent.Event{Type: agent.TypeEvidence, Ref: 1, Evidence: &agent.Evidence{Name: hostile, Text: hostile}})
			_ = v.Event(agent.Event{Type: agent.TypeDone, Message: hostile})
		},
		"federate": func(w *bytes.Buffer) {
			FederateProgress(w, w, i18n.En)(federate.Event{Stage: "text", Text: hostile})
			FederateText(w, federate.Result{Sources: []federate.Source{{N: 1, Server: "drive", Title: hostile, URL: "https://h/" + hostile}},
				Queries: []federate.Query{{Server: "drive", Query: hostile}}, Warnings: []string{hostile}}, i18n.En)
		},
		"graph sources": func(w *bytes.Buffer) {
			GraphSources(w, graph.Result{References: graph.References{Reports: []graph.RefReport{{Title: hostile}},
				Documents: []graph.RefDocument{{Name: hostile, Link: "https://h/" + hostile}, {Name: hostile}}}}, i18n.En)
		},
	}
	for name, show := range surfaces {
		var w bytes.Buffer
		show(&w)
		out := w.String()
		if found := leaked(out); len(found) > 0 {
			t.Errorf("%s: raw %q in\n%q", name, found, out)
		}
		if name == "ask stream" && !strings.Contains(out, "日本") {
			t.Errorf("ask stream: a character cut between two pieces is not whole: %q", out)
		}
		if !strings.Contains(out, `evil\e]0;PWNED\x07\e[31mred`) {
			t.Errorf("%s: the name is not shown escaped:\n%q", name, out)
		}
	}
}
