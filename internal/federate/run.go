package federate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/i18n"
)

// Service is one connected MCP server, as the orchestration sees it
// (federate/mcphost implements it over a stdio session).
type Service interface {
	// Search calls the server's search tool with args.
	Search(ctx context.Context, tool string, args map[string]any) (ToolOutput, error)
	// Fetch reads one body with a tool call or a resource read.
	Fetch(ctx context.Context, call FetchCall) (ToolOutput, error)
}

// Endpoint is a server's configuration and its connection (nil Service
// with Err when it could not be started).
type Endpoint struct {
	Server  Server
	Service Service
	Err     error
	Warning string // e.g. "SLACK_MCP_XOXP_TOKEN is not set: using the mock"
}

// Event is a progress report.
type Event struct {
	Server string `json:"server,omitempty"`
	Stage  string `json:"stage"` // queries, searching, found, failed, reading, read, summarizing, text
	Count  int    `json:"count,omitempty"`
	Text   string `json:"text,omitempty"`
}

// Tracer receives every LLM exchange (--debug); nil traces nothing.
type Tracer interface {
	Trace(kind string, v any)
}

// Runner runs questions over the endpoints.
type Runner struct {
	Endpoints []Endpoint
	AI        ai.Provider
	Lang      string
	Now       func() time.Time
	// SearchTimeout and FetchTimeout bound each call (0: 30 s and 20 s).
	SearchTimeout time.Duration
	FetchTimeout  time.Duration
	// Parallel bounds the body reads in flight (0: 4).
	Parallel int
	OnEvent  func(Event)
	Trace    Tracer
}

// ServiceResult is one service's part of an answer.
type ServiceResult struct {
	Server      string   `json:"server"`
	Kind        string   `json:"kind"`
	Query       string   `json:"query"`
	Status      Status   `json:"status"`
	Warning     string   `json:"warning,omitempty"`
	Found       int      `json:"found"`
	Results     []Hit    `json:"results"`
	Suggestions []string `json:"suggestions,omitempty"` // alternative queries after zero hits (not run)
	Mock        bool     `json:"mock"`
}

// Result is one answered question.
type Result struct {
	Question string          `json:"question"`
	Queries  []Query         `json:"queries"`
	Services []ServiceResult `json:"services"`
	Summary  string          `json:"summary"`
	Provider string          `json:"provider"`
	// Extractive is true when the summary is sentences picked from the
	// bodies (the offline provider), not written by a model.
	Extractive bool     `json:"extractive"`
	Sources    []Source `json:"sources"`
	Warnings   []string `json:"warnings"`
}

// t is a message in the runner's language.
func (r *Runner) t(key i18n.Key, args ...any) string { return i18n.T(r.Lang, key, args...) }

func (r *Runner) emit(e Event) {
	if r.OnEvent != nil {
		r.OnEvent(e)
	}
}

func (r *Runner) trace(kind string, v any) {
	if r.Trace != nil {
		r.Trace.Trace(kind, v)
	}
}

