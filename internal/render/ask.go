package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/gds-cli/gds/internal/i18n"
)

// AskSource is what the terminal shows of one source of an answer.
type AskSource struct {
	Ref  int
	Name string
	Page int
	Link string
	Text string
}

// AskIntro is printed before a streamed extractive answer.
func AskIntro(w io.Writer, lang string) {
	fmt.Fprintln(w, i18n.T(lang, "ask.extract_note"))
}

// AskSources prints the numbered sources after an answer: name, page
// where the format has pages, link, and the quoted passage (shortened to
// a few lines of width columns).
func AskSources(w io.Writer, srcs []AskSource, width int, hyperlinks bool, lang string) {
	if len(srcs) == 0 {
		return
	}
	if width <= 0 {
		width = 80
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, i18n.T(lang, "ask.sources"))
	sourceList(w, srcs, width, hyperlinks, lang)
}

// sourceList prints the numbered passages of AskSources without a header.
func sourceList(w io.Writer, srcs []AskSource, width int, hyperlinks bool, lang string) {
	if width <= 0 {
		width = 80
	}
	for _, s := range srcs {
		name := s.Name
		if hyperlinks && s.Link != "" {
			name = osc8(s.Link, name)
		}
		head := fmt.Sprintf("[%d] %s", s.Ref, name)
		if s.Page > 0 {
			head += " (" + i18n.T(lang, "ask.page", s.Page) + ")"
		}
		fmt.Fprintln(w, head)
		if s.Link != "" {
			fmt.Fprintln(w, "    "+s.Link)
		}
		quote := strings.Join(strings.Fields(s.Text), " ")
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
}

// Write is the OnText callback of app.AskRequest and graph.Query.
func (s *TextStream) Write(text string) error {
	if !s.started && s.Offline {
		s.Intro(s.W, s.Lang)
	}
	s.started = true
	_, err := fmt.Fprint(s.W, text)
	return err
}

// End finishes the streamed text's line.
func (s *TextStream) End() {
	if s.started {
		fmt.Fprintln(s.W)
	}
}
