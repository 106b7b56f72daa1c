package gdsmodel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/agent"
	"github.com/gds-cli/gds/internal/ai"
)

// The first user messages of gds's agents (agent.userPrompt and the
// analyst's brief).
var (
	mainBrief    = regexp.MustCompile(`(?s)^Folder: (.*?)\nQuestion: (.*)$`)
	analystBrief = regexp.MustCompile(`(?s)^Document: .* \(document_id (.*?)\)\nInvestigation query: (.*)$`)
)

// wholeIndex is how the main agent's brief names the whole index.
const wholeIndex = `"" (the whole index)`

// errNotOurs is a conversation the model did not lead.
var errNotOurs = errors.New("the conversation's tool calls are not the ones this model made")

// mainTurn plays the main agent: the offline plan's next calls, replayed
// from the conversation, or the answer when the plan is done, tool_choice
// is "none" or the user asks for the answer (a budget ran out).
func (b *Backend) mainTurn(ctx context.Context, req ai.Request) (ai.Reply, error) {
	if len(req.Messages) == 0 || req.Messages[0].Role != ai.RoleUser {
		return ai.Reply{}, fmt.Errorf("gdsmodel: the main agent's conversation does not open with its brief: %w", errNotOurs)
	}
	m := mainBrief.FindStringSubmatch(req.Messages[0].Content)
	if m == nil {
		return ai.Reply{}, fmt.Errorf("gdsmodel: the main agent's brief %q names no folder and question: %w", ai.Truncate(req.Messages[0].Content, 80), errNotOurs)
	}
	folder, question := m[1], strings.TrimSpace(m[2])
	if folder == wholeIndex {
		folder = ""
	}
	lang := langOf(question)
	kw := []string{question}
	if qa, err := ai.AnalyzeQuery(ctx, b.Provider, ai.QueryInput{Query: question, Now: time.Now(), Lang: lang}); err == nil && len(qa.Keywords) > 0 {
		kw = qa.Keywords
	}
	offered := map[string]bool{}
	for _, t := range req.Tools {
		offered[t.Name] = true
	}
	plan := &agent.Plan{Question: question, Folder: folder, Keywords: kw, Attachments: folder != "" && offered[agent.ToolListAttachments]}

	calls := map[string]string{} // call ID → tool
	var found []ai.AnswerContext
	answerNow := req.ToolChoice == ai.ToolChoiceNone
	for _, msg := range req.Messages[1:] {
		switch msg.Role {
		case ai.RoleAssistant:
			if len(msg.ToolCalls) == 0 {
				continue
			}
			want := plan.Next()
			if !sameCalls(want, msg.ToolCalls) {
				return ai.Reply{}, fmt.Errorf("gdsmodel: the plan's turn was %s, the conversation's %s: %w", callNames(want), callNames(msg.ToolCalls), errNotOurs)
			}
			for _, c := range msg.ToolCalls {
				calls[c.ID] = c.Name
			}
		case ai.RoleTool:
			tool := calls[msg.ToolCallID]
			docs, ctxs := readResult(tool, msg.Content)
			plan.Observe(tool, docs)
			found = append(found, ctxs...)
		case ai.RoleUser:
			answerNow = true // the budget's nudge: answer now
		}
	}
	if !answerNow {
		if next := plan.Next(); len(next) > 0 {
			for i := range next {
				next[i].ID = "" // the server numbers the calls
			}
			return ai.Reply{ToolCalls: next}, nil
		}
	}
	in := ai.AnswerInput{Question: question, Lang: lang, Contexts: found}
	var text strings.Builder
	if err := ai.Answer(ctx, b.Provider, in, func(s string) error { text.WriteString(s); return nil }); err != nil {
		return ai.Reply{}, err
	}
	return ai.Reply{Text: text.String()}, nil
}

func sameCalls(a, b []ai.ToolCall) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Arguments != b[i].Arguments {
			return false
		}
	}
	return true
}

func callNames(cs []ai.ToolCall) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	return "[" + strings.Join(names, " ") + "]"
}

var analystRef = regexp.MustCompile(`\s*\[c\d{1,8}\]`)

