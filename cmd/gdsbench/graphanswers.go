package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/textseg"
)

// graphAnswerRow is one question in one mode.
type graphAnswerRow struct {
	Question  string   `json:"question"`
	Mode      string   `json:"mode"`
	Faults    []string `json:"faults"`
	Repeated  int      `json:"repeated_sentences"`
	Documents int      `json:"documents_quoted"` // corpus files holding one of the answer's sentences
	FollowUps []string `json:"follow_ups,omitempty"`
	// OffTopic are the DRIFT follow-ups that share no word with the
	// question.
	OffTopic []string `json:"off_topic_follow_ups,omitempty"`
	Answer   string   `json:"answer"`
}

// runGraphAnswers is `gdsbench graph-answers`: a fresh gds home, a crawl
// of the corpus, gds graph build, then every question in every mode
// (gds graph query --output-format json); each answer and DRIFT follow-up
// is checked with graph.Faults. It prints one JSON line per answer with
// --details and a summary: answers with a leak (any fault but a repeated
// sentence), answers repeating a sentence, follow-ups off the question.
func runGraphAnswers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("graph-answers", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gds := fs.String("gds", "bin/gds", "the gds binary")
	corpus := fs.String("corpus", "", "folder of documents")
	questions := fs.String("questions", "", "file of questions, one per line")
	modes := fs.String("modes", "global,local,drift", "query modes")
	first := fs.Int("files", 0, "only the first N files of the corpus folder, by name (0: all)")
	details := fs.Bool("details", false, "print every answer as a JSON line")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *corpus == "" || *questions == "" {
		return fmt.Errorf("--corpus and --questions are required")
	}
	qs, err := readLines(*questions)
	if err != nil {
		return err
	}
	home, err := os.MkdirTemp("", "gdsbench-graph-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	env := append(os.Environ(), "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "DATABASE_URL=", "SUPABASE_DB_URL=")
	run := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, *gds, args...)
		cmd.Env = env
		var errb strings.Builder
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("gds %s: %w: %s", strings.Join(args, " "), err, errb.String())
		}
		return out, nil
	}
	abs, err := filepath.Abs(*corpus)
	if err != nil {
		return err
	}
	if *first > 0 {
		tmp, err := os.MkdirTemp("", "gdsbench-corpus-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		if abs, err = firstFiles(abs, *first, tmp); err != nil {
			return err
		}
	}
	if _, err := run("crawl", "--source", "local:"+abs); err != nil {
		return err
	}
	if _, err := run("graph", "build", "--json"); err != nil {
		return err
	}
	texts, err := corpusTexts(abs)
	if err != nil {
		return err
	}
	var rows []graphAnswerRow
	for _, q := range qs {
		for _, mode := range strings.Split(*modes, ",") {
			out, err := run("graph", "query", "--mode", mode, "--output-format", "json", q)
			if err != nil {
				return err
			}
			var res struct {
				Answer string `json:"answer"`
				Steps  []struct {
					FollowUps []string `json:"follow_up_queries"`
				} `json:"drift_steps"`
			}
			if err := json.Unmarshal(out, &res); err != nil {
				return fmt.Errorf("%s (%s): %w", q, mode, err)
			}
			row := graphAnswerRow{Question: q, Mode: mode, Faults: graph.Faults(res.Answer), Repeated: graph.RepeatedSentences(res.Answer),
				Documents: documentsQuoted(res.Answer, texts), Answer: res.Answer}
			for _, st := range res.Steps {
				for _, f := range st.FollowUps {
					row.FollowUps = append(row.FollowUps, f)
					for _, k := range graph.Faults(f) {
						if !slices.Contains(row.Faults, "follow_up_"+k) {
							row.Faults = append(row.Faults, "follow_up_"+k)
						}
					}
					if !sharesWord(f, q) {
						row.OffTopic = append(row.OffTopic, f)
					}
				}
			}
			rows = append(rows, row)
			if *details {
				b, _ := json.Marshal(row)
				fmt.Fprintln(stdout, string(b))
			}
		}
	}
	var leaks, repeats, followUps, offTopic int
	for _, r := range rows {
		if slices.ContainsFunc(r.Faults, func(f string) bool { return f != graph.FaultRepeated }) {
			leaks++
		}
		if r.Repeated > 0 {
			repeats++
		}
		followUps += len(r.FollowUps)
		offTopic += len(r.OffTopic)
	}
	sum := map[string]int{"answers": len(rows), "answers_with_a_leak": leaks, "answers_repeating_a_sentence": repeats,
		"follow_ups": followUps, "follow_ups_off_the_question": offTopic}
	b, _ := json.Marshal(sum)
	fmt.Fprintln(stdout, string(b))
	return nil
}

// firstFiles copies the first n files of dir (by name) into a folder
// under tmp and returns it.
func firstFiles(dir string, n int, tmp string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	out := filepath.Join(tmp, "corpus")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	for _, e := range entries {
		if n == 0 {
			break
		}
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), b, 0o644); err != nil {
			return "", err
		}
		n--
	}
	return out, nil
}

func readLines(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out, sc.Err()
}

// corpusTexts reads every file of the corpus folder, white space
// collapsed, by name.
func corpusTexts(dir string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out[e.Name()] = strings.Join(strings.Fields(string(b)), " ")
	}
	return out, nil
}

// documentsQuoted counts the corpus files that hold one of the answer's
// sentences.
func documentsQuoted(answer string, texts map[string]string) int {
	n := 0
	for _, t := range texts {
		for _, s := range textseg.Sentences(answer) {
			if len(s) > 20 && strings.Contains(t, s) {
				n++
				break
			}
		}
	}
	return n
}

// sharesWord reports whether a follow-up shares a word of four letters or
// more with the question.
func sharesWord(followUp, question string) bool {
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !('a' <= r && r <= 'z' || r > 127) }) {
			if len(w) >= 4 {
				m[strings.TrimSuffix(w, "s")] = true
			}
		}
		return m
	}
	q := words(question)
	for w := range words(followUp) {
		if q[w] {
			return true
		}
	}
	return false
}
