// Package counting is the provider of an estimate: it takes every call a
// crawl or graph build makes, counts it as the real provider would send
// it — the same messages, json_schema and tools, the same embedding
// batches, one vision call per page image — and answers from a stand-in
// provider (gds's offline one) instead of the network, so the pipeline
// runs on to its next calls exactly as the real run would. Input tokens
// are counted with the tokenizer and billing rules of internal/ai/tokens
// (those the OpenAI emulator reports too); output tokens are a model: the
// tokens of the stand-in's answer to the same input (docs/estimate.md).
package counting

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	_ "image/gif"  // page sizes for the vision input
	_ "image/jpeg" // page sizes for the vision input
	_ "image/png"  // page sizes for the vision input
	"iter"
	"strings"
	"sync"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/ratelimit"
	"github.com/gds-cli/gds/internal/ai/tokens"
)

// Config describes the real provider the count stands for.
type Config struct {
	// Name is the real provider's name (outputs record it).
	Name string
	// ChatModel names the chat model (the OCR cache keys text by it).
	ChatModel string
	// Embedding is the embedding model and dimension; a zero Dim is
	// taken as 1 (the vectors are never stored).
	Embedding ai.EmbeddingModel
	// BatchSize is the number of texts per embeddings request of the real
	// provider (<= 0: openai.DefaultBatchSize).
	BatchSize int
	// Stand answers the calls (gds's offline provider).
	Stand ai.Provider
	// PageText is the stand-in reading of a page image (tesseract when
	// installed); nil or failing: ModelledPage.
	PageText func(ctx context.Context, image []byte) (string, error)
	// Merge, when set, counts the embeddings requests of a crawl: the
	// crawl joins the inputs of the files ready together into one batch
	// of at most Merge.Inputs inputs and Merge.Tokens estimated tokens
	// (ratelimit.EstimateTokens), and how many are ready together depends
	// on how fast the model answers. The count is of the fullest batches,
	// each Embed call (one file's inputs) joining the open batch while it
	// fits: the fewest requests the crawl can make. Tokens do not depend
	// on it.
	Merge *Merge
}

// Merge are the limits of a crawl's embedding batches.
type Merge struct{ Inputs, Tokens int }

// ModelledPage is the stand-in text of a page image no local engine
// reads: about 500 tokens, a typical page of prose.
var ModelledPage = strings.Repeat("The quick brown fox jumps over the lazy dog near the river bank today. ", 33)

// Provider counts calls and answers them from Config.Stand. It is safe for
// concurrent use.
type Provider struct {
	cfg   Config
	meter ai.Meter
	sched *ratelimit.Scheduler

	mu                 sync.Mutex // guards the open batch of Merge
	openIn, openTokens int        // inputs and estimated tokens of the open batch
}

// Scheduler implements ratelimit.Paced, as the real provider does: a
// crawl then batches the embedding inputs of the files ready together as
// it does for the real run. Its lanes see no rate-limit headers, so files
// arrive as fast as they are read, and the batches are as full as the
// crawl makes them (up to 128 inputs): the fewest embeddings requests.
func (p *Provider) Scheduler() *ratelimit.Scheduler { return p.sched }

// VisionProvider is a Provider that also counts page-image reading (the
// real provider reads images: openai).
type VisionProvider struct{ *Provider }

// New returns the counting provider of cfg; vision says whether the real
// provider reads images (then the result is a *VisionProvider, which an
// OCR extractor takes as its model).
func New(cfg Config, vision bool) ai.Provider {
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = openai.DefaultBatchSize
	}
	cfg.BatchSize = min(cfg.BatchSize, openai.MaxBatchSize)
	if cfg.Embedding.Dim <= 0 {
		cfg.Embedding.Dim = 1
	}
	p := &Provider{cfg: cfg, sched: ratelimit.NewScheduler(cfg.ChatModel, cfg.Embedding.Name, ratelimit.Config{}, nil)}
	if vision {
		return VisionProvider{p}
	}
	return p
}

// Name implements ai.Provider: the real provider's name.
func (p *Provider) Name() string { return p.cfg.Name }

// Meter implements ai.Metered: the calls counted so far (with Merge, the
// open batch is not counted yet: Totals counts it).
func (p *Provider) Meter() *ai.Meter { return &p.meter }

// Totals are the calls counted, the open batch of Merge included.
func (p *Provider) Totals() map[ai.CallKind]ai.Tally {
	p.mu.Lock()
	n := p.requests(p.openIn)
	p.mu.Unlock()
	out := p.meter.Totals()
	if n > 0 {
		out[ai.CallEmbedding] = out[ai.CallEmbedding].Add(ai.Tally{Calls: n})
	}
	return out
}

// requests is the number of embeddings requests of a batch of n inputs.
func (p *Provider) requests(n int) int { return (n + p.cfg.BatchSize - 1) / p.cfg.BatchSize }