// readResult reads a tool result as the plan observes it (the documents
// it names, in order) and the passages the answer may cite: the evidence
// search's results by their refs, an investigation's analysis by its first
// evidence ref. An error result ("error: …") names nothing.
func readResult(tool, content string) ([]agent.DocRef, []ai.AnswerContext) {
	type doc struct {
		ID   string `json:"document_id"`
		Name string `json:"filename"`
	}
	var r struct {
		Documents   []doc `json:"documents"`
		Attachments []doc `json:"attachments"`
		Results     []struct {
			Ref  int    `json:"ref"`
			ID   string `json:"document_id"`
			Name string `json:"filename"`
			Page int    `json:"page"`
			Text string `json:"text"`
		} `json:"results"`
		Filename     string `json:"filename"`
		Analysis     string `json:"analysis"`
		EvidenceRefs []int  `json:"evidence_refs"`
	}
	if json.Unmarshal([]byte(content), &r) != nil {
		return nil, nil
	}
	var docs []agent.DocRef
	var ctxs []ai.AnswerContext
	switch tool {
	case agent.ToolListDocuments, agent.ToolDiscoverAgenda:
		for _, d := range r.Documents {
			docs = append(docs, agent.DocRef{ID: d.ID, Name: d.Name})
		}
	case agent.ToolListAttachments:
		for _, d := range r.Attachments {
			docs = append(docs, agent.DocRef{ID: d.ID, Name: d.Name})
		}
	case agent.ToolSearchEvidence:
		seen := map[string]bool{}
		for _, e := range r.Results {
			if !seen[e.ID] {
				seen[e.ID] = true
				docs = append(docs, agent.DocRef{ID: e.ID, Name: e.Name})
			}
			ctxs = append(ctxs, ai.AnswerContext{Ref: e.Ref, FileName: e.Name, Page: e.Page, Text: e.Text})
		}
	case agent.ToolInvestigate:
		if a := strings.TrimSpace(analystRef.ReplaceAllString(r.Analysis, "")); a != "" && len(r.EvidenceRefs) > 0 {
			ctxs = append(ctxs, ai.AnswerContext{Ref: r.EvidenceRefs[0], FileName: r.Filename, Text: a})
		}
	}
	return docs, ctxs
}

// analystPassage is one "[c<n>] (p. N) text" passage of get_document_content.
var analystPassage = regexp.MustCompile(`(?m)^\[c(\d{1,8})\](?: \(p\. (\d+)\))? `)

// analystPassages are the top passages of an analyst's reading.
const analystPassages = 3

// analystTurn plays the document analyst: it reads its document, then
// answers the investigation query from the passages that best match it
// (agent.RankPassages, as the offline analyst does), citing [c<n>].
func (b *Backend) analystTurn(ctx context.Context, req ai.Request) (ai.Reply, error) {
	if len(req.Messages) == 0 {
		return ai.Reply{}, fmt.Errorf("gdsmodel: the analyst's conversation is empty: %w", errNotOurs)
	}
	m := analystBrief.FindStringSubmatch(req.Messages[0].Content)
	if m == nil {
		return ai.Reply{}, fmt.Errorf("gdsmodel: the analyst's brief %q names no document and query: %w", ai.Truncate(req.Messages[0].Content, 80), errNotOurs)
	}
	id, query := m[1], strings.TrimSpace(m[2])
	reading, asked := "", false
	for _, msg := range req.Messages[1:] {
		switch {
		case msg.Role == ai.RoleAssistant && len(msg.ToolCalls) > 0:
			asked = true
		case msg.Role == ai.RoleTool && !strings.HasPrefix(msg.Content, "error:"):
			reading = msg.Content
		}
	}
	if reading == "" && !asked && req.ToolChoice != ai.ToolChoiceNone {
		args, _ := json.Marshal(map[string]string{"document_id": id})
		return ai.Reply{ToolCalls: []ai.ToolCall{{Name: agent.ToolContent, Arguments: string(args)}}}, nil
	}
	lang := langOf(query)
	locs := analystPassage.FindAllStringSubmatchIndex(reading, -1)
	var texts []string
	var ords, pages []int
	for i, l := range locs {
		end := len(reading)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		ord, _ := strconv.Atoi(reading[l[2]:l[3]])
		page := 0
		if l[4] >= 0 {
			page, _ = strconv.Atoi(reading[l[4]:l[5]])
		}
		texts, ords, pages = append(texts, strings.TrimSpace(reading[l[1]:end])), append(ords, ord), append(pages, page)
	}
	in := ai.AnswerInput{Question: query, Lang: lang}
	picked := agent.RankPassages(query, texts, analystPassages)
	for _, i := range picked {
		in.Contexts = append(in.Contexts, ai.AnswerContext{Ref: len(in.Contexts) + 1, Page: pages[i], Text: texts[i]})
	}
	var text strings.Builder
	if err := ai.Answer(ctx, b.Provider, in, func(s string) error { text.WriteString(s); return nil }); err != nil {
		return ai.Reply{}, err
	}
	// The answer cites [n] of the n-th context: the analyst cites [c<ordinal>].
	out := answerRef.ReplaceAllStringFunc(text.String(), func(s string) string {
		n, _ := strconv.Atoi(s[1 : len(s)-1])
		if n < 1 || n > len(picked) {
			return s
		}
		return fmt.Sprintf("[c%d]", ords[picked[n-1]])
	})
	return ai.Reply{Text: out}, nil
}

var answerRef = regexp.MustCompile(`\[\d{1,4}\]`)
