// Package mockserver holds the mock MCP servers of `gds federate --mock`
// (shipped in the binary as `gds federate mock-server KIND`), built with
// the same SDK as the host: Drive in the shape of `gds mcp`, Slack in the
// shape of korotovsky's slack-mcp-server (CSV), GitHub in the shape of
// github-mcp-server (GitHub API JSON). A fault suffix makes a server
// misbehave on its search tool: -crash (the process exits; with
// GDS_MOCK_CRASH_ONCE=FILE only the first time), -429 (a rate-limit error),
// -hang (never answers), and -fetcherror makes every body read fail.
// Aliases: crash = slack-crash, ratelimit = github-429, hang = drive-hang.
package mockserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Kinds are the mock server kinds (aliases included).
var Kinds = []string{"drive", "slack", "github", "crash", "ratelimit", "hang"}

// Faults a kind may carry after a dash.
var faults = []string{"crash", "429", "hang", "fetcherror"}

// parse splits KIND into its base and fault.
func parse(kind string) (base, fault string, err error) {
	switch kind {
	case "crash":
		kind = "slack-crash"
	case "ratelimit":
		kind = "github-429"
	case "hang":
		kind = "drive-hang"
	}
	base, fault, _ = strings.Cut(kind, "-")
	if !slices.Contains([]string{"drive", "slack", "github"}, base) || (fault != "" && !slices.Contains(faults, fault)) {
		return "", "", fmt.Errorf("unknown mock server %q (drive, slack or github, optionally -crash, -429, -hang or -fetcherror; or crash, ratelimit, hang)", kind)
	}
	return base, fault, nil
}

// Check reports whether kind names a mock server.
func Check(kind string) error {
	_, _, err := parse(kind)
	return err
}

// New builds the mock server of kind. exit is called by the crash fault
// (os.Exit in the binary).
func New(kind string, exit func(int)) (*mcp.Server, error) {
	base, fault, err := parse(kind)
	if err != nil {
		return nil, err
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "gds-mock-" + base, Version: "1.0.0"}, nil)
	f := faulter{fault: fault, exit: exit}
	switch base {
	case "drive":
		addDrive(s, f)
	case "slack":
		addSlack(s, f)
	case "github":
		addGitHub(s, f)
	}
	return s, nil
}

// Run serves kind on stdio until the client closes it.
func Run(ctx context.Context, kind string) error {
	s, err := New(kind, os.Exit)
	if err != nil {
		return err
	}
	return s.Run(ctx, &mcp.StdioTransport{})
}

type faulter struct {
	fault string
	exit  func(int)
}

// onSearch applies the fault of a search call; a non-nil result is
// returned instead of the search's.
func (f faulter) onSearch(ctx context.Context) (*mcp.CallToolResult, error) {
	switch f.fault {
	case "crash":
		if marker := os.Getenv("GDS_MOCK_CRASH_ONCE"); marker != "" {
			if _, err := os.Stat(marker); err == nil {
				return nil, nil // crashed once already
			}
			_ = os.WriteFile(marker, []byte("crashed\n"), 0o600)
		}
		f.exit(3)
	case "429":
		return textResult("API rate limit exceeded: 429 Too Many Requests (retry after 60 s)", true), nil
	case "hang":
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return nil, nil
}

func (f faulter) onFetch() *mcp.CallToolResult {
	if f.fault == "fetcherror" {
		return textResult("failed to read: 502 Bad Gateway", true)
	}
	return nil
}

func textResult(text string, isErr bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: isErr}
}

func jsonResult(v any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return textResult(string(b), false), nil
}

// words are the search words of a query in any service's syntax:
// qualifiers (x:y), OR, globs, quotes and brackets removed, lower case.
func words(q string) []string {
	q = strings.NewReplacer("(", " ", ")", " ", `"`, " ", "*", " ", "/", " ").Replace(q)
	var out []string
	for _, w := range strings.Fields(q) {
		if strings.Contains(w, ":") || w == "OR" || w == "AND" || len(w) < 2 {
			continue
		}
		out = append(out, strings.ToLower(w))
	}
	return out
}

// rank returns the indexes of the texts that contain any of the words,
// most words first (stable).
func rank(ws []string, texts []string) []int {
	type sc struct{ i, n int }
	var hits []sc
	for i, t := range texts {
		t = strings.ToLower(t)
		n := 0
		for _, w := range ws {
			if strings.Contains(t, w) {
				n++
			}
		}
		if n > 0 {
			hits = append(hits, sc{i, n})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].n > hits[b].n })
	out := make([]int, len(hits))
	for k, h := range hits {
		out[k] = h.i
	}
	return out
}

