package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
)

// toolOut is the outcome of one call.
type toolOut struct {
	content  string // what the model reads (JSON, or an error text)
	summary  string // what the user sees
	failed   bool
	docs     []DocRef   // documents found, for the Plan
	evidence []Evidence // passages that become evidence refs
	// result builds the model's JSON once the evidence has its ref numbers.
	result func(refs []int) any
}

// runCalls announces the turn's calls, runs the valid ones in parallel,
// registers their evidence in call order and announces the results.
func (r *runner) runCalls(ctx context.Context, calls []ai.ToolCall) ([]toolOut, error) {
	outs := make([]toolOut, len(calls))
	run := make([]bool, len(calls))
	for i, c := range calls {
		if err := r.o.Emit(Event{Type: TypeToolCall, Tool: c.Name, Args: argsJSON(c.Arguments), Target: r.target(c)}); err != nil {
			return nil, err
		}
		if err := c.Check(r.tools); err != nil {
			outs[i] = r.failure(err)
			continue
		}
		r.mu.Lock()
		ok := r.b.Call(c.Name)
		r.mu.Unlock()
		if !ok {
			msg := i18n.T(r.o.Lang, "agent.sum.limit", c.Name, r.b.Limits.MaxCallsPerTool)
			outs[i] = toolOut{content: "error: " + i18n.T(i18n.En, "agent.sum.limit", c.Name, r.b.Limits.MaxCallsPerTool), summary: msg, failed: true}
			continue
		}
		run[i] = true
	}
	var wg sync.WaitGroup
	for i, c := range calls {
		if run[i] {
			wg.Go(func() { outs[i] = r.exec(ctx, c) })
		}
	}
	wg.Wait()
	for i := range outs {
		o := &outs[i]
		for _, d := range o.docs {
			r.names[d.ID] = d.Name
		}
		if o.result != nil && !o.failed {
			refs := make([]int, len(o.evidence))
			for j, e := range o.evidence {
				refs[j] = r.addEvidence(e)
			}
			b, err := json.Marshal(o.result(refs))
			if err != nil {
				*o = r.failure(err)
			} else {
				o.content = string(b)
			}
		}
		ev := Event{Type: TypeToolResult, Tool: calls[i].Name, Summary: o.summary, Error: o.failed}
		if err := r.o.Emit(ev); err != nil {
			return nil, err
		}
	}
	return outs, nil
}

// target is the name of the document a call is about, when known.
func (r *runner) target(c ai.ToolCall) string {
	var a struct {
		DocumentID string `json:"document_id"`
	}
	if json.Unmarshal([]byte(c.Arguments), &a) != nil || a.DocumentID == "" {
		return ""
	}
	if n, ok := r.names[a.DocumentID]; ok {
		return n
	}
	return a.DocumentID
}

// addEvidence registers a passage and returns its ref (1-based).
func (r *runner) addEvidence(e Evidence) int {
	if n, ok := r.refOf[e.ChunkID]; ok {
		return n
	}
	r.evidence = append(r.evidence, e)
	r.refOf[e.ChunkID] = len(r.evidence)
	return len(r.evidence)
}

// failure is a call's error as the model and the user see it.
func (r *runner) failure(err error) toolOut {
	model, user := err.Error(), err.Error()
	var le *apperr.Localized
	if errors.As(err, &le) {
		model, user = le.Message(i18n.En), le.Message(r.o.Lang)
	}
	return toolOut{content: "error: " + model, summary: i18n.T(r.o.Lang, "agent.sum.error", user), failed: true}
}

var errOutside = errors.New("the document is not in the folder of this question")

// folderArg resolves a folder argument against the run's scope: "" is the
// scope; a folder outside it is an error.
func (r *runner) folderArg(f string) (string, error) {
	f = store.CleanFolder(f)
	if f == "" || f == r.o.Folder {
		return r.o.Folder, nil
	}
	if !store.InFolder(f, r.o.Folder) {
		return "", fmt.Errorf("folder %q is outside the folder of this question (%q)", f, r.o.Folder)
	}
	return f, nil
}

