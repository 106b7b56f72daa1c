package openaitest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/tokens"
)

type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []wireToolCall  `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
}

// text returns the message text: content is a string or an array of parts.
func (m chatMessage) text() (string, error) {
	if len(m.Content) == 0 || string(m.Content) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(m.Content, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(m.Content, &parts); err != nil {
		return "", fmt.Errorf("'messages' content must be a string or an array of content parts")
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}

type jsonSchemaFormat struct {
	Name   string         `json:"name"`
	Schema map[string]any `json:"schema"`
	Strict *bool          `json:"strict"`
}

type chatRequest struct {
	Model         string        `json:"model"`
	Messages      []chatMessage `json:"messages"`
	Stream        bool          `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	ResponseFormat *struct {
		Type       string            `json:"type"`
		JSONSchema *jsonSchemaFormat `json:"json_schema"`
	} `json:"response_format"`
	N                   *int            `json:"n"`
	Tools               []wireTool      `json:"tools"`
	ToolChoice          json.RawMessage `json:"tool_choice"`
	ParallelToolCalls   *bool           `json:"parallel_tool_calls"`
	MaxTokens           *int            `json:"max_tokens"`
	MaxCompletionTokens *int            `json:"max_completion_tokens"`
}

func (c *chatRequest) schemaName() string {
	if c.ResponseFormat != nil && c.ResponseFormat.JSONSchema != nil {
		return c.ResponseFormat.JSONSchema.Name
	}
	return ""
}

func (c *chatRequest) strict() bool {
	return c.ResponseFormat != nil && c.ResponseFormat.JSONSchema != nil &&
		c.ResponseFormat.JSONSchema.Strict != nil && *c.ResponseFormat.JSONSchema.Strict
}

// taskOf maps the json_schema name of a chat back to the ai.Task; chats
// without a schema are answers (free text): ai.TaskGraphAnswer when the
// user message is a graph answer's input (it names a response_type), else
// ai.TaskAnswer.
func (h *Handler) taskOf(c *chatRequest) ai.Task {
	name := c.schemaName()
	if name == "" {
		if _, ok := graphAnswerInput(c); ok {
			return ai.TaskGraphAnswer
		}
		return ai.TaskAnswer
	}
	if t, ok := h.tasks[name]; ok {
		return t.task
	}
	return ""
}

// graphAnswerInput decodes the last user message as a graph answer's
// input: a JSON object with a question and a response_type.
func graphAnswerInput(c *chatRequest) (ai.GraphAnswerInput, bool) {
	var user string
	for _, m := range c.Messages {
		if m.Role == "user" {
			user, _ = m.text()
		}
	}
	var probe struct {
		ResponseType *string `json:"response_type"`
	}
	var in ai.GraphAnswerInput
	if json.Unmarshal([]byte(user), &probe) != nil || probe.ResponseType == nil || json.Unmarshal([]byte(user), &in) != nil || in.Question == "" {
		return ai.GraphAnswerInput{}, false
	}
	return in, true
}

type taskCodec struct {
	task   ai.Task
	schema *ai.Schema
	decode func([]byte) (any, error)
}

func decodeAs[T any](b []byte) (any, error) {
	var v T
	err := json.Unmarshal(b, &v)
	return v, err
}

// builtinTasks maps the json_schema names of the ai package's tasks to
// the tasks and their input types.
func builtinTasks() map[string]taskCodec {
	m := map[string]taskCodec{}
	for _, c := range []taskCodec{
		{ai.TaskAnalyzeQuery, ai.SchemaQueryAnalysis(), decodeAs[ai.QueryInput]},
		{ai.TaskSummarize, ai.SchemaDocSummary(), decodeAs[ai.DocInput]},
		{ai.TaskClarify, ai.SchemaQuestion(), decodeAs[ai.ClarifyInput]},
		{ai.TaskRefine, ai.SchemaRefinement(), decodeAs[ai.RefineInput]},
		{ai.TaskRelax, ai.SchemaRelaxation(), decodeAs[ai.RelaxInput]},
		{ai.TaskRerank, ai.SchemaRerank(), decodeAs[ai.RerankInput]},
		{ai.TaskGraphExtract, ai.SchemaGraphExtraction(), decodeAs[ai.GraphExtractInput]},
		{ai.TaskGraphReport, ai.SchemaGraphReport(), decodeAs[ai.GraphReportInput]},
		{ai.TaskGraphMap, ai.SchemaGraphMap(), decodeAs[ai.GraphMapInput]},
		{ai.TaskGraphDrift, ai.SchemaGraphDrift(), decodeAs[ai.GraphDriftInput]},
	} {
		m[c.schema.Name] = c
	}
	return m
}

