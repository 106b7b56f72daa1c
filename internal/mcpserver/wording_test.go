package mcpserver

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// firstRun stands for the application's needsInit: an empty index before
// any source is configured, with its own hint (run gds init).
type firstRun struct{ *apperr.Localized }

func (firstRun) Hint(string) string { return "run `gds init` first" }

// The application's errors that name CLI flags or hints reach an agent in
// the tools' words, in English and Japanese: the tool's parameter (never
// --flag), what only the user can do, the same kind (invalid params or a
// tool error) and cause.
func TestAgentWording(t *testing.T) {
	cause := errors.New("flate: corrupt input")
	folder := search.UnknownFolder("Specz", search.FolderMatch{}, []store.FolderCount{{Path: "Specs", Files: 3}})
	for _, c := range []struct {
		name     string
		err      error
		protocol bool     // JSON-RPC invalid params, else a tool error
		want     []string // in the English text
		wantJa   []string // in the Japanese text
	}{
		{"no query", apperr.L(apperr.Usage, "search.no_query"), true, []string{"query is empty", "pass what to look for in query"}, []string{"query が空"}},
		{"folder with state", apperr.L(apperr.Usage, "search.folder_and_state"), true, []string{"pass folder with a new query only"}, []string{"folder は新しい query"}},
		{"state and query", apperr.L(apperr.Usage, "searchjson.state_and_query"), true, []string{"either query or state"}, []string{"query と state"}},
		{"answer without state", apperr.L(apperr.Usage, "searchjson.answer_no_state"), true, []string{"answer needs the state"}, []string{"answer には"}},
		{"damaged state, wrapped", fmt.Errorf("decode: %w", apperr.L(apperr.Usage, "searchjson.bad_state").Wrap(cause)), true, []string{"this state is damaged", "call search again with query and no state"}, []string{"state を付けずに"}},
		{"state of another version", apperr.L(apperr.Usage, "searchjson.state_version").Wrap(cause), true, []string{"another version of gds"}, []string{"別のバージョン"}},
		{"state not waiting", apperr.L(apperr.Usage, "searchjson.not_waiting"), true, []string{"not waiting for an answer"}, []string{"回答待ち"}},
		{"no question", apperr.L(apperr.Usage, "ask.no_question"), true, []string{"question parameter"}, []string{"question パラメーター"}},
		{"empty index", apperr.L(apperr.NoIndex, "search.empty_index"), false, []string{"this tool cannot index", "`gds crawl`"}, []string{"このツールでは文書を索引できません"}},
		{"empty index before setup", firstRun{apperr.L(apperr.NoIndex, "first_run.empty_index")}, false, []string{"`gds init`, then `gds crawl`"}, []string{"`gds init`"}},
		// A usage error naming its parameter keeps its message, without
		// the command line's "run the command with --help".
		{"top_k out of range", apperr.L(apperr.Usage, "ask.bad_top_k", 50, 20), true, []string{"top_k 50 is out of range"}, []string{"top_k 50 は範囲外"}},
		{"no file id", apperr.L(apperr.Usage, "mcp.no_file_id"), true, []string{"give the id of an indexed file"}, []string{"id を指定"}},
		// An error with a hint of its own keeps it.
		{"unknown folder", folder, true, []string{"no indexed folder matches", "indexed folders: Specs"}, []string{"索引済みのフォルダ"}},
		{"not found", apperr.L(apperr.NotFound, "serve.not_found"), false, []string{"document not found"}, []string{"ドキュメントが見つかりません"}},
	} {
		got := agentWording(c.err)
		if !errors.Is(got, c.err) {
			t.Errorf("%s: the original error is not kept as the cause", c.name)
		}
		for lang, want := range map[string][]string{i18n.En: c.want, i18n.Ja: c.wantJa} {
			m := apperr.MCP(got, lang)
			if m.Protocol != c.protocol {
				t.Errorf("%s (%s): protocol %v, want %v", c.name, lang, m.Protocol, c.protocol)
			}
			if strings.Contains(m.Text, "--") || strings.Contains(m.Text, "gds doctor") {
				t.Errorf("%s (%s): %q names a CLI flag or hint", c.name, lang, m.Text)
			}
			for _, w := range want {
				if !strings.Contains(m.Text, w) {
					t.Errorf("%s (%s): %q lacks %q", c.name, lang, m.Text, w)
				}
			}
		}
	}
	// A damaged index is the user's to rebuild, in a terminal.
	m := apperr.MCP(agentWording(apperr.L(apperr.Index, "serve.not_found")), i18n.En)
	if !strings.Contains(m.Text, "this tool cannot repair the index") || strings.Contains(m.Text, "re-index with") {
		t.Errorf("damaged index: %q", m.Text)
	}
	if agentWording(nil) != nil {
		t.Error("nil error")
	}
}

// The message an agent gets when no passage passes the threshold names
// the tool's parameter, in both languages.
func TestNoContextNamesTheParameter(t *testing.T) {
	for _, lang := range []string{i18n.En, i18n.Ja} {
		if m := i18n.T(lang, "mcp.no_context"); !strings.Contains(m, "score_threshold") || strings.Contains(m, "--") {
			t.Errorf("%s: %q", lang, m)
		}
	}
}
