package federate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/federate"
)

func TestBuildQueryPerSyntax(t *testing.T) {
	terms := federate.Terms{Groups: [][]string{{"design doc", "spec", "仕様書"}, {"Alpha"}}, After: "2026-10-01"}
	cases := []struct {
		kind, qual, want string
	}{
		{federate.KindDrive, "org:x", "design doc Alpha"},
		{federate.KindSlack, "in:#dev", `"design doc" Alpha after:2026-10-01 in:#dev`},
		{federate.KindGitHub, "org:acme is:issue", `("design doc" OR spec OR 仕様書) Alpha created:>=2026-10-01 org:acme is:issue`},
		{federate.KindFiles, "", "**/*design*doc*"},
	}
	for _, c := range cases {
		if got := federate.BuildQuery(c.kind, terms, c.qual); got != c.want {
			t.Errorf("%s: %q, want %q", c.kind, got, c.want)
		}
	}
	// Syntax characters in a word never reach a query; OR and duplicates are dropped.
	dirty := federate.Terms{Groups: [][]string{{`a"b) OR (c`, "OR", "A\"B) or (c"}, {"x:y*"}}}
	if got := federate.BuildQuery(federate.KindGitHub, dirty, ""); got != `"a b OR c" "x y"` {
		t.Errorf("dirty: %q", got)
	}
	// GitHub's limit of five ORs.
	many := federate.Terms{Groups: [][]string{{"a", "b", "c", "d"}, {"e", "f", "g", "h"}}}
	if got := federate.BuildQuery(federate.KindGitHub, many, ""); strings.Count(got, " OR ") != 5 {
		t.Errorf("ORs: %q", got)
	}
	long := federate.Terms{Groups: [][]string{{strings.Repeat("word ", 100)}}}
	if got := federate.BuildQuery(federate.KindDrive, long, ""); len(got) > federate.MaxQueryLen {
		t.Errorf("long query %d bytes", len(got))
	}
	if got := federate.BuildQuery(federate.KindFiles, federate.Terms{}, ""); got != "" {
		t.Errorf("empty: %q", got)
	}
}

