package openai_test

import (
	"context"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/tokens"
)

// TestMeterAddsTheReportedUsage: every answered call is counted by kind
// with the tokens its response reported.
func TestMeterAddsTheReportedUsage(t *testing.T) {
	_, p := newPair(t, openai.Config{})
	ctx := context.Background()
	if _, err := ai.Summarize(ctx, p, ai.DocInput{Name: "a.txt", Text: "The budget for 2024 is three million yen.", MaxLength: 100}); err != nil {
		t.Fatal(err)
	}
	texts := []string{"hello world", "東京都の予算"}
	if _, err := p.Embed(ctx, texts); err != nil {
		t.Fatal(err)
	}
	got := p.Meter().Totals()
	chat := got[ai.CallChat]
	if chat.Calls != 1 || chat.InputTokens < 50 || chat.OutputTokens == 0 {
		t.Errorf("chat: %+v, want one call with the prompt's and the reply's tokens", chat)
	}
	if e := got[ai.CallEmbedding]; e.Calls != 1 || e.InputTokens != tokens.Embedding(openai.DefaultEmbeddingModel, texts) || e.OutputTokens != 0 {
		t.Errorf("embeddings: %+v, want one call of %d tokens", e, tokens.Embedding(openai.DefaultEmbeddingModel, texts))
	}
	before := p.Meter().Totals()
	if _, err := p.Embed(ctx, texts[:1]); err != nil {
		t.Fatal(err)
	}
	if d := p.Meter().Since(before); len(d) != 1 || d[ai.CallEmbedding].Calls != 1 {
		t.Errorf("Since = %+v, want the one embeddings call", d)
	}
}
