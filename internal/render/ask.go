package render

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/termsafe"
)

// AskSource is what the terminal shows of one source of an answer.
type AskSource struct {
	Ref             int
	FileID, ChunkID string
	Name            string
	Page            int
	Link            string
	Text            string
	// Quote is the cited sentence with its neighbours; shown instead of
	// the start of Text when set.
	Quote string
}

// AskIntro is printed before a streamed extractive answer.
func AskIntro(w io.Writer, lang string) {
	fmt.Fprintln(w, i18n.T(lang, "ask.extract_note"))
}

// AskSources prints the numbered sources after an answer: name, page
// where the format has pages, link, and the quoted sentence the answer
// cites with its neighbours (or the start of the passage; shortened to a
// few lines of width columns). With closest set the answer cites none of
// them: they are listed as the closest passages, not as sources.
func AskSources(w io.Writer, srcs []AskSource, closest bool, width int, hyperlinks bool, lang string) {
	if len(srcs) == 0 {
		return
	}
	if width <= 0 {
		width = 80
	}
	fmt.Fprintln(w)
	if closest {
		fmt.Fprintln(w, i18n.T(lang, "ask.closest"))
	} else {
		fmt.Fprintln(w, i18n.T(lang, "ask.sources"))
	}
	sourceList(w, srcs, width, hyperlinks, lang)
}

// sourceList prints the numbered passages of AskSources without a header.
func sourceList(w io.Writer, srcs []AskSource, width int, hyperlinks bool, lang string) {
	if width <= 0 {
		width = 80
	}
	for _, s := range srcs {
		// Names, links and passages come from the files: terminal-safe.
		name, link := termsafe.String(s.Name), termsafe.String(s.Link)
		if hyperlinks && s.Link != "" {
			name = osc8(link, name)
		}
		head := fmt.Sprintf("[%d] %s", s.Ref, name)
		if s.Page > 0 {
			head += " (" + i18n.T(lang, "ask.page", s.Page) + ")"
		}
		fmt.Fprintln(w, head)
		if s.Link != "" {
			fmt.Fprintln(w, "    "+link)
		}
		text := s.Quote
		if text == "" {
			text = s.Text
		}
		quote := termsafe.String(strings.Join(strings.Fields(text), " "))
		lines := Wrap(quote, width-6)
		if len(lines) > 3 {
			lines = append(lines[:3:3], "…")
		}
		for _, l := range lines {
			fmt.Fprintln(w, "    > "+l)
		}
	}
}

// TextStream writes streamed answer text to w; before the first piece of
// an offline (extractive) answer it writes intro, so the answer is never
// taken for a model's. End ends the streamed text with a newline when
// any was written.
type TextStream struct {
	W       io.Writer
	Offline bool
	Intro   func(w io.Writer, lang string) // AskIntro or GraphIntro
	Lang    string
	started bool
	partial string // a character cut between two pieces, held for the next
}

// Write is the OnText callback of app.AskRequest and graph.Query. The
// answer quotes the files, so it is written safe for a terminal
// (termsafe.Text); a UTF-8 character cut between two pieces is written
// whole with the next one.
func (s *TextStream) Write(text string) error {
	if !s.started && s.Offline {
		s.Intro(s.W, s.Lang)
	}
	s.started = true
	text = s.partial + text
	s.partial = ""
	if cut := incompleteTail(text); cut > 0 {
		text, s.partial = text[:len(text)-cut], text[len(text)-cut:]
	}
	_, err := fmt.Fprint(s.W, termsafe.Text(text))
	return err
}

// End finishes the streamed text's line.
func (s *TextStream) End() {
	if s.partial != "" {
		fmt.Fprint(s.W, termsafe.Text(s.partial))
		s.partial = ""
	}
	if s.started {
		fmt.Fprintln(s.W)
	}
}

// incompleteTail is the length of the start of a UTF-8 character that
// ends s without its last bytes (0 if none).
func incompleteTail(s string) int {
	for n := 1; n < utf8.UTFMax && n <= len(s); n++ {
		c := s[len(s)-n]
		if c < 0x80 {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRuneInString(s[len(s)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}