func limitOf(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

type driveSearchIn struct {
	Query       string `json:"query"`
	Limit       int    `json:"limit,omitempty"`
	NoQuestions bool   `json:"no_questions,omitempty"`
}

type driveResult struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Summary      string  `json:"summary"`
	Link         string  `json:"link"`
	MimeType     string  `json:"mime_type"`
	ModifiedTime string  `json:"modified_time"`
	Score        float64 `json:"score"`
	Path         string  `json:"path"`
}

type driveSearchOut struct {
	Provider string        `json:"provider"`
	Query    string        `json:"query"`
	End      string        `json:"end"`
	Results  []driveResult `json:"results"`
}

type driveGetIn struct {
	ID       string `json:"id"`
	MaxChars int    `json:"max_chars,omitempty"`
}

type driveFileOut struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Summary  string `json:"summary"`
	Link     string `json:"link"`
	MimeType string `json:"mime_type"`
	Path     string `json:"path"`
	Text     string `json:"text"`
}

func driveLink(f driveFile) string {
	switch f.MimeType {
	case "application/vnd.google-apps.spreadsheet":
		return "https://docs.google.com/spreadsheets/d/" + f.ID + "/edit"
	default:
		return "https://docs.google.com/document/d/" + f.ID + "/edit"
	}
}

func addDrive(s *mcp.Server, f faulter) {
	mcp.AddTool(s, &mcp.Tool{Name: "search", Description: "Search the mock Drive index"}, func(ctx context.Context, _ *mcp.CallToolRequest, in driveSearchIn) (*mcp.CallToolResult, driveSearchOut, error) {
		if r, err := f.onSearch(ctx); r != nil || err != nil {
			return r, driveSearchOut{}, err
		}
		texts := make([]string, len(driveFiles))
		for i, d := range driveFiles {
			texts[i] = d.Name + " " + d.Summary + " " + d.Text
		}
		out := driveSearchOut{Provider: "mock", Query: in.Query, End: "results", Results: []driveResult{}}
		for _, i := range rank(words(in.Query), texts) {
			if len(out.Results) >= limitOf(in.Limit, 10) {
				break
			}
			d := driveFiles[i]
			out.Results = append(out.Results, driveResult{ID: d.ID, Name: d.Name, Summary: d.Summary, Link: driveLink(d), MimeType: d.MimeType, ModifiedTime: d.Modified, Path: d.Path, Score: 1})
		}
		if len(out.Results) == 0 {
			out.End = "not_found"
		}
		return nil, out, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "get_file", Description: "Read one file of the mock Drive index"}, func(_ context.Context, _ *mcp.CallToolRequest, in driveGetIn) (*mcp.CallToolResult, driveFileOut, error) {
		if r := f.onFetch(); r != nil {
			return r, driveFileOut{}, nil
		}
		for _, d := range driveFiles {
			if d.ID == in.ID {
				return nil, driveFileOut{ID: d.ID, Name: d.Name, Summary: d.Summary, Link: driveLink(d), MimeType: d.MimeType, Path: d.Path, Text: d.Text}, nil
			}
		}
		return nil, driveFileOut{}, errors.New("document not found")
	})
}

type slackSearchIn struct {
	SearchQuery string `json:"search_query"`
	Limit       int    `json:"limit,omitempty"`
}

type slackRepliesIn struct {
	ChannelID string `json:"channel_id"`
	ThreadTs  string `json:"thread_ts"`
}

func csvRow(m slackMessage) string {
	q := func(s string) string {
		if strings.ContainsAny(s, ",\"\n") {
			return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
		}
		return s
	}
	return strings.Join([]string{m.MsgID, m.UserID, m.UserName, q(m.RealName), m.Channel, m.ThreadTs, q(m.Text), m.Time, ""}, ",")
}

func addSlack(s *mcp.Server, f faulter) {
	mcp.AddTool(s, &mcp.Tool{Name: "conversations_search_messages", Description: "Search messages in the mock Slack workspace"}, func(ctx context.Context, _ *mcp.CallToolRequest, in slackSearchIn) (*mcp.CallToolResult, any, error) {
		if r, err := f.onSearch(ctx); r != nil || err != nil {
			return r, nil, err
		}
		texts := make([]string, len(slackMessages))
		for i, m := range slackMessages {
			texts[i] = m.Text
		}
		lines := []string{slackCSVHeader}
		for _, i := range rank(words(in.SearchQuery), texts) {
			if len(lines)-1 >= limitOf(in.Limit, 20) {
				break
			}
			lines = append(lines, csvRow(slackMessages[i]))
		}
		return textResult(strings.Join(lines, "\n"), false), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "conversations_replies", Description: "A thread of the mock Slack workspace"}, func(_ context.Context, _ *mcp.CallToolRequest, in slackRepliesIn) (*mcp.CallToolResult, any, error) {
		if r := f.onFetch(); r != nil {
			return r, nil, nil
		}
		lines := []string{slackCSVHeader}
		for _, m := range slackMessages {
			if m.Channel == in.ChannelID && (m.MsgID == in.ThreadTs || m.ThreadTs == in.ThreadTs) {
				lines = append(lines, csvRow(m))
			}
		}
		if len(lines) == 1 {
			return textResult("thread not found", true), nil, nil
		}
		return textResult(strings.Join(lines, "\n"), false), nil, nil
	})
}

