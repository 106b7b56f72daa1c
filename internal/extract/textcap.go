package extract

import (
	"strings"
	"unicode/utf8"
)

// textLimit is MaxTextBytes; a variable only so tests can lower it.
var textLimit = MaxTextBytes

// textBudget is the room left for the text of one document: extractors
// write every page through it, so no format ever builds more than
// textLimit bytes of text, however much its input expands.
type textBudget struct {
	left int
	// truncated is set once text had to be dropped.
	truncated bool
}

func newTextBudget() *textBudget { return &textBudget{left: textLimit} }

// fit charges s and returns the part of it that fits, cut at a UTF-8
// boundary; once something was cut, nothing more fits (the text kept is a
// prefix of the document's).
func (b *textBudget) fit(s string) string {
	if len(s) <= b.left {
		b.left -= len(s)
		return s
	}
	b.truncated = true
	n := b.left
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	b.left = 0
	return s[:n]
}

// full reports whether text was dropped: writing more is pointless.
func (b *textBudget) full() bool { return b.truncated }

// textWriter builds the text of one page within a document's budget.
type textWriter struct {
	b      strings.Builder
	budget *textBudget
}

func newTextWriter(budget *textBudget) *textWriter { return &textWriter{budget: budget} }

func (w *textWriter) WriteString(s string) (int, error) {
	return w.b.WriteString(w.budget.fit(s))
}

func (w *textWriter) Write(p []byte) (int, error) {
	if len(p) <= w.budget.left {
		w.budget.left -= len(p)
		return w.b.Write(p)
	}
	return w.WriteString(string(p))
}

func (w *textWriter) WriteByte(c byte) error {
	if w.budget.left < 1 {
		w.budget.truncated = true
		w.budget.left = 0
		return nil
	}
	w.budget.left--
	return w.b.WriteByte(c)
}

func (w *textWriter) String() string { return w.b.String() }

func (w *textWriter) Len() int { return w.b.Len() }

// capDoc enforces textLimit on a finished document (a last guard behind
// the extractors' own): pages beyond it are cut or dropped and Truncated
// is set.
func capDoc(d Doc) Doc {
	budget := newTextBudget()
	for i, p := range d.Pages {
		d.Pages[i].Text = budget.fit(p.Text)
		if budget.truncated {
			d.Pages = d.Pages[:i+1]
			d.Truncated = true
			break
		}
	}
	return d
}
