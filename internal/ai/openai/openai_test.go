package openai_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

const testKey = "sk-test-0123456789abcdefSECRET"

// newPair starts a server requiring testKey and a provider pointed at it.
func newPair(t *testing.T, cfg openai.Config, opts ...openaitest.Option) (*openaitest.Server, *openai.Provider) {
	t.Helper()
	srv := openaitest.NewServer(t, append([]openaitest.Option{openaitest.WithAPIKey(testKey)}, opts...)...)
	if cfg.APIKey == "" {
		cfg.APIKey = testKey
	}
	cfg.BaseURL = srv.URL
	p, err := openai.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return srv, p
}

// fastRetry is a reply header asking the SDK to retry after 5 ms, so that
// retry tests do not wait for the default backoff.
func fastRetry(r openaitest.Reply) openaitest.Reply {
	r.Header = http.Header{}
	r.Header.Set("retry-after-ms", "5")
	return r
}

func asError(t *testing.T, err error) *openai.Error {
	t.Helper()
	var e *openai.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *openai.Error", err, err)
	}
	return e
}

func TestStructuredTasksEndToEnd(t *testing.T) {
	srv, p := newPair(t, openai.Config{})
	ctx := context.Background()

	qa, err := ai.AnalyzeQuery(ctx, p, ai.QueryInput{Query: "roadmap Q3 slides", Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(qa.Keywords, []string{"roadmap", "q3", "slides"}) {
		t.Errorf("keywords = %q", qa.Keywords)
	}
	sum, err := ai.Summarize(ctx, p, ai.DocInput{Name: "設計書 v2", Text: "これは設計書です。詳細は以下。", MaxLength: 6})
	if err != nil || sum.Summary != "これは設計…" {
		t.Errorf("summary = %+v, %v", sum, err)
	}
	q, err := ai.Clarify(ctx, p, ai.ClarifyInput{Query: "report", Keywords: []string{"report"}, Total: 200,
		Hits: []ai.HitInfo{{ID: "1", Name: "alpha report"}, {ID: "2", Name: "beta report"}}})
	if err != nil || len(q.Choices) != 2 || q.Choices[0].Keyword != "alpha" {
		t.Errorf("clarify = %+v, %v", q, err)
	}
	ref, err := ai.Refine(ctx, p, ai.RefineInput{Answer: " beta "})
	if err != nil || ref.AddKeyword != "beta" {
		t.Errorf("refine = %+v, %v", ref, err)
	}
	rel, err := ai.Relax(ctx, p, ai.RelaxInput{Keywords: []string{"a", "b"}})
	if err != nil || !slices.Equal(rel.Keywords, []string{"a"}) {
		t.Errorf("relax = %+v, %v", rel, err)
	}
	order, err := ai.Rerank(ctx, p, ai.RerankInput{Query: "budget plan",
		Candidates: []ai.HitInfo{{ID: "x", Name: "holiday photos"}, {ID: "y", Name: "budget plan 2024"}}})
	if err != nil || !slices.Equal(order, []string{"y", "x"}) {
		t.Errorf("rerank = %q, %v", order, err)
	}

	reqs := srv.RequestsTo(openaitest.PathChat)
	want := []ai.Task{ai.TaskAnalyzeQuery, ai.TaskSummarize, ai.TaskClarify, ai.TaskRefine, ai.TaskRelax, ai.TaskRerank}
	if len(reqs) != len(want) {
		t.Fatalf("%d chat requests, want %d", len(reqs), len(want))
	}
	for i, r := range reqs {
		if r.Task != want[i] || !r.Strict || r.Model != openai.DefaultChatModel || r.Stream || !r.Authorized {
			t.Errorf("request %d = %+v", i, r)
		}
		if r.Header.Get("Authorization") != "" {
			t.Errorf("request %d: recorded the Authorization header", i)
		}
	}
}

func TestStreamAnswerEndToEnd(t *testing.T) {
	srv, p := newPair(t, openai.Config{ChatModel: "gpt-4.1-mini"})
	in := ai.AnswerInput{Question: "What is the budget?", Lang: "en",
		Contexts: []ai.AnswerContext{{Ref: 2, FileName: "plan.pdf", Text: "The budget is 3 million yen for the pilot."}}}
	var deltas []string
	err := ai.Answer(context.Background(), p, in, func(d string) error { deltas = append(deltas, d); return nil })
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	_ = ai.StreamText(context.Background(), openaitest.NewSimpleBackend(0), ai.Request{Input: in}, func(d string) error { want.WriteString(d); return nil })
	if got := strings.Join(deltas, ""); got != want.String() || len(deltas) < 2 {
		t.Errorf("streamed %d pieces %q, want %q in several pieces", len(deltas), got, want.String())
	}
	r := srv.RequestsTo(openaitest.PathChat)
	if len(r) != 1 || !r[0].Stream || r[0].Model != "gpt-4.1-mini" || r[0].Task != ai.TaskAnswer {
		t.Errorf("requests = %+v", r)
	}
}

func TestStreamCallbackErrorStops(t *testing.T) {
	_, p := newPair(t, openai.Config{})
	stop := errors.New("enough")
	n := 0
	err := ai.Answer(context.Background(), p, ai.AnswerInput{Question: "q", Contexts: []ai.AnswerContext{{Ref: 1, Text: "one two three four five"}}},
		func(string) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("err = %v after %d deltas, want the callback's error after 1", err, n)
	}
}

func TestStreamTruncatedAndDropped(t *testing.T) {
	for _, f := range []struct {
		fault openaitest.Fault
		kind  error
	}{{openaitest.FaultTruncatedStream, openai.ErrTruncated}, {openaitest.FaultDropConnection, openai.ErrConnection}} {
		t.Run(fmt.Sprint(f.fault), func(t *testing.T) {
			srv, p := newPair(t, openai.Config{MaxRetries: -1})
			srv.Enqueue(openaitest.Reply{Fault: f.fault, Deltas: []string{"a ", "b ", "c ", "d"}})
			var got string
			err := ai.StreamText(context.Background(), p, ai.Request{Messages: []ai.Message{{Role: "user", Content: "hi"}}},
				func(d string) error { got += d; return nil })
			if !errors.Is(err, f.kind) {
				t.Fatalf("err = %v, want %v", err, f.kind)
			}
			if got != "a b " {
				t.Errorf("delivered %q before the failure, want %q", got, "a b ")
			}
		})
	}
}

func TestEmbedBatchesInOrder(t *testing.T) {
	srv, p := newPair(t, openai.Config{BatchSize: 4}, openaitest.WithReversedEmbeddings())
	texts := make([]string, 10)
	for i := range texts {
		texts[i] = fmt.Sprintf("document number %d about topic %c", i, 'a'+i)
	}
	texts[7] = "" // empty inputs are sent as a space, not rejected
	got, err := p.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	sent := slices.Clone(texts)
	sent[7] = " "
	want, _ := openaitest.NewSimpleBackend(openaitest.DefaultSimpleDim).Embed(context.Background(), sent)
	if len(got) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(got), len(texts))
	}
	for i := range got {
		if len(got[i]) != 1536 {
			t.Fatalf("vector %d has %d dims, want 1536", i, len(got[i]))
		}
		if !slices.Equal(got[i][:openaitest.DefaultSimpleDim], want[i]) {
			t.Errorf("vector %d is not the embedding of text %d", i, i)
		}
	}
	var sizes []int
	for _, r := range srv.RequestsTo(openaitest.PathEmbeddings) {
		sizes = append(sizes, r.BatchSize)
		if r.Model != openai.DefaultEmbeddingModel || r.Encoding != "float" || r.Dimensions != 0 {
			t.Errorf("request = %+v", r)
		}
	}
	if !slices.Equal(sizes, []int{4, 4, 2}) {
		t.Errorf("batch sizes = %v, want [4 4 2]", sizes)
	}
	if m := p.EmbeddingModel(context.Background()); m != (ai.EmbeddingModel{Name: openai.DefaultEmbeddingModel, Dim: 1536}) {
		t.Errorf("embedding model = %+v", m)
	}
}