// WithTask makes the server answer chats whose json_schema is named
// schemaName as task: the user message is decoded into T and handed to the
// backend's Structured, whose reply must satisfy the request's schema.
// It is how a client's own structured tasks (beyond the ai package's) are
// served, e.g. gds federate's "federated_queries".
func WithTask[T any](schemaName string, task ai.Task) Option {
	return func(h *Handler) { h.tasks[schemaName] = taskCodec{task: task, decode: decodeAs[T]} }
}

func parseChat(body []byte) (*chatRequest, error) {
	var c chatRequest
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)")
	}
	if c.Model == "" {
		return &c, errors.New("you must provide a model parameter")
	}
	if len(c.Messages) == 0 {
		return &c, errors.New("[] is too short - 'messages'")
	}
	if c.N != nil && *c.N != 1 {
		return &c, errors.New("openaitest: only n=1 is supported")
	}
	if param, err := c.checkTools(); err != nil {
		return &c, &paramError{param: param, err: err}
	}
	if rf := c.ResponseFormat; rf != nil {
		switch rf.Type {
		case "text", "json_object":
		case "json_schema":
			if rf.JSONSchema == nil || rf.JSONSchema.Name == "" {
				return &c, errors.New("Missing required parameter: 'response_format.json_schema.name'.")
			}
			if c.strict() {
				if err := checkStrict(rf.JSONSchema.Schema, "schema"); err != nil {
					return &c, fmt.Errorf("Invalid schema for response_format '%s': In context=(), %w", rf.JSONSchema.Name, err)
				}
			}
		default:
			return &c, fmt.Errorf("Invalid value: '%s'. Supported values are: 'json_object', 'json_schema', and 'text'.", rf.Type)
		}
	}
	return &c, nil
}

// checkStrict enforces OpenAI's strict structured-output rules: every
// object lists all its properties as required and forbids others.
func checkStrict(s map[string]any, where string) error {
	if s == nil {
		return fmt.Errorf("%s: schema must be a JSON object", where)
	}
	switch s["type"] {
	case "object":
		if ap, ok := s["additionalProperties"].(bool); !ok || ap {
			return fmt.Errorf("'additionalProperties' is required to be supplied and to be false (at %s)", where)
		}
		props, _ := s["properties"].(map[string]any)
		var req []string
		switch r := s["required"].(type) {
		case []any:
			for _, v := range r {
				if str, ok := v.(string); ok {
					req = append(req, str)
				}
			}
		case []string:
			req = r
		}
		for name, p := range props {
			if !slices.Contains(req, name) {
				return fmt.Errorf("'required' is required to be supplied and to be an array including every key in properties. Missing '%s' (at %s)", name, where)
			}
			ps, _ := p.(map[string]any)
			if err := checkStrict(ps, where+"."+name); err != nil {
				return err
			}
		}
	case "array":
		items, _ := s["items"].(map[string]any)
		return checkStrict(items, where+"[]")
	}
	return nil
}

