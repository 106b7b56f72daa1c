package federate

// DefaultConfigYAML is the commented servers.yaml `gds federate
// --init-config` writes into the gds home.
const DefaultConfigYAML = `# servers.yaml — the MCP servers gds federate searches.
#
# Each server runs as a subprocess on stdio. Adding a service is an edit of
# this file only. Tokens are NEVER written here: "env" lists the NAMES of
# the variables passed to the server, read from your environment or the gds
# home's .env (keep that file out of git). When a variable in "tokens" is
# missing, gds warns and runs the server's mock instead; --mock or
# ALLOW_REAL=0 runs every mock.
#
# Per server:
#   name        shown in progress lines and sources
#   kind        drive | slack | github | files: the query syntax and result format
#   command     the executable (and args); "gds" means this gds binary
#   env         names of environment variables handed to the server
#   tokens      the names among env that must be set to use the real server
#   mock        the built-in mock (gds federate mock-server KIND) to use instead
#   qualifiers  added to every query, e.g. "org:acme" (GitHub) or "in:#dev" (Slack)
#   url_base    for links the server does not return (Slack workspace URL)
#   timeout     bound of each call, e.g. 10s (default 30s per search, 20s per read)
#   search      tool, query_arg, limit_arg, fixed args, format of its output
#               (gds | github_issues | github_code | slack_csv | paths)
#   fetch       result kind (file, issue, pull_request, message, code) → the
#               tool that reads its body, args with {field} placeholders from
#               the hit (id, owner, repo, number, path, channel_id, thread_ts),
#               or a resource URI template
servers:
  # Google Drive: gds itself (gds mcp) over the index built by gds crawl.
  # (The archived reference server @modelcontextprotocol/server-gdrive
  # returns no file IDs from its search, so it cannot fetch bodies.)
  - name: drive
    kind: drive
    command: gds
    args: [mcp]
    mock: drive
    search: {tool: search, query_arg: query, limit_arg: limit, args: {no_questions: true}, format: gds}
    fetch:
      file: {tool: get_file, args: {id: "{id}", max_chars: 6000}}

  # Slack: korotovsky/slack-mcp-server (npm slack-mcp-server carries its Go
  # binary). A user token (xoxp-) is needed to search.
  - name: slack
    kind: slack
    command: npx
    args: ["-y", "slack-mcp-server@1.3.0", "-transport", "stdio"]
    env: [SLACK_MCP_XOXP_TOKEN]
    tokens: [SLACK_MCP_XOXP_TOKEN]
    mock: slack
    url_base: https://example.slack.com
    search: {tool: conversations_search_messages, query_arg: search_query, limit_arg: limit, format: slack_csv}
    fetch:
      message: {tool: conversations_replies, args: {channel_id: "{channel_id}", thread_ts: "{thread_ts}"}}

  # GitHub: github/github-mcp-server (download its release binary and put
  # it on PATH or give its full path here).
  - name: github
    kind: github
    command: github-mcp-server
    args: [stdio, --read-only]
    env: [GITHUB_PERSONAL_ACCESS_TOKEN]
    tokens: [GITHUB_PERSONAL_ACCESS_TOKEN]
    mock: github
    # qualifiers: "org:your-org"
    search: {tool: search_issues, query_arg: query, limit_arg: perPage, format: github_issues}
    fetch:
      issue: {tool: issue_read, args: {method: get, owner: "{owner}", repo: "{repo}", issue_number: "{number}"}}
      pull_request: {tool: pull_request_read, args: {method: get, owner: "{owner}", repo: "{repo}", pullNumber: "{number}"}}
      code: {tool: get_file_contents, args: {owner: "{owner}", repo: "{repo}", path: "{path}"}}

  # A local folder through @modelcontextprotocol/server-filesystem:
  # - name: notes
  #   kind: files
  #   command: npx
  #   args: ["-y", "@modelcontextprotocol/server-filesystem", "/path/to/notes"]
  #   search: {tool: search_files, query_arg: pattern, args: {path: /path/to/notes}, format: paths}
  #   fetch:
  #     file: {tool: read_text_file, args: {path: "{path}"}}
`
