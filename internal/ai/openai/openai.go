// Package openai is the ai.Provider for OpenAI and any OpenAI-compatible
// server (Ollama, LM Studio, llama.cpp) reached through a base URL. It uses
// the official SDK, github.com/openai/openai-go/v3: structured output with
// strict json_schema, streaming chat completions as typed events, tool
// calls (it is an ai.ToolCaller), and batched embeddings. Every request
// goes through one scheduler (internal/ai/ratelimit, Provider.schedule):
// a lane per model paced to the account's x-ratelimit-* headers, with a
// concurrency window that grows while they show room and halves on a 429;
// a 429 is sent again after the server's wait, 5xx and connection
// failures after a backoff (MaxRetries), and insufficient_quota never.
//
// The API key never appears in errors, logs or String output.
package openai

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/ratelimit"
)

// Defaults applied by New to zero Config fields.
const (
	DefaultBaseURL        = "https://api.openai.com/v1"
	DefaultChatModel      = "gpt-4o-mini"
	DefaultEmbeddingModel = "text-embedding-3-small"
	DefaultTimeout        = 2 * time.Minute
	DefaultMaxRetries     = 3
	DefaultBatchSize      = 128
	// MaxBatchSize is OpenAI's limit on inputs per embeddings request.
	MaxBatchSize = 2048
)

// KnownEmbeddingDims are the native output sizes of OpenAI's embedding
// models. Models not listed have their dimension probed on first use unless
// Config.EmbeddingDim is set.
var KnownEmbeddingDims = map[string]int{
	"text-embedding-3-small": 1536,
	"text-embedding-3-large": 3072,
	"text-embedding-ada-002": 1536,
}

// Config configures a Provider. Zero values take the defaults above.
type Config struct {
	// APIKey is the OpenAI API key (OPENAI_API_KEY). Required for
	// api.openai.com; optional for other base URLs.
	APIKey string
	// BaseURL is the API root, e.g. "http://localhost:11434/v1" for Ollama.
	BaseURL        string
	ChatModel      string
	EmbeddingModel string
	// EmbeddingDim is the expected embedding size. For text-embedding-3-*
	// models a size below the native one is requested with "dimensions".
	EmbeddingDim int
	// Timeout bounds each attempt of a request (a whole stream included).
	Timeout time.Duration
	// MaxRetries is the number of retries after a 429, 5xx or connection
	// failure: 0 means DefaultMaxRetries, a negative value disables retries.
	MaxRetries int
	// BatchSize is the number of texts per embeddings request.
	BatchSize int
	// HTTPClient replaces the default HTTP client.
	HTTPClient *http.Client
	// Lang is the language of the errors' text (i18n.En or i18n.Ja; "":
	// English): the user's, passed down from main.
	Lang string
	// UnreachableFor is how long, after a call found the server
	// unreachable (no connection, retries spent), later
	// calls fail at once with the same hint instead of retrying again: one
	// command pays the retries once, a long-running server retries after
	// it. 0 means DefaultUnreachableFor, a negative value disables it.
	UnreachableFor time.Duration
	// Now is the clock of UnreachableFor; nil means time.Now.
	Now func() time.Time
	// RateLimits tunes the scheduler every call goes through (one lane
	// per model, paced to the x-ratelimit-* headers; see
	// internal/ai/ratelimit). RateLimits.MaxRPM is GDS_AI_MAX_RPM.
	RateLimits ratelimit.Config
}

// DefaultUnreachableFor is Config.UnreachableFor's default.
const DefaultUnreachableFor = 30 * time.Second

// String describes the configuration with the API key masked.
func (c Config) String() string {
	key := "unset"
	if c.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("openai.Config{BaseURL:%q ChatModel:%q EmbeddingModel:%q EmbeddingDim:%d Timeout:%s MaxRetries:%d BatchSize:%d APIKey:%s}",
		c.BaseURL, c.ChatModel, c.EmbeddingModel, c.EmbeddingDim, c.Timeout, c.MaxRetries, c.BatchSize, key)
}

// GoString is String, so that %#v does not print the key either.
func (c Config) GoString() string { return c.String() }

