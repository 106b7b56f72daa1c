package openaitest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/ai/tokens"
)

type usageBody struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		Prompt     int `json:"prompt_tokens"`
		Completion int `json:"completion_tokens"`
		Total      int `json:"total_tokens"`
	} `json:"usage"`
}

// TestUsageCountsTheWholePrompt: prompt_tokens covers every message (not
// only the last), the tool definitions, with gds's tokenizer; the
// completion is the reply's tokens.
func TestUsageCountsTheWholePrompt(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithAPIKey(key))
	srv.Enqueue(openaitest.Reply{Content: "the answer is 42"}, openaitest.Reply{Content: "the answer is 42"})
	sys := "You answer questions about documents, briefly, in the user's language. " +
		"Cite the passages you use. Never invent a passage."
	user := "What is the answer?"
	var short, long usageBody
	do(t, srv, "POST", "/v1/chat/completions", key, map[string]any{"model": "gpt-4o-mini",
		"messages": []map[string]any{{"role": "user", "content": user}}}, &short)
	tool := map[string]any{"type": "function", "function": map[string]any{"name": "search", "description": "Search the index.",
		"parameters": map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}}}
	do(t, srv, "POST", "/v1/chat/completions", key, map[string]any{"model": "gpt-4o-mini",
		"messages": []map[string]any{{"role": "system", "content": sys}, {"role": "user", "content": user}},
		"tools":    []any{tool}}, &long)
	want := tokens.Prompt([]tokens.Message{{Role: "user", Content: user}}, "", "")
	if short.Usage.Prompt != want {
		t.Errorf("one message: prompt_tokens %d, want %d", short.Usage.Prompt, want)
	}
	toolsJSON := tokens.ToolsJSON([]tokens.Tool{{Name: "search", Description: "Search the index.",
		Parameters: map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}}})
	want = tokens.Prompt([]tokens.Message{{Role: "system", Content: sys}, {Role: "user", Content: user}}, "", toolsJSON)
	if long.Usage.Prompt != want || long.Usage.Prompt-short.Usage.Prompt < tokens.Count(sys) {
		t.Errorf("system message and tools: prompt_tokens %d, want %d (one message: %d)", long.Usage.Prompt, want, short.Usage.Prompt)
	}
	if c := tokens.Count("the answer is 42"); short.Usage.Completion != c || short.Usage.Total != short.Usage.Prompt+c {
		t.Errorf("completion_tokens %d, total %d, want %d and the sum", short.Usage.Completion, short.Usage.Total, c)
	}
	// The record keeps what the answer reported.
	if r := srv.Requests(); len(r) != 2 || r[0].Usage.PromptTokens != short.Usage.Prompt || r[1].Usage.CompletionTokens != long.Usage.Completion {
		t.Errorf("recorded usage %+v", r)
	}
}

// TestEmbeddingUsage: an embeddings request's prompt_tokens is the sum of
// its inputs' tokens in the model's encoding, as OpenAI bills it:
// cl100k_base for OpenAI's embedding models, o200k_base for a model it does
// not know; the Japanese input makes the two differ.
func TestEmbeddingUsage(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithAPIKey(key))
	in := []string{"hello world", "東京都の2024年度予算に関する議事録"}
	for _, c := range []struct {
		model string
		count tokens.Counter
	}{
		{"text-embedding-3-small", tokens.Cl100k},
		{"text-embedding-3-large", tokens.Cl100k},
		{"text-embedding-ada-002", tokens.Cl100k},
		{"nomic-embed-text", tokens.O200k},
	} {
		var out struct {
			Usage struct {
				Prompt int `json:"prompt_tokens"`
				Total  int `json:"total_tokens"`
			} `json:"usage"`
		}
		do(t, srv, "POST", "/v1/embeddings", key, map[string]any{"model": c.model, "input": in}, &out)
		if want := c.count.Count(in[0]) + c.count.Count(in[1]); out.Usage.Prompt != want || out.Usage.Total != want {
			t.Errorf("%s: prompt_tokens %d, total_tokens %d, want %d", c.model, out.Usage.Prompt, out.Usage.Total, want)
		}
	}
	if tokens.Cl100k.Count(in[1]) == tokens.O200k.Count(in[1]) {
		t.Fatal("the two encodings count the Japanese input alike: the test cannot tell them apart")
	}
}

// TestEmbeddingInputLimit: OpenAI refuses an input of more than 8191
// tokens of the model's encoding. The text is within the limit in
// o200k_base and over it in cl100k_base, so only the right encoding
// refuses it.
func TestEmbeddingInputLimit(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithAPIKey(key))
	text := strings.Repeat("東京都の予算に関する議事録を探しています。", 500)
	if o, c := tokens.O200k.Count(text), tokens.Cl100k.Count(text); o > tokens.EmbeddingLimit || c <= tokens.EmbeddingLimit {
		t.Fatalf("o200k_base %d, cl100k_base %d tokens: the text must straddle the limit", o, c)
	}
	for _, c := range []struct {
		model  string
		status int
	}{
		{"text-embedding-3-small", http.StatusBadRequest},
		{"text-embedding-ada-002", http.StatusBadRequest},
		{"nomic-embed-text", http.StatusOK}, // not OpenAI's: no limit known
	} {
		if got := do(t, srv, "POST", "/v1/embeddings", key, map[string]any{"model": c.model, "input": []string{"short", text}}, nil); got != c.status {
			t.Errorf("%s: status %d, want %d", c.model, got, c.status)
		}
	}
	if got := do(t, srv, "POST", "/v1/embeddings", key, map[string]any{"model": "text-embedding-3-small", "input": text[:len(text)/2]}, nil); got != http.StatusOK {
		t.Errorf("half the text: status %d, want 200", got)
	}
}