func TestEmbedRequestsReducedDimensions(t *testing.T) {
	srv, p := newPair(t, openai.Config{EmbeddingModel: "text-embedding-3-large", EmbeddingDim: 256})
	v, err := p.Embed(context.Background(), []string{"hello world"})
	if err != nil {
		t.Fatal(err)
	}
	if len(v[0]) != 256 || p.EmbeddingModel(context.Background()).Dim != 256 {
		t.Errorf("got %d dims, model %+v", len(v[0]), p.EmbeddingModel(context.Background()))
	}
	if r := srv.RequestsTo(openaitest.PathEmbeddings); len(r) != 1 || r[0].Dimensions != 256 {
		t.Errorf("requests = %+v", r)
	}
}

func TestUnknownModelDimensionIsProbedOnce(t *testing.T) {
	srv, p := newPair(t, openai.Config{EmbeddingModel: "openaitest-hash"})
	for range 3 {
		if m := p.EmbeddingModel(context.Background()); m.Dim != openaitest.DefaultSimpleDim {
			t.Fatalf("embedding model = %+v, want dim %d", m, openaitest.DefaultSimpleDim)
		}
	}
	if n := len(srv.RequestsTo(openaitest.PathEmbeddings)); n != 1 {
		t.Errorf("%d probe requests, want 1", n)
	}
}