func TestPlanQueriesPrefersUsableModelQueries(t *testing.T) {
	servers := []federate.Server{
		{Name: "slack", Kind: federate.KindSlack},
		{Name: "github", Kind: federate.KindGitHub, Qualifiers: "org:acme"},
		{Name: "drive", Kind: federate.KindDrive},
		{Name: "notes", Kind: federate.KindFiles},
	}
	terms := federate.Terms{Groups: [][]string{{"alpha", "α"}}}
	llm := map[string]string{"slack": "alpha in:#dev", "github": "(alpha OR α) is:issue", "drive": "bad\x00query", "notes": "alpha"}
	got := federate.PlanQueries(servers, terms, llm)
	want := []federate.Query{
		{Server: "slack", Kind: "slack", Query: "alpha in:#dev", By: "llm"},
		{Server: "github", Kind: "github", Query: "(alpha OR α) is:issue org:acme", By: "llm"},
		{Server: "drive", Kind: "drive", Query: "alpha", By: "rules"},
		{Server: "notes", Kind: "files", Query: "**/*alpha*", By: "rules"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestSuggestAfterZeroHits(t *testing.T) {
	terms := federate.Terms{Groups: [][]string{{"alpha"}, {"retention"}, {"policy"}}, After: "2026-01-01"}
	got := federate.Suggest(federate.KindSlack, terms, "")
	want := []string{"alpha retention policy", "alpha retention", "alpha"} // each looser than the last
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q want %q", got, want)
	}
	if got := federate.Suggest(federate.KindSlack, federate.Terms{Groups: [][]string{{"x"}}}, ""); len(got) != 0 {
		t.Errorf("nothing to loosen: %q", got)
	}
}

func hits(server string, n int) []federate.Hit {
	var out []federate.Hit
	for i := range n {
		out = append(out, federate.Hit{Server: server, Title: fmt.Sprintf("%s%d", server, i)})
	}
	return out
}

func titles(sel map[string][]federate.Hit, order []string) []string {
	var out []string
	for _, s := range order {
		for _, h := range sel[s] {
			out = append(out, h.Title)
		}
	}
	return out
}

func TestSelectTopThreePerServiceNineInAll(t *testing.T) {
	cases := []struct {
		name  string
		order []string
		n     map[string]int
		want  int
		per   map[string]int
	}{
		{"three full services", []string{"a", "b", "c"}, map[string]int{"a": 10, "b": 5, "c": 3}, 9, map[string]int{"a": 3, "b": 3, "c": 3}},
		{"four services share nine round-robin", []string{"a", "b", "c", "d"}, map[string]int{"a": 5, "b": 5, "c": 5, "d": 5}, 9, map[string]int{"a": 3, "b": 2, "c": 2, "d": 2}},
		{"few hits", []string{"a", "b"}, map[string]int{"a": 1, "b": 0}, 1, map[string]int{"a": 1}},
	}
	for _, c := range cases {
		in := map[string][]federate.Hit{}
		for s, n := range c.n {
			in[s] = hits(s, n)
		}
		sel := federate.Select(c.order, in, federate.PerService, federate.MaxTotal)
		if got := len(titles(sel, c.order)); got != c.want {
			t.Errorf("%s: %d selected, want %d", c.name, got, c.want)
		}
		for s, n := range c.per {
			if len(sel[s]) != n {
				t.Errorf("%s: %s has %d, want %d", c.name, s, len(sel[s]), n)
			}
			for i, h := range sel[s] {
				if h.Title != fmt.Sprintf("%s%d", s, i) {
					t.Errorf("%s: %s rank %d is %s (top hits in order expected)", c.name, s, i, h.Title)
				}
			}
		}
	}
}

func defaults(t *testing.T) map[string]federate.Server {
	t.Helper()
	c, err := federate.ParseConfig([]byte(federate.DefaultConfigYAML))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]federate.Server{}
	for _, s := range c.Servers {
		out[s.Name] = s
	}
	return out
}

func TestFetchForMapsKindsToTools(t *testing.T) {
	d := defaults(t)
	cases := []struct {
		server string
		hit    federate.Hit
		want   federate.FetchCall
		ok     bool
	}{
		{"drive", federate.Hit{Kind: federate.HitFile, Ref: map[string]string{"id": "F1"}},
			federate.FetchCall{Tool: "get_file", Args: map[string]any{"id": "F1", "max_chars": 6000}}, true},
		{"slack", federate.Hit{Kind: federate.HitMessage, Ref: map[string]string{"channel_id": "C1", "thread_ts": "1.2"}},
			federate.FetchCall{Tool: "conversations_replies", Args: map[string]any{"channel_id": "C1", "thread_ts": "1.2"}}, true},
		{"github", federate.Hit{Kind: federate.HitIssue, Ref: map[string]string{"owner": "o", "repo": "r", "number": "7"}},
			federate.FetchCall{Tool: "issue_read", Args: map[string]any{"method": "get", "owner": "o", "repo": "r", "issue_number": 7}}, true},
		{"github", federate.Hit{Kind: federate.HitPullRequest, Ref: map[string]string{"owner": "o", "repo": "r", "number": "8"}},
			federate.FetchCall{Tool: "pull_request_read", Args: map[string]any{"method": "get", "owner": "o", "repo": "r", "pullNumber": 8}}, true},
		{"github", federate.Hit{Kind: federate.HitCode, Ref: map[string]string{"owner": "o", "repo": "r", "path": "a/b.md"}},
			federate.FetchCall{Tool: "get_file_contents", Args: map[string]any{"owner": "o", "repo": "r", "path": "a/b.md"}}, true},
		// A kind the server cannot read, and a hit missing a field: snippet only.
		{"slack", federate.Hit{Kind: federate.HitFile}, federate.FetchCall{}, false},
		{"github", federate.Hit{Kind: federate.HitIssue, Ref: map[string]string{"owner": "o", "repo": "r"}},
			federate.FetchCall{Tool: "issue_read", Args: map[string]any{"method": "get", "owner": "o", "repo": "r", "issue_number": ""}}, false},
	}
	for _, c := range cases {
		got, ok := federate.FetchFor(d[c.server], c.hit)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s: %+v %v, want %+v %v", c.server, c.hit.Kind, got, ok, c.want, c.ok)
		}
	}
	res := federate.Server{Fetch: map[string]federate.FetchSpec{"file": {Resource: "gdrive:///{id}"}}}
	if got, ok := federate.FetchFor(res, federate.Hit{Kind: "file", Ref: map[string]string{"id": "X"}}); !ok || got.Resource != "gdrive:///X" {
		t.Errorf("resource: %+v %v", got, ok)
	}
}

