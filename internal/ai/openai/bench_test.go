package openai_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
)

// BenchmarkAnalyzeQueryRoundTrip measures the client-side and wire cost of
// one structured call against the loopback test server.
func BenchmarkAnalyzeQueryRoundTrip(b *testing.B) {
	srv := openaitest.NewServer(b)
	p, err := openai.New(openai.Config{BaseURL: srv.URL})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := ai.AnalyzeQuery(ctx, p, ai.QueryInput{Query: "Q3 roadmap slides from 2024"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmbed1024 embeds 1024 texts (8 batches of 128, 1536 dims) over
// the loopback test server.
func BenchmarkEmbed1024(b *testing.B) {
	srv := openaitest.NewServer(b)
	p, err := openai.New(openai.Config{BaseURL: srv.URL})
	if err != nil {
		b.Fatal(err)
	}
	texts := make([]string, 1024)
	for i := range texts {
		texts[i] = fmt.Sprintf("document %d about budget planning and quarterly review", i)
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := p.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmbed1024Base64 is BenchmarkEmbed1024 with the base64 encoding
// the provider requests from api.openai.com.
func BenchmarkEmbed1024Base64(b *testing.B) {
	srv := openaitest.NewServer(b)
	u, _ := url.Parse(srv.URL)
	p, err := openai.New(openai.Config{APIKey: "k", HTTPClient: &http.Client{Transport: toServer{u}}})
	if err != nil {
		b.Fatal(err)
	}
	texts := make([]string, 1024)
	for i := range texts {
		texts[i] = fmt.Sprintf("document %d about budget planning and quarterly review", i)
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := p.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
}
