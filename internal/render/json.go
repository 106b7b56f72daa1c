package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// Values of SearchDoc.End.
const (
	JSONEndResults  = "results"   // Results holds 1–10 files
	JSONEndNotFound = "not_found" // nothing matched; Message says so
	JSONEndLoopCap  = "loop_cap"  // the loop limit was reached with ≥ 11 hits; Message says so
	JSONEndQuestion = "question"  // Question is pending; continue with State
)

// JSONFallbackFullText marks results that are the question's full-text
// ranking after no search condition matched (SearchDoc.Fallback).
const JSONFallbackFullText = "full_text"

// SearchDoc is the one document `gds search --json` prints. Field names are
// a stable interface (docs/JSON.md): add fields, never rename or remove.
type SearchDoc struct {
	Provider string `json:"provider"`
	Query    string `json:"query"`
	End      string `json:"end"`
	Message  string `json:"message"` // the end message in the user's language; "" for results and questions, but for the notice of a full-text fallback
	// Fallback is "full_text" when no search condition matched and the
	// results are the files ranked by the question's own words (a last
	// resort, not a match); "" otherwise.
	Fallback string        `json:"fallback,omitempty"`
	Results  []JSONResult  `json:"results"`
	Rounds   []JSONRound   `json:"rounds"`
	Question *JSONQuestion `json:"question,omitempty"` // only when End is "question"
	State    string        `json:"state,omitempty"`    // only when End is "question"
	// Degraded lists the steps that used a fallback because their service
	// did not answer (Drive → the local index, the AI provider → the
	// offline provider); absent when none did.
	Degraded []JSONDegraded `json:"degraded,omitempty"`
	// Loosened lists, in order, the conditions the search loosened without
	// being asked (a period, file type, folder or keyword that matched
	// nothing); absent when none was.
	Loosened []JSONLoosened `json:"loosened,omitempty"`
	// Unmatched lists the words of the query no indexed file contains, in
	// query order, whatever the end (results, not found, a question); []
	// when the index holds every word.
	Unmatched []JSONUnmatched `json:"unmatched"`
	// Corrected says the search replaced words no file contains by close
	// terms of the index; absent when it did not.
	Corrected *JSONCorrected `json:"corrected,omitempty"`
	// Partial says the match is weak: the best results each miss one of
	// the query's most specific words; absent otherwise.
	Partial *JSONPartial `json:"partial,omitempty"`
}

// JSONCorrected is a corrected search: the query searched, the query that
// searches the words as typed (each corrected word in double quotes), and
// the notice.
type JSONCorrected struct {
	Query   string `json:"query"`
	Instead string `json:"instead"`
	Message string `json:"message"`
}

// JSONPartial is a weak match: the query's most specific words, which the
// best results each miss part of, and the notice.
type JSONPartial struct {
	Words   []string `json:"words"`
	Message string   `json:"message"`
}

// JSONUnmatched is a word of the query no indexed file contains.
type JSONUnmatched struct {
	Word string `json:"word"`
	// Suggestion is the index's close term searched in its place
	// (SearchDoc.Corrected says so); absent when there is none.
	Suggestion string `json:"suggestion,omitempty"`
}

// JSONLoosened is one loosened condition.
type JSONLoosened struct {
	Kind     string `json:"kind"`                // period, file_type, folder, keyword, required
	From     string `json:"from"`                // the original value; a period is "AFTER..BEFORE" (YYYY-MM-DD, before exclusive, either may be "")
	To       string `json:"to"`                  // the looser value in the same form, "" when dropped
	FileType string `json:"file_type,omitempty"` // period only: the file-type filter still in force
	Message  string `json:"message"`             // the notice, in the user's language
}

// JSONDegraded is one degraded step.
type JSONDegraded struct {
	Service  string `json:"service"`        // drive, ai
	Reason   string `json:"reason"`         // timeout, unreachable, rate_limited, unavailable, auth, budget, error
	Fallback string `json:"fallback"`       // local_index, offline, or "" (embeddings skipped)
	Step     string `json:"step,omitempty"` // the AI task, for the ai service
	// Account is the Google account whose Drive was not searched, when
	// the index holds several ("default" or the account's name).
	Account string `json:"account,omitempty"`
	Message string `json:"message"` // the one-line notice, in the user's language
}

