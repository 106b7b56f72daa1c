package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/ai/tokens"
	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/store"
)

// TestBuildFollowsTheRateLimit: a build through the real client against
// the emulator's limits keeps more calls in flight than the fixed default
// when the headers show room, within the limit, and fails nothing.
func TestBuildFollowsTheRateLimit(t *testing.T) {
	ctx := context.Background()
	const rpm = 3000
	srv := openaitest.NewServer(t, openaitest.WithLatency(100*time.Millisecond),
		openaitest.WithRateLimits(openaitest.RateLimit{RPM: rpm, TPM: 10_000_000}, openaitest.RateLimit{RPM: 3000}))
	prov, err := openai.New(openai.Config{BaseURL: srv.URL, EmbeddingDim: openaitest.DefaultSimpleDim})
	if err != nil {
		t.Fatal(err)
	}
	s := backends(t)["sqlite"](t)
	if err := s.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: openai.DefaultEmbeddingModel, Dim: openaitest.DefaultSimpleDim}); err != nil {
		t.Fatal(err)
	}
	words := []string{"budget", "roadmap", "hiring", "launch", "pricing", "audit", "vendor", "travel"}
	for i := range 40 {
		text := fmt.Sprintf("%s %s %s plan number %d", words[i%8], words[(i+3)%8], words[(i+5)%8], i)
		emb := make([]float32, openaitest.DefaultSimpleDim)
		emb[0] = 1
		id := fmt.Sprintf("f%02d", i)
		if err := s.UpsertFile(ctx, store.File{ID: id, Name: id + ".txt", Text: text, Embedding: emb, IndexedAt: time.Now()},
			[]store.Chunk{{Ordinal: 0, Text: text, Embedding: emb}}); err != nil {
			t.Fatal(err)
		}
	}
	b := &graph.Builder{Index: s, Graph: s, Provider: prov, Counter: tokens.O200k, Lang: "en"}
	st, err := b.Build(ctx, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Extracted != 40 || st.ExtractCalls != 80 || st.Reports == 0 {
		t.Errorf("stats = %+v", st)
	}
	chat := srv.RequestsTo(openaitest.PathChat)
	refused := 0
	for _, r := range chat {
		if r.Status == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused*20 > len(chat) {
		t.Errorf("%d of %d requests refused", refused, len(chat))
	}
	if w := prov.Scheduler().Chat().Stats().Window; w <= graph.DefaultConcurrency {
		t.Errorf("the chat window stayed at %d with room in the headers", w)
	}
}