// lastUser returns the text of the last user message and the system prompt.
func (c *chatRequest) lastUser() (user, system string, msgs []ai.Message, err error) {
	for _, m := range c.Messages {
		t, err := m.text()
		if err != nil {
			return "", "", nil, err
		}
		switch m.Role {
		case "system", "developer":
			system = t
		case "user":
			user = t
		}
		if m.Role != "system" && m.Role != "developer" {
			am := ai.Message{Role: m.Role, Content: t, ToolCallID: m.ToolCallID}
			for _, tc := range m.ToolCalls {
				am.ToolCalls = append(am.ToolCalls, ai.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
			}
			msgs = append(msgs, am)
		}
	}
	return user, system, msgs, nil
}

// usage is the token counts of a reply, as OpenAI reports them: the
// prompt is every message (images by their tiles), the json_schema and the
// tool definitions, counted with gds's tokenizer (internal/ai/tokens, the
// o200k_base encoding of the gpt-4o family); the completion is the reply's
// text and tool calls.
func (x *exchange) chatUsage(c *chatRequest, completion string, calls []ai.ToolCall) map[string]any {
	p := promptTokens(c)
	pairs := make([][2]string, len(calls))
	for i, tc := range calls {
		pairs[i] = [2]string{tc.Name, tc.Arguments}
	}
	n := tokens.Completion(completion, pairs)
	x.usage(p, n)
	return map[string]any{"prompt_tokens": p, "completion_tokens": n, "total_tokens": p + n}
}

// promptTokens counts the prompt of c with tokens.Prompt.
func promptTokens(c *chatRequest) int {
	msgs := make([]tokens.Message, 0, len(c.Messages))
	for _, m := range c.Messages {
		t, _ := m.text()
		tm := tokens.Message{Role: m.Role, Content: t}
		for _, tc := range m.ToolCalls {
			tm.ToolCalls = append(tm.ToolCalls, [2]string{tc.Function.Name, tc.Function.Arguments})
		}
		imgs, _ := m.images()
		for _, img := range imgs {
			tm.Images += tokens.ImageTokens(imageSize(img))
		}
		msgs = append(msgs, tm)
	}
	schema := ""
	if rf := c.ResponseFormat; rf != nil && rf.JSONSchema != nil {
		schema = tokens.SchemaJSON(rf.JSONSchema.Name, rf.JSONSchema.Schema)
	}
	var tools []tokens.Tool
	for _, t := range c.Tools {
		if t.Function != nil {
			tools = append(tools, tokens.Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
		}
	}
	return tokens.Prompt(msgs, schema, tokens.ToolsJSON(tools))
}

func (h *Handler) serveChat(x *exchange, c *chatRequest, reply Reply, scripted bool) {
	user, system, msgs, err := c.lastUser()
	if err != nil {
		x.badRequest(err.Error(), "messages")
		return
	}
	ctx := x.r.Context()
	var calls []ai.ToolCall
	if scripted {
		for _, tc := range reply.ToolCalls {
			if tc.ID == "" {
				tc.ID = h.nextID("call")
			}
			calls = append(calls, tc)
		}
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	if reply.FinishReason != "" {
		finish = reply.FinishReason
	}

	images, err := c.lastUserImages()
	if err != nil {
		x.badRequest(err.Error(), "messages")
		return
	}
	var content string
	var deltas []string
	switch {
	case len(images) > 0 && !scripted:
		text, err := h.imageAnswer(images)
		if err != nil {
			x.badRequest(err.Error(), "messages")
			return
		}
		content, deltas = text, split(text)
	case len(calls) > 0:
		content, deltas = reply.Content, reply.Deltas
		if deltas == nil {
			deltas = split(content)
		}
	case scripted && (reply.Content != "" || reply.Deltas != nil):
		content, deltas = reply.Content, reply.Deltas
		if deltas == nil {
			deltas = split(content)
		} else if content == "" {
			content = strings.Join(deltas, "")
		}
	case c.schemaName() != "":
		codec, ok := h.tasks[c.schemaName()]
		if !ok {
			x.badRequest(fmt.Sprintf("openaitest: no backend task for json_schema %q", c.schemaName()), "response_format")
			return
		}
		in, err := codec.decode([]byte(user))
		if err != nil {
			x.badRequest(fmt.Sprintf("openaitest: the user message is not the JSON input of task %s: %v", codec.task, err), "messages")
			return
		}
		in = withContext(in)
		schema := &ai.Schema{Name: c.schemaName(), Schema: c.ResponseFormat.JSONSchema.Schema}
		out, err := h.backend.Structured(ctx, ai.Request{Task: codec.task, System: system, Messages: msgs, Schema: schema, Input: in})
		if err != nil {
			x.apiError(http.StatusInternalServerError, "server_error", "", "openaitest backend: "+err.Error(), "")
			return
		}
		// The emulated model never breaks the schema it was given: a reply
		// that would is a bug of the backend, reported loudly.
		var v any
		if err := json.Unmarshal(out, &v); err != nil {
			x.apiError(http.StatusInternalServerError, "server_error", "", "openaitest backend: the reply is not JSON: "+err.Error(), "")
			return
		}
		if err := Validate(schema.Schema, v); err != nil {
			x.apiError(http.StatusInternalServerError, "server_error", "", fmt.Sprintf("openaitest backend: the reply does not satisfy json_schema %s: %v", schema.Name, err), "")
			return
		}
		content = string(out)
		deltas = split(content)
	case len(c.Tools) > 0 && isToolCaller(h.backend):
		played, text, err := h.playTools(x, c, system, msgs)
		if err != nil {
			return // answered by playTools
		}
		calls, content = played, text
		deltas = split(content)
		finish = "stop"
		if len(calls) > 0 {
			finish = "tool_calls"
		}
	default:
		task, req := ai.TaskAnswer, ai.Request{System: system, Messages: msgs}
		if gin, ok := graphAnswerInput(c); ok {
			task, req.Input = ai.TaskGraphAnswer, withContext(gin)
		} else {
			var in ai.AnswerInput
			if err := json.Unmarshal([]byte(user), &in); err != nil || in.Question == "" {
				in = ai.AnswerInput{Question: user}
			}
			req.Input = in
		}
		req.Task = task
		err := ai.StreamText(ctx, h.backend, req, func(d string) error { deltas = append(deltas, d); return nil })
		if err != nil {
			x.apiError(http.StatusInternalServerError, "server_error", "", "openaitest backend: "+err.Error(), "")
			return
		}
		content = strings.Join(deltas, "")
	}
	h.remember(calls)

	id := h.nextID("chatcmpl")
	created := time.Now().Unix()
	if !c.Stream {
		message := map[string]any{"role": "assistant", "content": content, "refusal": nil}
		if len(calls) > 0 {
			message["tool_calls"] = wireCalls(calls)
			if content == "" {
				message["content"] = nil
			}
		}
		x.json(http.StatusOK, map[string]any{
			"id": id, "object": "chat.completion", "created": created, "model": c.Model,
			"system_fingerprint": "fp_openaitest",
			"choices": []any{map[string]any{
				"index":         0,
				"message":       message,
				"logprobs":      nil,
				"finish_reason": finish,
			}},
			"usage": x.chatUsage(c, content, calls),
		})
		return
	}

	fl, _ := x.w.(http.Flusher)
	x.w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	x.w.Header().Set("Cache-Control", "no-cache")
	x.w.WriteHeader(http.StatusOK)
	x.status(http.StatusOK)
	chunk := func(delta map[string]any, finishReason any) {
		b, _ := json.Marshal(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": c.Model,
			"system_fingerprint": "fp_openaitest",
			"choices":            []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finishReason}},
		})
		fmt.Fprintf(x.w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	chunk(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil)
	var pieces []map[string]any
	for _, d := range deltas {
		pieces = append(pieces, map[string]any{"content": d})
	}
	pieces = append(pieces, callDeltas(calls)...)
	cut := len(pieces)
	if scripted && (reply.Fault == FaultTruncatedStream || reply.Fault == FaultDropConnection) {
		cut = len(pieces) / 2
	}
	for _, d := range pieces[:cut] {
		if ctx.Err() != nil {
			return
		}
		chunk(d, nil)
	}
	if cut < len(pieces) {
		if reply.Fault == FaultDropConnection {
			x.abort()
		}
		return // truncated: no finish_reason, no [DONE]
	}
	chunk(map[string]any{}, finish)
	if c.StreamOptions != nil && c.StreamOptions.IncludeUsage {
		b, _ := json.Marshal(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": c.Model,
			"choices": []any{}, "usage": x.chatUsage(c, content, calls),
		})
		fmt.Fprintf(x.w, "data: %s\n\n", b)
	}
	fmt.Fprint(x.w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

// split cuts text into stream pieces of at most 8 runes, never inside a rune.
func split(s string) []string {
	var out []string
	for s != "" {
		n, i := 0, 0
		for i < len(s) && n < 8 {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			n++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}
