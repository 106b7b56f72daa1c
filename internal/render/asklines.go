package render

import (
	"errors"
	"io"

	"github.com/gds-cli/gds/internal/agent"
)

// AskLines writes an answer as JSON lines while it is written, with the
// event shapes of the agent (agent.Event): `gds ask --jsonl` in either
// mode, and `--mode agentic --json`. A rag answer is chunk lines as the
// text streams, one evidence line per source (ref, file, chunk, page,
// text, link), then a done line with the whole answer; a failure is one
// error line {"type": "error", "error": {code, message, hint}}.
type AskLines struct {
	W    io.Writer
	Lang string
}

// Event writes one agent event.
func (a AskLines) Event(ev agent.Event) error { return WriteJSONLine(a.W, ev) }

// Text writes a piece of the answer as a chunk line (nothing for "").
func (a AskLines) Text(piece string) error {
	if piece == "" {
		return nil
	}
	return a.Event(agent.Event{Type: agent.TypeChunk, Content: piece})
}

// Answer writes the sources of a rag answer as evidence lines, then its
// done line.
func (a AskLines) Answer(srcs []AskSource, answer, provider string, extractive bool) error {
	for _, s := range srcs {
		ev := agent.Event{Type: agent.TypeEvidence, Ref: s.Ref, Evidence: &agent.Evidence{
			FileID: s.FileID, Name: s.Name, ChunkID: s.ChunkID, Page: s.Page, Text: s.Text, Link: s.Link}}
		if err := a.Event(ev); err != nil {
			return err
		}
	}
	return a.Event(agent.Event{Type: agent.TypeDone, Answer: answer, Provider: provider, Extractive: extractive})
}

// End writes err (when not nil) as the error line and returns it.
func (a AskLines) End(err error) error {
	if err == nil {
		return nil
	}
	line := struct {
		Type string `json:"type"`
		ErrorDoc
	}{"error", ErrorDoc{Error: NewJSONError(err, a.Lang)}}
	if werr := WriteJSONLine(a.W, line); werr != nil {
		return errors.Join(err, werr)
	}
	return err
}