// Provider implements ai.Provider over the OpenAI API.
type Provider struct {
	chat      sdk.ChatCompletionService
	emb       sdk.EmbeddingService
	apiKey    string
	host      string
	official  bool // api.openai.com
	chatModel string
	embModel  string
	sendDims  int // "dimensions" sent with embeddings requests, 0: none
	batchSize int
	timeout   time.Duration
	lang      string // Config.Lang

	mu  sync.Mutex // guards dim and downUntil
	dim int        // 0 until known
	// downUntil: until then calls fail at once (the server was found
	// unreachable at downSince); see Config.UnreachableFor.
	downFor              time.Duration
	downSince, downUntil time.Time
	now                  func() time.Time
	// probeMu serialises dimension probes.
	probeMu sync.Mutex
	// sched paces every request (Provider.schedule); retries is
	// Config.MaxRetries resolved.
	sched *ratelimit.Scheduler
	// probe lets one call at a time send again after a failed
	// connection (a circuit breaker's half-open state): the others wait
	// for its outcome, and when it finds the server unreachable they fail
	// at once ("not tried again") instead of paying the retries too.
	probe   chan struct{}
	retries int
	// meter adds up the calls answered and the tokens their responses
	// report (Meter).
	meter ai.Meter
}

// Meter implements ai.Metered: the calls this provider made that the
// server answered, with the usage each response reported.
func (p *Provider) Meter() *ai.Meter { return &p.meter }

// KnownEmbeddingModel is EmbeddingModel without a probe: Dim is 0 when
// the model's dimension is neither configured nor known.
func (p *Provider) KnownEmbeddingModel() ai.EmbeddingModel {
	return ai.EmbeddingModel{Name: p.embModel, Dim: p.knownDim()}
}

