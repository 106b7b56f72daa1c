package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
)

// askDoc is the --json output of gds ask.
type askDoc struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Provider string `json:"provider"`
	Sources  []struct {
		FileID  string  `json:"file_id"`
		Name    string  `json:"name"`
		ChunkID string  `json:"chunk_id"`
		Page    int     `json:"page"`
		Text    string  `json:"text"`
		Score   float64 `json:"score"`
		Link    string  `json:"link"`
	} `json:"sources"`
	Extractive bool `json:"extractive"`
	NoContext  bool `json:"no_context"`
	Error      *struct {
		Code string `json:"code"`
	} `json:"error"`
}

// gds ask over the real documents of testdata/realdocs (PDF, DOCX, PPTX,
// XLSX, HTML) with the offline provider cites the file that holds the
// answer, with its page, and answers by extract.
func TestAskCitesTheRightFile(t *testing.T) {
	t.Parallel() // CPU-heavy in-process run, overlaps the waits of the parallel tests (see TestMain); own GDS_HOME, no t.Setenv
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOffline
	// The documents without MANIFEST.tsv, which quotes their phrases.
	src := filepath.Join("..", "..", "testdata", "realdocs")
	docs := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || e.Name() == "MANIFEST.tsv" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(docs, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code := h.run("crawl", "--source", "local:"+docs); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s", code, h.stderr.String())
	}
	cases := []struct {
		q, want string
		page    bool
	}{
		{"How many bottles of water does the memo ask for?", "unstructured-fake-memo.pdf", true},
		{"What does the ZAVA auto repair estimate cover, the rear bumper?", "markitdown-repair-estimate-3p.pdf", true},
		{"わたくしといふ現象は何の照明ですか", "pdfminer-jo-haru-to-shura.pdf", true},
		{"Which team has won the Stanley Cup, the Maple Leafs?", "unstructured-stanley-cups.xlsx", false},
	}
	for _, tc := range cases {
		if code := h.run("ask", "--json", "--top-k", "3", tc.q); code != exitOK {
			t.Fatalf("%s: exit %d\n%s", tc.q, code, h.stderr.String())
		}
		var doc askDoc
		if err := json.Unmarshal(h.stdout.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", tc.q, err, h.stdout.String())
		}
		if len(doc.Sources) == 0 || doc.Sources[0].Name != tc.want {
			t.Errorf("%s: sources %+v, want %s first", tc.q, doc.Sources, tc.want)
			continue
		}
		s := doc.Sources[0]
		if tc.page && s.Page < 1 || s.ChunkID == "" || s.Text == "" || s.Score <= 0 || s.Score > 1 || !strings.HasPrefix(s.Link, "file://") {
			t.Errorf("%s: first source %+v", tc.q, s)
		}
		if doc.Provider != "offline" || !doc.Extractive || doc.NoContext || !strings.Contains(doc.Answer, "[1]") || doc.Question != tc.q {
			t.Errorf("%s: answer %q provider %q extractive %v", tc.q, doc.Answer, doc.Provider, doc.Extractive)
		}
	}

	// Nothing above the threshold: it says so and invents nothing.
	if code := h.run("ask", "--json", "--score-threshold", "1", "zebra quantum marmalade"); code != exitOK {
		t.Fatalf("threshold: exit %d\n%s", code, h.stderr.String())
	}
	var none askDoc
	if err := json.Unmarshal(h.stdout.Bytes(), &none); err != nil {
		t.Fatal(err)
	}
	if !none.NoContext || len(none.Sources) != 0 || none.Answer != i18n.T(i18n.En, "ask.no_context") {
		t.Errorf("no context: %+v", none)
	}

	// The answer's words follow the question's language, not the locale:
	// a Japanese question under an English locale and an English one
	// under a Japanese locale (no passage answers either).
	for _, tc := range []struct {
		locale, q, lang string
	}{
		{"en_US.UTF-8", "火星の衛星の名前は何ですか", i18n.Ja},
		{"ja_JP.UTF-8", "Which moons orbit Mars?", i18n.En},
	} {
		h.env["LANG"] = tc.locale
		if code := h.run("ask", "--top-k", "2", tc.q); code != exitOK {
			t.Fatalf("%s: exit %d\n%s", tc.q, code, h.stderr.String())
		}
		out := h.stdout.String()
		noAnswer := map[string]string{i18n.En: "The passages do not answer this question.", i18n.Ja: "提示された資料には、この質問に答える箇所が見つかりませんでした。"}[tc.lang]
		if !strings.HasPrefix(out, i18n.T(tc.lang, "ask.extract_note")) || !strings.Contains(out, noAnswer) || !strings.Contains(out, "\n"+i18n.T(tc.lang, "ask.closest")+"\n") {
			t.Errorf("%s under LANG=%s: want the %s phrases:\n%s", tc.q, tc.locale, tc.lang, out)
		}
		if code := h.run("ask", "--json", "--score-threshold", "1", tc.q); code != exitOK {
			t.Fatalf("%s: exit %d\n%s", tc.q, code, h.stderr.String())
		}
		var doc struct{ Answer, Lang string }
		if err := json.Unmarshal(h.stdout.Bytes(), &doc); err != nil || doc.Lang != tc.lang || doc.Answer != i18n.T(tc.lang, "ask.no_context") {
			t.Errorf("%s under LANG=%s, nothing above the threshold: %+v %v, want the %s phrase", tc.q, tc.locale, doc, err, tc.lang)
		}
	}
	delete(h.env, "LANG")

	// --jsonl: the answer in chunk lines as it is written, an evidence
	// line per source it cites, then done (the agent's event shapes).
	if code := h.run("ask", "--jsonl", "--top-k", "2", "How many bottles of water does the memo ask for?"); code != exitOK {
		t.Fatalf("jsonl: exit %d\n%s", code, h.stderr.String())
	}
	var types, text []string
	var done map[string]any
	var refs []float64
	evidence := 0
	for _, line := range strings.Split(strings.TrimSpace(h.stdout.String()), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("jsonl line %q: %v", line, err)
		}
		typ, _ := ev["type"].(string)
		if len(types) == 0 || types[len(types)-1] != typ {
			types = append(types, typ)
		}
		switch typ {
		case "chunk":
			text = append(text, ev["content"].(string))
		case "evidence":
			evidence++
			e := ev["evidence"].(map[string]any)
			ref, _ := ev["ref"].(float64)
			refs = append(refs, ref)
			if ref < 1 || e["name"] == "" || !strings.HasPrefix(e["chunk_id"].(string), e["file_id"].(string)+"#") {
				t.Errorf("evidence line %v", ev)
			}
		case "done":
			done = ev
		}
	}
	if strings.Join(types, ",") != "chunk,evidence,done" || evidence == 0 || evidence > 2 || done == nil {
		t.Fatalf("jsonl lines of types %v (%d evidence), want chunk…, evidence (the cited sources of 2), done", types, evidence)
	}
	for _, ref := range refs {
		if !strings.Contains(done["answer"].(string), fmt.Sprintf("[%d]", int(ref))) {
			t.Errorf("evidence [%d] is not cited by the answer %q", int(ref), done["answer"])
		}
	}
	if done["answer"] != strings.Join(text, "") || done["extractive"] != true || done["provider"] != "offline" {
		t.Errorf("done %v, chunks %q", done, text)
	}

	// The terminal form streams the extract, then the numbered sources.
	if code := h.run("ask", "--top-k", "2", "How many bottles of water does the memo ask for?"); code != exitOK {
		t.Fatalf("text: exit %d\n%s", code, h.stderr.String())
	}
	out := h.stdout.String()
	if !strings.HasPrefix(out, i18n.T(i18n.En, "ask.extract_note")) || !strings.Contains(out, "\nSources:\n[1] unstructured-fake-memo.pdf (p. ") {
		t.Errorf("text output:\n%s", out)
	}
}