// Run answers one question: queries, parallel searches, selection,
// parallel body reads, the summary (streamed as text events), sources.
func (r *Runner) Run(ctx context.Context, question string) (Result, error) {
	question = strings.TrimSpace(question)
	res := Result{Question: question, Provider: r.AI.Name(), Warnings: []string{}, Sources: []Source{}}
	servers := make([]Server, len(r.Endpoints))
	for i, e := range r.Endpoints {
		servers[i] = e.Server
	}
	terms, llmQueries, warn := r.generate(ctx, question, servers)
	if warn != "" {
		res.Warnings = append(res.Warnings, warn)
	}
	res.Queries = PlanQueries(servers, terms, llmQueries)
	r.emit(Event{Stage: "queries"})

	// Searches: one per service, all in parallel.
	order := make([]string, len(r.Endpoints))
	found := map[string][]Hit{}
	results := make([]ServiceResult, len(r.Endpoints))
	var (
		wg sync.WaitGroup
		mu sync.Mutex
	)
	for i, e := range r.Endpoints {
		order[i] = e.Server.Name
		results[i] = ServiceResult{Server: e.Server.Name, Kind: e.Server.Kind, Query: res.Queries[i].Query, Warning: e.Warning, Results: []Hit{}}
		wg.Add(1)
		go func() {
			defer wg.Done()
			hits, err := r.search(ctx, e, res.Queries[i].Query)
			sr := &results[i]
			sr.Found = len(hits)
			sr.Status = StatusOf(err, len(hits))
			if err != nil {
				sr.Warning = joinWarn(sr.Warning, r.failText(sr.Status, err))
				r.emit(Event{Server: e.Server.Name, Stage: "failed", Text: sr.Warning})
				return
			}
			if len(hits) == 0 {
				sr.Suggestions = Suggest(e.Server.Kind, terms, e.Server.Qualifiers)
			}
			r.emit(Event{Server: e.Server.Name, Stage: "found", Count: len(hits)})
			hits = DedupeByFetch(e.Server, hits)
			hits = hits[:min(len(hits), PerService)]
			mu.Lock()
			found[e.Server.Name] = hits
			mu.Unlock()
		}()
	}
	wg.Wait()
	sel := Select(order, found, PerService, MaxTotal)

	// Bodies: every selected hit read in parallel, Parallel at a time.
	r.fetchAll(ctx, order, sel)
	for i := range results {
		results[i].Results = append(results[i].Results, sel[results[i].Server]...)
		if results[i].Warning != "" {
			res.Warnings = append(res.Warnings, results[i].Server+": "+results[i].Warning)
		}
	}
	res.Services = results
	res.Sources = BuildSources(order, sel)
	if len(res.Sources) == 0 {
		return res, ctx.Err()
	}

	// Summary from the bodies (snippets where a body is missing).
	in := ai.AnswerInput{Question: question, Lang: r.Lang}
	for _, s := range res.Sources {
		h := sel[s.Server][indexIn(res.Sources, s)]
		text := h.Body
		if text == "" {
			text = h.Snippet
		}
		in.Contexts = append(in.Contexts, ai.AnswerContext{Ref: s.N, FileName: s.Server + ": " + s.Title, Text: ai.Truncate(text, 4000)})
	}
	r.emit(Event{Stage: "summarizing"})
	r.trace("llm_request", map[string]any{"task": "answer", "input": in})
	var b strings.Builder
	err := ai.Answer(ctx, r.AI, in, func(piece string) error {
		b.WriteString(piece)
		r.emit(Event{Stage: "text", Text: piece})
		return nil
	})
	res.Summary = b.String()
	res.Extractive = r.AI.Name() == "offline"
	r.trace("llm_response", map[string]any{"task": "answer", "text": res.Summary, "error": errText(err)})
	return res, err
}

// indexIn is the position of s among the sources of its server.
func indexIn(all []Source, s Source) int {
	i := 0
	for _, x := range all {
		if x.N == s.N {
			return i
		}
		if x.Server == s.Server {
			i++
		}
	}
	return i
}