type ghSearchIn struct {
	Query   string `json:"query"`
	PerPage int    `json:"perPage,omitempty"`
}

type ghIssueIn struct {
	Method      string `json:"method"`
	Owner       string `json:"owner"`
	Repo        string `json:"repo"`
	IssueNumber int    `json:"issue_number,omitempty"`
	PullNumber  int    `json:"pullNumber,omitempty"`
}

type ghFileIn struct {
	Owner string `json:"owner"`
	Repo  string `json:"repo"`
	Path  string `json:"path"`
}

func issueJSON(i githubIssue) map[string]any {
	kind := "issues"
	if i.PR {
		kind = "pull"
	}
	m := map[string]any{
		"number": i.Number, "title": i.Title, "body": i.Body, "state": i.State, "created_at": i.Created,
		"html_url":       fmt.Sprintf("https://github.com/%s/%s/%s/%d", i.Owner, i.Repo, kind, i.Number),
		"repository_url": fmt.Sprintf("https://api.github.com/repos/%s/%s", i.Owner, i.Repo),
		"user":           map[string]any{"login": "octo-" + i.Owner},
	}
	if i.PR {
		m["pull_request"] = map[string]any{"url": fmt.Sprintf("https://api.github.com/repos/%s/%s/pulls/%d", i.Owner, i.Repo, i.Number)}
	}
	return m
}

func addGitHub(s *mcp.Server, f faulter) {
	mcp.AddTool(s, &mcp.Tool{Name: "search_issues", Description: "Search issues and pull requests (mock GitHub)"}, func(ctx context.Context, _ *mcp.CallToolRequest, in ghSearchIn) (*mcp.CallToolResult, any, error) {
		if r, err := f.onSearch(ctx); r != nil || err != nil {
			return r, nil, err
		}
		texts := make([]string, len(githubIssues))
		for i, is := range githubIssues {
			texts[i] = is.Title + " " + is.Body
		}
		onlyIssues := strings.Contains(in.Query, "is:issue")
		onlyPRs := strings.Contains(in.Query, "is:pr")
		items := []any{}
		for _, i := range rank(words(in.Query), texts) {
			is := githubIssues[i]
			if (onlyIssues && is.PR) || (onlyPRs && !is.PR) {
				continue
			}
			if len(items) >= limitOf(in.PerPage, 30) {
				break
			}
			items = append(items, issueJSON(is))
		}
		r, err := jsonResult(map[string]any{"total_count": len(items), "incomplete_results": false, "items": items})
		return r, nil, err
	})
	read := func(owner, repo string, n int) (*mcp.CallToolResult, any, error) {
		if r := f.onFetch(); r != nil {
			return r, nil, nil
		}
		for _, is := range githubIssues {
			if is.Owner == owner && is.Repo == repo && is.Number == n {
				m := issueJSON(is)
				var cs []any
				for _, c := range is.Comments {
					cs = append(cs, map[string]any{"body": c})
				}
				m["comments"] = cs
				r, err := jsonResult(m)
				return r, nil, err
			}
		}
		return textResult(fmt.Sprintf("failed to get issue: GET https://api.github.com/repos/%s/%s/issues/%d: 404 Not Found", owner, repo, n), true), nil, nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "issue_read", Description: "Read an issue (mock GitHub)"}, func(_ context.Context, _ *mcp.CallToolRequest, in ghIssueIn) (*mcp.CallToolResult, any, error) {
		return read(in.Owner, in.Repo, in.IssueNumber)
	})
	mcp.AddTool(s, &mcp.Tool{Name: "pull_request_read", Description: "Read a pull request (mock GitHub)"}, func(_ context.Context, _ *mcp.CallToolRequest, in ghIssueIn) (*mcp.CallToolResult, any, error) {
		return read(in.Owner, in.Repo, in.PullNumber)
	})
	mcp.AddTool(s, &mcp.Tool{Name: "get_file_contents", Description: "Read a file of a repository (mock GitHub)"}, func(_ context.Context, _ *mcp.CallToolRequest, in ghFileIn) (*mcp.CallToolResult, any, error) {
		if r := f.onFetch(); r != nil {
			return r, nil, nil
		}
		for _, gf := range githubFiles {
			if gf.Owner == in.Owner && gf.Repo == in.Repo && gf.Path == in.Path {
				return textResult(gf.Content, false), nil, nil
			}
		}
		return textResult("404 Not Found", true), nil, nil
	})
}
