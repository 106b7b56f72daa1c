package render

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/search"
)

// TextAsker asks clarifying questions on a terminal: the question and its
// numbered choices on Out, one line of answer from In (a number picks a
// choice, anything else is a free-text answer, an empty line skips).
type TextAsker struct {
	In   *bufio.Reader
	Out  io.Writer
	Lang string
}

// NewTextAsker returns a TextAsker reading from in.
func NewTextAsker(in io.Reader, out io.Writer, lang string) *TextAsker {
	return &TextAsker{In: bufio.NewReader(in), Out: out, Lang: lang}
}

// Ask implements search.Asker.
func (a *TextAsker) Ask(ctx context.Context, q ai.Question, s search.State) (search.Answer, error) {
	fmt.Fprintln(a.Out, i18n.T(a.Lang, "search.too_many", s.Rounds[len(s.Rounds)-1].Hits))
	fmt.Fprintln(a.Out, q.Question)
	for i, c := range q.Choices {
		fmt.Fprintf(a.Out, "  %d) %s\n", i+1, c.Label)
	}
	fmt.Fprint(a.Out, i18n.T(a.Lang, "search.answer_prompt"))
	line, err := a.In.ReadString('\n')
	if err != nil && line == "" {
		if ctx.Err() != nil {
			return search.Answer{}, ctx.Err()
		}
		return search.Answer{}, search.ErrNoAnswer
	}
	line = strings.TrimSpace(line)
	if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(q.Choices) {
		return search.Answer{Choice: n - 1}, nil
	}
	return search.Answer{Choice: -1, Text: line}, nil
}