// document loads a document in the run's scope: a file of the folder, or
// an attachment (an upload with one of the folder's tags).
func (r *runner) document(ctx context.Context, id string, attachment bool) (Doc, error) {
	doc, err := r.o.Engine.Document(ctx, id)
	if err != nil {
		return Doc{}, err
	}
	if doc.Source == "upload" {
		for _, t := range doc.Tags {
			for _, want := range r.o.Tags {
				if t == want {
					return doc, nil
				}
			}
		}
		if r.o.Folder == "" && !attachment {
			return doc, nil
		}
		return Doc{}, errOutside
	}
	if attachment || !store.InFolder(doc.Folder, r.o.Folder) {
		return Doc{}, errOutside
	}
	return doc, nil
}

func refsOf(docs []Doc) []DocRef {
	out := make([]DocRef, len(docs))
	for i, d := range docs {
		out[i] = DocRef{ID: d.ID, Name: d.Name}
	}
	return out
}

// exec runs one checked call.
func (r *runner) exec(ctx context.Context, c ai.ToolCall) toolOut {
	t := func(key i18n.Key, args ...any) string { return i18n.T(r.o.Lang, key, args...) }
	switch c.Name {
	case ToolListDocuments:
		var a struct {
			Folder     string `json:"folder"`
			SearchText string `json:"search_text"`
			Page       int    `json:"page"`
			PageSize   int    `json:"page_size"`
		}
		if err := c.Decode(r.tools, &a); err != nil {
			return r.failure(err)
		}
		folder, err := r.folderArg(a.Folder)
		if err != nil {
			return r.failure(err)
		}
		a.Page = max(a.Page, 1)
		if a.PageSize <= 0 || a.PageSize > 50 {
			a.PageSize = 50
		}
		docs, err := r.o.Engine.FolderDocuments(ctx, folder)
		if err != nil {
			return r.failure(err)
		}
		docs = MatchDocuments(docs, a.SearchText)
		from := min((a.Page-1)*a.PageSize, len(docs))
		page := docs[from:min(from+a.PageSize, len(docs))]
		res := map[string]any{"folder": folder, "documents": nonNil(page), "total": len(docs), "page": a.Page, "page_size": a.PageSize}
		return jsonOut(res, t("agent.sum.list", len(docs), len(page)), refsOf(page))
	case ToolDiscoverAgenda:
		var a struct {
			Folder string `json:"folder"`
		}
		if err := c.Decode(r.tools, &a); err != nil {
			return r.failure(err)
		}
		folder, err := r.folderArg(a.Folder)
		if err != nil {
			return r.failure(err)
		}
		docs, err := r.o.Engine.FolderDocuments(ctx, folder)
		if err != nil {
			return r.failure(err)
		}
		var found []Doc
		for _, d := range docs {
			if IsAgendaName(d.Name) || IsAgendaName(d.Title) {
				found = append(found, d)
			}
		}
		return jsonOut(map[string]any{"folder": folder, "documents": nonNil(found)}, t("agent.sum.agenda", len(found)), refsOf(found))
	case ToolSearchEvidence:
		var a struct {
			Query  string `json:"query"`
			Folder string `json:"folder"`
			TopK   int    `json:"top_k"`
		}
		if err := c.Decode(r.tools, &a); err != nil {
			return r.failure(err)
		}
		folder, err := r.folderArg(a.Folder)
		if err != nil {
			return r.failure(err)
		}
		if a.TopK <= 0 {
			a.TopK = 5
		}
		a.TopK = min(a.TopK, 20)
		ev, err := r.o.Engine.SearchEvidence(ctx, a.Query, folder, a.TopK)
		if err != nil {
			return r.failure(err)
		}
		var docs []DocRef
		seen := map[string]bool{}
		for _, e := range ev {
			if !seen[e.FileID] {
				seen[e.FileID] = true
				docs = append(docs, DocRef{ID: e.FileID, Name: e.Name})
			}
		}
		return toolOut{summary: t("agent.sum.evidence", len(ev)), docs: docs, evidence: ev, result: func(refs []int) any {
			type item struct {
				Ref        int    `json:"ref"`
				DocumentID string `json:"document_id"`
				Filename   string `json:"filename"`
				Page       int    `json:"page,omitempty"`
				Text       string `json:"text"`
			}
			items := make([]item, len(ev))
			for i, e := range ev {
				items[i] = item{Ref: refs[i], DocumentID: e.FileID, Filename: e.Name, Page: e.Page, Text: e.Text}
			}
			return map[string]any{"query": a.Query, "results": items}
		}}
	case ToolSummary:
		var a struct {
			DocumentID string `json:"document_id"`
		}
		if err := c.Decode(r.tools, &a); err != nil {
			return r.failure(err)
		}
		doc, err := r.document(ctx, a.DocumentID, false)
		if err != nil {
			return r.failure(err)
		}
		return jsonOut(map[string]any{"document_id": doc.ID, "filename": doc.Name, "title": doc.Title, "status": doc.Status,
			"summary": doc.Summary, "keywords": nonNil(doc.Keywords)}, t("agent.sum.summary", doc.Name), nil)
	case ToolInvestigate:
		var a struct {
			DocumentID string `json:"document_id"`
			Query      string `json:"investigation_query"`
		}
		if err := c.Decode(r.tools, &a); err != nil {
			return r.failure(err)
		}
		doc, err := r.document(ctx, a.DocumentID, false)
		if err != nil {
			return r.failure(err)
		}
		analysis, ev, err := r.investigate(ctx, doc, a.Query)
		if err != nil {
			return r.failure(err)
		}
		return toolOut{summary: t("agent.sum.investigate", doc.Name, len(ev)), evidence: ev, result: func(refs []int) any {
			return map[string]any{"document_id": doc.ID, "filename": doc.Name, "analysis": analysis, "evidence_count": len(ev), "evidence_refs": nonNil(refs)}
		}}
	case ToolListAttachments:
		var a struct {
			Folder string `json:"folder"`
		}
		if err := c.Decode(r.tools, &a); err != nil {
			return r.failure(err)
		}
		if _, err := r.folderArg(a.Folder); err != nil {
			return r.failure(err)
		}
		var docs []Doc
		if len(r.o.Tags) > 0 {
			var err error
			if docs, err = r.o.Engine.Attachments(ctx, r.o.Tags); err != nil {
				return r.failure(err)
			}
		}
		return jsonOut(map[string]any{"folder": r.o.Folder, "tags": nonNil(r.o.Tags), "attachments": nonNil(docs)}, t("agent.sum.attachments", len(docs)), refsOf(docs))
	case ToolReadAttachment:
		var a struct {
			DocumentID string `json:"document_id"`
		}
		if err := c.Decode(r.tools, &a); err != nil {
			return r.failure(err)
		}
		doc, err := r.document(ctx, a.DocumentID, true)
		if err != nil {
			return r.failure(err)
		}
		ps, more, err := r.o.Engine.Content(ctx, doc.ID, r.b.Limits.MaxChunks)
		if err != nil {
			return r.failure(err)
		}
		var b strings.Builder
		for _, p := range ps {
			b.WriteString(p.Text)
			b.WriteString("\n")
		}
		text := r.o.Counter.Truncate(b.String(), r.b.Limits.MaxResultTokens)
		return jsonOut(map[string]any{"document_id": doc.ID, "filename": doc.Name, "content": text, "truncated": more || len(text) < b.Len()},
			t("agent.sum.read", doc.Name), nil)
	}
	return r.failure(&ai.ToolCallError{ID: c.ID, Name: c.Name, Kind: ai.ErrUnknownTool})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func jsonOut(v any, summary string, docs []DocRef) toolOut {
	b, err := json.Marshal(v)
	if err != nil {
		return toolOut{content: "error: " + err.Error(), summary: summary, failed: true}
	}
	return toolOut{content: string(b), summary: summary, docs: docs}
}
