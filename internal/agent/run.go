package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
)

// Options are the inputs of Run.
type Options struct {
	Question string
	Folder   string   // the scope; "" for the whole index
	Tags     []string // tags of the folder's attachments (nil: AttachmentTags(Folder))
	Provider ai.Provider
	Engine   Engine
	Limits   Limits
	Counter  Counter // nil: a rough bytes/4 estimate
	Lang     string
	Now      func() time.Time // nil: time.Now
	// Emit receives every event in order; an error from it ends the run.
	Emit func(Event) error
}

// Result is a finished run: its done event and the evidence it emitted.
type Result struct {
	Done     Event
	Evidence []Evidence
}

// AttachmentTags are the tags that mark an upload as an attachment of
// folder: the folder's path and its last segment ("Reports/2024" →
// "Reports/2024", "2024"); none for the whole index.
func AttachmentTags(folder string) []string {
	f := store.CleanFolder(folder)
	if f == "" {
		return nil
	}
	tags := []string{f}
	if i := strings.LastIndex(f, "/"); i >= 0 {
		tags = append(tags, f[i+1:])
	}
	return tags
}

type runner struct {
	o     Options
	tools []ai.Tool

	mu       sync.Mutex // guards b during parallel calls
	b        *Budget
	evidence []Evidence
	refOf    map[string]int // chunk ID → 1-based ref
	answer   strings.Builder
	extract  bool
	names    map[string]string // document ID → name, from the tools' results
}

// Run answers o.Question by investigating the folder's documents and
// streams every step to o.Emit, done last. With an ai.ToolCaller the model
// plans; otherwise the offline Plan runs the seed's tools in order and the
// answer is an extract of the evidence (Event.Extractive). When a budget
// ends the run early the done event says which, with the best answer so
// far. A cancelled ctx ends the run with its error.
func Run(ctx context.Context, o Options) (Result, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Counter == nil {
		o.Counter = roughCounter{}
	}
	if o.Tags == nil {
		o.Tags = AttachmentTags(o.Folder)
	}
	o.Folder = store.CleanFolder(o.Folder)
	r := &runner{o: o, tools: MainTools(), b: NewBudget(o.Limits, o.Now()), refOf: map[string]int{}, names: map[string]string{}}
	r.o.Limits = r.b.Limits
	rctx, cancel := context.WithTimeout(ctx, r.b.Limits.MaxWall)
	defer cancel()

	var d driver
	if tc, ok := o.Provider.(ai.ToolCaller); ok {
		d = &llmDriver{r: r, tc: tc, msgs: []ai.Message{{Role: ai.RoleUser, Content: userPrompt(o.Question, o.Folder)}}}
	} else {
		kw := []string{o.Question}
		if qa, err := ai.AnalyzeQuery(rctx, o.Provider, ai.QueryInput{Query: o.Question, Now: o.Now(), Lang: o.Lang}); err == nil && len(qa.Keywords) > 0 {
			kw = qa.Keywords
		}
		d = &planDriver{r: r, plan: &Plan{Question: o.Question, Folder: o.Folder, Keywords: kw, Attachments: len(o.Tags) > 0}}
		r.extract = true
	}

	stop := StopNone
	answered := false
	for !answered {
		r.mu.Lock()
		stop = r.b.Step(o.Now())
		r.mu.Unlock()
		if stop != StopNone {
			break
		}
		calls, err := d.turn(rctx, r.chunk)
		if err != nil {
			if ctx.Err() != nil {
				return Result{}, ctx.Err()
			}
			if rctx.Err() != nil {
				stop = StopTime
				break
			}
			return Result{}, err
		}
		if len(calls) == 0 {
			answered = true
			break
		}
		outs, err := r.runCalls(rctx, calls)
		if err != nil {
			return Result{}, err
		}
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		d.observe(calls, outs)
	}
	msg := ""
	if stop != StopNone {
		if stop == StopTime {
			msg = i18n.T(o.Lang, "agent.stopped.time", r.b.Limits.MaxWall.String())
		} else if stop == StopTokens {
			msg = i18n.T(o.Lang, "agent.stopped.tokens", r.b.Limits.MaxTokens)
		} else {
			msg = i18n.T(o.Lang, "agent.stopped.steps", r.b.Limits.MaxSteps)
		}
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		if err := r.bestSoFar(rctx, d, stop); err != nil {
			if ctx.Err() != nil {
				return Result{}, ctx.Err()
			}
			return Result{}, err
		}
	}
	return r.finish(stop, msg)
}

