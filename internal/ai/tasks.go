package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/i18n"
)

// File types a query may ask for. The empty string means "any".
const (
	FileTypePDF          = "pdf"
	FileTypeDocument     = "document"
	FileTypeSpreadsheet  = "spreadsheet"
	FileTypePresentation = "presentation"
	FileTypeText         = "text"
)

// FileTypes lists the valid non-empty file types.
var FileTypes = []string{FileTypePDF, FileTypeDocument, FileTypeSpreadsheet, FileTypePresentation, FileTypeText}

var mimeTypesByFileType = map[string][]string{
	FileTypePDF: {"application/pdf"},
	FileTypeDocument: {
		"application/vnd.google-apps.document",
		"application/vnd.openxmlformats-officedocument.wordprocessingml.document",
		"application/msword",
		"application/vnd.oasis.opendocument.text",
	},
	FileTypeSpreadsheet: {
		"application/vnd.google-apps.spreadsheet",
		"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
		"application/vnd.ms-excel",
		"text/csv",
	},
	FileTypePresentation: {
		"application/vnd.google-apps.presentation",
		"application/vnd.openxmlformats-officedocument.presentationml.presentation",
		"application/vnd.ms-powerpoint",
	},
	FileTypeText: {"text/plain", "text/markdown", "text/html"},
}

// MimeTypesFor returns the MIME types of a file type (nil for "" or unknown).
func MimeTypesFor(fileType string) []string {
	return slices.Clone(mimeTypesByFileType[fileType])
}

// FileTypeOf returns the file type of a MIME type, or "".
func FileTypeOf(mimeType string) string {
	for _, ft := range FileTypes {
		if slices.Contains(mimeTypesByFileType[ft], mimeType) {
			return ft
		}
	}
	return ""
}

// DateLayout is the format of the dates in Filters.
const DateLayout = "2006-01-02"

// Filters are the period, file-type and folder conditions of a search.
// Dates are YYYY-MM-DD in UTC; ModifiedAfter is inclusive, ModifiedBefore
// exclusive. Folder is a folder path as in HitInfo.Path ("Reports/2024"):
// that folder and everything below it. Empty strings mean "no bound".
type Filters struct {
	ModifiedAfter  string `json:"modified_after"`
	ModifiedBefore string `json:"modified_before"`
	FileType       string `json:"file_type"`
	Folder         string `json:"folder"`
}

// Range parses the period bounds; zero times mean "no bound".
func (f Filters) Range() (after, before time.Time, err error) {
	if f.ModifiedAfter != "" {
		if after, err = time.Parse(DateLayout, f.ModifiedAfter); err != nil {
			return time.Time{}, time.Time{}, fmt.Errorf("modified_after %q: %w", f.ModifiedAfter, err)
		}
	}
	if f.ModifiedBefore != "" {
		if before, err = time.Parse(DateLayout, f.ModifiedBefore); err != nil {
			return time.Time{}, time.Time{}, fmt.Errorf("modified_before %q: %w", f.ModifiedBefore, err)
		}
	}
	return after, before, nil
}

// IsZero reports whether no filter is set.
func (f Filters) IsZero() bool { return f == Filters{} }

// clean drops malformed values so that a model's mistake never becomes an
// invalid search: unknown file types and unparsable or inverted dates.
func (f Filters) clean() Filters {
	f.FileType = strings.ToLower(strings.TrimSpace(f.FileType))
	if !slices.Contains(FileTypes, f.FileType) {
		f.FileType = ""
	}
	a, errA := time.Parse(DateLayout, f.ModifiedAfter)
	if errA != nil {
		f.ModifiedAfter = ""
	}
	b, errB := time.Parse(DateLayout, f.ModifiedBefore)
	if errB != nil {
		f.ModifiedBefore = ""
	}
	if errA == nil && errB == nil && !a.Before(b) {
		f.ModifiedAfter, f.ModifiedBefore = "", ""
	}
	f.Folder = strings.Trim(strings.TrimSpace(f.Folder), "/")
	return f
}

// HitInfo describes a candidate file to the model.
type HitInfo struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Summary  string   `json:"summary"`
	Keywords []string `json:"keywords"`
	MimeType string   `json:"mime_type"`
	Modified string   `json:"modified"` // YYYY-MM-DD
	Path     string   `json:"path,omitempty"`
	Snippet  string   `json:"snippet,omitempty"` // the passage that best matches the query
}

// QueryInput is the input of TaskAnalyzeQuery.
type QueryInput struct {
	Query string    `json:"query"`
	Now   time.Time `json:"now"` // relative periods ("last month") are resolved against it
	Lang  string    `json:"lang"`
}

// QueryAnalysis is the output of TaskAnalyzeQuery.
type QueryAnalysis struct {
	Keywords []string `json:"keywords"` // 1–5, most important first
	Filters  Filters  `json:"filters"`
}

