package federate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/federate"
)

// fakeService answers searches from fixed outputs and fetches from a map;
// it counts calls and the fetches in flight.
type fakeService struct {
	out      federate.ToolOutput
	err      error
	bodies   map[string]string // issue number / id / thread → body
	fetchErr error

	mu       sync.Mutex
	searches []map[string]any
	fetches  []federate.FetchCall
	gate     *gate
}

func (f *fakeService) Search(_ context.Context, tool string, args map[string]any) (federate.ToolOutput, error) {
	f.mu.Lock()
	f.searches = append(f.searches, args)
	f.mu.Unlock()
	return f.out, f.err
}

func (f *fakeService) Fetch(_ context.Context, c federate.FetchCall) (federate.ToolOutput, error) {
	f.mu.Lock()
	f.fetches = append(f.fetches, c)
	f.mu.Unlock()
	if f.gate != nil {
		f.gate.pass()
	}
	if f.fetchErr != nil {
		return federate.ToolOutput{}, f.fetchErr
	}
	for _, v := range c.Args {
		if b, ok := f.bodies[fmt.Sprint(v)]; ok {
			return federate.ToolOutput{Text: b}, nil
		}
	}
	return federate.ToolOutput{}, nil
}

// gate holds each fetch until another is in flight (or none can come),
// and records the most fetches seen in flight at once.
type gate struct {
	mu              sync.Mutex
	cond            *sync.Cond
	in, max, n, all int
	want            int
}

func newGate(total, want int) *gate {
	g := &gate{all: total, want: want}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *gate) pass() {
	g.mu.Lock()
	g.in++
	g.n++
	g.max = max(g.max, g.in)
	g.cond.Broadcast()
	for g.in < g.want && g.n < g.all {
		g.cond.Wait()
	}
	g.in--
	g.cond.Broadcast()
	g.mu.Unlock()
}

func servers(t *testing.T) (slack, github, drive federate.Server) {
	d := defaults(t)
	return d["slack"], d["github"], d["drive"]
}

const slackCSV = "MsgID,UserID,UserName,RealName,Channel,ThreadTs,Text,Time,Reactions,Cursor\n" +
	"1.1,U04ALICE01,alice,Alice,#alpha,,Alpha design review moved to Thursday,2026,,\n" +
	"2.2,U04ALICE01,alice,Alice,#alpha,,Alpha retention decided: 30 days,2026,,\n" +
	"3.3,U04BOBBY02,bob,Bob,#alpha,,Alpha dashboard beta slipped,2026,,\n" +
	"4.4,U04BOBBY02,bob,Bob,#alpha,,Alpha fourth message,2026,,\n"

func githubJSON(n int) string {
	var items []string
	for i := 1; i <= n; i++ {
		items = append(items, fmt.Sprintf(`{"number":%d,"title":"Alpha issue %d","body":"snippet %d","html_url":"https://github.com/acme/alpha/issues/%d","repository_url":"https://api.github.com/repos/acme/alpha"}`, i, i, i, i))
	}
	return `{"items":[` + strings.Join(items, ",") + `]}`
}

func driveJSON(n int) json.RawMessage {
	var rs []string
	for i := 1; i <= n; i++ {
		rs = append(rs, fmt.Sprintf(`{"id":"F%d","name":"Alpha doc %d","summary":"summary %d","link":"https://docs.google.com/document/d/F%d/edit"}`, i, i, i, i))
	}
	return json.RawMessage(`{"end":"results","results":[` + strings.Join(rs, ",") + `]}`)
}

var fixedNow = func() time.Time { return time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC) }

