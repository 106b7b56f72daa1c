package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
)

// gds eval end to end on the tiny corpus of internal/eval/testdata.
func TestEvalCommand(t *testing.T) {
	h := newHarness(t)
	corpus, _ := filepath.Abs("../../internal/eval/testdata/corpus")
	queries, _ := filepath.Abs("../../internal/eval/testdata/queries.jsonl")
	evalHome := t.TempDir()
	details := filepath.Join(t.TempDir(), "details.jsonl")

	if code := h.run("eval", "--corpus", corpus, "--queries", queries, "--home", evalHome, "--json", "--details", details); code != exitOK {
		t.Fatalf("eval: exit %d, stderr %s", code, h.stderr.String())
	}
	if !strings.Contains(h.stderr.String(), "Built the evaluation index of 8 files") || !strings.Contains(h.stderr.String(), "Queries: 9/9") {
		t.Errorf("stderr: %s", h.stderr.String())
	}
	var rep map[string]any
	if err := json.Unmarshal(h.stdout.Bytes(), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, h.stdout.String())
	}
	for _, k := range []string{"recall_at_1", "recall_at_10", "mrr_at_10", "zero_result_rate", "mean_loops", "queries", "latency_ms", "ends"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("--json lacks %q: %s", k, h.stdout.String())
		}
	}
	if rep["queries"] != 9.0 || rep["system"] != "gds" || rep["provider"] != "offline" || rep["zero_result_rate"] != 0.1111 {
		t.Errorf("report: %s", h.stdout.String())
	}
	if rep["recall_at_1"].(float64) < 0.88 || rep["mean_loops"].(float64) < 1 {
		t.Errorf("the loop should find the 8 answerable queries first: %s", h.stdout.String())
	}
	b, err := os.ReadFile(details)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != 9 || !strings.Contains(lines[0], `"rank":1`) || !strings.Contains(lines[0], "keywords") {
		t.Errorf("details:\n%s", b)
	}

	// The baseline through the same command and the same (reused) index.
	if code := h.run("eval", "--corpus", corpus, "--queries", queries, "--home", evalHome, "--baseline", "bm25", "--limit", "4"); code != exitOK {
		t.Fatalf("eval --baseline bm25: exit %d, stderr %s", code, h.stderr.String())
	}
	if !strings.Contains(h.stderr.String(), "Reusing the evaluation index of 8 files") {
		t.Errorf("the second run did not reuse the index: %s", h.stderr.String())
	}
	out := h.stdout.String()
	for _, want := range []string{"Evaluation of bm25 on 4 queries", "Recall@1                 1.000", "MRR@10", "Zero-result rate         0.000"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}

	h.lang = i18n.Ja
	if code := h.run("eval", "--corpus", corpus, "--queries", queries, "--home", evalHome, "--limit", "2"); code != exitOK {
		t.Fatalf("eval (ja): exit %d, stderr %s", code, h.stderr.String())
	}
	if !strings.Contains(h.stdout.String(), "平均ループ数") || !strings.Contains(h.stderr.String(), "再利用") {
		t.Errorf("Japanese output:\n%s\n%s", h.stdout.String(), h.stderr.String())
	}
	h.lang = i18n.En

	for _, args := range [][]string{
		{"eval", "--queries", queries},
		{"eval", "--corpus", corpus},
		{"eval", "--corpus", corpus, "--queries", queries, "--baseline", "tfidf"},
		{"eval", "--corpus", corpus, "--queries", queries, "--provider", "magic"},
		{"eval", "--corpus", corpus, "--queries", queries, "--workers", "0"},
		{"eval", "--corpus", corpus, "--queries", queries, "extra"},
	} {
		if code := h.run(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %s)", args, code, exitUsage, h.stderr.String())
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"query": "x"}`+"\n"), 0o600)
	if code := h.run("eval", "--corpus", corpus, "--queries", bad, "--home", evalHome); code != exitError || !strings.Contains(h.stderr.String(), "line 1") {
		t.Errorf("bad query file: exit %d, stderr %s", code, h.stderr.String())
	}
}
