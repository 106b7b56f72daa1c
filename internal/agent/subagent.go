package agent

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/i18n"
)

// offlinePassages is how many passages the offline analyst quotes.
const offlinePassages = 3

// investigate is investigate_document: a sub-agent with its own context
// reads the whole document (get_document_content) and answers query. Only
// its analysis and the passages it cited leave it; the document's text
// never enters the main agent's conversation. The sub-agent has no
// evidence search.
func (r *runner) investigate(ctx context.Context, doc Doc, query string) (string, []Evidence, error) {
	tc, ok := r.o.Provider.(ai.ToolCaller)
	if !ok {
		return r.investigateOffline(ctx, doc, query)
	}
	tools := SubTools()
	msgs := []ai.Message{{Role: ai.RoleUser, Content: fmt.Sprintf("Document: %s (document_id %s)\nInvestigation query: %s", doc.Name, doc.ID, query)}}
	var read []Passage
	spent := 0
	lim := r.b.Limits
	for step := 1; ; step++ {
		final := step >= lim.SubMaxSteps || spent >= lim.SubMaxTokens
		choice := ai.ToolChoiceAuto
		if final {
			choice = ai.ToolChoiceNone
		}
		req := ai.Request{System: systemSub, Messages: msgs, Tools: tools, ToolChoice: choice}
		rep, n, err := r.modelTurn(ctx, tc, req, nil)
		if err != nil {
			return "", nil, fmt.Errorf("investigate %s: %w", doc.Name, err)
		}
		spent += n
		if len(rep.ToolCalls) == 0 || final {
			return rep.Text, cited(rep.Text, read), nil
		}
		msgs = append(msgs, rep.Message())
		for _, c := range rep.ToolCalls {
			var a struct {
				DocumentID string `json:"document_id"`
			}
			if err := c.Decode(tools, &a); err != nil {
				msgs = append(msgs, ai.ToolResult(c.ID, "error: "+err.Error()))
				continue
			}
			if a.DocumentID != doc.ID {
				msgs = append(msgs, ai.ToolResult(c.ID, fmt.Sprintf("error: you read only document %s", doc.ID)))
				continue
			}
			ps, more, err := r.o.Engine.Content(ctx, doc.ID, lim.MaxChunks)
			if err != nil {
				msgs = append(msgs, ai.ToolResult(c.ID, "error: "+err.Error()))
				continue
			}
			read = ps
			room := max(lim.SubMaxTokens-spent-r.o.Counter.Count(systemSub)-2_000, 500)
			msgs = append(msgs, ai.ToolResult(c.ID, r.o.Counter.Truncate(formatPassages(doc, ps, more), room)))
		}
	}
}

// formatPassages is get_document_content's result: the document's
// passages, each [c<ordinal>] with its page.
func formatPassages(doc Doc, ps []Passage, more bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Document %s (%s), %d passages", doc.Name, doc.Status, len(ps))
	if more {
		b.WriteString(" (the first ones; the document has more)")
	}
	b.WriteString("\n\n")
	for _, p := range ps {
		fmt.Fprintf(&b, "[c%d]", p.Ordinal)
		if p.Page > 0 {
			fmt.Fprintf(&b, " (p. %d)", p.Page)
		}
		b.WriteString(" ")
		b.WriteString(strings.TrimSpace(p.Text))
		b.WriteString("\n\n")
	}
	return b.String()
}

var citeChunk = regexp.MustCompile(`\[c(\d{1,8})\]`)

// cited returns the passages text cites as [c<n>], in order of first
// citation; only passages that were read count.
func cited(text string, read []Passage) []Evidence {
	byOrd := make(map[int]Evidence, len(read))
	for _, p := range read {
		byOrd[p.Ordinal] = p.Evidence
	}
	var out []Evidence
	seen := map[int]bool{}
	for _, m := range citeChunk.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		if e, ok := byOrd[n]; ok && !seen[n] {
			seen[n] = true
			out = append(out, e)
		}
	}
	return out
}

// investigateOffline reads the document and quotes the sentences of its
// passages that best match query (RankPassages, then the offline answer).
func (r *runner) investigateOffline(ctx context.Context, doc Doc, query string) (string, []Evidence, error) {
	ps, _, err := r.o.Engine.Content(ctx, doc.ID, r.b.Limits.MaxChunks)
	if err != nil {
		return "", nil, err
	}
	texts := make([]string, len(ps))
	for i, p := range ps {
		texts[i] = p.Text
	}
	var ev []Evidence
	in := ai.AnswerInput{Question: query, Lang: r.o.Lang}
	for _, i := range RankPassages(query, texts, offlinePassages) {
		ev = append(ev, ps[i].Evidence)
		in.Contexts = append(in.Contexts, ai.AnswerContext{Ref: len(ev), FileName: doc.Name, Page: ps[i].Page, Text: ps[i].Text})
	}
	var b strings.Builder
	if len(ev) > 0 {
		if err := ai.Answer(ctx, r.o.Provider, in, func(s string) error { b.WriteString(s); return nil }); err != nil {
			return "", nil, err
		}
	}
	if strings.TrimSpace(b.String()) == "" {
		b.WriteString(i18n.T(r.answerLang(), "agent.no_evidence"))
	}
	return b.String(), ev, nil
}
