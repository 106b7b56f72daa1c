package federate

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Hit is one search result.
type Hit struct {
	Server  string            `json:"server"`
	Kind    string            `json:"kind"` // file, issue, pull_request, message, code
	Title   string            `json:"title"`
	Snippet string            `json:"snippet"`
	URL     string            `json:"url"`
	Ref     map[string]string `json:"-"` // fields the fetch args are filled from
	// Body is the fetched text; empty with BodyWarning set when it could
	// not be read (the snippet is used instead, FR-TR-02).
	Body        string `json:"-"`
	BodyWarning string `json:"body_warning,omitempty"`
}

// ToolOutput is what a tool call returned: its structured content (JSON;
// nil when none) and its text content.
type ToolOutput struct {
	Structured json.RawMessage
	Text       string
}

// ParseHits reads a search tool's output in format.
func ParseHits(s Server, out ToolOutput) ([]Hit, error) {
	var (
		hits []Hit
		err  error
	)
	switch s.Search.Format {
	case FormatGDS:
		hits, err = parseGDS(out)
	case FormatGitHubIssues:
		hits, err = parseGitHubIssues(out)
	case FormatGitHubCode:
		hits, err = parseGitHubCode(out)
	case FormatSlackCSV:
		hits, err = parseSlackCSV(out, s.URLBase)
	case FormatPaths:
		hits, err = parsePaths(out)
	default:
		err = fmt.Errorf("unknown format %q", s.Search.Format)
	}
	for i := range hits {
		hits[i].Server = s.Name
		hits[i].Snippet = snippet(hits[i].Snippet, 300)
	}
	if err != nil {
		return hits, fmt.Errorf("%s: read the %s search output: %w", s.Name, s.Search.Format, err)
	}
	return hits, nil
}

// jsonOf is the structured content, or the text when it holds JSON.
func jsonOf(out ToolOutput) []byte {
	if len(out.Structured) > 0 && string(out.Structured) != "null" {
		return out.Structured
	}
	return []byte(strings.TrimSpace(out.Text))
}

func parseGDS(out ToolOutput) ([]Hit, error) {
	var doc struct {
		End     string `json:"end"`
		Results []struct {
			ID, Name, Summary, Link, Path string
		} `json:"results"`
		Question *struct {
			Text string `json:"text"`
		} `json:"question"`
	}
	if err := json.Unmarshal(jsonOf(out), &doc); err != nil {
		return nil, err
	}
	var hits []Hit
	for _, r := range doc.Results {
		hits = append(hits, Hit{Kind: HitFile, Title: r.Name, Snippet: r.Summary, URL: r.Link,
			Ref: map[string]string{"id": r.ID, "path": r.Path}})
	}
	return hits, nil
}

func parseGitHubIssues(out ToolOutput) ([]Hit, error) {
	var doc struct {
		Items []struct {
			Number        int    `json:"number"`
			Title         string `json:"title"`
			Body          string `json:"body"`
			HTMLURL       string `json:"html_url"`
			RepositoryURL string `json:"repository_url"`
			State         string `json:"state"`
			PullRequest   *struct {
				URL string `json:"url"`
			} `json:"pull_request"`
		} `json:"items"`
	}
	if err := json.Unmarshal(jsonOf(out), &doc); err != nil {
		return nil, err
	}
	var hits []Hit
	for _, it := range doc.Items {
		owner, repo := ownerRepo(it.RepositoryURL, it.HTMLURL)
		kind := HitIssue
		if it.PullRequest != nil || strings.Contains(it.HTMLURL, "/pull/") {
			kind = HitPullRequest
		}
		hits = append(hits, Hit{Kind: kind, Title: fmt.Sprintf("%s/%s#%d %s", owner, repo, it.Number, it.Title), Snippet: it.Body, URL: it.HTMLURL,
			Ref: map[string]string{"owner": owner, "repo": repo, "number": strconv.Itoa(it.Number)}})
	}
	return hits, nil
}

func parseGitHubCode(out ToolOutput) ([]Hit, error) {
	var doc struct {
		Items []struct {
			Name       string `json:"name"`
			Path       string `json:"path"`
			HTMLURL    string `json:"html_url"`
			Repository struct {
				FullName string `json:"full_name"`
			} `json:"repository"`
		} `json:"items"`
	}
	if err := json.Unmarshal(jsonOf(out), &doc); err != nil {
		return nil, err
	}
	var hits []Hit
	for _, it := range doc.Items {
		owner, repo, _ := strings.Cut(it.Repository.FullName, "/")
		hits = append(hits, Hit{Kind: HitCode, Title: it.Repository.FullName + "/" + it.Path, Snippet: it.Path, URL: it.HTMLURL,
			Ref: map[string]string{"owner": owner, "repo": repo, "path": it.Path}})
	}
	return hits, nil
}