// DocInput is the input of TaskSummarize.
type DocInput struct {
	Name      string `json:"name"`
	MimeType  string `json:"mime_type"`
	Text      string `json:"text"`
	MaxLength int    `json:"max_length"` // summary limit in characters
}

// DocSummary is the output of TaskSummarize.
type DocSummary struct {
	Summary  string   `json:"summary"`
	Keywords []string `json:"keywords"` // 1–5
}

// ClarifyInput is the input of TaskClarify: too many files matched.
type ClarifyInput struct {
	Query    string    `json:"query"`
	Keywords []string  `json:"keywords"`
	Filters  Filters   `json:"filters"`
	Total    int       `json:"total"`
	Hits     []HitInfo `json:"hits"` // the top hits
	Lang     string    `json:"lang"`
	// Facets, when the index can count them, are the numbers of all the
	// hits (not only Hits) by folder, MIME type and month: the file type,
	// period and folder choices are counted over them.
	Facets []FacetCount `json:"facets,omitempty"`
}

// FacetCount is the number of hits sharing one folder path, MIME type and
// month ("2006-01").
type FacetCount struct {
	Path     string `json:"path"`
	MimeType string `json:"mime_type"`
	Month    string `json:"month"`
	N        int    `json:"n"`
}

// Choice is one suggested answer to a clarifying question.
type Choice struct {
	Label   string  `json:"label"`   // shown to the user
	Keyword string  `json:"keyword"` // keyword it adds, or ""
	Filters Filters `json:"filters"` // filters it sets (empty fields: unchanged)
}

// Question is the output of TaskClarify.
type Question struct {
	Question string   `json:"question"`
	Choices  []Choice `json:"choices"` // may be empty: free-text answer
}

// RefineInput is the input of TaskRefine: the user's answer to a question.
type RefineInput struct {
	Query    string    `json:"query"`
	Keywords []string  `json:"keywords"`
	Filters  Filters   `json:"filters"`
	Question string    `json:"question"`
	Answer   string    `json:"answer"`
	Now      time.Time `json:"now"`
	Lang     string    `json:"lang"`
}

// Refinement is the output of TaskRefine: one more keyword and/or filters.
type Refinement struct {
	AddKeyword string  `json:"add_keyword"`
	Filters    Filters `json:"filters"` // fields to set; empty fields leave the current value
}

// RelaxInput is the input of TaskRelax: nothing matched.
type RelaxInput struct {
	Query    string   `json:"query"`
	Keywords []string `json:"keywords"`
	Filters  Filters  `json:"filters"`
	Lang     string   `json:"lang"`
}

// Relaxation is the output of TaskRelax: the new, looser conditions.
type Relaxation struct {
	Keywords []string `json:"keywords"`
	Filters  Filters  `json:"filters"`
}

// RerankInput is the input of TaskRerank.
type RerankInput struct {
	Query      string    `json:"query"`
	Keywords   []string  `json:"keywords"`
	Candidates []HitInfo `json:"candidates"`
	// DocFreq and Docs are the index's document frequency of each search
	// token of the query (internal/tokenize) and its number of files, so a
	// lexical reranker can weigh rare words above common ones across the
	// whole index rather than the few candidates. Not sent to LLMs.
	DocFreq map[string]int `json:"-"`
	Docs    int            `json:"-"`
}

// RerankResult is the output of TaskRerank.
type RerankResult struct {
	Order []string `json:"order"` // candidate IDs, best first
}

// AnswerContext is one retrieved passage for TaskAnswer.
type AnswerContext struct {
	Ref      int    `json:"ref"` // citation number [n]
	FileName string `json:"file_name"`
	Page     int    `json:"page,omitempty"`
	Text     string `json:"text"`
}

// AnswerInput is the input of TaskAnswer.
type AnswerInput struct {
	Question string          `json:"question"`
	Contexts []AnswerContext `json:"contexts"`
	Lang     string          `json:"lang"`
	// History is the conversation before this question (user and
	// assistant turns), sent to a model ahead of it; not part of the JSON.
	History []Message `json:"-"`
	// DocFreq and Docs are the index's document frequency of the
	// question's search tokens and its number of files, when the index
	// counts them: the offline provider weighs a question word by its
	// rarity in the whole index, not only in the passages. Not sent to a
	// model.
	DocFreq map[string]int `json:"-"`
	Docs    int            `json:"-"`
}

func str() map[string]any    { return map[string]any{"type": "string"} }
func strArr() map[string]any { return map[string]any{"type": "array", "items": str()} }
func object(props map[string]any) map[string]any {
	req := make([]string, 0, len(props))
	for k := range props {
		req = append(req, k)
	}
	slices.Sort(req)
	return map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false}
}

