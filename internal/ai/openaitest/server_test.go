package openaitest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
)

const key = "sk-server-test-key"

// do sends a raw request and decodes the JSON answer into out (if non-nil).
func do(t *testing.T, srv *openaitest.Server, method, path, auth string, body any, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, strings.TrimSuffix(srv.URL, "/v1")+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: body %q: %v", method, path, raw, err)
		}
	}
	return res.StatusCode
}

type apiErr struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

func TestAuthentication(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithAPIKey(key))
	var e apiErr
	if st := do(t, srv, "GET", openaitest.PathModels, "", nil, &e); st != 401 || e.Error.Code != nil || !strings.Contains(e.Error.Message, "didn't provide an API key") {
		t.Errorf("no key: %d %+v", st, e)
	}
	e = apiErr{}
	if st := do(t, srv, "GET", openaitest.PathModels, "sk-wrong", nil, &e); st != 401 || e.Error.Code == nil || *e.Error.Code != "invalid_api_key" || e.Error.Type != "invalid_request_error" {
		t.Errorf("wrong key: %d %+v", st, e)
	}
	var models struct {
		Object string `json:"object"`
		Data   []struct {
			ID     string `json:"id"`
			Object string `json:"object"`
		} `json:"data"`
	}
	if st := do(t, srv, "GET", openaitest.PathModels, key, nil, &models); st != 200 || models.Object != "list" {
		t.Fatalf("models: %d %+v", st, models)
	}
	var ids []string
	for _, m := range models.Data {
		ids = append(ids, m.ID)
	}
	if !slices.Equal(ids, []string{"gpt-4o-mini", "text-embedding-3-small", "openaitest-hash"}) {
		t.Errorf("models = %q", ids)
	}
	for _, r := range srv.Requests() {
		if len(r.Header.Values("Authorization")) != 0 {
			t.Errorf("recorded Authorization header: %+v", r)
		}
	}
	if r := srv.Requests(); len(r) != 3 || r[0].Authorized || r[1].Authorized || !r[2].Authorized {
		t.Errorf("authorized flags = %+v", r)
	}
}

func TestRoutingErrors(t *testing.T) {
	srv := openaitest.NewServer(t)
	var e apiErr
	if st := do(t, srv, "POST", "/v1/completions", "", map[string]any{}, &e); st != 404 || e.Error.Code == nil || *e.Error.Code != "unknown_url" {
		t.Errorf("unknown path: %d %+v", st, e)
	}
	if st := do(t, srv, "GET", openaitest.PathChat, "", nil, &e); st != 405 {
		t.Errorf("GET chat: %d", st)
	}
	e = apiErr{}
	if st := do(t, srv, "POST", openaitest.PathChat, "", map[string]any{"model": "m"}, &e); st != 400 || !strings.Contains(e.Error.Message, "messages") {
		t.Errorf("no messages: %d %+v", st, e)
	}
}

type embResp struct {
	Object string `json:"object"`
	Model  string `json:"model"`
	Data   []struct {
		Index     int             `json:"index"`
		Object    string          `json:"object"`
		Embedding json.RawMessage `json:"embedding"`
	} `json:"data"`
}

func (r embResp) vectors(t *testing.T) [][]float32 {
	t.Helper()
	out := make([][]float32, len(r.Data))
	for _, d := range r.Data {
		var v []float32
		if err := json.Unmarshal(d.Embedding, &v); err != nil {
			var s string
			if err := json.Unmarshal(d.Embedding, &s); err != nil {
				t.Fatalf("embedding %s is neither floats nor base64", d.Embedding)
			}
			if v, err = openaitest.DecodeBase64(s); err != nil {
				t.Fatal(err)
			}
		}
		out[d.Index] = v
	}
	return out
}