// ownerRepo reads owner and repository from an API repository URL
// (https://api.github.com/repos/o/r) or an HTML URL (https://github.com/o/r/...).
func ownerRepo(apiURL, htmlURL string) (string, string) {
	for _, raw := range []string{apiURL, htmlURL} {
		u, err := url.Parse(raw)
		if err != nil || u.Path == "" {
			continue
		}
		p := strings.Split(strings.Trim(u.Path, "/"), "/")
		if len(p) >= 3 && p[0] == "repos" {
			return p[1], p[2]
		}
		if len(p) >= 2 && p[0] != "repos" {
			return p[0], p[1]
		}
	}
	return "", ""
}

// parseSlackCSV reads slack-mcp-server's CSV by its header names (MsgID,
// UserName, Channel, ThreadTs, Text, Time, …). Slack's permalinks are not
// in it: the host builds them from url_base, the channel and the message's
// timestamp.
func parseSlackCSV(out ToolOutput, base string) ([]Hit, error) {
	text := strings.TrimSpace(out.Text)
	if text == "" {
		return nil, nil
	}
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	rows, err := r.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, nil
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	get := func(row []string, names ...string) string {
		for _, n := range names {
			if i, ok := col[strings.ToLower(n)]; ok && i < len(row) {
				return strings.TrimSpace(row[i])
			}
		}
		return ""
	}
	if _, ok := col["text"]; !ok {
		return nil, fmt.Errorf("no Text column in %q", strings.Join(rows[0], ","))
	}
	var hits []Hit
	for _, row := range rows[1:] {
		ts := get(row, "MsgID", "ts")
		ch := get(row, "Channel", "ChannelID")
		thread := get(row, "ThreadTs")
		if thread == "" {
			thread = ts
		}
		user := get(row, "UserName", "RealName", "UserID")
		hits = append(hits, Hit{Kind: HitMessage, Title: strings.TrimSpace(ch + " " + user), Snippet: get(row, "Text"),
			URL: SlackLink(base, ch, ts), Ref: map[string]string{"channel_id": ch, "thread_ts": thread, "ts": ts}})
	}
	return hits, nil
}

// SlackLink is a message's permalink: BASE/archives/CHANNEL/pTS with the
// timestamp's dot removed; "" without a base, channel or timestamp.
func SlackLink(base, channel, ts string) string {
	base = strings.TrimRight(base, "/")
	if base == "" || channel == "" || ts == "" {
		return ""
	}
	return base + "/archives/" + url.PathEscape(strings.TrimPrefix(channel, "#")) + "/p" + strings.ReplaceAll(ts, ".", "")
}

func parsePaths(out ToolOutput) ([]Hit, error) {
	var hits []Hit
	for _, line := range strings.Split(out.Text, "\n") {
		p := strings.TrimSpace(line)
		if p == "" || !strings.HasPrefix(p, "/") {
			continue // "No matches found" and other prose
		}
		name := p[strings.LastIndexByte(p, '/')+1:]
		hits = append(hits, Hit{Kind: HitFile, Title: name, Snippet: p, URL: (&url.URL{Scheme: "file", Path: p}).String(),
			Ref: map[string]string{"path": p}})
	}
	return hits, nil
}

func snippet(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// FetchCall is one body read.
type FetchCall struct {
	Tool     string         `json:"tool,omitempty"`
	Args     map[string]any `json:"args,omitempty"`
	Resource string         `json:"resource,omitempty"`
}

// FetchFor maps a hit to the call that reads its body (FR-SR-03): the
// server's fetch entry for the hit's kind, its placeholders filled from the
// hit. ok is false when the server has no way to read that kind, or the
// hit lacks a field the call needs — the snippet is used then.
func FetchFor(s Server, h Hit) (FetchCall, bool) {
	spec, found := s.Fetch[h.Kind]
	if !found {
		return FetchCall{}, false
	}
	okAll := true
	fill := func(v string) string {
		var b strings.Builder
		for {
			i := strings.IndexByte(v, '{')
			j := strings.IndexByte(v, '}')
			if i < 0 || j < i {
				b.WriteString(v)
				return b.String()
			}
			b.WriteString(v[:i])
			val, ok := h.Ref[v[i+1:j]]
			if !ok || val == "" {
				okAll = false
			}
			b.WriteString(val)
			v = v[j+1:]
		}
	}
	if spec.Resource != "" {
		return FetchCall{Resource: fill(spec.Resource)}, okAll
	}
	if spec.Tool == "" {
		return FetchCall{}, false
	}
	args := make(map[string]any, len(spec.Args))
	for k, v := range spec.Args {
		if sv, ok := v.(string); ok {
			f := fill(sv)
			// A whole-placeholder numeric field ("{number}") goes as a number.
			if strings.HasPrefix(sv, "{") && strings.HasSuffix(sv, "}") && strings.Count(sv, "{") == 1 {
				if n, err := strconv.Atoi(f); err == nil && (sv == "{number}") {
					args[k] = n
					continue
				}
			}
			args[k] = f
		} else {
			args[k] = v
		}
	}
	return FetchCall{Tool: spec.Tool, Args: args}, okAll
}
