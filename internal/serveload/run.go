package serveload

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Options configure a run.
type Options struct {
	// URL is the server's base URL (loopback only, see CheckTarget).
	URL string
	// Token, when set, is sent as "Authorization: Bearer TOKEN".
	Token string
	// ChatClients and SearchClients are the concurrent clients of each
	// kind; each sends one request after another.
	ChatClients, SearchClients int
	// Duration is how long clients start new requests.
	Duration time.Duration
	// Grace bounds how long requests in flight at the end of Duration may
	// take to finish; those still running then count as dropped. <= 0: 30s.
	Grace time.Duration
	// Queries are asked and searched in turn (each client starts at its
	// own offset). At least one is required.
	Queries []string
	// TopK is sent with every request (0: the server's default).
	TopK int
	// Client sends the requests (nil: a client with enough idle
	// connections for every load client).
	Client *http.Client
	// Baseline, when positive, first sends that many chat streams and
	// searches one at a time (alternating, no other load): the same-run
	// baseline the loaded latencies are compared with (Report.Baseline).
	Baseline int
}

// Run loads the server as opts say and reports what happened. Its error is
// for a run that could not start (a bad target, no queries); error
// responses and dropped requests are in the report (Report.Failures).
func Run(ctx context.Context, opts Options) (Report, error) {
	if err := CheckTarget(opts.URL); err != nil {
		return Report{}, err
	}
	if len(opts.Queries) == 0 {
		return Report{}, errors.New("no queries to send")
	}
	if opts.ChatClients < 0 || opts.SearchClients < 0 || opts.ChatClients+opts.SearchClients == 0 {
		return Report{}, errors.New("need at least one chat or search client, and no negative counts")
	}
	if opts.Duration <= 0 {
		return Report{}, errors.New("the duration must be positive")
	}
	if opts.Grace <= 0 {
		opts.Grace = 30 * time.Second
	}
	client := opts.Client
	if client == nil {
		n := opts.ChatClients + opts.SearchClients
		tr := &http.Transport{MaxIdleConns: n, MaxIdleConnsPerHost: n, IdleConnTimeout: time.Minute, DisableCompression: true}
		defer tr.CloseIdleConnections()
		client = &http.Client{Transport: tr}
	}
	base := strings.TrimSuffix(opts.URL, "/")
	l := &loader{client: client, base: base, token: opts.Token, topK: opts.TopK}

	var baseline *Baseline
	if opts.Baseline > 0 {
		bctx, bcancel := context.WithTimeout(ctx, time.Duration(opts.Baseline)*2*opts.Grace)
		var chat, search []sample
		t0 := time.Now()
		for i := range opts.Baseline {
			q := opts.Queries[i%len(opts.Queries)]
			if opts.ChatClients > 0 {
				chat = append(chat, l.chat(bctx, q))
			}
			if opts.SearchClients > 0 {
				search = append(search, l.search(bctx, q))
			}
		}
		bcancel()
		el := time.Since(t0)
		baseline = &Baseline{Requests: opts.Baseline, Chat: summarizeKind(min(opts.ChatClients, 1), chat, el, true),
			Search: summarizeKind(min(opts.SearchClients, 1), search, el, false)}
	}

	start := time.Now()
	stopAt := start.Add(opts.Duration)
	hard, cancel := context.WithDeadline(ctx, stopAt.Add(opts.Grace))
	defer cancel()

	chat := make([][]sample, opts.ChatClients)
	search := make([][]sample, opts.SearchClients)
	var wg sync.WaitGroup
	worker := func(out *[]sample, offset int, one func(context.Context, string) sample) {
		defer wg.Done()
		for i := offset; time.Now().Before(stopAt) && ctx.Err() == nil; i++ {
			*out = append(*out, one(hard, opts.Queries[i%len(opts.Queries)]))
		}
	}
	for c := range chat {
		wg.Add(1)
		go worker(&chat[c], c*7, l.chat)
	}
	for c := range search {
		wg.Add(1)
		go worker(&search[c], c*7+3, l.search)
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := ctx.Err(); err != nil {
		return Report{}, fmt.Errorf("load run interrupted: %w", err)
	}
	return Report{
		Target: base, Duration: elapsed, Seconds: elapsed.Seconds(), Queries: len(opts.Queries),
		Chat:     summarizeKind(opts.ChatClients, flatten(chat), elapsed, true),
		Search:   summarizeKind(opts.SearchClients, flatten(search), elapsed, false),
		Baseline: baseline,
	}, nil
}

func flatten(ss [][]sample) []sample {
	var out []sample
	for _, s := range ss {
		out = append(out, s...)
	}
	return out
}

// loader sends the requests.
type loader struct {
	client *http.Client
	base   string
	token  string
	topK   int
}

func (l *loader) post(ctx context.Context, path string, body map[string]any) (*http.Response, error) {
	if l.topK > 0 {
		body["top_k"] = l.topK
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.base+path, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if l.token != "" {
		req.Header.Set("Authorization", "Bearer "+l.token)
	}
	return l.client.Do(req)
}

// errorSample reads a non-200 answer.
func errorSample(resp *http.Response) sample {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	return sample{outcome: failed, status: resp.StatusCode, detail: fmt.Sprintf("status %d: %s", resp.StatusCode, truncate(strings.TrimSpace(string(b)), 200))}
}

// search sends one search and checks its answer is the endpoint's JSON.
func (l *loader) search(ctx context.Context, q string) sample {
	t0 := time.Now()
	resp, err := l.post(ctx, "/api/v1/search", map[string]any{"query": q})
	if err != nil {
		return sample{outcome: dropped, detail: "search: " + err.Error()}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errorSample(resp)
	}
	var body struct {
		Results *[]json.RawMessage `json:"results"`
		Total   int                `json:"total"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		if ctx.Err() != nil || errors.Is(err, io.ErrUnexpectedEOF) {
			return sample{outcome: dropped, status: resp.StatusCode, detail: "search: body cut off: " + err.Error()}
		}
		return sample{outcome: failed, status: resp.StatusCode, detail: "search: body is not JSON: " + err.Error()}
	}
	if body.Results == nil || body.Total != len(*body.Results) {
		return sample{outcome: failed, status: resp.StatusCode, detail: "search: body lacks results or its total is wrong"}
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return sample{outcome: ok, status: resp.StatusCode, latency: time.Since(t0)}
}

// chat asks one question through chat/stream and reads the stream to its
// done frame.
func (l *loader) chat(ctx context.Context, q string) sample {
	t0 := time.Now()
	resp, err := l.post(ctx, "/api/v1/chat/stream", map[string]any{"question": q})
	if err != nil {
		return sample{outcome: dropped, detail: "chat/stream: " + err.Error()}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errorSample(resp)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		return sample{outcome: failed, status: resp.StatusCode, detail: "chat/stream: content type " + ct}
	}
	var ttff time.Duration
	res, err := readStream(resp.Body, func() { ttff = time.Since(t0) })
	s := sample{status: resp.StatusCode, latency: time.Since(t0), ttff: ttff, frames: res.frames}
	switch {
	case errors.Is(err, errStreamMalformed):
		s.outcome, s.detail = failed, "chat/stream: "+err.Error()
	case err != nil:
		s.outcome, s.detail = dropped, fmt.Sprintf("chat/stream: ended after %d frames without the done frame: %v", res.frames, err)
	case res.errMsg != "":
		s.outcome, s.detail = failed, "chat/stream: "+res.errMsg
	default:
		_, _ = io.Copy(io.Discard, resp.Body)
		s.outcome = ok
	}
	return s
}