func TestEmbeddingsEncodingsAndDimensions(t *testing.T) {
	srv := openaitest.NewServer(t)
	in := []string{"quarterly budget", "議事録 2024", "quarterly budget"}
	var f, b, d embResp
	if st := do(t, srv, "POST", openaitest.PathEmbeddings, "", map[string]any{"model": "text-embedding-3-small", "input": in}, &f); st != 200 {
		t.Fatalf("float: %d", st)
	}
	if st := do(t, srv, "POST", openaitest.PathEmbeddings, "", map[string]any{"model": "text-embedding-3-small", "input": in, "encoding_format": "base64"}, &b); st != 200 {
		t.Fatalf("base64: %d", st)
	}
	fv, bv := f.vectors(t), b.vectors(t)
	if len(fv) != 3 || len(fv[0]) != 1536 || f.Object != "list" || f.Data[0].Object != "embedding" {
		t.Fatalf("float answer: %d vectors, first %d dims", len(fv), len(fv[0]))
	}
	for i := range fv {
		if !slices.Equal(fv[i], bv[i]) {
			t.Errorf("vector %d differs between float and base64", i)
		}
	}
	if !slices.Equal(fv[0], fv[2]) || slices.Equal(fv[0], fv[1]) {
		t.Error("equal texts must embed equally, different texts differently")
	}
	if st := do(t, srv, "POST", openaitest.PathEmbeddings, "", map[string]any{"model": "text-embedding-3-large", "input": "x y z", "dimensions": 8}, &d); st != 200 {
		t.Fatalf("dimensions: %d", st)
	}
	v := d.vectors(t)[0]
	var norm float64
	for _, x := range v {
		norm += float64(x) * float64(x)
	}
	if len(v) != 8 || math.Abs(norm-1) > 1e-5 {
		t.Errorf("dimensions=8: %d values, norm² %f", len(v), norm)
	}
	if r := srv.RequestsTo(openaitest.PathEmbeddings); len(r) != 3 || r[0].BatchSize != 3 || r[1].Encoding != "base64" || r[2].Dimensions != 8 || r[2].BatchSize != 1 {
		t.Errorf("recorded = %+v", r)
	}

	for name, body := range map[string]map[string]any{
		"empty string":       {"model": "text-embedding-3-small", "input": []string{"a", ""}},
		"ada dimensions":     {"model": "text-embedding-ada-002", "input": "a", "dimensions": 8},
		"too many dims":      {"model": "text-embedding-3-small", "input": "a", "dimensions": 4000},
		"token arrays":       {"model": "text-embedding-3-small", "input": []int{1, 2}},
		"bad encoding":       {"model": "text-embedding-3-small", "input": "a", "encoding_format": "int8"},
		"missing model":      {"input": "a"},
		"no inputs":          {"model": "text-embedding-3-small", "input": []string{}},
		"negative dimension": {"model": "text-embedding-3-small", "input": "a", "dimensions": -1},
	} {
		var e apiErr
		if st := do(t, srv, "POST", openaitest.PathEmbeddings, "", body, &e); st != 400 || e.Error.Message == "" {
			t.Errorf("%s: %d %+v", name, st, e)
		}
	}
}

func chatBody(schema *ai.Schema, strict bool, user string, stream bool) map[string]any {
	b := map[string]any{"model": "gpt-4o-mini", "stream": stream, "messages": []any{
		map[string]any{"role": "system", "content": "be brief"},
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": user}}},
	}}
	if schema != nil {
		b["response_format"] = map[string]any{"type": "json_schema",
			"json_schema": map[string]any{"name": schema.Name, "schema": schema.Schema, "strict": strict}}
	}
	return b
}

type chatResp struct {
	Object  string `json:"object"`
	Choices []struct {
		Message struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		TotalTokens int `json:"total_tokens"`
	} `json:"usage"`
}

func TestStructuredChatUsesBackend(t *testing.T) {
	srv := openaitest.NewServer(t)
	in, _ := json.Marshal(ai.RerankInput{Query: "budget", Candidates: []ai.HitInfo{{ID: "a", Name: "cats"}, {ID: "b", Name: "budget 2024"}}})
	var r chatResp
	if st := do(t, srv, "POST", openaitest.PathChat, "", chatBody(ai.SchemaRerank(), true, string(in), false), &r); st != 200 {
		t.Fatalf("status %d", st)
	}
	if r.Object != "chat.completion" || len(r.Choices) != 1 || r.Choices[0].FinishReason != "stop" || r.Choices[0].Message.Role != "assistant" || r.Usage.TotalTokens == 0 {
		t.Fatalf("answer = %+v", r)
	}
	var out ai.RerankResult
	if err := json.Unmarshal([]byte(r.Choices[0].Message.Content), &out); err != nil || !slices.Equal(out.Order, []string{"b", "a"}) {
		t.Errorf("content %q: %v", r.Choices[0].Message.Content, err)
	}
	if rec := srv.Requests()[0]; rec.Task != ai.TaskRerank || rec.Schema != "rerank" || !rec.Strict {
		t.Errorf("recorded = %+v", rec)
	}

	var e apiErr
	if st := do(t, srv, "POST", openaitest.PathChat, "", chatBody(ai.SchemaRerank(), true, "not json", false), &e); st != 400 || !strings.Contains(e.Error.Message, "rerank") {
		t.Errorf("non-JSON input: %d %+v", st, e)
	}
	loose := &ai.Schema{Name: "loose", Schema: map[string]any{"type": "object",
		"properties": map[string]any{"a": map[string]any{"type": "string"}}, "required": []string{}, "additionalProperties": false}}
	if st := do(t, srv, "POST", openaitest.PathChat, "", chatBody(loose, true, "{}", false), &e); st != 400 || !strings.Contains(e.Error.Message, "Missing 'a'") {
		t.Errorf("non-strict schema under strict: %d %+v", st, e)
	}
	if st := do(t, srv, "POST", openaitest.PathChat, "", chatBody(loose, false, "{}", false), &e); st != 400 || !strings.Contains(e.Error.Message, "no backend task") {
		t.Errorf("unknown schema: %d %+v", st, e)
	}
}

// sse reads the data lines of a streamed answer.
func sse(t *testing.T, srv *openaitest.Server, body map[string]any) []string {
	t.Helper()
	b, _ := json.Marshal(body)
	res, err := srv.Client().Post(strings.TrimSuffix(srv.URL, "/v1")+openaitest.PathChat, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	var data []string
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			data = append(data, d)
		}
	}
	return data
}