// JSONResult is one file found.
type JSONResult struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Summary      string  `json:"summary"`
	Link         string  `json:"link"`
	MimeType     string  `json:"mime_type"`
	ModifiedTime string  `json:"modified_time"` // RFC 3339, UTC
	Score        float64 `json:"score"`
	Path         string  `json:"path"`
	// Source is the key of the file's source ("drive", "drive:FOLDER_ID",
	// "local:/abs/path", "upload").
	Source string `json:"source"`
	// Account is the Google account of a Drive file's source ("default",
	// or the name of `gds auth login --account NAME`); absent for other
	// sources.
	Account string `json:"account,omitempty"`
	// NameOnly marks a file indexed by name, type and dates only (its
	// content could not be extracted); SkipReason says why.
	NameOnly   bool   `json:"name_only,omitempty"`
	SkipReason string `json:"skip_reason,omitempty"`
	// OCR names the engine that read the file's text from its images (a
	// scan, a photo), e.g. "tesseract 5.3.0 jpn+eng"; absent when the text
	// was extracted from the file itself.
	OCR string `json:"ocr,omitempty"`
	// Missing are the query's keywords the file does not contain, in query
	// order; [] when it holds them all.
	Missing []string `json:"missing"`
}

// JSONFilters are the period, type and folder filters of a round or a choice.
type JSONFilters struct {
	ModifiedAfter  string `json:"modified_after"`  // YYYY-MM-DD inclusive, or ""
	ModifiedBefore string `json:"modified_before"` // YYYY-MM-DD exclusive, or ""
	FileType       string `json:"file_type"`       // pdf, document, spreadsheet, … or ""
	Folder         string `json:"folder"`          // folder path (and below), or ""
}

// JSONRound is one loop of the search.
type JSONRound struct {
	Loop     int         `json:"loop"`
	Keywords []string    `json:"keywords"`
	Required []string    `json:"required"`
	Filters  JSONFilters `json:"filters"`
	Hits     int         `json:"hits"`
	Branch   string      `json:"branch"`
}

// JSONQuestion is a pending clarifying question.
type JSONQuestion struct {
	Text    string       `json:"text"`
	Choices []JSONChoice `json:"choices"`
}

// JSONChoice is one suggested answer; --answer N picks choice N.
type JSONChoice struct {
	Number  int         `json:"number"` // 1-based
	Label   string      `json:"label"`
	Keyword string      `json:"keyword"`
	Filters JSONFilters `json:"filters"`
}

// ErrorDoc is what --json prints instead of a SearchDoc when the search
// fails; the process still exits with the usual code.
type ErrorDoc struct {
	Error JSONError `json:"error"`
}

// JSONError describes a failure.
type JSONError struct {
	Code    string `json:"code"`    // usage, config, not_implemented, index, no_index, auth, interrupted, error
	Message string `json:"message"` // one line, in the user's language
	Hint    string `json:"hint"`    // what to do next, or ""
}