func userPrompt(q, folder string) string {
	if folder == "" {
		folder = `"" (the whole index)`
	}
	return fmt.Sprintf("Folder: %s\nQuestion: %s", folder, q)
}

// chunk streams a piece of the answer.
func (r *runner) chunk(s string) error {
	if s == "" {
		return nil
	}
	r.answer.WriteString(s)
	return r.o.Emit(Event{Type: TypeChunk, Content: s})
}

// bestSoFar writes the answer when a budget stopped the run: the model's
// answer without tools when there is time for one more turn, else (or when
// that fails) an extract of the evidence found.
func (r *runner) bestSoFar(ctx context.Context, d driver, stop Stop) error {
	if stop != StopTime && ctx.Err() == nil && r.answer.Len() == 0 {
		if err := d.final(ctx, stop, r.chunk); err == nil && r.answer.Len() > 0 {
			return nil
		}
	}
	if r.answer.Len() > 0 {
		return nil
	}
	r.extract = true
	return r.extractAnswer(context.WithoutCancel(ctx), offline.New())
}

// extractAnswer streams the best sentences of the evidence, citing [n].
func (r *runner) extractAnswer(ctx context.Context, p ai.Provider) error {
	if len(r.evidence) == 0 {
		return r.chunk(i18n.T(r.o.Lang, "agent.no_evidence"))
	}
	in := ai.AnswerInput{Question: r.o.Question, Lang: r.o.Lang}
	for i, e := range r.evidence {
		in.Contexts = append(in.Contexts, ai.AnswerContext{Ref: i + 1, FileName: e.Name, Page: e.Page, Text: e.Text})
	}
	return ai.Answer(ctx, p, in, r.chunk)
}

var citeRef = regexp.MustCompile(`\[[Ee]?(\d{1,4})\]`)

// finish emits the evidence (cited first, then the rest, at most
// MaxEvidence) and the done event.
func (r *runner) finish(stop Stop, msg string) (Result, error) {
	answer := r.answer.String()
	var order []int
	seen := map[int]bool{}
	for _, m := range citeRef.FindAllStringSubmatch(answer, -1) {
		n, _ := strconv.Atoi(m[1])
		if n >= 1 && n <= len(r.evidence) && !seen[n] {
			seen[n] = true
			order = append(order, n)
		}
	}
	for n := 1; n <= len(r.evidence); n++ {
		if !seen[n] {
			order = append(order, n)
		}
	}
	var res Result
	for _, n := range order {
		if len(res.Evidence) == r.b.Limits.MaxEvidence {
			break
		}
		e := r.evidence[n-1]
		res.Evidence = append(res.Evidence, e)
		if err := r.o.Emit(Event{Type: TypeEvidence, Ref: n, Evidence: &e}); err != nil {
			return Result{}, err
		}
	}
	h := sha256.Sum256([]byte(r.o.Question + "\x00" + r.o.Folder + "\x00" + answer))
	res.Done = Event{
		Type: TypeDone, ResultID: "agent-" + hex.EncodeToString(h[:8]), Answer: answer, Provider: r.o.Provider.Name(),
		Extractive: r.extract, StoppedBy: string(stop), Message: msg, Steps: r.b.Steps, ToolCalls: r.b.Total,
	}
	return res, r.o.Emit(res.Done)
}

// ---------------------------------------------------------------- drivers

// driver is who chooses the tools: the model, or the offline Plan.
type driver interface {
	// turn returns the calls of the next turn (none: the answer was written
	// through chunk).
	turn(ctx context.Context, chunk func(string) error) ([]ai.ToolCall, error)
	// observe receives the outcome of each call of the turn, in order.
	observe(calls []ai.ToolCall, outs []toolOut)
	// final writes the best answer without tools when a budget stops the run.
	final(ctx context.Context, stop Stop, chunk func(string) error) error
}