func TestStreamingWireFormat(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.ScriptTask(ai.TaskAnswer, openaitest.Reply{Content: "こんにちは、世界。Hello, world! [1]"})
	body := chatBody(nil, false, "hi", true)
	body["stream_options"] = map[string]any{"include_usage": true}
	data := sse(t, srv, body)
	if len(data) < 5 || data[len(data)-1] != "[DONE]" {
		t.Fatalf("events = %q", data)
	}
	var text strings.Builder
	var finishes []string
	sawUsage := false
	for i, d := range data[:len(data)-1] {
		var c struct {
			Object  string `json:"object"`
			Choices []struct {
				Delta struct {
					Role    string `json:"role"`
					Content string `json:"content"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage *struct {
				TotalTokens int `json:"total_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal([]byte(d), &c); err != nil || c.Object != "chat.completion.chunk" {
			t.Fatalf("chunk %d %q: %v", i, d, err)
		}
		if i == 0 && (len(c.Choices) != 1 || c.Choices[0].Delta.Role != "assistant") {
			t.Errorf("first chunk %q has no assistant role", d)
		}
		for _, ch := range c.Choices {
			text.WriteString(ch.Delta.Content)
			if ch.FinishReason != nil {
				finishes = append(finishes, *ch.FinishReason)
			}
		}
		if c.Usage != nil && c.Usage.TotalTokens > 0 {
			sawUsage = len(c.Choices) == 0
		}
	}
	if text.String() != "こんにちは、世界。Hello, world! [1]" || !slices.Equal(finishes, []string{"stop"}) || !sawUsage {
		t.Errorf("text %q, finishes %q, usage chunk %v", text.String(), finishes, sawUsage)
	}

	srv.Enqueue(openaitest.Reply{Fault: openaitest.FaultTruncatedStream, Deltas: []string{"a", "b", "c", "d"}})
	cut := sse(t, srv, chatBody(nil, false, "hi", true))
	if len(cut) != 3 || slices.Contains(cut, "[DONE]") {
		t.Errorf("truncated stream events = %q, want role + 2 deltas, no [DONE]", cut)
	}
}

func TestQueueMatchesPathAndTask(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Enqueue(openaitest.Reply{Task: ai.TaskRerank, Status: 503},
		openaitest.Reply{Path: openaitest.PathEmbeddings, Status: 429})
	in, _ := json.Marshal(ai.QueryInput{Query: "q"})
	if st := do(t, srv, "POST", openaitest.PathChat, "", chatBody(ai.SchemaQueryAnalysis(), true, string(in), false), nil); st != 200 {
		t.Errorf("analyze_query took a reply scripted for another task: %d", st)
	}
	if srv.Pending() != 2 {
		t.Errorf("pending = %d", srv.Pending())
	}
	var e apiErr
	if st := do(t, srv, "POST", openaitest.PathEmbeddings, "", map[string]any{"model": "text-embedding-3-small", "input": "a"}, &e); st != 429 || e.Error.Code == nil || *e.Error.Code != "rate_limit_exceeded" {
		t.Errorf("embeddings: %d %+v", st, e)
	}
	rin, _ := json.Marshal(ai.RerankInput{})
	if st := do(t, srv, "POST", openaitest.PathChat, "", chatBody(ai.SchemaRerank(), true, string(rin), false), &e); st != 503 || e.Error.Type != "server_error" {
		t.Errorf("rerank: %d %+v", st, e)
	}
	if srv.Pending() != 0 {
		t.Errorf("pending = %d", srv.Pending())
	}
	srv.Reset()
	if len(srv.Requests()) != 0 {
		t.Error("Reset kept requests")
	}
}

func TestDropConnection(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.Enqueue(openaitest.Reply{Fault: openaitest.FaultDropConnection})
	b := strings.NewReader(`{"model":"text-embedding-3-small","input":"a"}`)
	res, err := srv.Client().Post(strings.TrimSuffix(srv.URL, "/v1")+openaitest.PathEmbeddings, "application/json", b)
	if err == nil {
		res.Body.Close()
		t.Fatalf("got a response (%d), want a dropped connection", res.StatusCode)
	}
	if r := srv.Requests(); len(r) != 1 || r[0].Status != 0 {
		t.Errorf("recorded = %+v", r)
	}
}

func TestSimpleBackendEmbeddingsAreMeaningful(t *testing.T) {
	v, err := openaitest.NewSimpleBackend(256).Embed(context.Background(), []string{
		"quarterly budget review meeting", "budget review for the quarter", "photos from the beach holiday"})
	if err != nil {
		t.Fatal(err)
	}
	dot := func(a, b []float32) (s float32) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	if dot(v[0], v[1]) <= dot(v[0], v[2]) {
		t.Errorf("related texts (%.3f) are not closer than unrelated ones (%.3f)", dot(v[0], v[1]), dot(v[0], v[2]))
	}
}