// Out-of-range limits are usage errors, in --json too.
func TestAskBadInput(t *testing.T) {
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOffline
	for _, args := range [][]string{
		{"ask", "--json", "--top-k", "21", "q"},
		{"ask", "--json", "--top-k", "-1", "q"},
		{"ask", "--json", "--score-threshold", "1.5", "q"},
		{"ask", "--json", ""},
	} {
		if code := h.run(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", args, code, exitUsage, h.stderr.String())
		}
		var doc askDoc
		if err := json.Unmarshal(h.stdout.Bytes(), &doc); err != nil || doc.Error == nil || doc.Error.Code != "usage" {
			t.Errorf("%v: stdout %s", args, h.stdout.String())
		}
	}
	// --jsonl on an empty home: one error line.
	if code := h.run("ask", "--jsonl", "anything"); code != exitError || !strings.HasPrefix(h.stdout.String(), `{"type":"error","error":{"code":"no_index"`) {
		t.Errorf("--jsonl on an empty home: exit %d, %s", code, h.stdout.String())
	}
	// A valid question on an empty home: no index.
	if code := h.run("ask", "--json", "anything"); code != exitError {
		t.Errorf("empty home: exit %d", code)
	}
	var doc askDoc
	if err := json.Unmarshal(h.stdout.Bytes(), &doc); err != nil || doc.Error == nil || doc.Error.Code != "no_index" {
		t.Errorf("empty home: %s", h.stdout.String())
	}
}
