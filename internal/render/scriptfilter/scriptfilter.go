// Package scriptfilter is Alfred's Script Filter JSON as gds writes it:
// the response and item types, the query grammar (Marker) that carries a
// search's state between keystrokes, and the responses that need no
// search — a message item and the prompt for a query. It depends on
// nothing but i18n and the standard library, so the front binary
// (internal/launcher, the installed `gds`) writes its own items without
// linking the search; internal/render/alfred renders results with the same
// types (aliases there).
package scriptfilter

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/gds-cli/gds/internal/i18n"
)

// Output is a Script Filter response (Alfred 4.5+). Only the fields
// gds uses are declared; internal/render/alfred/testdata/alfred-scriptfilter.schema.json
// is the schema every output is validated against in the tests.
type Output struct {
	// SkipKnowledge keeps gds's ranking although items carry uids.
	SkipKnowledge bool   `json:"skipknowledge"`
	Items         []Item `json:"items"`
}

// Item is one row of the Alfred list.
type Item struct {
	UID          string            `json:"uid,omitempty"`
	Title        string            `json:"title"`
	Subtitle     string            `json:"subtitle,omitempty"`
	Arg          string            `json:"arg,omitempty"`
	Autocomplete string            `json:"autocomplete,omitempty"`
	Valid        bool              `json:"valid"`
	Icon         *Icon             `json:"icon,omitempty"`
	QuicklookURL string            `json:"quicklookurl,omitempty"`
	Text         *Text             `json:"text,omitempty"`
	Mods         map[string]Mod    `json:"mods,omitempty"`
	Variables    map[string]string `json:"variables,omitempty"`
}

// Icon is an item icon: an image path, "fileicon" (the icon of the
// file at Path) or "filetype" (Path is a UTI).
type Icon struct {
	Type string `json:"type,omitempty"`
	Path string `json:"path"`
}

// Text is what ⌘C copies and ⌘L shows as large type.
type Text struct {
	Copy      string `json:"copy,omitempty"`
	LargeType string `json:"largetype,omitempty"`
}

// Mod overrides an item while a modifier key is held.
type Mod struct {
	Subtitle  string            `json:"subtitle"`
	Arg       string            `json:"arg,omitempty"`
	Valid     bool              `json:"valid"`
	Variables map[string]string `json:"variables,omitempty"`
}

// Marker starts every query text gds writes into Alfred's box.
const Marker = "⌕"

// Kind says what an Alfred query asks for.
type Kind int

// Kinds of Alfred query.
const (
	Typed     Kind = iota // Query: plain text typed by the user: the keystroke search
	Run                   // Query: run the full loop
	Pending               // Token, Draft: show the pending question
	Answer                // Token, Answer: continue the loop
	Malformed             // the marker with nothing gds wrote
)

// Request is a parsed Alfred query.
type Request struct {
	Kind   Kind
	Query  string
	Token  string
	Draft  string
	Answer string
}

// ParseQuery classifies the text in Alfred's box.
func ParseQuery(q string) Request {
	t := strings.TrimLeftFunc(q, unicode.IsSpace)
	rest, ok := strings.CutPrefix(t, Marker)
	if !ok {
		return Request{Kind: Typed, Query: strings.TrimSpace(q)}
	}
	if inner, ok := strings.CutPrefix(rest, "["); ok {
		tok, after, found := strings.Cut(inner, "]")
		if !found || tok == "" {
			return Request{Kind: Malformed}
		}
		if ans, ok := strings.CutPrefix(after, "="); ok {
			return Request{Kind: Answer, Token: tok, Answer: strings.TrimSpace(ans)}
		}
		return Request{Kind: Pending, Token: tok, Draft: strings.TrimSpace(after)}
	}
	query := strings.TrimSpace(rest)
	if query == "" {
		return Request{Kind: Malformed}
	}
	return Request{Kind: Run, Query: query}
}

// RunText is the query text that runs the full loop for query.
func RunText(query string) string { return Marker + " " + Clean(query) }

// PendingText is the query text that shows a pending question, with
// the cursor after it for a free-text answer.
func PendingText(token string) string { return Marker + "[" + token + "] " }

// AnswerText is the query text that answers a pending question.
func AnswerText(token, answer string) string {
	return Marker + "[" + token + "]=" + Clean(answer)
}

// Message is a response of one non-actionable item: an error that
// tells the fix, or a notice. autocomplete, when set, is what actioning it
// puts back into Alfred's box.
func Message(title, subtitle, autocomplete string) Output {
	t := Clean(title)
	if t == "" {
		t = "gds"
	}
	return Output{SkipKnowledge: true, Items: []Item{{Title: t, Subtitle: Clean(subtitle),
		Autocomplete: Clean(autocomplete), Text: &Text{Copy: Clean(subtitle), LargeType: Clean(subtitle)}, Icon: GDSIcon()}}}
}

// Write writes a Script Filter response as compact JSON.
func Write(w io.Writer, out Output) error {
	if out.Items == nil {
		out.Items = []Item{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write Alfred JSON: %w", err)
	}
	return nil
}

// Prompt is the response to an empty query — the keyword alone, which
// Alfred runs before the first typed letter: the item that asks for a
// query.
func Prompt(lang string) Output {
	return Output{SkipKnowledge: true, Items: []Item{{Title: i18n.T(lang, "alfred.empty.title"), Subtitle: i18n.T(lang, "alfred.empty.sub"), Icon: GDSIcon()}}}
}

// GDSIcon is gds's own icon (the workflow's icon.png).
func GDSIcon() *Icon { return &Icon{Path: "icon.png"} }

// Clean makes s safe for one line of Alfred: valid UTF-8, control and
// format characters (newlines, escapes, bidi overrides) become spaces,
// runs of spaces collapse.
func Clean(s string) string {
	if s == "" {
		return ""
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