// New returns a Provider for cfg. It fails when no API key is configured
// for api.openai.com, or when the base URL is malformed.
func New(cfg Config) (*Provider, error) {
	base := cfg.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("openai: %s", msg(cfg.Lang,
			fmt.Sprintf("base URL %q is not an http(s) URL; set OPENAI_BASE_URL to e.g. http://localhost:11434/v1", redactURL(base)),
			fmt.Sprintf("ベース URL %q が http(s) の URL ではありません。OPENAI_BASE_URL に http://localhost:11434/v1 のような値を設定してください", redactURL(base))))
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	p := &Provider{
		apiKey:    cfg.APIKey,
		host:      u.Host,
		official:  strings.EqualFold(u.Hostname(), "api.openai.com"),
		chatModel: cmp(cfg.ChatModel, DefaultChatModel),
		embModel:  cmp(cfg.EmbeddingModel, DefaultEmbeddingModel),
		batchSize: cfg.BatchSize,
		timeout:   cfg.Timeout,
		lang:      cfg.Lang,
		downFor:   cfg.UnreachableFor,
		now:       cfg.Now,
	}
	if p.downFor == 0 {
		p.downFor = DefaultUnreachableFor
	}
	if p.now == nil {
		p.now = time.Now
	}
	if p.official && cfg.APIKey == "" {
		return nil, fmt.Errorf("openai: %w", ErrNoAPIKey)
	}
	if p.batchSize <= 0 {
		p.batchSize = DefaultBatchSize
	}
	p.batchSize = min(p.batchSize, MaxBatchSize)
	if p.timeout <= 0 {
		p.timeout = DefaultTimeout
	}
	if cfg.EmbeddingDim < 0 {
		return nil, fmt.Errorf("openai: embedding dimension %d must be positive", cfg.EmbeddingDim)
	}
	native, known := KnownEmbeddingDims[p.embModel]
	switch {
	case cfg.EmbeddingDim > 0:
		p.dim = cfg.EmbeddingDim
		if known && strings.HasPrefix(p.embModel, "text-embedding-3") && cfg.EmbeddingDim != native {
			if cfg.EmbeddingDim > native {
				return nil, fmt.Errorf("openai: embedding dimension %d exceeds the %d dimensions of %s", cfg.EmbeddingDim, native, p.embModel)
			}
			p.sendDims = cfg.EmbeddingDim
		}
	case known:
		p.dim = native
	}
	retries := cfg.MaxRetries
	switch {
	case retries == 0:
		retries = DefaultMaxRetries
	case retries < 0:
		retries = 0
	}
	p.retries = retries
	p.sched = ratelimit.NewScheduler(p.chatModel, p.embModel, cfg.RateLimits, nil)
	p.probe = make(chan struct{}, 1)
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	// The services are built from explicit options only: unlike
	// sdk.NewClient they read no OPENAI_* environment variables, so gds's
	// own configuration is the single source of truth and no ambient
	// credential is sent to a custom base URL.
	opts := []option.RequestOption{
		option.WithBaseURL(u.String()),
		option.WithHTTPClient(hc),
		// Retries, the time limit of each attempt and the pacing are
		// Provider.schedule's: an attempt's time starts when its lane lets
		// it go, not while it waits there.
		option.WithMaxRetries(0),
		option.WithMiddleware(p.schedule),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	p.chat = sdk.NewChatCompletionService(opts...)
	p.emb = sdk.NewEmbeddingService(opts...)
	return p, nil
}

func cmp(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// Name implements ai.Provider.
func (p *Provider) Name() string { return "openai" }

// ChatModel returns the chat model in use.
func (p *Provider) ChatModel() string { return p.chatModel }

// Host returns the API host (no credentials, no path).
func (p *Provider) Host() string { return p.host }

// String describes the provider without secrets.
func (p *Provider) String() string {
	return fmt.Sprintf("openai(host=%s chat=%s embedding=%s)", p.host, p.chatModel, p.embModel)
}

// GoString is String, so that %#v does not print the key.
func (p *Provider) GoString() string { return p.String() }

// EmbeddingModel implements ai.Provider. For a model of unknown dimension
// it probes the server once under ctx (bounded by the timeout); Dim is 0 if
// that fails. Use ProbeEmbeddingDim to see the error.
func (p *Provider) EmbeddingModel(ctx context.Context) ai.EmbeddingModel {
	dim := p.knownDim()
	if dim == 0 {
		ctx, cancel := context.WithTimeout(ctx, p.timeout)
		defer cancel()
		dim, _ = p.ProbeEmbeddingDim(ctx)
	}
	return ai.EmbeddingModel{Name: p.embModel, Dim: dim}
}

func (p *Provider) knownDim() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dim
}

// ProbeEmbeddingDim returns the embedding dimension, embedding one short
// text to learn it if it is not known yet.
func (p *Provider) ProbeEmbeddingDim(ctx context.Context) (int, error) {
	p.probeMu.Lock()
	defer p.probeMu.Unlock()
	if d := p.knownDim(); d != 0 {
		return d, nil
	}
	if _, err := p.embedBatch(ctx, []string{"dimension probe"}); err != nil {
		return 0, err
	}
	return p.knownDim(), nil
}

func (p *Provider) messages(req ai.Request) []sdk.ChatCompletionMessageParamUnion {
	var out []sdk.ChatCompletionMessageParamUnion
	if req.System != "" {
		out = append(out, sdk.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		switch m.Role {
		case ai.RoleSystem:
			out = append(out, sdk.SystemMessage(m.Content))
		case ai.RoleAssistant:
			if len(m.ToolCalls) == 0 {
				out = append(out, sdk.AssistantMessage(m.Content))
				continue
			}
			var asst sdk.ChatCompletionAssistantMessageParam
			if m.Content != "" {
				asst.Content.OfString = sdk.String(m.Content)
			}
			for _, tc := range m.ToolCalls {
				asst.ToolCalls = append(asst.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{ID: tc.ID,
						Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: tc.Arguments}}})
			}
			out = append(out, sdk.ChatCompletionMessageParamUnion{OfAssistant: &asst})
		case ai.RoleTool:
			out = append(out, sdk.ToolMessage(m.Content, m.ToolCallID))
		default:
			out = append(out, sdk.UserMessage(m.Content))
		}
	}
	return out
}

// tools sets the tool parameters of a chat request. Parallel calls are
// allowed whenever tools are offered; servers reject tool_choice and
// parallel_tool_calls without tools.
func tools(params *sdk.ChatCompletionNewParams, req ai.Request) {
	if len(req.Tools) == 0 {
		return // nothing to choose from: no tool parameter at all
	}
	for _, t := range req.Tools {
		def := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(t.Parameters)}
		if t.Description != "" {
			def.Description = sdk.String(t.Description)
		}
		params.Tools = append(params.Tools, sdk.ChatCompletionFunctionTool(def))
	}
	switch req.ToolChoice {
	case "":
	case ai.ToolChoiceAuto, ai.ToolChoiceNone, ai.ToolChoiceRequired:
		params.ToolChoice.OfAuto = sdk.String(string(req.ToolChoice))
	default:
		params.ToolChoice.OfFunctionToolChoice = &sdk.ChatCompletionNamedToolChoiceParam{
			Function: sdk.ChatCompletionNamedToolChoiceFunctionParam{Name: string(req.ToolChoice)}}
	}
	params.ParallelToolCalls = sdk.Bool(true)
}

