package openaitest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
)

// API paths served by Handler.
const (
	PathChat       = "/v1/chat/completions"
	PathEmbeddings = "/v1/embeddings"
	PathModels     = "/v1/models"
)

// DefaultModels are the models GET /v1/models lists when WithModels is not
// used.
var DefaultModels = []string{"gpt-4o-mini", "text-embedding-3-small"}

// Fault is a transport-level failure a scripted Reply injects.
type Fault int

const (
	// FaultNone: answer normally.
	FaultNone Fault = iota
	// FaultMalformedJSON: status 200 with a JSON body cut in the middle.
	FaultMalformedJSON
	// FaultTruncatedStream: a streamed answer stops half way, without a
	// finish_reason and without "data: [DONE]"; the response ends cleanly.
	FaultTruncatedStream
	// FaultDropConnection: the connection is closed without a response
	// (for a streamed answer: abruptly, half way through the stream).
	FaultDropConnection
)

// Reply scripts the answer to one request (Handler.Enqueue) or to every
// request of a task (Handler.ScriptTask).
type Reply struct {
	// Path and Task select the requests the reply applies to; empty
	// values match any. Task is derived from the json_schema name of a chat
	// request (for chats without a schema: ai.TaskGraphAnswer when the user
	// message is a graph answer's input, else ai.TaskAnswer).
	Path string
	Task ai.Task

	// Delay is waited before answering (cut short if the client gives up).
	Delay time.Duration
	// Status, when non-zero, answers with this HTTP status and OpenAI's
	// error body carrying Message.
	Status  int
	Message string
	// Header is added to the response (e.g. "Retry-After").
	Header http.Header
	// Fault injects a transport failure instead of a normal answer.
	Fault Fault

	// Content is the assistant message of a chat answer (the JSON document
	// of a structured answer, or text); Deltas, if set, are the pieces a
	// streamed answer sends (otherwise Content is split).
	Content string
	Deltas  []string
	// ToolCalls makes a chat answer call these tools (after Content, if
	// any), streamed as OpenAI does: each call's id and name first, then
	// its arguments in pieces across chunks. Arguments are sent verbatim,
	// so a test can script malformed JSON or a tool that was not offered;
	// empty IDs are filled in ("call-emu…"). The finish reason becomes
	// "tool_calls".
	ToolCalls []ai.ToolCall
	// FinishReason overrides "stop" (or "tool_calls"), e.g. "length".
	FinishReason string
	// Embeddings answers an embeddings request verbatim (no checks), so
	// tests can inject wrong counts or dimensions.
	Embeddings [][]float32
}

// RateLimited is a 429 reply asking the client to wait d, sent as OpenAI
// does: retry-after-ms in milliseconds and Retry-After in whole seconds.
func RateLimited(d time.Duration) Reply {
	h := http.Header{}
	h.Set("retry-after-ms", strconv.FormatInt(d.Milliseconds(), 10))
	h.Set("Retry-After", strconv.FormatInt(int64((d+time.Second-1)/time.Second), 10))
	return Reply{Status: http.StatusTooManyRequests, Header: h,
		Message: "Rate limit reached for requests. Please try again later."}
}

// ServerError is a reply with a 5xx status and OpenAI's error body.
func ServerError(status int) Reply {
	return Reply{Status: status, Message: "The server had an error while processing your request. Sorry about that!"}
}

// Repeat returns n copies of r, for Enqueue.
func Repeat(r Reply, n int) []Reply {
	out := make([]Reply, n)
	for i := range out {
		out[i] = r
	}
	return out
}

// Recorded is one request as the server saw it, without credentials.
type Recorded struct {
	Time       time.Time // arrival
	Method     string
	Path       string
	Header     http.Header // Authorization removed
	Authorized bool        // the Bearer key matched (or no key is configured)
	Model      string
	Task       ai.Task // chat requests: the task derived from the schema
	Stream     bool
	Schema     string   // json_schema name, if any
	Strict     bool     // json_schema strict flag
	BatchSize  int      // embeddings: number of inputs
	Inputs     []string // embeddings: the inputs as sent
	Dimensions int      // embeddings: requested dimensions, 0 if absent
	Encoding   string   // embeddings: encoding_format
	Status     int      // status answered (0: connection dropped)
	// Tokens is what the request counts against a TPM limit (prompt
	// estimate plus max_tokens; inputs of an embeddings request).
	Tokens int
	// Usage is the usage the answer reported (prompt and completion
	// tokens); zero for a request that was refused.
	Usage ai.Usage

	// Chat requests: the messages as sent (system included; content parts
	// joined into Content), the tools offered, tool_choice ("auto", "none",
	// "required", a forced function's name, or "" when absent),
	// parallel_tool_calls (nil when absent) and stream_options.include_usage.
	Messages []ai.Message
	// Images are the hex SHA-256 of each image of the last user message.
	Images            []string
	Tools             []ai.Tool
	ToolChoice        string
	ParallelToolCalls *bool
	IncludeUsage      bool
}