// merge counts the inputs of one Embed call into the open batch, closing
// it (and counting its requests) when they do not fit.
func (p *Provider) merge(texts []string) {
	cost := 0
	for _, t := range texts {
		cost += ratelimit.EstimateTokens(t)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.openIn > 0 && (p.openIn+len(texts) > p.cfg.Merge.Inputs || p.openTokens+cost > p.cfg.Merge.Tokens) {
		p.meter.AddTally(ai.CallEmbedding, ai.Tally{Calls: p.requests(p.openIn)})
		p.openIn, p.openTokens = 0, 0
	}
	p.openIn += len(texts)
	p.openTokens += cost
}

// EmbeddingModel implements ai.Provider without asking anyone.
func (p *Provider) EmbeddingModel(context.Context) ai.EmbeddingModel { return p.cfg.Embedding }

// ChatModel names the chat model.
func (p *Provider) ChatModel() string { return p.cfg.ChatModel }

// Messages returns req's messages as the openai provider sends them: the
// system prompt first, then each message with its role.
func Messages(req ai.Request) []tokens.Message {
	var out []tokens.Message
	if req.System != "" {
		out = append(out, tokens.Message{Role: "system", Content: req.System})
	}
	for _, m := range req.Messages {
		tm := tokens.Message{Content: m.Content}
		switch m.Role {
		case ai.RoleSystem, ai.RoleAssistant, ai.RoleTool:
			tm.Role = m.Role
		default:
			tm.Role = ai.RoleUser
		}
		for _, tc := range m.ToolCalls {
			tm.ToolCalls = append(tm.ToolCalls, [2]string{tc.Name, tc.Arguments})
		}
		out = append(out, tm)
	}
	return out
}

// PromptTokens counts req's prompt as the server bills it.
func PromptTokens(req ai.Request) int {
	schema := ""
	if req.Schema != nil {
		schema = tokens.SchemaJSON(req.Schema.Name, req.Schema.Schema)
	}
	tools := make([]tokens.Tool, len(req.Tools))
	for i, t := range req.Tools {
		tools[i] = tokens.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
	}
	return tokens.Prompt(Messages(req), schema, tokens.ToolsJSON(tools))
}

// Structured implements ai.Provider: one chat call, answered by the
// stand-in, its answer's tokens the output.
func (p *Provider) Structured(ctx context.Context, req ai.Request) (json.RawMessage, error) {
	out, err := p.cfg.Stand.Structured(ctx, req)
	if err != nil {
		return nil, err
	}
	p.meter.Add(ai.CallChat, PromptTokens(req), tokens.Count(string(out)))
	return out, nil
}

// Stream implements ai.Provider: one chat call, the stand-in's text
// streamed through and counted.
func (p *Provider) Stream(ctx context.Context, req ai.Request) iter.Seq2[ai.Event, error] {
	return func(yield func(ai.Event, error) bool) {
		var text strings.Builder
		defer func() { p.meter.Add(ai.CallChat, PromptTokens(req), tokens.Count(text.String())) }()
		for ev, err := range p.cfg.Stand.Stream(ctx, req) {
			if err == nil && ev.Kind == ai.EventText {
				text.WriteString(ev.Text)
			}
			if !yield(ev, err) {
				return
			}
		}
	}
}

// Embed implements ai.Provider: one embeddings call per batch of the real
// provider's size, each input counted as it is sent (blank inputs as one
// space) in the embedding model's encoding (cl100k_base for OpenAI's
// embedding models, tokens.EncodingFor); the vectors are zeros.
func (p *Provider) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	if p.cfg.Merge != nil {
		p.merge(texts)
	}
	for start := 0; start < len(texts); start += p.cfg.BatchSize {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		batch := texts[start:min(start+p.cfg.BatchSize, len(texts))]
		in := make([]string, len(batch))
		for i, t := range batch {
			if strings.TrimSpace(t) == "" {
				t = " "
			}
			in[i] = t
		}
		if p.cfg.Merge != nil {
			p.meter.AddTally(ai.CallEmbedding, ai.Tally{InputTokens: tokens.Embedding(p.cfg.Embedding.Name, in)})
		} else {
			p.meter.Add(ai.CallEmbedding, tokens.Embedding(p.cfg.Embedding.Name, in), 0)
		}
		for i := range batch {
			out[start+i] = make([]float32, p.cfg.Embedding.Dim)
		}
	}
	return out, nil
}

// ReadImage counts one vision call as openai.Provider.ReadImage sends it
// (its prompt, the instruction and the image's tiles) and answers with the
// stand-in reading of the page.
func (v VisionProvider) ReadImage(ctx context.Context, img []byte, _ string) (string, error) {
	w, h := 0, 0
	if c, _, err := image.DecodeConfig(bytes.NewReader(img)); err == nil {
		w, h = c.Width, c.Height
	}
	text := ""
	if v.cfg.PageText != nil {
		if t, err := v.cfg.PageText(ctx, img); err == nil {
			text = t
		}
	}
	if strings.TrimSpace(text) == "" {
		text = ModelledPage
	}
	in := tokens.Prompt([]tokens.Message{
		{Role: "system", Content: openai.ImagePrompt},
		{Role: "user", Content: openai.ImageInstruction, Images: tokens.ImageTokens(w, h)},
	}, "", "")
	v.meter.Add(ai.CallVision, in, tokens.Count(text))
	return text, nil
}