func TestRunOfflineEndToEnd(t *testing.T) {
	sl, gh, dr := servers(t)
	g := newGate(9, 3)
	slack := &fakeService{out: federate.ToolOutput{Text: slackCSV}, bodies: map[string]string{"1.1": "Alpha design review is on Thursday in room 4."}, gate: g}
	github := &fakeService{out: federate.ToolOutput{Text: githubJSON(5)}, bodies: map[string]string{"1": `{"title":"Alpha issue 1","body":"The Alpha design needs a retention decision."}`}, gate: g}
	drive := &fakeService{out: federate.ToolOutput{Structured: driveJSON(4)}, bodies: map[string]string{"F1": `{"name":"Alpha doc 1","text":"Alpha design document: ingestion into Postgres."}`}, gate: g}
	var events []federate.Event
	var mu sync.Mutex
	r := &federate.Runner{
		Endpoints: []federate.Endpoint{{Server: dr, Service: drive}, {Server: sl, Service: slack}, {Server: gh, Service: github}},
		AI:        offline.New(), Lang: "en", Now: fixedNow, Parallel: 3,
		OnEvent: func(e federate.Event) { mu.Lock(); events = append(events, e); mu.Unlock() },
	}
	res, err := r.Run(context.Background(), "Where is the Alpha design document?")
	if err != nil {
		t.Fatal(err)
	}
	if g.max > 3 || g.max < 2 {
		t.Errorf("fetches in flight at most %d, want 2..3 (Parallel 3)", g.max)
	}
	if len(res.Sources) != 9 {
		t.Fatalf("sources %+v", res.Sources)
	}
	for i, s := range res.Sources {
		if s.N != i+1 {
			t.Errorf("source %d numbered %d", i, s.N)
		}
	}
	// Host-built links in the servers' order, per service.
	if res.Sources[0].URL != "https://docs.google.com/document/d/F1/edit" || res.Sources[3].URL != "https://example.slack.com/archives/alpha/p11" ||
		res.Sources[6].URL != "https://github.com/acme/alpha/issues/1" || res.Sources[8].Server != "github" {
		t.Errorf("sources %+v", res.Sources)
	}
	// The right tool per kind, with the hit's fields.
	if len(github.fetches) != 3 || github.fetches[0].Tool != "issue_read" || len(slack.fetches) != 3 || slack.fetches[0].Tool != "conversations_replies" ||
		len(drive.fetches) != 3 || drive.fetches[0].Tool != "get_file" {
		t.Errorf("fetches: github %+v slack %+v drive %+v", github.fetches, slack.fetches, drive.fetches)
	}
	// The search asked for 3 results with a keyword query.
	if q := slack.searches[0]["search_query"]; q == nil || !strings.Contains(fmt.Sprint(q), "Alpha") || slack.searches[0]["limit"] != federate.PerService {
		t.Errorf("slack search args %+v", slack.searches[0])
	}
	for _, q := range res.Queries {
		if q.By != "rules" || q.Query == "" {
			t.Errorf("offline query %+v", q)
		}
	}
	if !res.Extractive || res.Provider != "offline" || !strings.Contains(res.Summary, "[") {
		t.Errorf("summary %q extractive %v", res.Summary, res.Extractive)
	}
	// Snippets stand in where a body was empty, with a warning in the sources.
	if res.Sources[1].Warning == "" || res.Sources[0].Warning != "" {
		t.Errorf("warnings: %+v", res.Sources[:2])
	}
	stages := map[string]int{}
	for _, e := range events {
		stages[e.Stage]++
	}
	if stages["searching"] != 3 || stages["found"] != 3 || stages["reading"] != 3 || stages["summarizing"] != 1 || stages["text"] == 0 {
		t.Errorf("progress %v", stages)
	}
}