// Option configures a Handler.
type Option func(*Handler)

// WithAPIKey makes the server require "Authorization: Bearer key".
func WithAPIKey(key string) Option { return func(h *Handler) { h.apiKey = key } }

// WithBackend sets the provider that answers unscripted requests.
func WithBackend(p ai.Provider) Option { return func(h *Handler) { h.backend = p } }

// WithModels sets the listed models and rejects requests for any other
// model with 404 model_not_found, as OpenAI does.
func WithModels(models ...string) Option {
	return func(h *Handler) { h.models = slices.Clone(models); h.strictModels = true }
}

// WithLatency delays every request by d.
func WithLatency(d time.Duration) Option { return func(h *Handler) { h.latency = d } }

// WithReversedEmbeddings emits the data array of embeddings answers in
// reverse order (each item keeps its correct index), to check that clients
// order by index.
func WithReversedEmbeddings() Option { return func(h *Handler) { h.reverseEmbeddings = true } }

// Handler is the OpenAI-compatible http.Handler. It is safe for concurrent
// use.
type Handler struct {
	apiKey            string
	backend           ai.Provider
	models            []string
	strictModels      bool
	latency, jitter   time.Duration
	reverseEmbeddings bool
	chatLimit         RateLimit
	embLimit          RateLimit
	period            time.Duration

	tasks      map[string]taskCodec // json_schema name → task
	imageTexts map[string]string    // image SHA-256 → its text (WithImageTexts)

	mu       sync.Mutex
	issued   map[string]ai.ToolCall // tool calls sent, by ID
	queue    []Reply
	perTask  map[ai.Task]Reply
	requests []Recorded
	seq      int
	quotaOut bool
	limiters map[string]*modelLimiter
	rng      *rand.Rand
	clock    func() time.Time
}

func (h *Handler) now() time.Time {
	if h.clock != nil {
		return h.clock()
	}
	return time.Now()
}

// NewHandler returns a Handler. Without WithBackend it answers with
// NewSimpleBackend(DefaultSimpleDim).
func NewHandler(opts ...Option) *Handler {
	h := &Handler{perTask: map[ai.Task]Reply{}, tasks: builtinTasks(), issued: map[string]ai.ToolCall{}}
	for _, o := range opts {
		o(h)
	}
	if h.backend == nil {
		h.backend = NewSimpleBackend(DefaultSimpleDim)
	}
	if h.models == nil {
		h.models = slices.Clone(DefaultModels)
		// The backend answers in process (no I/O), so naming its model
		// needs no caller's context.
		if n := h.backend.EmbeddingModel(context.Background()).Name; n != "" && !slices.Contains(h.models, n) {
			h.models = append(h.models, n)
		}
	}
	return h
}

// Enqueue appends one-shot replies. Each request takes the first queued
// reply whose Path and Task match it; requests with no match are answered
// by ScriptTask replies or the backend.
func (h *Handler) Enqueue(replies ...Reply) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.queue = append(h.queue, replies...)
}

// ScriptTask makes every unqueued request of task answer with r (Task and
// Path of r are ignored). A zero Reply removes the script.
func (h *Handler) ScriptTask(task ai.Task, r Reply) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.Status == 0 && r.Fault == FaultNone && r.Content == "" && r.Deltas == nil && r.ToolCalls == nil && r.Embeddings == nil && r.Delay == 0 {
		delete(h.perTask, task)
		return
	}
	h.perTask[task] = r
}

// Pending reports how many queued replies have not been used.
func (h *Handler) Pending() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.queue)
}