func (p *Provider) chatParams(req ai.Request) sdk.ChatCompletionNewParams {
	params := sdk.ChatCompletionNewParams{Model: p.chatModel, Messages: p.messages(req)}
	tools(&params, req)
	if req.MaxTokens > 0 {
		// OpenAI deprecated max_tokens; compatible servers mostly know only it.
		if p.official {
			params.MaxCompletionTokens = sdk.Int(int64(req.MaxTokens))
		} else {
			params.MaxTokens = sdk.Int(int64(req.MaxTokens))
		}
	}
	return params
}

// Structured implements ai.Provider with strict json_schema output. The
// reply must be a JSON object.
func (p *Provider) Structured(ctx context.Context, req ai.Request) (json.RawMessage, error) {
	const op = "chat completion"
	if req.Schema == nil {
		return nil, fmt.Errorf("openai: %s for task %s: no schema given", op, req.Task)
	}
	params := p.chatParams(req)
	params.ResponseFormat = sdk.ChatCompletionNewParamsResponseFormatUnion{
		OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
			Name: req.Schema.Name, Schema: req.Schema.Schema, Strict: sdk.Bool(true),
		}},
	}
	if err := p.unreachable(op); err != nil {
		return nil, err
	}
	ctx, n := withAttempts(ctx, chatCost(req))
	resp, err := p.chat.New(ctx, params)
	if err != nil {
		return nil, p.fail(ctx, op, n, err)
	}
	p.meter.Add(ai.CallChat, int(resp.Usage.PromptTokens), int(resp.Usage.CompletionTokens))
	if len(resp.Choices) == 0 {
		return nil, p.malformed(op, n, "the reply has no choices")
	}
	c := resp.Choices[0]
	if c.Message.Refusal != "" {
		return nil, &Error{Op: op, Host: p.host, Lang: p.lang, Status: http.StatusOK, Attempts: n.load(), Kind: ErrRefused,
			Message: p.redact(ai.Truncate(c.Message.Refusal, 200))}
	}
	if c.FinishReason == "length" {
		return nil, &Error{Op: op, Host: p.host, Lang: p.lang, Status: http.StatusOK, Attempts: n.load(), Kind: ErrTruncated,
			Message: "the reply was cut at the token limit"}
	}
	content := stripFence(c.Message.Content)
	if !json.Valid([]byte(content)) || !strings.HasPrefix(content, "{") {
		return nil, p.malformed(op, n, fmt.Sprintf("the reply is not a JSON object for schema %s", req.Schema.Name))
	}
	return json.RawMessage(content), nil
}

// stripFence removes a Markdown code fence some compatible servers put
// around JSON.
func stripFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	s = strings.TrimPrefix(s, "json")
	s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	return strings.TrimSpace(s)
}

var _ ai.ToolCaller = (*Provider)(nil)

