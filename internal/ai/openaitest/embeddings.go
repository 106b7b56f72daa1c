package openaitest

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"

	"github.com/gds-cli/gds/internal/ai/tokens"
)

// NativeDims are the output sizes of OpenAI's embedding models. The server
// pads (or cuts) backend vectors to these sizes for these model names, so a
// client configured for the real model sees the real dimension.
var NativeDims = map[string]int{
	"text-embedding-3-small": 1536,
	"text-embedding-3-large": 3072,
	"text-embedding-ada-002": 1536,
}

// maxInputs is OpenAI's limit on the number of inputs of one request.
const maxInputs = 2048

type embeddingRequest struct {
	Model          string          `json:"model"`
	Input          json.RawMessage `json:"input"`
	Dimensions     *int            `json:"dimensions"`
	EncodingFormat string          `json:"encoding_format"`
	texts          []string
}

func parseEmbedding(body []byte) (*embeddingRequest, error) {
	var e embeddingRequest
	if err := json.Unmarshal(body, &e); err != nil {
		return nil, errors.New("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)")
	}
	var one string
	var many []string
	switch {
	case json.Unmarshal(e.Input, &one) == nil:
		e.texts = []string{one}
	case json.Unmarshal(e.Input, &many) == nil:
		e.texts = many
	default:
		var ids []json.RawMessage
		if json.Unmarshal(e.Input, &ids) == nil {
			return &e, errors.New("openaitest: token-array inputs are not supported; send strings")
		}
		return &e, errors.New("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.")
	}
	if e.Model == "" {
		return &e, errors.New("you must provide a model parameter")
	}
	if len(e.texts) == 0 || len(e.texts) > maxInputs {
		return &e, fmt.Errorf("'$.input' is invalid: between 1 and %d inputs are allowed, got %d", maxInputs, len(e.texts))
	}
	for _, t := range e.texts {
		if t == "" {
			return &e, errors.New("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.")
		}
	}
	switch e.EncodingFormat {
	case "", "float", "base64":
	default:
		return &e, fmt.Errorf("Invalid value: '%s'. Supported values are: 'float' and 'base64'.", e.EncodingFormat)
	}
	if e.Dimensions != nil && *e.Dimensions <= 0 {
		return &e, fmt.Errorf("Invalid 'dimensions': integer below minimum value. Expected a value >= 1, but got %d instead.", *e.Dimensions)
	}
	return &e, nil
}

func (h *Handler) serveEmbeddings(x *exchange, e *embeddingRequest, reply Reply, scripted bool) {
	if _, known := NativeDims[e.Model]; known {
		if n, over := overLimit(e.Model, e.texts); over {
			x.badRequest(fmt.Sprintf("This model's maximum context length is %d tokens, however you requested %d tokens (%d in your prompt; 0 for the completion). Please reduce your prompt; or completion length.",
				tokens.EmbeddingLimit+1, n, n), "")
			return
		}
	}
	vecs := reply.Embeddings
	if !scripted || vecs == nil {
		var err error
		vecs, err = h.backend.Embed(x.r.Context(), e.texts)
		if err != nil {
			x.apiError(http.StatusInternalServerError, "server_error", "", "openaitest backend: "+err.Error(), "")
			return
		}
		native, known := NativeDims[e.Model]
		if e.Dimensions != nil {
			if e.Model == "text-embedding-ada-002" {
				x.badRequest("This model does not support specifying dimensions.", "dimensions")
				return
			}
			limit := native
			if !known && len(vecs) > 0 {
				limit = len(vecs[0])
			}
			if *e.Dimensions > limit {
				x.badRequest(fmt.Sprintf("Invalid 'dimensions': %d is larger than the model's %d dimensions.", *e.Dimensions, limit), "dimensions")
				return
			}
		}
		for i, v := range vecs {
			if known {
				v = resize(v, native)
			}
			if e.Dimensions != nil {
				v = normalize(resize(v, *e.Dimensions))
			}
			vecs[i] = v
		}
	}
	data := make([]map[string]any, len(vecs))
	for i, v := range vecs {
		var emb any = v
		if e.EncodingFormat == "base64" {
			emb = encodeBase64(v)
		}
		j := i
		if h.reverseEmbeddings {
			j = len(vecs) - 1 - i
		}
		data[j] = map[string]any{"object": "embedding", "index": i, "embedding": emb}
	}
	n := tokens.Embedding(e.Model, e.texts)
	x.usage(n, 0)
	x.json(http.StatusOK, map[string]any{
		"object": "list", "data": data, "model": e.Model,
		"usage": map[string]any{"prompt_tokens": n, "total_tokens": n},
	})
}

// overLimit reports the tokens of the first input longer than OpenAI's
// embedding models take (tokens.EmbeddingLimit, counted in the model's
// encoding), as OpenAI refuses the request.
func overLimit(model string, texts []string) (int, bool) {
	c := tokens.ForModel(model)
	for _, t := range texts {
		if len(t) <= tokens.EmbeddingLimit {
			continue // a token is at least one byte
		}
		if n := c.Count(t); n > tokens.EmbeddingLimit {
			return n, true
		}
	}
	return 0, false
}

// resize pads v with zeros or cuts it to n values (padding keeps cosine
// similarities unchanged).
func resize(v []float32, n int) []float32 {
	out := make([]float32, n)
	copy(out, v)
	return out
}

func normalize(v []float32) []float32 {
	var s float64
	for _, f := range v {
		s += float64(f) * float64(f)
	}
	if s == 0 {
		return v
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
	return v
}

// encodeBase64 is OpenAI's base64 encoding: little-endian float32s.
func encodeBase64(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// DecodeBase64 decodes an embedding sent with encoding_format "base64".
func DecodeBase64(s string) ([]float32, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("decode base64 embedding: %w", err)
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("decode base64 embedding: %d bytes is not a multiple of 4", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
