// Package federate is the host side of gds's cross-service search:
// one structured LLM call (or the offline keyword rules) turns a question
// into one query per service in that service's syntax with OR-expanded
// synonyms; the services' MCP search tools run in parallel; the top hits
// (3 per service, 9 in all) are read with the tool the host maps to each
// result kind; the summary is written from those bodies, and the numbered
// sources are built by the host from the real URLs. Failures are soft: a
// service that fails, answers 429 or times out is skipped with a warning
// and the others answer.
//
// The package is pure: everything it reads or writes goes through the
// Service interface (implemented over MCP stdio sessions by
// federate/mcphost) and ai.Provider.
package federate

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Service kinds: they choose the query syntax and the result format.
const (
	KindDrive  = "drive"  // gds mcp (or any server with gds's search output)
	KindSlack  = "slack"  // korotovsky slack-mcp-server
	KindGitHub = "github" // github/github-mcp-server
	KindFiles  = "files"  // @modelcontextprotocol/server-filesystem
)

// Result kinds, the keys of a server's fetch map.
const (
	HitFile        = "file"
	HitIssue       = "issue"
	HitPullRequest = "pull_request"
	HitMessage     = "message"
	HitCode        = "code"
)

// Result formats of search tools.
const (
	FormatGDS          = "gds"           // structured search output of gds mcp
	FormatGitHubIssues = "github_issues" // GitHub search API JSON (issues and pull requests)
	FormatGitHubCode   = "github_code"   // GitHub code search JSON
	FormatSlackCSV     = "slack_csv"     // slack-mcp-server's CSV
	FormatPaths        = "paths"         // one path per line
)

// Limits: 3 results per service, 9 in all.
const (
	PerService = 3
	MaxTotal   = 9
)

// Config is servers.yaml.
type Config struct {
	Servers []Server `yaml:"servers"`
}

// Server is one MCP server.
type Server struct {
	Name    string   `yaml:"name"`
	Kind    string   `yaml:"kind"`
	Command string   `yaml:"command"`
	Args    []string `yaml:"args"`
	// Env are names of environment variables passed to the server (never
	// values: tokens stay in the environment or the gds home's .env).
	Env []string `yaml:"env"`
	// Tokens are the names among Env that must be set to use the real
	// server; when one is missing the server's mock runs instead.
	Tokens []string `yaml:"tokens"`
	// Mock is the mock server kind (gds federate mock-server KIND) used
	// with --mock, ALLOW_REAL=0 or a missing token; "" for none.
	Mock string `yaml:"mock"`
	// Qualifiers are added to every query (GitHub "org:acme", Slack "in:#dev").
	Qualifiers string `yaml:"qualifiers"`
	// URLBase builds links the server does not return (Slack's workspace URL).
	URLBase string     `yaml:"url_base"`
	Search  SearchSpec `yaml:"search"`
	// Fetch maps a result kind to the tool or resource that reads its body.
	Fetch    map[string]FetchSpec `yaml:"fetch"`
	Disabled bool                 `yaml:"disabled"`
	// Timeout bounds each call to this server (0: the runner's defaults,
	// 30 s per search and 20 s per body read).
	Timeout time.Duration `yaml:"timeout"`
}

// SearchSpec says how to call a server's search tool.
type SearchSpec struct {
	Tool     string         `yaml:"tool"`
	QueryArg string         `yaml:"query_arg"`
	LimitArg string         `yaml:"limit_arg"` // "" when the tool takes no limit
	Args     map[string]any `yaml:"args"`      // fixed extra arguments
	Format   string         `yaml:"format"`
}

// FetchSpec reads one result's body: a tool called with Args, whose string
// values may hold {field} placeholders filled from the hit's reference
// fields, or a resource read (Resource is a URI template).
type FetchSpec struct {
	Tool     string         `yaml:"tool"`
	Args     map[string]any `yaml:"args"`
	Resource string         `yaml:"resource"`
}

// ParseConfig reads and checks servers.yaml.
func ParseConfig(data []byte) (Config, error) {
	var c Config
	if err := yaml.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("servers.yaml: %w", err)
	}
	return c, c.Check()
}

// Check reports the first server that cannot work.
func (c Config) Check() error {
	seen := map[string]bool{}
	for i, s := range c.Servers {
		switch {
		case s.Name == "":
			return fmt.Errorf("servers.yaml: server %d has no name", i+1)
		case seen[s.Name]:
			return fmt.Errorf("servers.yaml: server name %q is used twice", s.Name)
		case s.Command == "" && s.Mock == "":
			return fmt.Errorf("servers.yaml: server %q has neither a command nor a mock", s.Name)
		case s.Search.Tool == "" || s.Search.QueryArg == "":
			return fmt.Errorf("servers.yaml: server %q needs search.tool and search.query_arg", s.Name)
		case !slices.Contains([]string{KindDrive, KindSlack, KindGitHub, KindFiles}, s.Kind):
			return fmt.Errorf("servers.yaml: server %q has kind %q (drive, slack, github or files)", s.Name, s.Kind)
		case !slices.Contains([]string{FormatGDS, FormatGitHubIssues, FormatGitHubCode, FormatSlackCSV, FormatPaths}, s.Search.Format):
			return fmt.Errorf("servers.yaml: server %q has search.format %q", s.Name, s.Search.Format)
		}
		for _, t := range s.Tokens {
			if !slices.Contains(s.Env, t) {
				return fmt.Errorf("servers.yaml: server %q: token %s is not listed in env", s.Name, t)
			}
		}
		for _, e := range s.Env {
			if strings.ContainsAny(e, "= \t") {
				return fmt.Errorf("servers.yaml: server %q: env lists names of variables, not values (%q)", s.Name, MaskSecrets(e))
			}
		}
		seen[s.Name] = true
	}
	return nil
}

// Enabled are the servers not disabled, in file order.
func (c Config) Enabled() []Server {
	var out []Server
	for _, s := range c.Servers {
		if !s.Disabled {
			out = append(out, s)
		}
	}
	return out
}

// Launch is how the host starts one server.
type Launch struct {
	Server Server
	// Mock is true when the mock replaces the real server; Reason says why.
	Mock   bool
	Reason string // "mock" (--mock / ALLOW_REAL=0) or the missing token's name
}

// DecideLaunch picks the real server or its mock: all mocks with
// forceMock; the mock when a token is missing (a warning, then
// the mock); a server with no command and a mock is always mocked. ok is
// false when the server cannot run (a token missing and no mock).
func DecideLaunch(s Server, forceMock bool, lookup func(string) (string, bool)) (l Launch, ok bool) {
	l.Server = s
	if forceMock || s.Command == "" {
		l.Mock, l.Reason = true, "mock"
		return l, s.Mock != ""
	}
	for _, t := range s.Tokens {
		if v, set := lookup(t); !set || strings.TrimSpace(v) == "" {
			l.Mock, l.Reason = true, t
			return l, s.Mock != ""
		}
	}
	return l, true
}

// ForceMock reads --mock and ALLOW_REAL (ALLOW_REAL=0 means mocks only).
func ForceMock(flag bool, allowReal string) bool {
	return flag || strings.TrimSpace(allowReal) == "0"
}
