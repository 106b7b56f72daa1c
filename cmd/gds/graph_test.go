package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/i18n"
)

// graphDoc is the --output-format json output of gds graph query.
type graphDoc struct {
	Mode       string `json:"mode"`
	Answer     string `json:"answer"`
	Provider   string `json:"provider"`
	Extractive bool   `json:"extractive"`
	Parameters struct {
		CommunityLevel   int     `json:"community_level"`
		MinCommunityRank float64 `json:"min_community_rank"`
		MaxContextTokens int     `json:"max_context_tokens"`
		ResponseType     string  `json:"response_type"`
	} `json:"parameters"`
	Calls struct {
		Map          int `json:"map"`
		Answer       int `json:"answer"`
		PromptTokens int `json:"prompt_tokens"`
	} `json:"calls"`
	References struct {
		Reports   []struct{ ID string } `json:"reports"`
		Entities  []struct{ ID string } `json:"entities"`
		Chunks    []struct{ ID string } `json:"chunks"`
		Documents []struct {
			ID, Name, Link string
		} `json:"documents"`
	} `json:"references"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// gds graph over the real articles of testdata/graphcorpus, offline: a
// query before the build fails naming `gds graph build`; after it, every
// mode answers with JSON naming the corpus files.
func TestGraphBuildAndQuery(t *testing.T) {
	t.Parallel() // CPU-heavy in-process run, overlaps the waits of the parallel tests (see TestMain); own GDS_HOME, no t.Setenv
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOffline
	docs := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "graphcorpus")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(docs, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, e.Name())
	}
	if code := h.run("crawl", "--source", "local:"+docs); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s", code, h.stderr.String())
	}

	if code := h.run("graph", "query", "What is this about?"); code == exitOK || !strings.Contains(h.stderr.String(), "gds graph build") {
		t.Fatalf("query before build: exit %d, stderr %q; want a failure naming gds graph build", code, h.stderr.String())
	}
	if code := h.run("graph", "query", "--output-format", "json", "What is this about?"); code == exitOK {
		t.Fatalf("json query before build: exit 0")
	}
	var doc graphDoc
	if err := json.Unmarshal(h.stdout.Bytes(), &doc); err != nil || doc.Error == nil || doc.Error.Code != "no_index" || !strings.Contains(doc.Error.Message, "gds graph build") {
		t.Fatalf("json error document = %s (%v)", h.stdout.String(), err)
	}

	if code := h.run("graph", "build"); code != exitOK {
		t.Fatalf("graph build: exit %d\n%s", code, h.stderr.String())
	}
	if out := h.stdout.String(); !strings.Contains(out, "Graph built (offline)") || !strings.Contains(h.stderr.String(), "Extracting entities") {
		t.Fatalf("build output %q, progress %q", out, h.stderr.String())
	}
	if code := h.run("graph", "build"); code != exitOK || !strings.Contains(h.stdout.String(), "0 extracted") {
		t.Fatalf("second build: exit %d, %q: want nothing extracted", code, h.stdout.String())
	}

	// Every mode's answer reads as text: no context row, ID, score,
	// escape or markup meant for the model, no sentence twice; DRIFT's
	// follow-ups are clean and stay on the question.
	for _, q := range []string{"Who won Super Bowl 50?", "What are the main themes of these documents?", "Where was the game played?"} {
		for _, mode := range []string{"global", "local", "drift"} {
			if code := h.run("graph", "query", "--output-format", "json", "--mode", mode, q); code != exitOK {
				t.Fatalf("%s (%s): exit %d\n%s", q, mode, code, h.stderr.String())
			}
			var d struct {
				Answer string `json:"answer"`
				Steps  []struct {
					FollowUps []string `json:"follow_up_queries"`
				} `json:"drift_steps"`
			}
			if err := json.Unmarshal(h.stdout.Bytes(), &d); err != nil {
				t.Fatal(err)
			}
			if f := graph.Faults(d.Answer); len(f) > 0 {
				t.Errorf("%s (%s): answer faults %v:\n%s", q, mode, f, d.Answer)
			}
			for _, st := range d.Steps {
				for _, fu := range st.FollowUps {
					if f := graph.Faults(fu); len(f) > 0 {
						t.Errorf("%s (%s): follow-up %q faults %v", q, mode, fu, f)
					}
				}
			}
		}
	}

	for _, mode := range []string{"", "local", "drift"} {
		args := []string{"graph", "query", "--output-format", "json", "--response-type", "list"}
		if mode != "" {
			args = append(args, "--mode", mode)
		}
		args = append(args, "Who won Super Bowl 50?")
		if code := h.run(args...); code != exitOK {
			t.Fatalf("mode %q: exit %d\n%s", mode, code, h.stderr.String())
		}
		var d graphDoc
		if err := json.Unmarshal(h.stdout.Bytes(), &d); err != nil {
			t.Fatalf("mode %q: %v\n%s", mode, err, h.stdout.String())
		}
		want := mode
		if want == "" {
			want = "global"
		}
		if d.Mode != want || d.Answer == "" || !d.Extractive || d.Provider != "offline" || d.Parameters.ResponseType != "list" || d.Parameters.CommunityLevel != 2 || d.Parameters.MaxContextTokens != 12000 {
			t.Fatalf("mode %q: %+v", mode, d)
		}
		if len(d.References.Documents) == 0 || len(d.References.Chunks) == 0 || len(d.References.Entities) == 0 {
			t.Fatalf("mode %q: reference chain %+v", mode, d.References)
		}
		for _, doc := range d.References.Documents {
			if !slices.Contains(files, doc.Name) || !strings.HasPrefix(doc.Link, "file://") {
				t.Errorf("mode %q: document %+v is not a corpus file", mode, doc)
			}
		}
		if want == "global" && (d.Calls.Map == 0 || len(d.References.Reports) == 0) {
			t.Errorf("global: calls %+v, %d reports", d.Calls, len(d.References.Reports))
		}
	}

	// Markdown (the default) is labelled offline and ends with the sources.
	if code := h.run("graph", "query", "Who won Super Bowl 50?"); code != exitOK {
		t.Fatalf("markdown: exit %d", code)
	}
	out := h.stdout.String()
	if !strings.HasPrefix(out, "> Extract from the graph") || !strings.Contains(out, "## Sources") || !strings.Contains(out, "squad-0001.txt") {
		t.Fatalf("markdown output:\n%s", out)
	}
	// The answer's phrases follow the question's language, not the
	// locale's (as gds ask's do): a Japanese question under an English
	// locale, an English one under a Japanese locale.
	for _, tc := range []struct{ locale, q, lang, intro, sources string }{
		{"en_US.UTF-8", "スーパーボウル50で優勝したのはどのチームですか？", "ja", "> グラフのコミュニティレポート", "## 出典"},
		{"ja_JP.UTF-8", "Who won Super Bowl 50?", "en", "> Extract from the graph", "## Sources"},
	} {
		h.env["LANG"] = tc.locale
		for _, mode := range []string{"global", "local", "drift"} {
			if code := h.run("graph", "query", "--mode", mode, tc.q); code != exitOK {
				t.Fatalf("%s (%s) under LANG=%s: exit %d\n%s", tc.q, mode, tc.locale, code, h.stderr.String())
			}
			if out := h.stdout.String(); !strings.HasPrefix(out, tc.intro) || !strings.Contains(out, tc.sources) {
				t.Errorf("%s (%s) under LANG=%s: want the %s phrases:\n%s", tc.q, mode, tc.locale, tc.lang, out)
			}
			if code := h.run("graph", "query", "--output-format", "json", "--mode", mode, tc.q); code != exitOK {
				t.Fatalf("%s (%s) json: exit %d", tc.q, mode, code)
			}
			var d struct {
				Answer string `json:"answer"`
				Lang   string `json:"lang"`
			}
			// Over the English articles the Japanese question finds
			// nothing: the no-data or no-match phrase, in Japanese.
			if err := json.Unmarshal(h.stdout.Bytes(), &d); err != nil || d.Lang != tc.lang || i18n.OfText(d.Answer) != tc.lang {
				t.Errorf("%s (%s) json under LANG=%s: %+v (%v), want an answer in %s", tc.q, mode, tc.locale, d, err, tc.lang)
			}
		}
	}
	delete(h.env, "LANG")

	for _, bad := range [][]string{
		{"graph", "query", "--mode", "hybrid", "q"},
		{"graph", "query", "--output-format", "xml", "q"},
		{"graph", "query", "--community-level", "-1", "q"},
		{"graph", "query", "--max-context-tokens", "10", "q"},
		{"graph", "query"},
	} {
		if code := h.run(bad...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (usage)", bad, code, exitUsage)
		}
	}
}