// Stream implements ai.Provider with the streaming chat API, tools included
// when req offers them (it is StreamTools). The request asks for usage
// (stream_options.include_usage), reported as EventUsage when the server
// sends it. The chunks go through openai-go's ChatCompletionAccumulator;
// tool calls are read from its final message once the stream has ended, so
// parallel calls arrive complete and in order. The stream fails with
// ErrTruncated when it ends before the model finished (a dropped or cut
// connection).
func (p *Provider) Stream(ctx context.Context, req ai.Request) iter.Seq2[ai.Event, error] {
	return func(yield func(ai.Event, error) bool) {
		const op = "chat stream"
		if err := p.unreachable(op); err != nil {
			yield(ai.Event{}, err)
			return
		}
		ctx, n := withAttempts(ctx, chatCost(req))
		// Cancelled when the consumer stops early, which closes the connection.
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		params := p.chatParams(req)
		params.StreamOptions.IncludeUsage = sdk.Bool(true)
		stream := p.chat.NewStreaming(ctx, params)
		defer stream.Close()
		var acc sdk.ChatCompletionAccumulator
		finish := ""
		for stream.Next() {
			chunk := stream.Current()
			if acc.ID != "" {
				// Some compatible servers number each chunk; the
				// accumulator would reject a change of id.
				chunk.ID = acc.ID
			}
			if !acc.AddChunk(chunk) {
				yield(ai.Event{}, p.malformed(op, n, "a stream chunk does not continue the stream"))
				return
			}
			for _, c := range chunk.Choices {
				if c.Index != 0 {
					continue
				}
				if c.Delta.Content != "" && !yield(ai.Event{Kind: ai.EventText, Text: c.Delta.Content}, nil) {
					return
				}
				if c.FinishReason != "" {
					finish = c.FinishReason
				}
			}
		}
		if err := stream.Err(); err != nil {
			yield(ai.Event{}, p.fail(ctx, op, n, err))
			return
		}
		if finish == "" {
			yield(ai.Event{}, &Error{Op: op, Host: p.host, Lang: p.lang, Status: http.StatusOK, Attempts: n.load(), Kind: ErrTruncated,
				Message: "the stream ended before the model finished"})
			return
		}
		if len(acc.Choices) > 0 {
			for _, tc := range toolCalls(acc.Choices[0].Message.ToolCalls) {
				if !yield(ai.Event{Kind: ai.EventToolCall, ToolCall: tc}, nil) {
					return
				}
			}
		}
		p.meter.Add(ai.CallChat, int(acc.Usage.PromptTokens), int(acc.Usage.CompletionTokens))
		if u := acc.Usage; u.PromptTokens > 0 || u.CompletionTokens > 0 {
			if !yield(ai.Event{Kind: ai.EventUsage, Usage: ai.Usage{PromptTokens: int(u.PromptTokens), CompletionTokens: int(u.CompletionTokens)}}, nil) {
				return
			}
		}
		yield(ai.Event{Kind: ai.EventEnd, FinishReason: ai.FinishReason(finish)}, nil)
	}
}

// StreamTools implements ai.ToolCaller; it is Stream.
func (p *Provider) StreamTools(ctx context.Context, req ai.Request) iter.Seq2[ai.Event, error] {
	return p.Stream(ctx, req)
}

// CallTools implements ai.ToolCaller with one non-streamed chat completion.
// Tool calls come back as the model wrote them (ai.ToolCall.Check flags
// malformed arguments and unknown tools); a refusal is an ErrRefused error.
func (p *Provider) CallTools(ctx context.Context, req ai.Request) (ai.Reply, error) {
	const op = "chat completion"
	if err := p.unreachable(op); err != nil {
		return ai.Reply{}, err
	}
	ctx, n := withAttempts(ctx, chatCost(req))
	resp, err := p.chat.New(ctx, p.chatParams(req))
	if err != nil {
		return ai.Reply{}, p.fail(ctx, op, n, err)
	}
	p.meter.Add(ai.CallChat, int(resp.Usage.PromptTokens), int(resp.Usage.CompletionTokens))
	if len(resp.Choices) == 0 {
		return ai.Reply{}, p.malformed(op, n, "the reply has no choices")
	}
	c := resp.Choices[0]
	if c.Message.Refusal != "" {
		return ai.Reply{}, &Error{Op: op, Host: p.host, Lang: p.lang, Status: http.StatusOK, Attempts: n.load(), Kind: ErrRefused,
			Message: p.redact(ai.Truncate(c.Message.Refusal, 200))}
	}
	return ai.Reply{
		Text:         c.Message.Content,
		ToolCalls:    toolCalls(c.Message.ToolCalls),
		Usage:        ai.Usage{PromptTokens: int(resp.Usage.PromptTokens), CompletionTokens: int(resp.Usage.CompletionTokens)},
		FinishReason: ai.FinishReason(c.FinishReason),
	}, nil
}

// toolCalls converts the SDK's function tool calls; other kinds (custom
// tools, which gds never offers) are dropped.
func toolCalls(in []sdk.ChatCompletionMessageToolCallUnion) []ai.ToolCall {
	var out []ai.ToolCall
	for _, tc := range in {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		out = append(out, ai.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return out
}

// Embed implements ai.Provider: texts go in batches of the configured size
// and come back in input order, each of the model's dimension.
func (p *Provider) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for start := 0; start < len(texts); start += p.batchSize {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("openai: embeddings: %w", err)
		}
		end := min(start+p.batchSize, len(texts))
		vecs, err := p.embedBatch(ctx, texts[start:end])
		if err != nil {
			if len(texts) > p.batchSize {
				return nil, fmt.Errorf("openai: embedding texts %d–%d of %d: %w", start+1, end, len(texts), err)
			}
			return nil, err
		}
		copy(out[start:], vecs)
	}
	return out, nil
}