// llmDriver keeps the main agent's conversation.
type llmDriver struct {
	r    *runner
	tc   ai.ToolCaller
	msgs []ai.Message
}

func (d *llmDriver) turn(ctx context.Context, chunk func(string) error) ([]ai.ToolCall, error) {
	rep, _, err := d.r.modelTurn(ctx, d.tc, ai.Request{System: systemMain, Messages: d.msgs, Tools: d.r.tools, ToolChoice: ai.ToolChoiceAuto}, chunk)
	if err != nil {
		return nil, err
	}
	if len(rep.ToolCalls) > 0 {
		d.msgs = append(d.msgs, rep.Message())
	}
	return rep.ToolCalls, nil
}

func (d *llmDriver) observe(calls []ai.ToolCall, outs []toolOut) {
	for i, c := range calls {
		d.msgs = append(d.msgs, ai.ToolResult(c.ID, outs[i].content))
	}
}

func (d *llmDriver) final(ctx context.Context, stop Stop, chunk func(string) error) error {
	msgs := append(d.msgs[:len(d.msgs):len(d.msgs)], ai.Message{Role: ai.RoleUser, Content: fmt.Sprintf(finalNudge, stop)})
	_, _, err := d.r.modelTurn(ctx, d.tc, ai.Request{System: systemMain, Messages: msgs, Tools: d.r.tools, ToolChoice: ai.ToolChoiceNone}, chunk)
	return err
}

// modelTurn runs one streamed turn, handing text to onText (nil: kept
// silent), and charges its tokens, which it returns: the provider's usage
// when reported, else the Counter's count of the request and the reply.
func (r *runner) modelTurn(ctx context.Context, tc ai.ToolCaller, req ai.Request, onText func(string) error) (ai.Reply, int, error) {
	var rep ai.Reply
	var text strings.Builder
	ended := false
	for ev, err := range tc.StreamTools(ctx, req) {
		if err != nil {
			return rep, 0, err
		}
		switch ev.Kind {
		case ai.EventText:
			text.WriteString(ev.Text)
			if onText != nil {
				if err := onText(ev.Text); err != nil {
					return rep, 0, err
				}
			}
		case ai.EventToolCall:
			rep.ToolCalls = append(rep.ToolCalls, ev.ToolCall)
		case ai.EventUsage:
			rep.Usage = ev.Usage
		case ai.EventEnd:
			rep.FinishReason, ended = ev.FinishReason, true
		}
	}
	rep.Text = text.String()
	if !ended {
		return rep, 0, ai.ErrIncompleteStream
	}
	n := rep.Usage.PromptTokens + rep.Usage.CompletionTokens
	if n == 0 {
		n = r.countRequest(req) + r.o.Counter.Count(rep.Text)
		for _, c := range rep.ToolCalls {
			n += r.o.Counter.Count(c.Arguments) + 4
		}
	}
	r.mu.Lock()
	r.b.Spend(n)
	r.mu.Unlock()
	return rep, n, nil
}

func (r *runner) countRequest(req ai.Request) int {
	n := r.o.Counter.Count(req.System)
	for _, m := range req.Messages {
		n += 4 + r.o.Counter.Count(m.Content)
		for _, c := range m.ToolCalls {
			n += 4 + r.o.Counter.Count(c.Arguments)
		}
	}
	if len(req.Tools) > 0 {
		b, _ := json.Marshal(req.Tools)
		n += r.o.Counter.Count(string(b))
	}
	return n
}

// planDriver runs the offline Plan.
type planDriver struct {
	r    *runner
	plan *Plan
}

func (d *planDriver) turn(ctx context.Context, chunk func(string) error) ([]ai.ToolCall, error) {
	if calls := d.plan.Next(); len(calls) > 0 {
		return calls, nil
	}
	return nil, d.r.extractAnswer(ctx, d.r.o.Provider)
}

func (d *planDriver) observe(calls []ai.ToolCall, outs []toolOut) {
	for i, c := range calls {
		d.plan.Observe(c.Name, outs[i].docs)
	}
}

func (d *planDriver) final(ctx context.Context, _ Stop, _ func(string) error) error {
	return d.r.extractAnswer(ctx, d.r.o.Provider)
}

// ---------------------------------------------------------------- tool calls

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
