package tokens

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEncodingFor(t *testing.T) {
	for _, c := range []struct {
		model, want string
	}{
		// OpenAI's embedding models: cl100k_base.
		{"text-embedding-3-small", Cl100kBase},
		{"text-embedding-3-large", Cl100kBase},
		{"text-embedding-ada-002", Cl100kBase},
		{" Text-Embedding-3-Small ", Cl100kBase},
		{"openai/text-embedding-3-small", Cl100kBase}, // a router's name
		// The older chat models: cl100k_base.
		{"gpt-4", Cl100kBase},
		{"gpt-4-turbo", Cl100kBase},
		{"gpt-4-0613", Cl100kBase},
		{"gpt-3.5-turbo", Cl100kBase},
		{"gpt-35-turbo", Cl100kBase}, // Azure's spelling
		{"ft:gpt-3.5-turbo-0125:acme::abc", Cl100kBase},
		// The current ones: o200k_base, though gpt-4o and gpt-4.1 begin
		// with gpt-4.
		{"gpt-4o", O200kBase},
		{"gpt-4o-mini", O200kBase},
		{"gpt-4o-2024-08-06", O200kBase},
		{"chatgpt-4o-latest", O200kBase},
		{"gpt-4.1", O200kBase},
		{"gpt-4.1-mini", O200kBase},
		{"gpt-4.5-preview", O200kBase},
		{"gpt-5", O200kBase},
		{"gpt-5-mini", O200kBase},
		{"o1", O200kBase},
		{"o3-mini", O200kBase},
		{"o4-mini", O200kBase},
		{"ft:gpt-4o-mini-2024-07-18:acme::abc", O200kBase},
		// Other servers' models, and none: o200k_base, an estimate.
		{"nomic-embed-text", O200kBase},
		{"llama3.1:8b", O200kBase},
		{"", O200kBase},
	} {
		if got := EncodingFor(c.model); got != c.want {
			t.Errorf("EncodingFor(%q) = %s, want %s", c.model, got, c.want)
		}
		if want := map[string]Counter{Cl100kBase: Cl100k, O200kBase: O200k}[c.want]; ForModel(c.model) != want {
			t.Errorf("ForModel(%q) is not the %s counter", c.model, c.want)
		}
	}
}

func TestCl100kKnownCounts(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 0},
		// Upstream tiktoken's test case, and OpenAI cookbook's examples
		// ("How to count tokens with tiktoken").
		{"hello world", 2},
		{"antidisestablishmentarianism", 6},
		{"2 + 2 = 4", 7},
		{"お誕生日おめでとう", 9},
		// Japanese: cl100k_base splits what o200k_base keeps whole (17
		// tokens there, TestKnownCounts).
		{"東京都の2024年度予算に関する議事録を探しています。", 26},
	} {
		if got := Cl100k.Count(c.text); got != c.want {
			t.Errorf("Cl100k.Count(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

func TestEmbeddingCountsInTheModelsEncoding(t *testing.T) {
	in := []string{"hello world", "", "東京都の2024年度予算に関する議事録を探しています。"}
	if got, want := Embedding("text-embedding-3-small", in), Cl100k.Count(in[0])+Cl100k.Count(" ")+Cl100k.Count(in[2]); got != want {
		t.Errorf("text-embedding-3-small: %d, want %d", got, want)
	}
	if got, want := Embedding("nomic-embed-text", in), Count(in[0])+Count(" ")+Count(in[2]); got != want {
		t.Errorf("nomic-embed-text: %d, want %d", got, want)
	}
	if Embedding("text-embedding-3-small", in) == Embedding("nomic-embed-text", in) {
		t.Error("the Japanese input counts alike in both encodings: the test cannot tell them apart")
	}
}

func TestCl100kTruncate(t *testing.T) {
	text := "𠮷野家の議事録 🍣 summary: the budget is ¥3,000,000 for FY2024. 鬱蒼とした森。"
	total := Cl100k.Count(text)
	for limit := 0; limit <= total; limit++ {
		got := Cl100k.Truncate(text, limit)
		if !utf8.ValidString(got) || !strings.HasPrefix(text, got) || Cl100k.Count(got) > limit {
			t.Fatalf("Cl100k.Truncate(%d) = %q (%d tokens)", limit, got, Cl100k.Count(got))
		}
	}
	if Cl100k.Truncate(text, total) != text {
		t.Error("a text within its budget must come back whole")
	}
}