func TestEmbedDimensionMismatch(t *testing.T) {
	_, p := newPair(t, openai.Config{EmbeddingModel: "openaitest-hash", EmbeddingDim: 32})
	_, err := p.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, openai.ErrDimension) || !strings.Contains(err.Error(), "64") {
		t.Errorf("err = %v, want a dimension mismatch naming 64", err)
	}
}

func TestEmbedWrongCountIsMalformed(t *testing.T) {
	srv, p := newPair(t, openai.Config{})
	srv.Enqueue(openaitest.Reply{Embeddings: [][]float32{{1, 2}}})
	_, err := p.Embed(context.Background(), []string{"a", "b"})
	if !errors.Is(err, openai.ErrMalformedResponse) || !strings.Contains(err.Error(), "1 embeddings for 2 inputs") {
		t.Errorf("err = %v", err)
	}
}

func TestRateLimitRetryHonoursRetryAfter(t *testing.T) {
	cases := []struct {
		name  string
		reply openaitest.Reply
		wait  time.Duration
	}{
		{"retry-after-ms", openaitest.RateLimited(150 * time.Millisecond), 150 * time.Millisecond},
		{"Retry-After seconds", openaitest.Reply{Status: http.StatusTooManyRequests,
			Header: http.Header{"Retry-After": {"1"}}}, time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, p := newPair(t, openai.Config{})
			c.reply.Path = openaitest.PathChat
			srv.Enqueue(c.reply)
			if _, err := ai.AnalyzeQuery(context.Background(), p, ai.QueryInput{Query: "minutes"}); err != nil {
				t.Fatal(err)
			}
			r := srv.RequestsTo(openaitest.PathChat)
			if len(r) != 2 || r[0].Status != http.StatusTooManyRequests || r[1].Status != http.StatusOK {
				t.Fatalf("requests = %+v, want a 429 then a 200", r)
			}
			if gap := r[1].Time.Sub(r[0].Time); gap < c.wait {
				t.Errorf("retried after %s, before the requested %s", gap, c.wait)
			}
			if r[1].Header.Get("X-Stainless-Retry-Count") != "1" {
				t.Errorf("retry count header = %q", r[1].Header.Get("X-Stainless-Retry-Count"))
			}
		})
	}
}