func filtersSchema() map[string]any {
	return object(map[string]any{
		"modified_after":  map[string]any{"type": "string", "description": "YYYY-MM-DD inclusive, or empty"},
		"modified_before": map[string]any{"type": "string", "description": "YYYY-MM-DD exclusive, or empty"},
		"file_type":       map[string]any{"type": "string", "enum": append([]string{""}, FileTypes...)},
		"folder":          map[string]any{"type": "string", "description": "a folder path taken from the hits' paths (that folder and its subfolders), or empty"},
	})
}

// Schemas of every structured task, exported for providers and tests. Each is
// built on first use, so a process builds only the schemas of the tasks it runs
// (gds version none; the keystroke path the query analysis only).
var (
	SchemaQueryAnalysis = sync.OnceValue(func() *Schema {
		return &Schema{Name: "query_analysis", Schema: object(map[string]any{"keywords": strArr(), "filters": filtersSchema()})}
	})
	SchemaDocSummary = sync.OnceValue(func() *Schema {
		return &Schema{Name: "doc_summary", Schema: object(map[string]any{"summary": str(), "keywords": strArr()})}
	})
	SchemaQuestion = sync.OnceValue(func() *Schema {
		return &Schema{Name: "clarifying_question", Schema: object(map[string]any{
			"question": str(),
			"choices": map[string]any{"type": "array", "items": object(map[string]any{
				"label": str(), "keyword": str(), "filters": filtersSchema()})},
		})}
	})
	SchemaRefinement = sync.OnceValue(func() *Schema {
		return &Schema{Name: "refinement", Schema: object(map[string]any{"add_keyword": str(), "filters": filtersSchema()})}
	})
	SchemaRelaxation = sync.OnceValue(func() *Schema {
		return &Schema{Name: "relaxation", Schema: object(map[string]any{"keywords": strArr(), "filters": filtersSchema()})}
	})
	SchemaRerank = sync.OnceValue(func() *Schema { return &Schema{Name: "rerank", Schema: object(map[string]any{"order": strArr()})} })
)

const promptAnalyze = `You turn a search request for files in Google Drive into search conditions.
Return 1 to 5 keywords that will appear in the wanted files, most important first: proper nouns,
project names and distinctive terms first, then formats and topics. Keep Japanese compound nouns
whole (議事録, 設計書); never return particles, question words or generic words like "file".
Words that only name a file type (PDF, スライド, spreadsheet) or a period (先月, last week) become
filters, not keywords. Dates are YYYY-MM-DD; "now" in the input is the current time; a period
covers whole days: modified_after inclusive, modified_before exclusive. Leave a filter empty when
the request does not state it.`

const promptSummarize = `Summarise the file for a search index. The summary must be at most max_length
characters, in the language of the file, and say what the file is and what it is about. Return 1 to 5
keywords: proper nouns, project names and distinctive terms first.`

const promptClarify = `Too many files match the user's search. Using the top hits (summaries and metadata),
write ONE short clarifying question, in the user's language (lang), whose answer would narrow the search
most: for example by project, period, file type or folder. Offer 2 to 6 choices; each sets one keyword or
filter (a folder filter takes a path exactly as it appears in the hits).`

const promptRefine = `The user answered a clarifying question. Turn the answer into search conditions: either
ONE additional keyword that will appear in the wanted files, or period/file-type/folder filters, or both.
Dates are YYYY-MM-DD relative to "now"; leave fields empty when the answer does not state them.`

const promptRelax = `No file matched. Loosen the search: remove the least important keyword or widen or drop
a filter. Return the new keywords (a subset of the current ones, never more) and filters.`

const promptRerank = `Order the candidate files by how well they match the intent of the user's query,
best first. Return every candidate id exactly once.`

const promptAnswer = `Answer the question using only the numbered passages. Cite passages as [n] after the
sentences they support. If the passages do not contain the answer, say so. Answer in the language of lang.`

func structured[T any](ctx context.Context, p Provider, task Task, system string, schema *Schema, input any) (T, error) {
	var out T
	user, err := json.Marshal(input)
	if err != nil {
		return out, fmt.Errorf("%s: encode input: %w", task, err)
	}
	raw, err := p.Structured(ctx, Request{
		Task: task, System: system, Schema: schema, Input: input,
		Messages: []Message{{Role: "user", Content: string(user)}},
	})
	if err != nil {
		return out, fmt.Errorf("%s (%s): %w", task, p.Name(), err)
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, fmt.Errorf("%s (%s): malformed output: %w", task, p.Name(), err)
	}
	return out, nil
}

// cleanKeywords trims, drops empties and duplicates, and keeps at most max.
func cleanKeywords(kws []string, limit int) []string {
	var out []string
	for _, k := range kws {
		k = strings.TrimSpace(k)
		if k == "" || slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, k) }) {
			continue
		}
		out = append(out, k)
		if len(out) == limit {
			break
		}
	}
	return out
}

