package eval

import (
	"context"
	"fmt"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// ContextK is the number of retrieved chunks the answer metrics look at
// (context recall@5; the default top_k of gds ask).
const ContextK = 5

// Question is one query as a chunk system receives it: the text and its
// embedding (nil when there is none).
type Question struct {
	Text   string
	Vector []float32
}

// ChunkSystem retrieves the chunks that best match a question.
type ChunkSystem interface {
	// Name is "gds", "bm25" or "vector".
	Name() string
	// Retrieve returns at most k chunks, best first.
	Retrieve(ctx context.Context, q Question, k int) ([]store.ChunkHit, error)
}

// HybridChunks is gds's chunk retrieval (gds ask, the chat API):
// store.RetrieveChunks, the vector and full-text rankings fused.
type HybridChunks struct{ Index store.ChunkRetriever }

// Name implements ChunkSystem.
func (HybridChunks) Name() string { return "gds" }

// Retrieve implements ChunkSystem.
func (s HybridChunks) Retrieve(ctx context.Context, q Question, k int) ([]store.ChunkHit, error) {
	return store.RetrieveChunks(ctx, s.Index, store.Retrieval{Query: q.Text, Vector: q.Vector, TopK: k})
}

// TextChunks is the full-text baseline: the chunk full-text ranking alone
// (bm25 in SQLite's FTS5) with every distinct token of the question as an
// alternative, the terms RetrieveChunks searches.
type TextChunks struct{ Index store.ChunkRetriever }

// Name implements ChunkSystem.
func (TextChunks) Name() string { return "bm25" }

// Retrieve implements ChunkSystem.
func (s TextChunks) Retrieve(ctx context.Context, q Question, k int) ([]store.ChunkHit, error) {
	terms := tokenize.Unique(q.Text)
	if len(terms) == 0 {
		return nil, nil
	}
	hits, err := s.Index.ChunkTextSearch(ctx, store.KeywordQuery{Terms: terms, Match: store.MatchAny, Limit: k})
	if err != nil {
		return nil, fmt.Errorf("chunk full-text search: %w", err)
	}
	return hits[:min(k, len(hits))], nil
}

// VectorChunks is the vector baseline: the chunk vector ranking alone
// (cosine similarity to the question's embedding).
type VectorChunks struct{ Index store.ChunkRetriever }

// Name implements ChunkSystem.
func (VectorChunks) Name() string { return "vector" }

// Retrieve implements ChunkSystem.
func (s VectorChunks) Retrieve(ctx context.Context, q Question, k int) ([]store.ChunkHit, error) {
	if q.Vector == nil {
		return nil, nil
	}
	hits, err := s.Index.ChunkSearch(ctx, q.Vector, store.Filter{}, k)
	if err != nil {
		return nil, fmt.Errorf("chunk vector search: %w", err)
	}
	return hits[:min(k, len(hits))], nil
}

// Passage is a retrieved chunk handed to an Answerer.
type Passage struct {
	File string // the file's name
	Page int
	Text string
}

// Answerer writes an answer to a question from passages (numbered from 1
// in order).
type Answerer interface {
	// Provider is the AI provider writing the answer.
	Provider() string
	Answer(ctx context.Context, question string, passages []Passage) (string, error)
}

// ProviderAnswerer answers with ai.Answer, as gds ask does: the offline
// provider quotes the best sentences of the passages (an extract), a
// model provider writes an answer.
type ProviderAnswerer struct {
	AI   ai.Provider
	Lang string
	// DocFreq, when set, counts the index's files holding each token of the
	// question, as gds ask passes them (ai.AnswerInput.DocFreq).
	DocFreq func(ctx context.Context, terms []string) (map[string]int, int, error)
	// Capture, when set, receives every answer's input before the answer is
	// written (AnswerCapture), for replaying the offline answer with other
	// weights (internal/ai/offline/answer_replay_test.go).
	Capture func(AnswerCapture)
}

// AnswerCapture is one answer's input as the provider gets it, with the
// parts ai.AnswerInput keeps out of its JSON.
type AnswerCapture struct {
	Question string             `json:"question"`
	Lang     string             `json:"lang"`
	Contexts []ai.AnswerContext `json:"contexts"`
	DocFreq  map[string]int     `json:"docfreq,omitempty"`
	Docs     int                `json:"docs,omitempty"`
}

// Provider implements Answerer.
func (a ProviderAnswerer) Provider() string { return a.AI.Name() }

// Answer implements Answerer.
func (a ProviderAnswerer) Answer(ctx context.Context, question string, passages []Passage) (string, error) {
	in := ai.AnswerInput{Question: question, Lang: a.Lang}
	if a.DocFreq != nil {
		df, n, err := a.DocFreq(ctx, tokenize.Unique(question))
		if err != nil {
			return "", fmt.Errorf("count the question's words: %w", err)
		}
		in.DocFreq, in.Docs = df, n
	}
	for i, p := range passages {
		in.Contexts = append(in.Contexts, ai.AnswerContext{Ref: i + 1, FileName: p.File, Page: p.Page, Text: p.Text})
	}
	if a.Capture != nil {
		a.Capture(AnswerCapture{Question: in.Question, Lang: in.Lang, Contexts: in.Contexts, DocFreq: in.DocFreq, Docs: in.Docs})
	}
	var b strings.Builder
	err := ai.Answer(ctx, a.AI, in, func(piece string) error {
		b.WriteString(piece)
		return nil
	})
	return b.String(), err
}
