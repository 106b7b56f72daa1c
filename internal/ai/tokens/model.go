package tokens

import (
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"
)

// The encodings gds counts with.
const (
	// O200kBase is the encoding of OpenAI's current chat models: gpt-4o,
	// gpt-4.1, gpt-4.5, gpt-5, the o-series, gpt-oss.
	O200kBase = "o200k_base"
	// Cl100kBase is the encoding of OpenAI's embedding models
	// (text-embedding-3-small/-large, text-embedding-ada-002) and of
	// gpt-4 and gpt-3.5-turbo. It counts Japanese text at about 1.3× the
	// tokens of o200k_base, English at about the same.
	Cl100kBase = "cl100k_base"
)

// cl100kPrefixes are the model names (after a fine-tune's "ft:" prefix)
// that tokenize with cl100k_base, after tiktoken's model table. The
// o200k_base families that share a prefix with them (gpt-4o, gpt-4.1,
// gpt-4.5) are matched first, in EncodingFor.
var cl100kPrefixes = []string{"text-embedding-3-", "text-embedding-ada-002", "gpt-4", "gpt-3.5-turbo", "gpt-35-turbo"}

var o200kPrefixes = []string{"gpt-4o", "gpt-4.1", "gpt-4.5", "chatgpt-4o"}

// EncodingFor returns the encoding OpenAI tokenizes and bills the model's
// input with: Cl100kBase for the embedding models and gpt-4 / gpt-3.5,
// O200kBase for everything else — OpenAI's current chat models, and the
// models of other servers (Ollama, vLLM), whose own tokenizers neither
// encoding matches exactly; for them a count is an estimate of the same
// order.
func EncodingFor(model string) string {
	m := strings.ToLower(strings.TrimSpace(model))
	m = strings.TrimPrefix(m, "ft:")
	if i := strings.LastIndexByte(m, '/'); i >= 0 { // "openai/text-embedding-3-small" (a router's name)
		m = m[i+1:]
	}
	for _, p := range o200kPrefixes {
		if strings.HasPrefix(m, p) {
			return O200kBase
		}
	}
	for _, p := range cl100kPrefixes {
		if strings.HasPrefix(m, p) {
			return Cl100kBase
		}
	}
	return O200kBase
}

// ForModel returns the Counter of the encoding the model uses
// (EncodingFor).
func ForModel(model string) Counter {
	if EncodingFor(model) == Cl100kBase {
		return Cl100k
	}
	return O200k
}

// Cl100k is the Counter of the cl100k_base encoding. Its vocabulary is
// built on its first use, and the codec is referenced only from here, so
// a binary that never counts for a cl100k_base model does not link it.
var Cl100k Counter = &codecCounter{cl100kCodec}

var (
	cl100kOnce sync.Once
	cl100k     *codec.Codec
)

func cl100kCodec() *codec.Codec {
	cl100kOnce.Do(func() { cl100k = codec.NewCl100kBase() })
	return cl100k
}

// EmbeddingLimit is the most tokens one input of OpenAI's embedding models
// may have (text-embedding-3-*, ada-002), counted in the model's encoding.
const EmbeddingLimit = 8191

// Embedding returns the input tokens of an embeddings request to model,
// as OpenAI bills it: every input's tokens in the model's encoding (an
// empty input is sent as one space).
func Embedding(model string, inputs []string) int {
	c := ForModel(model)
	n := 0
	for _, s := range inputs {
		if s == "" {
			s = " "
		}
		n += c.Count(s)
	}
	return n
}