func (r *Runner) search(ctx context.Context, e Endpoint, query string) ([]Hit, error) {
	if e.Service == nil {
		err := e.Err
		if err == nil {
			err = ErrUnavailable
		}
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	if strings.TrimSpace(query) == "" {
		return nil, nil
	}
	r.emit(Event{Server: e.Server.Name, Stage: "searching", Text: query})
	args := map[string]any{}
	for k, v := range e.Server.Search.Args {
		args[k] = v
	}
	args[e.Server.Search.QueryArg] = query
	if e.Server.Search.LimitArg != "" {
		args[e.Server.Search.LimitArg] = PerService
	}
	ctx, cancel := context.WithTimeout(ctx, or(e.Server.Timeout, or(r.SearchTimeout, 30*time.Second)))
	defer cancel()
	out, err := e.Service.Search(ctx, e.Server.Search.Tool, args)
	if err != nil {
		return nil, err
	}
	return ParseHits(e.Server, out)
}

func (r *Runner) fetchAll(ctx context.Context, order []string, sel map[string][]Hit) {
	byName := map[string]Endpoint{}
	for _, e := range r.Endpoints {
		byName[e.Server.Name] = e
	}
	// A fetch that fails warns on its hit and the others go on: no error
	// stops the group, so it needs no context of its own.
	var g errgroup.Group
	g.SetLimit(or(r.Parallel, 4))
	for _, name := range order {
		e := byName[name]
		hits := sel[name]
		if len(hits) > 0 {
			r.emit(Event{Server: name, Stage: "reading", Count: len(hits)})
		}
		for i := range hits {
			call, ok := FetchFor(e.Server, hits[i])
			if !ok {
				hits[i].BodyWarning = r.t("federate.w.no_fetch", hits[i].Kind)
				continue
			}
			g.Go(func() error {
				if err := ctx.Err(); err != nil {
					hits[i].BodyWarning = r.t("federate.w.not_read", err.Error())
					return nil
				}
				fctx, cancel := context.WithTimeout(ctx, or(e.Server.Timeout, or(r.FetchTimeout, 20*time.Second)))
				defer cancel()
				out, err := e.Service.Fetch(fctx, call)
				body := BodyOf(out)
				switch {
				case err != nil:
					hits[i].BodyWarning = r.t("federate.w.body_failed", string(StatusOf(err, 1)))
				case strings.TrimSpace(body) == "":
					hits[i].BodyWarning = r.t("federate.w.body_empty")
				default:
					hits[i].Body = body
				}
				return nil
			})
		}
	}
	_ = g.Wait() // every fetch reports on its own hit
}

func (r *Runner) failText(st Status, err error) string {
	switch st {
	case StatusRateLimited:
		return r.t("federate.w.rate_limited")
	case StatusTimeout:
		return r.t("federate.w.timeout")
	case StatusUnavailable:
		return r.t("federate.w.unavailable", MaskSecrets(err.Error()))
	}
	return r.t("federate.w.failed", MaskSecrets(err.Error()))
}

func joinWarn(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TaskQueries is the structured LLM task that writes the per-service queries.
const TaskQueries ai.Task = "federate_queries"

// QueriesOutput is the model's reply to TaskQueries.
type QueriesOutput struct {
	Terms   []QueryTerm   `json:"terms"`
	After   string        `json:"after"`
	Queries []ServerQuery `json:"queries"`
}

// QueryTerm is one key term of QueriesOutput with its synonyms.
type QueryTerm struct {
	Word     string   `json:"word"`
	Synonyms []string `json:"synonyms"`
}

// ServerQuery is one server's query of QueriesOutput.
type ServerQuery struct {
	Server string `json:"server"`
	Query  string `json:"query"`
}

// SchemaQueries is TaskQueries' strict json_schema.
var SchemaQueries = &ai.Schema{Name: "federated_queries", Schema: map[string]any{
	"type": "object", "additionalProperties": false, "required": []string{"terms", "after", "queries"},
	"properties": map[string]any{
		"terms": map[string]any{"type": "array", "items": map[string]any{
			"type": "object", "additionalProperties": false, "required": []string{"word", "synonyms"},
			"properties": map[string]any{"word": map[string]any{"type": "string"}, "synonyms": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
		}},
		"after": map[string]any{"type": "string", "description": "YYYY-MM-DD lower date bound, or empty"},
		"queries": map[string]any{"type": "array", "items": map[string]any{
			"type": "object", "additionalProperties": false, "required": []string{"server", "query"},
			"properties": map[string]any{"server": map[string]any{"type": "string"}, "query": map[string]any{"type": "string"}},
		}},
	},
}}

const promptQueries = `You write search queries; you do not answer. From the user's question, extract 1-4 key
terms, each with up to 3 synonyms or related words (other languages and spellings welcome), an optional
lower date bound (YYYY-MM-DD, resolved against "now"), and one query per server in that server's syntax:
slack: Slack search modifiers (in:#channel, from:@user, after:YYYY-MM-DD); Slack has no OR, use the
most likely words. github: GitHub issue search ((a OR b) is:issue repo:owner/name created:>=DATE).
drive: plain keywords. files: a glob such as **/*word*. Use OR-expanded synonyms where the syntax allows.`

// QueriesInput is what the model is given for TaskQueries (the user
// message is its JSON).
type QueriesInput struct {
	Question string              `json:"question"`
	Now      string              `json:"now"`
	Servers  []map[string]string `json:"servers"`
}

// generate turns the question into terms and, with a model, per-server
// queries. The offline provider (no structured task for this) gives its
// keyword analysis; a failed model call falls back to it with a warning.
func (r *Runner) generate(ctx context.Context, question string, servers []Server) (Terms, map[string]string, string) {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	if r.AI.Name() != "offline" {
		in := QueriesInput{Question: question, Now: now().Format("2006-01-02")}
		for _, s := range servers {
			in.Servers = append(in.Servers, map[string]string{"server": s.Name, "kind": s.Kind, "qualifiers": s.Qualifiers})
		}
		user, _ := json.Marshal(in)
		req := ai.Request{Task: TaskQueries, System: promptQueries, Schema: SchemaQueries, Input: in,
			Messages: []ai.Message{{Role: ai.RoleUser, Content: string(user)}}}
		r.trace("llm_request", map[string]any{"task": TaskQueries, "input": in})
		raw, err := r.AI.Structured(ctx, req)
		r.trace("llm_response", map[string]any{"task": TaskQueries, "output": json.RawMessage(orNull(raw)), "error": errText(err)})
		var out QueriesOutput
		if err == nil {
			err = json.Unmarshal(raw, &out)
		}
		if err == nil && len(out.Terms) > 0 {
			t := Terms{After: validDate(out.After)}
			for _, term := range out.Terms {
				t.Groups = append(t.Groups, append([]string{term.Word}, term.Synonyms...))
			}
			qs := map[string]string{}
			for _, q := range out.Queries {
				qs[q.Server] = q.Query
			}
			return t, qs, ""
		}
		if err == nil {
			err = errors.New("no terms")
		}
		t, _ := r.offlineTerms(ctx, question, now())
		return t, nil, r.t("federate.w.model_failed", MaskSecrets(err.Error()))
	}
	t, err := r.offlineTerms(ctx, question, now())
	if err != nil {
		return t, nil, r.t("federate.w.keywords_failed", err.Error())
	}
	return t, nil, ""
}

// offlineTerms are the question's keywords by the offline provider's
// query analysis (kagome morphology and rules: deterministic, no second
// model call after a failed one), one group each with its Variants (no
// synonyms are invented offline), and the period's lower bound.
func (r *Runner) offlineTerms(ctx context.Context, question string, now time.Time) (Terms, error) {
	qa, err := ai.AnalyzeQuery(ctx, offline.New(), ai.QueryInput{Query: question, Now: now, Lang: r.Lang})
	if err != nil || len(qa.Keywords) == 0 {
		var t Terms
		for _, w := range strings.Fields(question) {
			t.Groups = append(t.Groups, []string{w})
		}
		return t, err
	}
	t := Terms{After: validDate(qa.Filters.ModifiedAfter)}
	for _, k := range qa.Keywords {
		t.Groups = append(t.Groups, append([]string{k}, Variants(k)...))
	}
	return t, nil
}

// OfflineQueries is the offline provider's answer to TaskQueries: the
// question's keywords by its query analysis, each with its Variants as
// synonyms (at most three), the period's lower bound, and each server's
// query built from them by BuildQuery. The OpenAI emulator answers the
// task with it.
func OfflineQueries(ctx context.Context, in QueriesInput, lang string) (QueriesOutput, error) {
	now, err := time.Parse("2006-01-02", in.Now)
	if err != nil {
		now = time.Now()
	}
	r := &Runner{Lang: lang}
	t, err := r.offlineTerms(ctx, in.Question, now)
	if err != nil {
		return QueriesOutput{}, err
	}
	out := QueriesOutput{After: t.After}
	out.Terms = []QueryTerm{}
	for _, g := range t.Groups {
		if len(g) == 0 {
			continue
		}
		syn := g[1:min(len(g), 4)]
		out.Terms = append(out.Terms, QueryTerm{Word: g[0], Synonyms: append([]string{}, syn...)})
	}
	out.Queries = []ServerQuery{}
	for _, s := range in.Servers {
		out.Queries = append(out.Queries, ServerQuery{Server: s["server"], Query: BuildQuery(s["kind"], t, s["qualifiers"])})
	}
	return out, nil
}

func validDate(s string) string {
	if _, err := time.Parse("2006-01-02", s); err != nil {
		return ""
	}
	return s
}

func orNull(b []byte) []byte {
	if len(b) == 0 {
		return []byte("null")
	}
	return b
}
