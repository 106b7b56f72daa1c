package render

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/gds-cli/gds/internal/agent"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/termsafe"
)

// AgentView prints an agentic run in the terminal as the seed's step
// display: each tool call as a step ("🔍 Searching for …"), its result
// indented ("→ found 45 documents"), then the answer as it streams, the
// budget message if a budget stopped the run, and the numbered evidence.
// What it prints quotes documents and the model, so it is terminal-safe
// (termsafe).
type AgentView struct {
	W          io.Writer
	Lang       string
	Width      int
	Hyperlinks bool
	Offline    bool // the offline provider: label the answer as an extract

	answering bool
	last      string // the type of the previous event
	evidence  []AskSource
	partial   string // a UTF-8 character cut between two chunks
}

// Event renders one event.
func (v *AgentView) Event(ev agent.Event) error {
	t := func(key i18n.Key, args ...any) string { return i18n.T(v.Lang, key, args...) }
	var err error
	if v.last == agent.TypeToolResult && (ev.Type == agent.TypeToolCall || ev.Type == agent.TypeChunk) {
		fmt.Fprintln(v.W) // a blank line after each turn's results
	}
	v.last = ev.Type
	switch ev.Type {
	case agent.TypeToolCall:
		_, err = fmt.Fprintln(v.W, termsafe.String(t("agent.step.call", v.step(ev))))
	case agent.TypeToolResult:
		mark := "→"
		if ev.Error {
			mark = "✗"
		}
		_, err = fmt.Fprintf(v.W, "  %s %s\n", mark, termsafe.String(ev.Summary))
	case agent.TypeChunk:
		if !v.answering {
			v.answering = true
			fmt.Fprintln(v.W, t("agent.step.answer"))
			if v.Offline {
				fmt.Fprintln(v.W, t("agent.offline_note"))
			}
		}
		text := v.partial + ev.Content
		v.partial = ""
		if cut := incompleteTail(text); cut > 0 {
			text, v.partial = text[:len(text)-cut], text[len(text)-cut:]
		}
		_, err = fmt.Fprint(v.W, termsafe.Text(text))
	case agent.TypeEvidence:
		if e := ev.Evidence; e != nil {
			v.evidence = append(v.evidence, AskSource{Ref: ev.Ref, Name: e.Name, Page: e.Page, Link: e.Link, Text: e.Text})
		}
	case agent.TypeDone:
		if v.answering {
			fmt.Fprintln(v.W, termsafe.Text(v.partial))
			v.partial = ""
		}
		if ev.Message != "" {
			fmt.Fprintln(v.W)
			fmt.Fprintln(v.W, termsafe.Text(ev.Message))
		}
		if len(v.evidence) > 0 {
			fmt.Fprintln(v.W)
			fmt.Fprintln(v.W, t("agent.evidence"))
			sourceList(v.W, v.evidence, v.Width, v.Hyperlinks, v.Lang)
		}
	}
	return err
}

// step is the line announcing a tool call.
func (v *AgentView) step(ev agent.Event) string {
	t := func(key i18n.Key, args ...any) string { return i18n.T(v.Lang, key, args...) }
	var a struct {
		Query  string `json:"query"`
		Search string `json:"search_text"`
	}
	_ = json.Unmarshal(ev.Args, &a)
	switch ev.Tool {
	case agent.ToolListDocuments:
		if a.Search != "" {
			return t("agent.step.list") + fmt.Sprintf(" (%q)", a.Search)
		}
		return t("agent.step.list")
	case agent.ToolDiscoverAgenda:
		return t("agent.step.agenda")
	case agent.ToolSearchEvidence:
		return t("agent.step.search", a.Query)
	case agent.ToolSummary:
		return t("agent.step.summary", ev.Target)
	case agent.ToolInvestigate:
		return t("agent.step.invest", ev.Target)
	case agent.ToolListAttachments:
		return t("agent.step.attach")
	case agent.ToolReadAttachment:
		return t("agent.step.read", ev.Target)
	}
	return t("agent.step.other", ev.Tool)
}
