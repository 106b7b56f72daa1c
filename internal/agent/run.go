package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"iter"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
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

	d := r.newDriver(rctx)
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

// answerLang is the language of the answer's own words: the question's
// when it is clearly Japanese or English, else the interface language (as
// ai.Answer decides it).
func (r *runner) answerLang() string { return i18n.ForText(r.o.Question, r.o.Lang) }

// extractAnswer streams the best sentences of the evidence, citing [n].
func (r *runner) extractAnswer(ctx context.Context, p ai.Provider) error {
	if len(r.evidence) == 0 {
		return r.chunk(i18n.T(r.answerLang(), "agent.no_evidence"))
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
	rep, err := ai.Collect(tapText(tc.StreamTools(ctx, req), onText))
	if err != nil {
		return rep, 0, err
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

// newDriver is the model's tool loop when the provider calls tools, else
// the fixed plan over the question's keywords (its text extracted).
func (r *runner) newDriver(ctx context.Context) driver {
	o := r.o
	if tc, ok := o.Provider.(ai.ToolCaller); ok {
		return &llmDriver{r: r, tc: tc, msgs: []ai.Message{{Role: ai.RoleUser, Content: userPrompt(o.Question, o.Folder)}}}
	}
	kw := []string{o.Question}
	if qa, err := ai.AnalyzeQuery(ctx, o.Provider, ai.QueryInput{Query: o.Question, Now: o.Now(), Lang: o.Lang}); err == nil && len(qa.Keywords) > 0 {
		kw = qa.Keywords
	}
	r.extract = true
	return &planDriver{r: r, plan: &Plan{Question: o.Question, Folder: o.Folder, Keywords: kw, Attachments: len(o.Tags) > 0}}
}

// tapText hands the text of each text event to onText (nil: none) as it
// passes; an error of onText ends the stream with that error.
func tapText(events iter.Seq2[ai.Event, error], onText func(string) error) iter.Seq2[ai.Event, error] {
	return func(yield func(ai.Event, error) bool) {
		for ev, err := range events {
			if err == nil && ev.Kind == ai.EventText && onText != nil {
				if err := onText(ev.Text); err != nil {
					yield(ai.Event{}, err)
					return
				}
			}
			if !yield(ev, err) {
				return
			}
		}
	}
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