func TestServerErrorStormEndsInClearError(t *testing.T) {
	srv, p := newPair(t, openai.Config{MaxRetries: 2})
	srv.Enqueue(openaitest.Repeat(fastRetry(openaitest.ServerError(http.StatusInternalServerError)), 10)...)
	_, err := ai.AnalyzeQuery(context.Background(), p, ai.QueryInput{Query: "x"})
	if !errors.Is(err, openai.ErrServer) {
		t.Fatalf("err = %v, want ErrServer", err)
	}
	e := asError(t, err)
	if e.Attempts != 3 || e.Status != 500 {
		t.Errorf("attempts = %d, status = %d; want 3, 500", e.Attempts, e.Status)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("server saw %d requests, want 3", n)
	}
	host := strings.TrimPrefix(strings.TrimSuffix(srv.URL, "/v1"), "http://")
	for _, s := range []string{"after 3 attempts", "HTTP 500", host, "analyze_query"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %q", err, s)
		}
	}
	if strings.Contains(err.Error(), "/v1") {
		t.Errorf("error %q names more than the host", err)
	}
}

func TestMixedFaultsThenSuccess(t *testing.T) {
	srv, p := newPair(t, openai.Config{MaxRetries: 3})
	srv.Enqueue(fastRetry(openaitest.ServerError(http.StatusBadGateway)),
		fastRetry(openaitest.ServerError(http.StatusServiceUnavailable)),
		openaitest.Reply{Fault: openaitest.FaultDropConnection})
	v, err := p.Embed(context.Background(), []string{"a"})
	if err != nil || len(v) != 1 {
		t.Fatalf("embed = %d vectors, %v", len(v), err)
	}
	var st []int
	for _, r := range srv.Requests() {
		st = append(st, r.Status)
	}
	if !slices.Equal(st, []int{502, 503, 0, 200}) {
		t.Errorf("statuses = %v", st)
	}
}

func TestWrongKeyTellsUserToCheckKey(t *testing.T) {
	for _, lang := range []string{i18n.En, i18n.Ja} {
		t.Run(lang, func(t *testing.T) {
			srv, p := newPair(t, openai.Config{APIKey: "sk-wrong-key-987654321", Lang: lang})
			_, err := ai.AnalyzeQuery(context.Background(), p, ai.QueryInput{Query: "x"})
			if !errors.Is(err, openai.ErrUnauthorized) {
				t.Fatalf("err = %v", err)
			}
			msg := err.Error()
			want := "check OPENAI_API_KEY"
			if lang == i18n.Ja {
				want = "OPENAI_API_KEY を確認してください"
			}
			if !strings.Contains(msg, want) || !strings.Contains(msg, "401") {
				t.Errorf("error %q lacks %q or the status", msg, want)
			}
			if strings.Contains(msg, "987654321") {
				t.Errorf("error %q leaks the key", msg)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("401 was retried: %d requests", n)
			}
		})
	}
}

func TestMalformedReplies(t *testing.T) {
	cases := []struct {
		name  string
		reply openaitest.Reply
		kind  error
	}{
		{"cut JSON body", openaitest.Reply{Fault: openaitest.FaultMalformedJSON}, openai.ErrMalformedResponse},
		{"content not JSON", openaitest.Reply{Content: "Sure! Here are the keywords: a, b"}, openai.ErrMalformedResponse},
		{"cut at token limit", openaitest.Reply{Content: `{"keywords":["a"`, FinishReason: "length"}, openai.ErrTruncated},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, p := newPair(t, openai.Config{})
			srv.Enqueue(c.reply)
			_, err := ai.AnalyzeQuery(context.Background(), p, ai.QueryInput{Query: "x"})
			if !errors.Is(err, c.kind) {
				t.Fatalf("err = %v, want %v", err, c.kind)
			}
			if !strings.Contains(err.Error(), "chat completion") {
				t.Errorf("error %q does not say what failed", err)
			}
		})
	}
}

