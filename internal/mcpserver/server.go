// Package mcpserver is `gds mcp`: gds as a Model Context Protocol server.
// It exposes three tools over the official Go SDK — search (the hybrid
// loop, non-interactive: a clarifying question comes back as a structured
// result with a state token the client answers), ask (a cited answer) and
// get_file (one indexed file's metadata, summary and text) — each with an
// input schema and structured output derived from the types below. The
// handlers only translate MCP ⇄ internal/app; every failure takes its MCP
// form from apperr.MCP (a JSON-RPC invalid-params error for bad input, a
// tool result with isError otherwise).
package mcpserver

import (
	"context"
	"errors"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render"
)

// Backend is what the tools call: the application layer (*app.Deps).
type Backend interface {
	Search(ctx context.Context, req app.SearchRequest) (app.SearchResult, error)
	Ask(ctx context.Context, req app.AskRequest) (app.AskResult, error)
	GetFile(ctx context.Context, id string, maxChars int) (app.FileDetail, error)
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
			"passages, get_file to read one file found.",
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
	return s
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
	res, err := h.b.Ask(ctx, app.AskRequest{RetrieveRequest: app.RetrieveRequest{Query: in.Question, TopK: in.TopK, ScoreThreshold: in.ScoreThreshold, Folder: in.Folder}})
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
		ModifiedTime: mod, Path: f.Path, Size: f.Size, Source: f.Source, Text: fd.Text, Truncated: fd.Truncated, Chunks: fd.Chunks}, nil
}

// fail turns err into its MCP form: a JSON-RPC error for invalid
// parameters, else an error the SDK reports as a tool result with isError
// and the localized message and hint as text.
func (h handlers) fail(err error) error {
	m := apperr.MCP(err, h.lang)
	if m.Protocol {
		return &jsonrpc.Error{Code: int64(m.Code), Message: m.Text}
	}
	return errors.New(m.Text)
}