func TestRunFailSoft(t *testing.T) {
	sl, gh, dr := servers(t)
	cases := []struct {
		name   string
		broken *fakeService
		nilSvc bool
		status federate.Status
	}{
		{"429 skipped without retry", &fakeService{err: fmt.Errorf("github search_issues: %w: 429", federate.ErrRateLimited)}, false, federate.StatusRateLimited},
		{"timeout", &fakeService{err: fmt.Errorf("github: %w", context.DeadlineExceeded)}, false, federate.StatusTimeout},
		{"crashed", &fakeService{err: fmt.Errorf("github: connection closed: EOF")}, false, federate.StatusFailed},
		{"unreadable output", &fakeService{out: federate.ToolOutput{Text: "<html>"}}, false, federate.StatusFailed},
		{"not started", nil, true, federate.StatusUnavailable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			slack := &fakeService{out: federate.ToolOutput{Text: slackCSV}}
			drive := &fakeService{out: federate.ToolOutput{Structured: driveJSON(2)}, fetchErr: fmt.Errorf("drive get_file: 502")}
			ep := federate.Endpoint{Server: gh, Service: c.broken}
			if c.nilSvc {
				ep = federate.Endpoint{Server: gh, Err: fmt.Errorf("start: exec: github-mcp-server: not found")}
			}
			r := &federate.Runner{Endpoints: []federate.Endpoint{{Server: dr, Service: drive}, {Server: sl, Service: slack}, ep}, AI: offline.New(), Lang: "en", Now: fixedNow}
			res, err := r.Run(context.Background(), "Alpha design")
			if err != nil {
				t.Fatal(err)
			}
			gs := res.Services[2]
			if gs.Status != c.status || gs.Warning == "" || len(gs.Results) != 0 {
				t.Errorf("github %+v", gs)
			}
			if c.broken != nil && len(c.broken.searches) != 1 {
				t.Errorf("searched %d times (no retry expected)", len(c.broken.searches))
			}
			if res.Services[0].Status != federate.StatusOK || res.Services[1].Status != federate.StatusOK || len(res.Sources) != 5 || res.Summary == "" {
				t.Errorf("the others did not answer: %+v", res)
			}
			// Drive's bodies failed: snippets used, each source warns.
			if res.Sources[0].Warning == "" || !strings.Contains(res.Sources[0].Warning, "snippet") {
				t.Errorf("drive source %+v", res.Sources[0])
			}
			found := false
			for _, w := range res.Warnings {
				found = found || strings.HasPrefix(w, "github: ")
			}
			if !found {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
}

func TestRunZeroHitsSuggests(t *testing.T) {
	sl, gh, _ := servers(t)
	slack := &fakeService{out: federate.ToolOutput{Text: "MsgID,UserID,UserName,RealName,Channel,ThreadTs,Text,Time,Reactions,Cursor\n"}}
	github := &fakeService{out: federate.ToolOutput{Text: `{"total_count":0,"items":[]}`}}
	r := &federate.Runner{Endpoints: []federate.Endpoint{{Server: sl, Service: slack}, {Server: gh, Service: github}}, AI: offline.New(), Lang: "en", Now: fixedNow}
	res, err := r.Run(context.Background(), "zebra quantum marmalade retention")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sources) != 0 || res.Summary != "" {
		t.Errorf("zero hits answered: %+v", res)
	}
	for _, s := range res.Services {
		if s.Status != federate.StatusNoHits || len(s.Suggestions) == 0 {
			t.Errorf("%s: %+v", s.Server, s)
		}
	}
	if len(slack.searches) != 1 || len(github.searches) != 1 {
		t.Errorf("retried: slack %d github %d searches", len(slack.searches), len(github.searches))
	}
}

// The model side through the OpenAI-compatible test server: one strict
// structured call writes the per-service queries (used as written), the
// summary is streamed, and the sources keep the services' URLs whatever
// the model wrote. A refused call falls back to keyword queries with a
// warning.
func TestRunWithModelQueries(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithAPIKey("sk-test-federate-0123456789"))
	p, err := openai.New(openai.Config{APIKey: "sk-test-federate-0123456789", BaseURL: srv.URL, ChatModel: "gpt-4o-mini", EmbeddingModel: "text-embedding-3-small", EmbeddingDim: 8})
	if err != nil {
		t.Fatal(err)
	}
	sl, gh, _ := servers(t)
	gh.Qualifiers = "org:acme"
	srv.Handler.Enqueue(
		openaitest.Reply{Content: `{"terms":[{"word":"retention","synonyms":["保持期間","TTL"]}],"after":"2026-09-01",` +
			`"queries":[{"server":"slack","query":"retention in:#alpha after:2026-09-01"},{"server":"github","query":"(retention OR TTL) is:issue"}]}`},
		openaitest.Reply{Deltas: []string{"Retention is 30 days [1]", " (see https://evil.example/x) [2]."}},
	)
	slack := &fakeService{out: federate.ToolOutput{Text: slackCSV}}
	github := &fakeService{out: federate.ToolOutput{Text: githubJSON(1)}}
	r := &federate.Runner{Endpoints: []federate.Endpoint{{Server: sl, Service: slack}, {Server: gh, Service: github}}, AI: p, Lang: "en", Now: fixedNow}
	var streamed strings.Builder
	r.OnEvent = func(e federate.Event) {
		if e.Stage == "text" {
			streamed.WriteString(e.Text)
		}
	}
	res, err := r.Run(context.Background(), "What did we decide about retention?")
	if err != nil {
		t.Fatal(err)
	}
	if res.Queries[0].Query != "retention in:#alpha after:2026-09-01" || res.Queries[0].By != "llm" ||
		res.Queries[1].Query != "(retention OR TTL) is:issue org:acme" || github.searches[0]["query"] != "(retention OR TTL) is:issue org:acme" {
		t.Errorf("queries %+v", res.Queries)
	}
	if streamed.String() != res.Summary || !strings.HasPrefix(res.Summary, "Retention is 30 days [1]") || res.Extractive {
		t.Errorf("summary %q streamed %q", res.Summary, streamed.String())
	}
	for _, s := range res.Sources {
		if strings.Contains(s.URL, "evil.example") || s.URL == "" {
			t.Errorf("source %+v", s)
		}
	}
	reqs := srv.Handler.RequestsTo(openaitest.PathChat)
	if len(reqs) != 2 || reqs[0].Schema != "federated_queries" || !reqs[0].Strict || !reqs[1].Stream {
		t.Fatalf("requests %+v", reqs)
	}
	if !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "Alpha design review") {
		t.Errorf("the bodies or snippets did not reach the model")
	}

	// A refused structured call: keyword queries, and a warning.
	srv.Handler.Reset()
	srv.Handler.Enqueue(openaitest.Reply{Status: 400, Message: "bad request"}, openaitest.Reply{Content: "ok [1]"})
	res, err = r.Run(context.Background(), "Alpha retention")
	if err != nil {
		t.Fatal(err)
	}
	if res.Queries[0].By != "rules" || !strings.Contains(res.Queries[0].Query, "Alpha") || len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], "keyword queries") {
		t.Errorf("fallback: %+v warnings %q", res.Queries, res.Warnings)
	}
}
