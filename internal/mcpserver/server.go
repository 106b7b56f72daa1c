// Package mcpserver is `gds mcp`: gds as a Model Context Protocol server.
// It exposes five tools over the official Go SDK — search (the hybrid
// loop, non-interactive: a clarifying question comes back as a structured
// result with a state token the client answers), ask (a cited answer),
// get_file (one indexed file's metadata, summary and text), graph_query
// (GraphRAG over the entity graph: global, local or drift, with its
// references) and federate (an index-free search across the configured
// services) — each with an input schema and structured output derived
// from the types below (the JSON the CLI's --json prints). The handlers
// only translate MCP ⇄ internal/app; every failure takes its MCP form from
// apperr.MCP (a JSON-RPC invalid-params error for bad input, a tool result
// with isError otherwise). The new tools' errors are phrased for the
// calling agent: they name the tool's parameters, never a CLI flag, and
// say when only the user can act (agentError).
package mcpserver

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/federate"
	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/store"
)

// Backend is what the tools call: the application layer (*app.Deps).
type Backend interface {
	Search(ctx context.Context, req app.SearchRequest) (app.SearchResult, error)
	Ask(ctx context.Context, req app.AskRequest) (app.AskResult, error)
	GetFile(ctx context.Context, id string, maxChars int) (app.FileDetail, error)
	GraphQuery(ctx context.Context, q graph.Query) (graph.Result, error)
	Federate(ctx context.Context, req app.FederateRequest) (federate.Result, error)
}

// Options configure the server.
type Options struct {
	Version string
	Lang    string // language of error messages and search end messages
}

// SearchInput is the search tool's input.
type SearchInput struct {
	Query  string `json:"query,omitempty" jsonschema:"what to look for, in natural language (a new search)"`
	State  string `json:"state,omitempty" jsonschema:"the state token of an earlier result whose end was question, to answer it"`
	Answer string `json:"answer,omitempty" jsonschema:"the answer to the pending question: a choice number (1-based) or free text; needs state"`
	Folder string `json:"folder,omitempty" jsonschema:"limit a new search to this folder path and its subfolders"`
	Limit  int    `json:"limit,omitempty" jsonschema:"at most this many results (default 10)"`
	// NoQuestions: for clients that cannot put a question to a person.
	NoQuestions bool `json:"no_questions,omitempty" jsonschema:"never stop on a clarifying question: continue as if it went unanswered"`
}

// AskInput is the ask tool's input.
type AskInput struct {
	Question       string  `json:"question" jsonschema:"the question to answer from the indexed documents"`
	Folder         string  `json:"folder,omitempty" jsonschema:"only use documents in this folder path and its subfolders"`
	TopK           int     `json:"top_k,omitempty" jsonschema:"number of passages to answer from (default 5, at most 20)"`
	ScoreThreshold float64 `json:"score_threshold,omitempty" jsonschema:"drop passages scoring below this (0-1)"`
}

// GetFileInput is the get_file tool's input.
type GetFileInput struct {
	ID       string `json:"id" jsonschema:"the file ID from a search or ask result"`
	MaxChars int    `json:"max_chars,omitempty" jsonschema:"return at most this many characters of text (default 20000)"`
}

// GraphQueryInput is the graph_query tool's input; omitted parameters take
// GraphRAG's defaults.
type GraphQueryInput struct {
	Question         string  `json:"question" jsonschema:"the question to answer from the entity graph of the indexed documents"`
	Mode             string  `json:"mode,omitempty" jsonschema:"global (default): themes across all documents, from the community reports; local: about named entities, from their neighbourhood and source passages; drift: local answers guided by the reports, with follow-up questions"`
	ResponseType     string  `json:"response_type,omitempty" jsonschema:"the form of the answer, e.g. multiple paragraphs (default), single paragraph, list of 3-7 points"`
	CommunityLevel   *int    `json:"community_level,omitempty" jsonschema:"the community hierarchy level to read reports from, 0 or more (default 2)"`
	MinCommunityRank float64 `json:"min_community_rank,omitempty" jsonschema:"skip community reports ranked below this, 0-10 (default 0)"`
	MaxContextTokens int     `json:"max_context_tokens,omitempty" jsonschema:"the context budget per model call, at least 500 (default 12000)"`
}

// FederateInput is the federate tool's input.
type FederateInput struct {
	Question string `json:"question" jsonschema:"what to look for across the configured services (Drive, Slack, GitHub, files)"`
	Mock     bool   `json:"mock,omitempty" jsonschema:"search the built-in mock services instead of the real ones (for trying the tool)"`
}