func TestStatusOfIsFailSoft(t *testing.T) {
	cases := []struct {
		err  error
		hits int
		want federate.Status
	}{
		{nil, 2, federate.StatusOK},
		{nil, 0, federate.StatusNoHits},
		{fmt.Errorf("github search_issues: %w: 429", federate.ErrRateLimited), 0, federate.StatusRateLimited},
		{fmt.Errorf("slack: %w", context.DeadlineExceeded), 0, federate.StatusTimeout},
		{fmt.Errorf("x: %w", federate.ErrUnavailable), 0, federate.StatusUnavailable},
		{errors.New("connection closed"), 0, federate.StatusFailed},
	}
	for _, c := range cases {
		if got := federate.StatusOf(c.err, c.hits); got != c.want {
			t.Errorf("%v: %s, want %s", c.err, got, c.want)
		}
	}
	for s, want := range map[string]bool{
		"API rate limit exceeded: 429 Too Many Requests": true, "ratelimited": true, "Too many requests": true,
		"404 Not Found": false, "issue 4290 not found": false,
	} {
		if federate.IsRateLimitText(s) != want {
			t.Errorf("IsRateLimitText(%q) != %v", s, want)
		}
	}
}

func TestDecideLaunch(t *testing.T) {
	s := federate.Server{Name: "slack", Command: "npx", Env: []string{"SLACK_MCP_XOXP_TOKEN"}, Tokens: []string{"SLACK_MCP_XOXP_TOKEN"}, Mock: "slack"}
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	cases := []struct {
		name   string
		s      federate.Server
		force  bool
		env    map[string]string
		mock   bool
		reason string
		ok     bool
	}{
		{"token set", s, false, map[string]string{"SLACK_MCP_XOXP_TOKEN": "xoxp-1"}, false, "", true},
		{"token missing", s, false, nil, true, "SLACK_MCP_XOXP_TOKEN", true},
		{"token blank", s, false, map[string]string{"SLACK_MCP_XOXP_TOKEN": " "}, true, "SLACK_MCP_XOXP_TOKEN", true},
		{"forced", s, true, map[string]string{"SLACK_MCP_XOXP_TOKEN": "xoxp-1"}, true, "mock", true},
		{"no mock", federate.Server{Command: "x", Tokens: []string{"T"}}, false, nil, true, "T", false},
	}
	for _, c := range cases {
		l, ok := federate.DecideLaunch(c.s, c.force, env(c.env))
		if l.Mock != c.mock || l.Reason != c.reason || ok != c.ok {
			t.Errorf("%s: %+v ok=%v", c.name, l, ok)
		}
	}
	if !federate.ForceMock(false, "0") || federate.ForceMock(false, "1") || !federate.ForceMock(true, "") {
		t.Error("ForceMock")
	}
}

func TestParseConfig(t *testing.T) {
	d := defaults(t)
	if len(d) != 3 || d["slack"].Search.Tool != "conversations_search_messages" || d["github"].Fetch["issue"].Tool != "issue_read" || d["drive"].Command != "gds" {
		t.Errorf("defaults: %+v", d)
	}
	for name, yaml := range map[string]string{
		"value in env":   "servers:\n- {name: s, kind: slack, command: x, env: [\"SLACK_MCP_XOXP_TOKEN=xoxp-123456789\"], search: {tool: t, query_arg: q, format: slack_csv}}\n",
		"token not env":  "servers:\n- {name: s, kind: slack, command: x, tokens: [T], search: {tool: t, query_arg: q, format: slack_csv}}\n",
		"bad kind":       "servers:\n- {name: s, kind: jira, command: x, search: {tool: t, query_arg: q, format: paths}}\n",
		"bad format":     "servers:\n- {name: s, kind: files, command: x, search: {tool: t, query_arg: q, format: xml}}\n",
		"twice":          "servers:\n- {name: s, kind: files, command: x, search: {tool: t, query_arg: q, format: paths}}\n- {name: s, kind: files, command: x, search: {tool: t, query_arg: q, format: paths}}\n",
		"no search tool": "servers:\n- {name: s, kind: files, command: x, search: {format: paths}}\n",
	} {
		_, err := federate.ParseConfig([]byte(yaml))
		if err == nil {
			t.Errorf("%s: accepted", name)
		} else if strings.Contains(err.Error(), "xoxp-123456789") {
			t.Errorf("%s: error shows the token: %v", name, err)
		}
	}
}