// Truncate cuts s to at most n characters (runes), ending with "…" when cut.
func Truncate(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// AnalyzeQuery extracts keywords and filters from a natural-language query.
func AnalyzeQuery(ctx context.Context, p Provider, in QueryInput) (QueryAnalysis, error) {
	out, err := structured[QueryAnalysis](ctx, p, TaskAnalyzeQuery, promptAnalyze, SchemaQueryAnalysis(), in)
	if err != nil {
		return out, err
	}
	out.Keywords = cleanKeywords(out.Keywords, 5)
	out.Filters = out.Filters.clean()
	return out, nil
}

// Summarize writes a summary of at most in.MaxLength characters and 1–5 keywords.
func Summarize(ctx context.Context, p Provider, in DocInput) (DocSummary, error) {
	out, err := structured[DocSummary](ctx, p, TaskSummarize, promptSummarize, SchemaDocSummary(), in)
	if err != nil {
		return out, err
	}
	out.Summary = Truncate(strings.TrimSpace(out.Summary), in.MaxLength)
	out.Keywords = cleanKeywords(out.Keywords, 5)
	return out, nil
}

// Clarify writes a clarifying question for a search with too many hits.
func Clarify(ctx context.Context, p Provider, in ClarifyInput) (Question, error) {
	out, err := structured[Question](ctx, p, TaskClarify, promptClarify, SchemaQuestion(), in)
	if err != nil {
		return out, err
	}
	if strings.TrimSpace(out.Question) == "" {
		return out, fmt.Errorf("%s (%s): empty question", TaskClarify, p.Name())
	}
	for i := range out.Choices {
		out.Choices[i].Filters = out.Choices[i].Filters.clean()
	}
	return out, nil
}

// Refine turns the answer to a clarifying question into a keyword and filters.
func Refine(ctx context.Context, p Provider, in RefineInput) (Refinement, error) {
	out, err := structured[Refinement](ctx, p, TaskRefine, promptRefine, SchemaRefinement(), in)
	if err != nil {
		return out, err
	}
	out.AddKeyword = strings.TrimSpace(out.AddKeyword)
	out.Filters = out.Filters.clean()
	return out, nil
}

// Relax loosens a search that found nothing. The result never has more
// keywords than the input.
func Relax(ctx context.Context, p Provider, in RelaxInput) (Relaxation, error) {
	out, err := structured[Relaxation](ctx, p, TaskRelax, promptRelax, SchemaRelaxation(), in)
	if err != nil {
		return out, err
	}
	out.Keywords = cleanKeywords(out.Keywords, max(len(in.Keywords), 1))
	out.Filters = out.Filters.clean()
	return out, nil
}

// Rerank orders candidates by the query's intent. The result is always a
// permutation of the candidate IDs: unknown IDs are dropped and missing ones
// appended in their original order.
func Rerank(ctx context.Context, p Provider, in RerankInput) ([]string, error) {
	out, err := structured[RerankResult](ctx, p, TaskRerank, promptRerank, SchemaRerank(), in)
	if err != nil {
		return nil, err
	}
	known := make(map[string]bool, len(in.Candidates))
	for _, c := range in.Candidates {
		known[c.ID] = true
	}
	var order []string
	for _, id := range out.Order {
		if known[id] {
			order = append(order, id)
			delete(known, id)
		}
	}
	for _, c := range in.Candidates {
		if known[c.ID] {
			order = append(order, c.ID)
		}
	}
	return order, nil
}

// Answer streams an answer grounded in the given passages, handing each
// piece of text to onDelta in order. The answer is in the language of the
// question when it is clearly Japanese or English, else in in.Lang (the
// interface language): in.Lang is set to i18n.ForText(in.Question,
// in.Lang) before any provider sees it, so the offline answer's phrases
// and a model's answer (promptAnswer) follow it.
func Answer(ctx context.Context, p Provider, in AnswerInput, onDelta func(string) error) error {
	in.Lang = i18n.ForText(in.Question, in.Lang)
	user, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("%s: encode input: %w", TaskAnswer, err)
	}
	msgs := make([]Message, 0, len(in.History)+1)
	for _, m := range in.History {
		if m.Role == RoleUser || m.Role == RoleAssistant {
			msgs = append(msgs, Message{Role: m.Role, Content: m.Content})
		}
	}
	msgs = append(msgs, Message{Role: RoleUser, Content: string(user)})
	err = StreamText(ctx, p, Request{Task: TaskAnswer, System: promptAnswer, Input: in, Messages: msgs}, onDelta)
	if err != nil {
		return fmt.Errorf("%s (%s): %w", TaskAnswer, p.Name(), err)
	}
	return nil
}