// FileOutput is the get_file tool's output.
type FileOutput struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Summary      string   `json:"summary"`
	Keywords     []string `json:"keywords"`
	Link         string   `json:"link"`
	MimeType     string   `json:"mime_type"`
	ModifiedTime string   `json:"modified_time" jsonschema:"RFC 3339, UTC"`
	Path         string   `json:"path" jsonschema:"the folder the file is in"`
	Size         int64    `json:"size"`
	Source       string   `json:"source" jsonschema:"drive or local (or upload)"`
	Account      string   `json:"account,omitempty" jsonschema:"a Google Drive file's Google account: default, or the NAME of gds auth login --account NAME"`
	Text         string   `json:"text" jsonschema:"the indexed text of the file"`
	Truncated    bool     `json:"truncated" jsonschema:"true when text was cut at max_chars"`
	Chunks       int      `json:"chunks"`
}

// DefaultSearchLimit is the number of results search returns by default.
const DefaultSearchLimit = 10

// New builds the MCP server over b.
func New(b Backend, o Options) *mcp.Server {
	if o.Lang == "" {
		o.Lang = i18n.En
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "gds", Title: "gds document search", Version: o.Version}, &mcp.ServerOptions{
		Instructions: "gds searches an index of Google Drive or local documents. Use search to find files (answer a " +
			"question result by calling search again with its state and your answer), ask for an answer citing " +
			"passages, get_file to read one file found, graph_query for questions about themes and entities across " +
			"the documents (once the user has built the graph), federate to search Slack, GitHub and Drive directly.",
	})
	h := handlers{b: b, lang: o.Lang}
	mcp.AddTool(s, &mcp.Tool{
		Name:  "search",
		Title: "Search documents",
		Description: "Find files in the gds index with the hybrid loop (keywords, filters, AI refinement). " +
			"end is results, not_found, loop_limit or question; on question, call search again with state and answer (a choice number or text).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, h.search)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "ask",
		Title:       "Ask the documents",
		Description: "Answer a question from the indexed documents, citing passages as [n] (sources[n-1]). extractive is true when the answer is extracted sentences (offline provider), not model-written.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, h.ask)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "get_file",
		Title:       "Read one indexed file",
		Description: "Metadata, AI summary and indexed text of one file, by the id a search or ask result gave.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, h.getFile)
	mcp.AddTool(s, &mcp.Tool{
		Name:  "graph_query",
		Title: "Ask the entity graph (GraphRAG)",
		Description: "Answer a question from the entity graph of the indexed documents (GraphRAG): mode global for themes across " +
			"all documents, local for named entities, drift for local answers guided by community reports. references " +
			"name the reports, entities, chunks and documents the answer comes from; extractive is true for the offline " +
			"provider's extract; no_data is true when nothing relevant was found.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, h.graphQuery)
	mcp.AddTool(s, &mcp.Tool{
		Name:  "federate",
		Title: "Search Slack, GitHub and Drive directly",
		Description: "Search the services configured for gds federate (Slack, GitHub, Drive, files) without the index: " +
			"per-service queries, at most 3 results each, bodies read, a summary citing sources as [n]. A service that fails " +
			"is reported in services[].status and the others still answer. Starts the services' MCP servers for the call (seconds).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(true)},
	}, h.federate)
	return s
}

func ptr[T any](v T) *T { return &v }

// agentError is an error phrased for the calling agent: its message names
// the tool's parameter to change, or what only the user can do, so no CLI
// hint follows it.
type agentError struct{ *apperr.Localized }

// Hint implements apperr.Hinter: none.
func (agentError) Hint(string) string { return "" }

// graphModes are graph_query's modes.
var graphModes = []string{graph.ModeGlobal, graph.ModeLocal, graph.ModeDrift}

// graphQuery checks in (errors name the tool's parameters) and builds the
// query with GraphRAG's defaults for what is omitted.
func graphQuery(in GraphQueryInput) (graph.Query, error) {
	q := graph.Query{Question: strings.TrimSpace(in.Question), Mode: strings.ToLower(strings.TrimSpace(in.Mode)), Params: graph.DefaultParams()}
	if q.Mode == "" {
		q.Mode = graph.ModeGlobal
	}
	switch {
	case q.Question == "":
		return q, agentError{apperr.L(apperr.Usage, "mcp.no_question")}
	case !slices.Contains(graphModes, q.Mode):
		return q, agentError{apperr.L(apperr.Usage, "mcp.graph.bad_mode", in.Mode)}
	case in.CommunityLevel != nil && *in.CommunityLevel < 0:
		return q, agentError{apperr.L(apperr.Usage, "mcp.graph.bad_level", *in.CommunityLevel)}
	case in.MinCommunityRank < 0 || in.MinCommunityRank > 10:
		return q, agentError{apperr.L(apperr.Usage, "mcp.graph.bad_rank", in.MinCommunityRank)}
	case in.MaxContextTokens != 0 && in.MaxContextTokens < graph.MinContextTokens:
		return q, agentError{apperr.L(apperr.Usage, "mcp.graph.bad_tokens", in.MaxContextTokens, graph.MinContextTokens)}
	}
	if in.CommunityLevel != nil {
		q.CommunityLevel = *in.CommunityLevel
	}
	q.MinCommunityRank = in.MinCommunityRank
	if in.MaxContextTokens > 0 {
		q.MaxContextTokens = in.MaxContextTokens
	}
	if rt := strings.TrimSpace(in.ResponseType); rt != "" {
		q.ResponseType = rt
	}
	return q, nil
}

type handlers struct {
	b    Backend
	lang string
}

func (h handlers) search(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, render.SearchDoc, error) {
	res, err := h.b.Search(ctx, app.SearchRequest{Query: in.Query, State: in.State, Answer: in.Answer, Folder: in.Folder, NoQuestions: in.NoQuestions})
	if err != nil {
		return nil, render.SearchDoc{}, h.fail(err)
	}
	limit := in.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	return nil, render.NewSearchDoc(res.Outcome, res.Token, limit, h.lang), nil
}

func (h handlers) ask(ctx context.Context, _ *mcp.CallToolRequest, in AskInput) (*mcp.CallToolResult, app.AskResult, error) {
	res, err := h.b.Ask(ctx, app.AskRequest{RetrieveRequest: app.RetrieveRequest{Query: in.Question, TopK: in.TopK, ScoreThreshold: in.ScoreThreshold, Folder: in.Folder},
		NoContext: "mcp.no_context"})
	if err != nil {
		return nil, app.AskResult{}, h.fail(err)
	}
	if res.Sources == nil {
		res.Sources = []app.Source{}
	}
	return nil, res, nil
}

func (h handlers) getFile(ctx context.Context, _ *mcp.CallToolRequest, in GetFileInput) (*mcp.CallToolResult, FileOutput, error) {
	fd, err := h.b.GetFile(ctx, in.ID, in.MaxChars)
	if err != nil {
		return nil, FileOutput{}, h.fail(err)
	}
	f := fd.File
	kw := f.Keywords
	if kw == nil {
		kw = []string{}
	}
	mod := ""
	if !f.ModifiedAt.IsZero() {
		mod = f.ModifiedAt.UTC().Format(time.RFC3339)
	}
	return nil, FileOutput{ID: f.ID, Name: f.Name, Summary: f.Summary, Keywords: kw, Link: f.WebLink, MimeType: f.MimeType,
		ModifiedTime: mod, Path: f.Path, Size: f.Size, Source: f.Source, Account: store.DriveAccount(f.Source), Text: fd.Text, Truncated: fd.Truncated, Chunks: fd.Chunks}, nil
}

func (h handlers) graphQuery(ctx context.Context, _ *mcp.CallToolRequest, in GraphQueryInput) (*mcp.CallToolResult, graph.Result, error) {
	q, err := graphQuery(in)
	if err != nil {
		return nil, graph.Result{}, h.fail(err)
	}
	res, err := h.b.GraphQuery(ctx, q)
	if errors.Is(err, graph.ErrNoGraph) {
		err = agentError{apperr.L(apperr.NoIndex, "mcp.graph.missing").Wrap(err)}
	}
	if err != nil {
		return nil, graph.Result{}, h.fail(err)
	}
	return nil, res, nil
}

func (h handlers) federate(ctx context.Context, _ *mcp.CallToolRequest, in FederateInput) (*mcp.CallToolResult, federate.Result, error) {
	q := strings.TrimSpace(in.Question)
	if q == "" {
		return nil, federate.Result{}, h.fail(agentError{apperr.L(apperr.Usage, "mcp.no_question")})
	}
	res, err := h.b.Federate(ctx, app.FederateRequest{Question: q, Mock: in.Mock})
	var ce *app.FederateConfigError
	if errors.As(err, &ce) {
		err = agentError{apperr.L(apperr.Config, "mcp.federate.config", ce.Path, apperr.Message(ce.Err, h.lang)).Wrap(err)}
	}
	if err != nil {
		return nil, federate.Result{}, h.fail(err)
	}
	return nil, res, nil
}

// fail turns err into its MCP form, in the tools' words (agentWording):
// a JSON-RPC error for invalid parameters, else an error the SDK reports
// as a tool result with isError and the localized message and hint as
// text.
func (h handlers) fail(err error) error {
	m := apperr.MCP(agentWording(err), h.lang)
	if m.Protocol {
		return &jsonrpc.Error{Code: int64(m.Code), Message: m.Text}
	}
	return errors.New(m.Text)
}