func (p *Provider) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	const op = "embeddings"
	in := make([]string, len(texts))
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			t = " " // the API rejects empty strings
		}
		in[i] = t
	}
	params := sdk.EmbeddingNewParams{
		Model:          p.embModel,
		Input:          sdk.EmbeddingNewParamsInputUnion{OfArrayOfStrings: in},
		EncodingFormat: sdk.EmbeddingNewParamsEncodingFormatFloat,
	}
	if p.official {
		// base64 is a quarter of the bytes and far cheaper to decode than
		// JSON numbers; compatible servers do not all support it.
		params.EncodingFormat = sdk.EmbeddingNewParamsEncodingFormatBase64
	}
	if p.sendDims > 0 {
		params.Dimensions = sdk.Int(int64(p.sendDims))
	}
	if err := p.unreachable(op); err != nil {
		return nil, err
	}
	ctx, n := withAttempts(ctx, embedCost(in))
	// The body is decoded here rather than by the SDK: its reflective
	// decoder spends ~0.5 ms per 1536-dim vector and cannot read base64.
	var raw []byte
	if _, err := p.emb.New(ctx, params, option.WithResponseBodyInto(&raw)); err != nil {
		return nil, p.fail(ctx, op, n, err)
	}
	var resp struct {
		Data []struct {
			Index     *int            `json:"index"`
			Embedding json.RawMessage `json:"embedding"`
		} `json:"data"`
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, p.malformed(op, n, fmt.Sprintf("the reply is not valid JSON: %v", err))
	}
	p.meter.Add(ai.CallEmbedding, resp.Usage.PromptTokens, 0)
	if len(resp.Data) != len(in) {
		return nil, p.malformed(op, n, fmt.Sprintf("got %d embeddings for %d inputs", len(resp.Data), len(in)))
	}
	out := make([][]float32, len(in))
	for k, d := range resp.Data {
		if d.Index == nil {
			return nil, p.malformed(op, n, fmt.Sprintf("embedding %d has no index", k))
		}
		i := *d.Index
		if i < 0 || i >= len(out) || out[i] != nil {
			return nil, p.malformed(op, n, fmt.Sprintf("embedding index %d is out of range or repeated", i))
		}
		v, err := decodeVector(d.Embedding)
		if err != nil {
			return nil, p.malformed(op, n, fmt.Sprintf("embedding %d: %v", i, err))
		}
		out[i] = v
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	want := p.dim
	if want == 0 {
		want = len(out[0])
	}
	for _, v := range out {
		if len(v) != want || want == 0 {
			return nil, &Error{Op: op, Host: p.host, Lang: p.lang, Status: http.StatusOK, Attempts: n.load(), Kind: ErrDimension,
				Message: msg(p.lang,
					fmt.Sprintf("model %s returned %d-dimensional embeddings, expected %d; check the embedding model and dimension settings", p.embModel, len(v), want),
					fmt.Sprintf("モデル %s の埋め込みは %d 次元で、期待した %d 次元と異なります。埋め込みモデルと次元の設定を確認してください", p.embModel, len(v), want))}
		}
	}
	p.dim = want
	return out, nil
}

// decodeVector reads an embedding sent as a JSON array of numbers or as
// base64 little-endian float32s.
func decodeVector(raw json.RawMessage) ([]float32, error) {
	var v []float32
	if err := json.Unmarshal(raw, &v); err == nil {
		return v, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, errors.New("neither an array of numbers nor a base64 string")
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%4 != 0 {
		return nil, errors.New("invalid base64 float32 data")
	}
	v = make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

// keyLike matches OpenAI-style keys, masked or not, in server messages;
// compiled on first use rather than before main.
var keyLike = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`sk-[A-Za-z0-9_*\-]{3,}`) })

// redact removes the API key, and anything shaped like one, from
// server-supplied text.
func (p *Provider) redact(s string) string {
	if p.apiKey != "" {
		s = strings.ReplaceAll(s, p.apiKey, "[redacted]")
	}
	return keyLike().ReplaceAllString(s, "[redacted]")
}

// redactURL drops user info from a URL for messages.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	u.User = nil
	return u.String()
}
