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
	// Each answerable query takes a loop; the one whose words no file
	// holds ends before any search.
	if rep["recall_at_1"].(float64) < 0.88 || rep["mean_loops"].(float64) < 0.88 {
		t.Errorf("the loop should find the 8 answerable queries first: %s", h.stdout.String())
	}
	b, err := os.ReadFile(details)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != 9 || !strings.Contains(lines[0], `"rank":1`) || !strings.Contains(lines[0], "keywords") {
		t.Errorf("details:\n%s", b)
	}

	// --capture: one search.RankTrace per reranked search (a question
	// whose word two files share), with the candidates' passages and the
	// final order.
	capCorpus := t.TempDir()
	for name, text := range map[string]string{
		"hive.txt":  "Bees make honey in the hive from the nectar of flowers.",
		"honey.txt": "Honey keeps for years; bees seal it with wax.",
		"train.txt": "The train leaves the station at noon.",
	} {
		if err := os.WriteFile(filepath.Join(capCorpus, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	capQueries := filepath.Join(t.TempDir(), "honey.jsonl")
	if err := os.WriteFile(capQueries, []byte(`{"id": "h1", "query": "Where do bees make honey?", "relevant": ["hive.txt"]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	capture := filepath.Join(t.TempDir(), "capture.jsonl")
	if code := h.run("eval", "--corpus", capCorpus, "--queries", capQueries, "--home", t.TempDir(), "--json", "--capture", capture); code != exitOK {
		t.Fatalf("eval --capture: exit %d, stderr %s", code, h.stderr.String())
	}
	b, err = os.ReadFile(capture)
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		Query string `json:"query"`
		Cands []struct {
			Snippet string `json:"snippet"`
		} `json:"cands"`
		Final []string `json:"final"`
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if err := json.Unmarshal([]byte(lines[0]), &tr); err != nil || len(lines) != 1 || tr.Query != "Where do bees make honey?" || len(tr.Cands) != 2 || tr.Cands[0].Snippet == "" || len(tr.Final) == 0 {
		t.Errorf("capture (%d lines, %v):\n%s", len(lines), err, b)
	}

	// The index's keyword baseline through the same command and the same
	// (reused) index; the reference BM25 reads the corpus and needs none.
	for _, base := range []string{"fts5", "bm25"} {
		if code := h.run("eval", "--corpus", corpus, "--queries", queries, "--home", evalHome, "--baseline", base, "--limit", "4"); code != exitOK {
			t.Fatalf("eval --baseline %s: exit %d, stderr %s", base, code, h.stderr.String())
		}
		if reused := strings.Contains(h.stderr.String(), "Reusing the evaluation index of 8 files"); reused != (base == "fts5") {
			t.Errorf("--baseline %s: index reused %v: %s", base, reused, h.stderr.String())
		}
		out := h.stdout.String()
		for _, want := range []string{"Evaluation of " + base + " on 4 queries", "Recall@1                 1.000", "MRR@10", "Zero-result rate         0.000"} {
			if !strings.Contains(out, want) {
				t.Errorf("--baseline %s: text report lacks %q:\n%s", base, want, out)
			}
		}
	}

	// --mode keystroke: the Alfred keystroke path over the same (reused)
	// index — one keyword search per query, no loop — finds each answerable
	// query's file first and nothing for the unanswerable one.
	if code := h.run("eval", "--mode", "keystroke", "--corpus", corpus, "--queries", queries, "--home", evalHome, "--json"); code != exitOK {
		t.Fatalf("eval --mode keystroke: exit %d, stderr %s", code, h.stderr.String())
	}
	var ks struct {
		R1    float64        `json:"recall_at_1"`
		Loops float64        `json:"mean_loops"`
		Sys   string         `json:"system"`
		Ends  map[string]int `json:"ends"`
	}
	if err := json.Unmarshal(h.stdout.Bytes(), &ks); err != nil || ks.Sys != "keystroke" || ks.R1 != 0.8889 || ks.Loops != 0 || ks.Ends["not_found"] != 1 ||
		!strings.Contains(h.stderr.String(), "Reusing the evaluation index of 8 files") {
		t.Errorf("eval --mode keystroke (%v):\n%s\n%s", err, h.stdout.String(), h.stderr.String())
	}
	if code := h.run("eval", "--mode", "keystroke", "--baseline", "fts5", "--corpus", corpus, "--queries", queries, "--home", evalHome); code != exitUsage ||
		!strings.Contains(h.stderr.String(), "--mode keystroke") {
		t.Errorf("--mode keystroke --baseline: exit %d, stderr %s", code, h.stderr.String())
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

// gds eval --mode answer end to end on the tiny corpus: context recall of
// the three chunk systems, the offline extract, --details and the errors.
func TestEvalAnswerCommand(t *testing.T) {
	h := newHarness(t)
	corpus, _ := filepath.Abs("../../internal/eval/testdata/corpus")
	queries, _ := filepath.Abs("../../internal/eval/testdata/queries.jsonl")
	evalHome := t.TempDir()
	details := filepath.Join(t.TempDir(), "details.jsonl")

	if code := h.run("eval", "--mode", "answer", "--corpus", corpus, "--queries", queries, "--home", evalHome, "--json", "--details", details, "--workers", "2"); code != exitOK {
		t.Fatalf("eval --mode answer: exit %d, stderr %s", code, h.stderr.String())
	}
	if !strings.Contains(h.stderr.String(), "Built the evaluation index of 8 files") || !strings.Contains(h.stderr.String(), "Queries: 9/9") {
		t.Errorf("stderr: %s", h.stderr.String())
	}
	var rep struct {
		Queries  int    `json:"queries"`
		K        int    `json:"k"`
		Provider string `json:"provider"`
		Systems  []struct {
			System     string  `json:"system"`
			At5        float64 `json:"context_recall_at_5"`
			At1        float64 `json:"context_recall_at_1"`
			File       float64 `json:"file_recall_at_5"`
			MeanChunks float64 `json:"mean_chunks"`
		} `json:"systems"`
		Answer struct {
			From           string  `json:"from"`
			Provider       string  `json:"provider"`
			ContainsAnswer float64 `json:"contains_answer"`
			GivenContext   float64 `json:"contains_answer_given_context"`
		} `json:"answer"`
	}
	if err := json.Unmarshal(h.stdout.Bytes(), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, h.stdout.String())
	}
	if rep.Queries != 9 || rep.K != 5 || rep.Provider != "offline" || len(rep.Systems) != 3 {
		t.Fatalf("report: %s", h.stdout.String())
	}
	// Eight queries have their gold answer in their file's only chunk, which
	// every system ranks first; q9 ("zebra quagga okapi", gold "none")
	// matches no word: full text finds no chunk, the other two return 5 of
	// the 8 chunks without the answer. Those 8 tie, so which 5 — and whether
	// q9's file is among them — follows the file IDs, which hash the corpus's
	// absolute path: file recall@5 of gds and vector is 8/9 or 9/9 by where
	// the repository is checked out (fileAlt).
	want := []struct {
		system                    string
		at5, file, fileAlt, chunk float64
	}{
		{"gds", 0.8889, 1, 0.8889, 5},
		{"bm25", 0.8889, 0.8889, 0.8889, 2}, // only chunks sharing a word: 4+3+1+1+2+1+2+4+0 = 18
		{"vector", 0.8889, 1, 0.8889, 5},
	}
	for i, w := range want {
		s := rep.Systems[i]
		if s.System != w.system || s.At5 != w.at5 || s.At1 != w.at5 || (s.File != w.file && s.File != w.fileAlt) || s.MeanChunks != w.chunk {
			t.Errorf("system %d = %+v, want %+v", i, s, w)
		}
	}
	if a := rep.Answer; a.From != "gds" || a.Provider != "offline" || a.ContainsAnswer != 0.8889 || a.GivenContext != 1 {
		t.Errorf("answer score %+v", a)
	}
	b, err := os.ReadFile(details)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 9 {
		t.Fatalf("details: %d lines\n%s", len(lines), b)
	}
	var q1, q9 struct {
		ID      string `json:"id"`
		Answer  string `json:"answer"`
		Hit     bool   `json:"answer_hit"`
		Systems map[string]struct {
			AnswerRank int `json:"answer_rank"`
			FileRank   int `json:"file_rank"`
			Chunks     []struct {
				File string `json:"file"`
			} `json:"chunks"`
		} `json:"systems"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &q1); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[8]), &q9); err != nil {
		t.Fatal(err)
	}
	if q1.ID != "q1" || !q1.Hit || !strings.Contains(q1.Answer, "passing ships") || !strings.Contains(q1.Answer, "[1]") ||
		q1.Systems["gds"].AnswerRank != 1 || q1.Systems["gds"].Chunks[0].File != "01-lighthouse.txt" {
		t.Errorf("details of q1: %s", lines[0])
	}
	if q9.ID != "q9" || q9.Hit || q9.Systems["bm25"].AnswerRank != 0 || len(q9.Systems["bm25"].Chunks) != 0 ||
		q9.Systems["gds"].AnswerRank != 0 || len(q9.Systems["gds"].Chunks) != 5 {
		t.Errorf("details of q9: %s", lines[8])
	}

	// The table, in English and Japanese, on the reused index.
	if code := h.run("eval", "--mode", "answer", "--corpus", corpus, "--queries", queries, "--home", evalHome, "--limit", "8"); code != exitOK {
		t.Fatalf("eval --mode answer (text): exit %d, stderr %s", code, h.stderr.String())
	}
	out := h.stdout.String()
	for _, want := range []string{"Question answering on 8 queries (corpus, provider offline)", "Context recall@5",
		"  bm25               1.000  1.000          1.000", "containing a gold answer: 1.000"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(h.stderr.String(), "Reusing the evaluation index of 8 files") {
		t.Errorf("the second run did not reuse the index: %s", h.stderr.String())
	}
	h.lang = i18n.Ja
	if code := h.run("eval", "--mode", "answer", "--corpus", corpus, "--queries", queries, "--home", evalHome, "--limit", "1"); code != exitOK {
		t.Fatalf("eval --mode answer (ja): exit %d, stderr %s", code, h.stderr.String())
	}
	if !strings.Contains(h.stdout.String(), "質問応答の評価") || !strings.Contains(h.stdout.String(), "方式") {
		t.Errorf("Japanese output:\n%s", h.stdout.String())
	}
	h.lang = i18n.En

	for _, args := range [][]string{
		{"eval", "--mode", "answers", "--corpus", corpus, "--queries", queries},
		{"eval", "--mode", "answer", "--corpus", corpus, "--queries", queries, "--baseline", "bm25"},
		{"eval", "--mode", "answer", "--queries", queries},
	} {
		if code := h.run(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %s)", args, code, exitUsage, h.stderr.String())
		}
	}
	noAnswers := filepath.Join(t.TempDir(), "q.jsonl")
	os.WriteFile(noAnswers, []byte(`{"id": "x1", "query": "lighthouse", "relevant": ["01-lighthouse.txt"]}`+"\n"), 0o600)
	if code := h.run("eval", "--mode", "answer", "--corpus", corpus, "--queries", noAnswers, "--home", evalHome); code != exitError || !strings.Contains(h.stderr.String(), "x1") {
		t.Errorf("query without answers: exit %d, stderr %s", code, h.stderr.String())
	}
}

// gds eval --mode honest on the tiny corpus: the derived sets run and
// every invented word is named.
func TestEvalHonestCommand(t *testing.T) {
	h := newHarness(t)
	corpus, _ := filepath.Abs("../../internal/eval/testdata/corpus")
	queries, _ := filepath.Abs("../../internal/eval/testdata/queries.jsonl")
	details := filepath.Join(t.TempDir(), "honest.jsonl")
	if code := h.run("eval", "--mode", "honest", "--seed", "3", "--corpus", corpus, "--queries", queries, "--home", t.TempDir(), "--details", details); code != exitOK {
		t.Fatalf("eval: exit %d, stderr %s", code, h.stderr.String())
	}
	var rep struct {
		Seed     int `json:"seed"`
		Removed  int `json:"removed_files"`
		Invented struct {
			Questions int     `json:"questions"`
			Named     float64 `json:"named"`
		} `json:"invented"`
		Unanswerable struct {
			Questions int `json:"questions"`
		} `json:"unanswerable"`
	}
	if err := json.Unmarshal(h.stdout.Bytes(), &rep); err != nil {
		t.Fatalf("output: %v\n%s", err, h.stdout.String())
	}
	if rep.Seed != 3 || rep.Removed == 0 || rep.Invented.Questions == 0 || rep.Invented.Named != 1 {
		t.Errorf("report: %s", h.stdout.String())
	}
	b, err := os.ReadFile(details)
	if err != nil || !strings.Contains(string(b), `"set":"invented"`) {
		t.Errorf("details: %v\n%s", err, b)
	}
}