// Requests returns the requests received so far, oldest first.
func (h *Handler) Requests() []Recorded {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Recorded, len(h.requests))
	for i, r := range h.requests {
		r.Header = r.Header.Clone()
		r.Messages, r.Tools = slices.Clone(r.Messages), slices.Clone(r.Tools)
		out[i] = r
	}
	return out
}

// RequestsTo returns the recorded requests for one path.
func (h *Handler) RequestsTo(path string) []Recorded {
	var out []Recorded
	for _, r := range h.Requests() {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// Reset forgets recorded requests and scripted replies.
func (h *Handler) Reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.queue, h.requests = nil, nil
	h.perTask = map[ai.Task]Reply{}
}

func (h *Handler) record(r Recorded) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.requests = append(h.requests, r)
	return len(h.requests) - 1
}

func (h *Handler) setStatus(i, status int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if i >= 0 && i < len(h.requests) {
		h.requests[i].Status = status
	}
}

func (h *Handler) nextID(prefix string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	return fmt.Sprintf("%s-emu%06d", prefix, h.seq)
}

// take pops the first queued reply matching the request, else the task
// script.
func (h *Handler) take(path string, task ai.Task) (Reply, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, r := range h.queue {
		if (r.Path == "" || r.Path == path) && (r.Task == "" || r.Task == task) {
			h.queue = slices.Delete(h.queue, i, i+1)
			return r, true
		}
	}
	if task != "" {
		if r, ok := h.perTask[task]; ok {
			return r, true
		}
	}
	return Reply{}, false
}

// exchange is one request being answered.
type exchange struct {
	h   *Handler
	w   http.ResponseWriter
	r   *http.Request
	idx int
}

func (x *exchange) status(code int) { x.h.setStatus(x.idx, code) }

// usage records the usage the answer reports.
func (x *exchange) usage(prompt, completion int) {
	x.h.mu.Lock()
	defer x.h.mu.Unlock()
	if x.idx >= 0 && x.idx < len(x.h.requests) {
		x.h.requests[x.idx].Usage = ai.Usage{PromptTokens: prompt, CompletionTokens: completion}
	}
}

// apiError writes OpenAI's error body.
func (x *exchange) apiError(status int, typ, code, msg string, param string) {
	body := map[string]any{"error": map[string]any{
		"message": msg, "type": typ, "param": nilIfEmpty(param), "code": nilIfEmpty(code),
	}}
	x.json(status, body)
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (x *exchange) json(status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":{"message":"emulator: encode response","type":"server_error","param":null,"code":null}}`)
	}
	x.w.Header().Set("Content-Type", "application/json")
	x.w.WriteHeader(status)
	_, _ = x.w.Write(b)
	x.status(status)
}

func (x *exchange) badRequest(msg, param string) {
	x.apiError(http.StatusBadRequest, "invalid_request_error", "", msg, param)
}