// NewSearchDoc builds the --json document of a search outcome. token is
// the state token of a pending question (ignored otherwise); at most limit
// results are kept (limit <= 0: all).
func NewSearchDoc(out search.Outcome, token string, limit int, lang string) SearchDoc {
	s := out.State
	doc := SearchDoc{Provider: out.Provider, Query: s.Query, Results: []JSONResult{}, Rounds: []JSONRound{}, Unmatched: []JSONUnmatched{}}
	for _, u := range s.Unmatched {
		doc.Unmatched = append(doc.Unmatched, JSONUnmatched{Word: u.Word, Suggestion: u.Suggestion})
	}
	if instead := s.InsteadQuery(); instead != "" {
		doc.Corrected = &JSONCorrected{Query: s.SearchQuery(), Instead: instead, Message: strings.Join(search.CorrectedText(s, lang), "\n")}
	}
	for _, n := range out.Degraded {
		doc.Degraded = append(doc.Degraded, JSONDegraded{Service: string(n.Service), Reason: string(n.Reason),
			Fallback: string(n.Fallback), Step: n.Step, Account: n.Account, Message: n.Text(lang)})
	}
	for _, l := range s.Loosened {
		doc.Loosened = append(doc.Loosened, JSONLoosened{Kind: string(l.Kind), From: l.From, To: l.To, FileType: l.FileType,
			Message: l.Text(lang)})
	}
	for _, r := range s.Rounds {
		doc.Rounds = append(doc.Rounds, JSONRound{Loop: r.Loop, Keywords: nonNil(r.Conditions.Keywords),
			Required: nonNil(r.Conditions.Required), Filters: jsonFilters(r.Conditions.Filters), Hits: r.Hits, Branch: string(r.Branch)})
	}
	switch {
	case out.Pending != nil:
		doc.End = JSONEndQuestion
		q := &JSONQuestion{Text: out.Pending.Question, Choices: []JSONChoice{}}
		for i, c := range out.Pending.Choices {
			q.Choices = append(q.Choices, JSONChoice{Number: i + 1, Label: c.Label, Keyword: c.Keyword, Filters: jsonFilters(c.Filters)})
		}
		doc.Question, doc.State = q, token
	case s.End == search.EndNotFound:
		doc.End, doc.Message = JSONEndNotFound, i18n.T(lang, i18n.NoFilesFound)
	case s.End == search.EndLoopCap:
		doc.End, doc.Message = JSONEndLoopCap, i18n.T(lang, i18n.LoopLimitReached, s.MaxLoops)
	default:
		doc.End = JSONEndResults
		if s.FullText {
			doc.Fallback, doc.Message = JSONFallbackFullText, i18n.T(lang, "search.fulltext_fallback")
		}
		for i, r := range out.Results {
			if limit > 0 && i >= limit {
				break
			}
			f := r.File
			doc.Results = append(doc.Results, JSONResult{ID: f.ID, Name: f.Name, Summary: f.Summary, Link: f.WebLink,
				MimeType: f.MimeType, ModifiedTime: rfc3339(f.ModifiedAt), Score: round4(r.Score), Path: f.Path, Source: f.Source,
				Account: store.DriveAccount(f.Source), NameOnly: f.NameOnly(), SkipReason: f.SkipReason, OCR: f.OCR, Missing: nonNil(r.Missing)})
		}
		if len(out.Partial) > 0 {
			doc.Partial = &JSONPartial{Words: out.Partial, Message: search.PartialText(out.Partial, lang)}
		}
	}
	return doc
}

// WriteJSON writes v as indented JSON with a final newline; HTML
// characters are not escaped.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

func jsonFilters(f ai.Filters) JSONFilters {
	return JSONFilters{ModifiedAfter: f.ModifiedAfter, ModifiedBefore: f.ModifiedBefore, FileType: f.FileType, Folder: f.Folder}
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// round4 keeps scores readable and stable across platforms.
func round4(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return math.Round(x*1e4) / 1e4
}

// WriteJSONLine writes v as one line of compact JSON (JSON Lines); HTML
// characters are not escaped.
func WriteJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// NewJSONError describes err as the CLI prints it: the same message and
// hint as the error line on stderr, with the code of its kind (apperr).
func NewJSONError(err error, lang string) JSONError {
	r := apperr.Describe(err, lang)
	return JSONError{Code: r.Code, Message: r.Message, Hint: r.Hint}
}

// FailJSON writes err as one JSON error document ({"error": …}) and
// returns err (joined with the write's error, if any), so a --json run
// that fails still prints one document and exits with err's code.
func FailJSON(w io.Writer, err error, lang string) error {
	if werr := WriteJSON(w, ErrorDoc{Error: NewJSONError(err, lang)}); werr != nil {
		return errors.Join(err, werr)
	}
	return err
}
