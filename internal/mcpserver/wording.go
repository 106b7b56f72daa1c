package mcpserver

import (
	"errors"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/i18n"
)

// agentKeys are the application's error messages that tell the user a CLI
// flag or command where the calling agent passes a tool parameter, each
// with the tool's words for it (same arguments).
var agentKeys = map[i18n.Key]i18n.Key{
	"search.no_query":            "mcp.search.no_query",
	"search.folder_and_state":    "mcp.search.folder_and_state",
	"searchjson.state_and_query": "mcp.search.state_and_query",
	"searchjson.answer_no_state": "mcp.search.answer_no_state",
	"searchjson.bad_state":       "mcp.search.bad_state",
	"searchjson.state_version":   "mcp.search.bad_state",
	"searchjson.not_waiting":     "mcp.search.not_waiting",
	"ask.no_question":            "mcp.no_question",
}

// agentHints replace, for errors without a hint of their own, the hint
// their kind gives on the command line: a usage error's "run the command
// with --help" has nothing to offer an agent (the message names the
// parameter; the tool's input schema lists them), a damaged index is
// rebuilt by the user.
var agentHints = []struct {
	kind *apperr.Kind
	key  i18n.Key // "": none
}{
	{apperr.Usage, ""},
	{apperr.Index, "mcp.hint_index"},
}

// agentWording is err in the words of the MCP tools where the
// application's message or hint speaks of CLI flags (the error's kind,
// and so its JSON-RPC form, kept; err stays its cause). Pure.
func agentWording(err error) error {
	var ae agentError
	if err == nil || errors.As(err, &ae) {
		return err
	}
	if errors.Is(err, apperr.NoIndex) && !errors.Is(err, graph.ErrNoGraph) {
		// Nothing indexed (before or after gds init): the agent cannot
		// index, the user does.
		return agentError{apperr.L(apperr.NoIndex, "mcp.empty_index").Wrap(err)}
	}
	var loc *apperr.Localized
	if errors.As(err, &loc) {
		if key, ok := agentKeys[loc.Key]; ok {
			return agentError{apperr.L(loc.Kind, key, loc.Args...).Wrap(err)}
		}
	}
	var h apperr.Hinter
	if errors.As(err, &h) {
		return err
	}
	for _, a := range agentHints {
		if errors.Is(err, a.kind) {
			return agentHint{err, a.key}
		}
	}
	return err
}

// agentHint is an error with the hint an agent is given instead of its
// kind's (key "": none).
type agentHint struct {
	error
	key i18n.Key
}

func (e agentHint) Unwrap() error { return e.error }

// Hint implements apperr.Hinter.
func (e agentHint) Hint(lang string) string {
	if e.key == "" {
		return ""
	}
	return i18n.T(lang, e.key)
}