// wait sleeps d or until the client gives up; it reports whether to go on.
func wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// abort drops the connection without (the rest of) a response.
func (x *exchange) abort() {
	x.status(0)
	panic(http.ErrAbortHandler)
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	rec := Recorded{Time: h.now(), Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()}
	rec.Header.Del("Authorization")
	rec.Authorized = h.apiKey == "" || r.Header.Get("Authorization") == "Bearer "+h.apiKey

	var chat *chatRequest
	var emb *embeddingRequest
	var parseErr error
	switch r.URL.Path {
	case PathChat:
		chat, parseErr = parseChat(body)
		if chat != nil {
			rec.Model, rec.Stream, rec.Task, rec.Schema, rec.Strict = chat.Model, chat.Stream, h.taskOf(chat), chat.schemaName(), chat.strict()
			rec.Messages, rec.Tools, rec.ParallelToolCalls = chat.recordedMessages(), chat.recordedTools(), chat.ParallelToolCalls
			rec.ToolChoice, _ = chat.toolChoice()
			if imgs, err := chat.lastUserImages(); err == nil {
				for _, img := range imgs {
					rec.Images = append(rec.Images, ImageHash(img))
				}
			}
			rec.IncludeUsage = chat.StreamOptions != nil && chat.StreamOptions.IncludeUsage
		}
	case PathEmbeddings:
		emb, parseErr = parseEmbedding(body)
		if emb != nil {
			rec.Model, rec.BatchSize, rec.Encoding, rec.Inputs = emb.Model, len(emb.texts), emb.EncodingFormat, emb.texts
			if emb.Dimensions != nil {
				rec.Dimensions = *emb.Dimensions
			}
		}
	}
	x := &exchange{h: h, w: w, r: r, idx: h.record(rec)}

	if !rec.Authorized {
		if r.Header.Get("Authorization") == "" {
			x.apiError(http.StatusUnauthorized, "invalid_request_error", "",
				"You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", "")
		} else {
			x.apiError(http.StatusUnauthorized, "invalid_request_error", "invalid_api_key",
				"Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.", "")
		}
		return
	}

	switch r.URL.Path {
	case PathModels:
		if r.Method != http.MethodGet {
			x.apiError(http.StatusMethodNotAllowed, "invalid_request_error", "", "Method not allowed.", "")
			return
		}
		h.serveModels(x)
		return
	case PathChat, PathEmbeddings:
		if r.Method != http.MethodPost {
			x.apiError(http.StatusMethodNotAllowed, "invalid_request_error", "", "Method not allowed.", "")
			return
		}
	default:
		x.apiError(http.StatusNotFound, "invalid_request_error", "unknown_url",
			fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path), "")
		return
	}

	if parseErr != nil {
		param := ""
		var pe *paramError
		if errors.As(parseErr, &pe) {
			param = pe.param
		}
		x.badRequest(parseErr.Error(), param)
		return
	}
	if h.strictModels && !slices.Contains(h.models, rec.Model) {
		x.apiError(http.StatusNotFound, "invalid_request_error", "model_not_found",
			fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", rec.Model), "")
		return
	}

	// Rate limits and quota first, answered at once as OpenAI does; then
	// the latency of a request that is served.
	switch {
	case chat != nil && x.rateCheck(rec.Model, chatTokens(chat), rec.Time):
		return
	case emb != nil && x.rateCheck(rec.Model, embeddingTokens(emb), rec.Time):
		return
	}
	if !wait(r.Context(), h.delay()) {
		x.status(0)
		return
	}

	reply, scripted := h.take(rec.Path, rec.Task)
	if scripted {
		if !wait(r.Context(), reply.Delay) {
			x.status(0)
			return
		}
		for k, vs := range reply.Header {
			for _, v := range vs {
				w.Header().Add(k, v)
			}
		}
		if reply.Status != 0 {
			typ := "invalid_request_error"
			code := ""
			switch {
			case reply.Status == http.StatusTooManyRequests:
				typ, code = "requests", "rate_limit_exceeded"
			case reply.Status >= 500:
				typ = "server_error"
			}
			msg := reply.Message
			if msg == "" {
				msg = http.StatusText(reply.Status)
			}
			x.apiError(reply.Status, typ, code, msg, "")
			return
		}
		switch reply.Fault {
		case FaultMalformedJSON:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{"id":"chatcmpl-broken","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"{\"keywo`)
			x.status(http.StatusOK)
			return
		case FaultDropConnection:
			if !(chat != nil && chat.Stream) {
				x.abort()
			}
		}
	}

	switch {
	case chat != nil:
		h.serveChat(x, chat, reply, scripted)
	case emb != nil:
		h.serveEmbeddings(x, emb, reply, scripted)
	}
}

func (h *Handler) serveModels(x *exchange) {
	data := make([]map[string]any, 0, len(h.models))
	for _, m := range h.models {
		data = append(data, map[string]any{"id": m, "object": "model", "created": 1700000000, "owned_by": "openaitest"})
	}
	x.json(http.StatusOK, map[string]any{"object": "list", "data": data})
}

// Server is a Handler served over HTTP on a loopback port.
type Server struct {
	*Handler
	// URL is the API base URL, ending in "/v1" (the value of OPENAI_BASE_URL).
	URL string
	srv *httptest.Server
}

// NewServer starts a Server that t closes at cleanup.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := Start(opts...)
	t.Cleanup(s.Close)
	return s
}

// Start starts a Server; the caller closes it.
func Start(opts ...Option) *Server {
	h := NewHandler(opts...)
	srv := httptest.NewServer(h)
	return &Server{Handler: h, URL: srv.URL + "/v1", srv: srv}
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Client returns an HTTP client for the server.
func (s *Server) Client() *http.Client { return s.srv.Client() }