func TestParseHitsPerFormat(t *testing.T) {
	d := defaults(t)
	gh := `{"total_count":2,"items":[{"number":42,"title":"Disk full","body":"drops events","html_url":"https://github.com/acme/alpha/issues/42","repository_url":"https://api.github.com/repos/acme/alpha"},
{"number":57,"title":"WAL","body":"fix","html_url":"https://github.com/acme/alpha/pull/57","repository_url":"https://api.github.com/repos/acme/alpha","pull_request":{"url":"x"}}]}`
	got, err := federate.ParseHits(d["github"], federate.ToolOutput{Text: gh})
	if err != nil || len(got) != 2 || got[0].Kind != federate.HitIssue || got[1].Kind != federate.HitPullRequest ||
		got[0].Ref["owner"] != "acme" || got[0].Ref["repo"] != "alpha" || got[0].Ref["number"] != "42" || got[0].URL != "https://github.com/acme/alpha/issues/42" || got[0].Server != "github" {
		t.Errorf("github: %+v %v", got, err)
	}
	csv := "MsgID,UserID,UserName,RealName,Channel,ThreadTs,Text,Time,Reactions,Cursor\n" +
		"1761900300.223344,U04BOBBY02,bob,Bob,#proj-alpha,1761900000.123456,\"Thanks, added it\",2026-10-31,,\n"
	got, err = federate.ParseHits(d["slack"], federate.ToolOutput{Text: csv})
	if err != nil || len(got) != 1 || got[0].Snippet != "Thanks, added it" || got[0].Ref["thread_ts"] != "1761900000.123456" ||
		got[0].URL != "https://example.slack.com/archives/proj-alpha/p1761900300223344" {
		t.Errorf("slack: %+v %v", got, err)
	}
	gds := `{"end":"results","results":[{"id":"F1","name":"Design.docx","summary":"s","link":"https://docs.google.com/document/d/F1/edit","path":"P"}]}`
	got, err = federate.ParseHits(d["drive"], federate.ToolOutput{Structured: json.RawMessage(gds)})
	if err != nil || len(got) != 1 || got[0].Ref["id"] != "F1" || got[0].Kind != federate.HitFile {
		t.Errorf("gds: %+v %v", got, err)
	}
	files := federate.Server{Name: "notes", Kind: federate.KindFiles, Search: federate.SearchSpec{Format: federate.FormatPaths}}
	got, err = federate.ParseHits(files, federate.ToolOutput{Text: "/data/notes/alpha plan.md\n/data/notes/b.txt\nNo matches found\n"})
	if err != nil || len(got) != 2 || got[0].URL != "file:///data/notes/alpha%20plan.md" || got[0].Title != "alpha plan.md" {
		t.Errorf("paths: %+v %v", got, err)
	}
	if _, err := federate.ParseHits(d["github"], federate.ToolOutput{Text: "not json"}); err == nil {
		t.Error("unreadable output accepted")
	}
}

func TestBodyOf(t *testing.T) {
	cases := map[string]federate.ToolOutput{
		"Disk full\n\ndrops events\n\nalert at 80%": {Text: `{"title":"Disk full","body":"drops events","comments":[{"body":"alert at 80%"}]}`},
		"Design\n\nthe text":                        {Structured: json.RawMessage(`{"name":"Design","text":"the text"}`)},
		"root\nreply, with comma":                   {Text: "MsgID,Channel,Text\n1,#c,root\n2,#c,\"reply, with comma\""},
		"# plain markdown":                          {Text: "# plain markdown"},
	}
	for want, in := range cases {
		if got := federate.BodyOf(in); got != want {
			t.Errorf("BodyOf(%+v) = %q, want %q", in, got, want)
		}
	}
}

func TestMaskSecrets(t *testing.T) {
	// Made-up values in the shapes of real tokens, assembled here so that no
	// token-shaped literal sits in the repository for scanners to flag.
	slack, pat, key := "xoxp"+"-1234-5678-abcdef", "ghp"+"_abcdefghijklmnop1234", "sk"+"-proj-abcdefghijk"
	in := `{"token":"` + slack + `","auth":"Bearer abcdefgh12345678","pat":"` + pat + `","key":"` + key + `",` +
		`"mail":"carol@example.com","text":"by U04CAROL03","user":"alice","login":"octo"}`
	out := federate.MaskSecrets(in)
	for _, leak := range []string{slack, "abcdefgh12345678", pat, key, "carol@example.com", "U04CAROL03", `"alice"`, `"octo"`} {
		if strings.Contains(out, leak) {
			t.Errorf("%q left in %s", leak, out)
		}
	}
	if !json.Valid([]byte(out)) {
		t.Errorf("masking broke the JSON: %s", out)
	}
	if got := federate.MaskSecrets("Project Alpha design review"); got != "Project Alpha design review" {
		t.Errorf("plain text changed: %q", got)
	}
}

func TestVariants(t *testing.T) {
	cases := map[string][]string{
		"design": {"designs"}, "Designs": nil, "Alpha": nil, "designs": {"design"}, "policy": {"policies"}, "policies": {"policy"}, "delay": {"delays"}, "day": nil,
		"index": {"indexes"}, "status": nil, "class": nil, "doc": nil, "設計書": nil, "v2api": nil,
	}
	for w, want := range cases {
		if got := federate.Variants(w); !reflect.DeepEqual(got, want) {
			t.Errorf("Variants(%q) = %q, want %q", w, got, want)
		}
	}
}