func TestFencedJSONIsAccepted(t *testing.T) {
	srv, p := newPair(t, openai.Config{})
	srv.ScriptTask(ai.TaskAnalyzeQuery, openaitest.Reply{Content: "```json\n{\"keywords\":[\"議事録\"],\"filters\":{\"modified_after\":\"\",\"modified_before\":\"\",\"file_type\":\"pdf\"}}\n```"})
	qa, err := ai.AnalyzeQuery(context.Background(), p, ai.QueryInput{Query: "x"})
	if err != nil || !slices.Equal(qa.Keywords, []string{"議事録"}) || qa.Filters.FileType != ai.FileTypePDF {
		t.Errorf("analysis = %+v, %v", qa, err)
	}
}

func TestContextCancellationStops(t *testing.T) {
	srv, p := newPair(t, openai.Config{})
	srv.ScriptTask(ai.TaskAnalyzeQuery, openaitest.Reply{Delay: time.Hour, Content: "{}"})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(srv.Requests()) == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := ai.AnalyzeQuery(ctx, p, ai.QueryInput{Query: "x"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests; a cancelled call must not retry", n)
	}
}

func TestAttemptTimeout(t *testing.T) {
	srv, p := newPair(t, openai.Config{Timeout: 50 * time.Millisecond, MaxRetries: -1})
	srv.Enqueue(openaitest.Reply{Delay: time.Hour})
	_, err := p.Embed(context.Background(), []string{"a"})
	if !errors.Is(err, openai.ErrTimeout) {
		t.Errorf("err = %v, want ErrTimeout", err)
	}
}

func TestModelNotFound(t *testing.T) {
	_, p := newPair(t, openai.Config{ChatModel: "no-such-model"}, openaitest.WithModels("gpt-4o-mini"))
	_, err := ai.AnalyzeQuery(context.Background(), p, ai.QueryInput{Query: "x"})
	if !errors.Is(err, openai.ErrModelNotFound) || !strings.Contains(err.Error(), "no-such-model") {
		t.Errorf("err = %v", err)
	}
}

// The missing key is said in the reader's language, whatever the
// provider's language.
func TestNoAPIKeyIsSaidInTheReadersLanguage(t *testing.T) {
	_, err := openai.New(openai.Config{Lang: i18n.Ja})
	if !errors.Is(err, apperr.Config) {
		t.Errorf("err %v is not a configuration error", err)
	}
	for lang, want := range map[string]string{i18n.En: "OPENAI_API_KEY is not set", i18n.Ja: "OPENAI_API_KEY が設定されていません"} {
		if got := apperr.Message(err, lang); !strings.Contains(got, want) {
			t.Errorf("message in %s = %q, want it to contain %q", lang, got, want)
		}
	}
}

func TestNewRequiresKeyOnlyForOpenAI(t *testing.T) {
	if _, err := openai.New(openai.Config{}); !errors.Is(err, openai.ErrNoAPIKey) {
		t.Errorf("no key, default URL: err = %v, want ErrNoAPIKey", err)
	}
	if _, err := openai.New(openai.Config{BaseURL: "ftp://example.com/v1"}); err == nil {
		t.Error("ftp base URL accepted")
	}
	if _, err := openai.New(openai.Config{BaseURL: "http://localhost:11434/v1"}); err != nil {
		t.Errorf("local server without key: %v", err)
	}
	if _, err := openai.New(openai.Config{APIKey: "k", EmbeddingDim: 4096}); err == nil {
		t.Error("4096 dims accepted for text-embedding-3-small")
	}
}

func TestNoKeySendsNoCredentialsAndIgnoresEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", testKey)
	t.Setenv("OPENAI_ADMIN_KEY", testKey)
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	srv := openaitest.NewServer(t, openaitest.WithAPIKey(testKey))
	p, err := openai.New(openai.Config{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Embed(context.Background(), []string{"a"})
	if !errors.Is(err, openai.ErrUnauthorized) || !strings.Contains(err.Error(), "didn't provide an API key") {
		t.Errorf("err = %v; the provider must send no key it was not configured with", err)
	}
	if r := srv.Requests(); len(r) != 1 || r[0].Authorized {
		t.Errorf("requests = %+v", r)
	}
}

func TestKeyNeverPrinted(t *testing.T) {
	srv, p := newPair(t, openai.Config{MaxRetries: -1})
	cfg := openai.Config{APIKey: testKey, BaseURL: srv.URL}
	srv.Enqueue(openaitest.Reply{Status: http.StatusBadRequest, Message: "bad request from key " + testKey})
	_, err1 := p.Embed(context.Background(), []string{"a"})
	srv.Enqueue(openaitest.Reply{Status: http.StatusUnauthorized, Message: "Incorrect API key provided: sk-test-***************CRET."})
	_, err2 := p.Embed(context.Background(), []string{"a"})
	if err1 == nil || err2 == nil {
		t.Fatal("scripted errors did not fail")
	}
	for _, s := range []string{
		fmt.Sprint(cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg),
		fmt.Sprint(p), fmt.Sprintf("%+v", p), fmt.Sprintf("%#v", p), p.String(),
		err1.Error(), err2.Error(), fmt.Sprintf("%+v", err1), fmt.Sprintf("%#v", asError(t, err1)),
	} {
		if strings.Contains(s, testKey) || strings.Contains(s, "CRET") {
			t.Errorf("%q shows the key", s)
		}
	}
	if !strings.Contains(err1.Error(), "[redacted]") {
		t.Errorf("error %q: the server's message was not kept with the key redacted", err1)
	}
}

func TestConnectionRefused(t *testing.T) {
	srv := openaitest.Start()
	base := srv.URL
	srv.Close()
	p, err := openai.New(openai.Config{BaseURL: base, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Embed(context.Background(), []string{"a"})
	if !errors.Is(err, openai.ErrConnection) || !strings.Contains(err.Error(), "OPENAI_BASE_URL") {
		t.Errorf("err = %v", err)
	}
}

// toServer sends every request to srv, whatever host it was addressed to,
// so that the provider's api.openai.com behaviour can be tested locally.
type toServer struct{ base *url.URL }

func (t toServer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = t.base.Scheme, t.base.Host
	r.Host = t.base.Host
	return http.DefaultTransport.RoundTrip(r)
}

func officialPair(t *testing.T, cfg openai.Config) (*openaitest.Server, *openai.Provider) {
	t.Helper()
	srv := openaitest.NewServer(t, openaitest.WithAPIKey(testKey))
	u, _ := url.Parse(srv.URL)
	cfg.APIKey, cfg.HTTPClient = testKey, &http.Client{Transport: toServer{u}}
	p, err := openai.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return srv, p
}

func TestOfficialAPIUsesBase64Embeddings(t *testing.T) {
	srv, p := officialPair(t, openai.Config{BatchSize: 3})
	if p.Host() != "api.openai.com" {
		t.Fatalf("host = %q", p.Host())
	}
	texts := []string{"alpha report", "beta plan", "gamma notes", "delta"}
	got, err := p.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := openaitest.NewSimpleBackend(0).Embed(context.Background(), texts)
	for i := range texts {
		if len(got[i]) != 1536 || !slices.Equal(got[i][:openaitest.DefaultSimpleDim], want[i]) {
			t.Errorf("vector %d does not decode to the embedding of its text", i)
		}
	}
	for _, r := range srv.RequestsTo(openaitest.PathEmbeddings) {
		if r.Encoding != "base64" {
			t.Errorf("encoding_format = %q, want base64 for api.openai.com", r.Encoding)
		}
	}
}

// An unreachable server's hint names the offline provider (in the user's
// language); other failures keep their kind's hint.
func TestUnreachableHintNamesOffline(t *testing.T) {
	srv := openaitest.Start()
	base := srv.URL
	srv.Close()
	p, err := openai.New(openai.Config{APIKey: testKey, BaseURL: base, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Embed(context.Background(), []string{"a"})
	if !errors.Is(err, apperr.Unavailable) {
		t.Fatalf("err %v, want apperr.Unavailable", err)
	}
	if !strings.Contains(err.Error(), "GDS_AI_PROVIDER=offline") {
		t.Errorf("error text %q lacks GDS_AI_PROVIDER=offline (crawl's per-file lines show it)", err)
	}
	for _, lang := range []string{i18n.En, i18n.Ja} {
		if h := apperr.Hint(err, lang); !strings.Contains(h, "GDS_AI_PROVIDER=offline") {
			t.Errorf("%s hint %q lacks GDS_AI_PROVIDER=offline", lang, h)
		}
	}
	rl := &openai.Error{Op: "embeddings", Host: "h", Status: 429, Kind: openai.ErrRateLimited}
	if h := apperr.Hint(rl, i18n.En); strings.Contains(h, "offline") || h == "" {
		t.Errorf("rate-limit hint %q", h)
	}
}

// countingRefuser is a transport that refuses every connection and counts
// the attempts.
type countingRefuser struct{ n *atomic.Int32 }

func (c countingRefuser) RoundTrip(*http.Request) (*http.Response, error) {
	c.n.Add(1)
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
}

// Once a call found the server unreachable (retries spent), the next calls
// of the same provider — the rest of one command — fail at once with the
// offline hint and send nothing, until UnreachableFor has passed.
func TestUnreachableServerIsNotRetriedByEveryCall(t *testing.T) {
	var n atomic.Int32
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	p, err := openai.New(openai.Config{BaseURL: "http://gds.invalid/v1", MaxRetries: 1, EmbeddingDim: 8,
		HTTPClient: &http.Client{Transport: countingRefuser{&n}}, UnreachableFor: time.Minute, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, err = p.Embed(ctx, []string{"a"})
	if !errors.Is(err, openai.ErrConnection) || n.Load() != 2 {
		t.Fatalf("first call: %v after %d attempts, want ErrConnection after 2", err, n.Load())
	}
	now = now.Add(10 * time.Second)
	calls := []func() error{
		func() error { _, err := p.Embed(ctx, []string{"b"}); return err },
		func() error {
			_, err := p.Structured(ctx, ai.Request{Messages: []ai.Message{{Role: "user", Content: "hi"}},
				Schema: &ai.Schema{Name: "x", Schema: map[string]any{"type": "object"}}})
			return err
		},
		func() error {
			return ai.StreamText(ctx, p, ai.Request{Messages: []ai.Message{{Role: "user", Content: "hi"}}}, func(string) error { return nil })
		},
		func() error {
			_, err := p.CallTools(ctx, ai.Request{Messages: []ai.Message{{Role: "user", Content: "hi"}}})
			return err
		},
	}
	for i, call := range calls {
		err := call()
		if !errors.Is(err, openai.ErrConnection) || !errors.Is(err, apperr.Unavailable) {
			t.Fatalf("call %d: %v", i, err)
		}
		if h := apperr.Hint(err, i18n.En); !strings.Contains(h, "GDS_AI_PROVIDER=offline") {
			t.Errorf("call %d: hint %q does not name the offline provider", i, h)
		}
		if !strings.Contains(err.Error(), "not tried again") || !strings.Contains(err.Error(), "10s ago") {
			t.Errorf("call %d: %v", i, err)
		}
	}
	if n.Load() != 2 {
		t.Errorf("calls while the server was marked unreachable sent %d more requests", n.Load()-2)
	}
	now = now.Add(time.Minute) // the server is tried again
	if _, err := p.Embed(ctx, []string{"c"}); !errors.Is(err, openai.ErrConnection) || n.Load() != 4 {
		t.Errorf("after UnreachableFor: %v, %d attempts in all (want 4)", err, n.Load())
	}
}
