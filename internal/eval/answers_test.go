package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

func TestNormalizeText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"  a\tb\n\nc  ", "a b c"},
		{"ＡＢＣ１２３", "ABC123"},          // NFKC: full-width to ASCII
		{"ｶﾀｶﾅ", "カタカナ"},              // half-width katakana
		{"１９６４年\u3000開業", "1964年 開業"}, // ideographic space is white space
		{"Case Kept", "Case Kept"},
		{"", ""},
		{" \n ", ""},
	}
	for _, c := range cases {
		if got := NormalizeText(c.in); got != c.want {
			t.Errorf("NormalizeText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestContainsAnswer(t *testing.T) {
	cases := []struct {
		text    string
		answers []string
		want    bool
		comment string
	}{
		{"It opened on February 7, 2016 in Santa Clara.", []string{"February 7, 2016"}, true, "verbatim"},
		{"It opened on February\n7,  2016.", []string{"February 7, 2016"}, true, "white space collapsed in the text"},
		{"the American Football Conference", []string{"American  Football\tConference"}, true, "and in the answer"},
		{"ＮＦＬ champions", []string{"NFL"}, true, "full-width text"},
		{"NFL champions", []string{"ＮＦＬ"}, true, "full-width answer"},
		{"the nfl champions", []string{"NFL"}, false, "case kept"},
		{"someone left", []string{"one"}, false, "not inside a word"},
		{"someone left, then one came", []string{"one"}, true, "a later whole-word occurrence counts"},
		{"it cost $10", []string{"$1"}, false, "not inside a number"},
		{"it cost $1.", []string{"$1"}, true, "number bounded by punctuation"},
		{"in the 1850s", []string{"1850"}, false, "word-bounded at the end"},
		{"(1850)", []string{"1850"}, true, "bounded by brackets"},
		{"東海道新幹線は一九六四年に開業した。", []string{"一九六四年"}, true, "CJK has no word boundaries"},
		{"JR東海が運行する", []string{"JR"}, true, "Latin next to CJK is bounded"},
		{"富士山の登山シーズンは七月から九月までである。", []string{"八月", "七月から九月まで"}, true, "any of the answers"},
		{"nothing here", []string{"absent", "missing"}, false, "none of them"},
		{"anything", []string{"", "  "}, false, "empty answers never match"},
		{"", []string{"a"}, false, "empty text"},
		{"a", []string{"a"}, true, "whole text"},
	}
	for _, c := range cases {
		if got := ContainsAnswer(c.text, c.answers); got != c.want {
			t.Errorf("%s: ContainsAnswer(%q, %q) = %v, want %v", c.comment, c.text, c.answers, got, c.want)
		}
	}
}

func TestAnswerRank(t *testing.T) {
	chunks := []string{"alpha beta", "gamma\ndelta", "epsilon", "zeta eta", "theta", "iota"}
	cases := []struct {
		answers []string
		want    int
	}{
		{[]string{"alpha"}, 1},
		{[]string{"gamma delta"}, 2}, // the line break inside the chunk is a space
		{[]string{"theta"}, 5},
		{[]string{"iota"}, 6},       // AnswerRank does not cut; the caller passes the top k
		{[]string{"beta gamma"}, 0}, // never across two chunks
		{[]string{"eta"}, 4},        // "zeta" does not hold it, the word "eta" does
		{[]string{"omega"}, 0},
	}
	for _, c := range cases {
		if got := AnswerRank(chunks, c.answers); got != c.want {
			t.Errorf("AnswerRank(%q) = %d, want %d", c.answers, got, c.want)
		}
	}
	if got := AnswerRank(nil, []string{"a"}); got != 0 {
		t.Errorf("no chunks: %d", got)
	}
}

// fakeChunks returns fixed chunks per question text; it records whether it
// got a vector.
type fakeChunks struct {
	name   string
	chunks map[string][]store.ChunkHit
	fail   string
}

func (f fakeChunks) Name() string { return f.name }
func (f fakeChunks) Retrieve(ctx context.Context, q Question, k int) ([]store.ChunkHit, error) {
	if q.Text == f.fail {
		return nil, errors.New("boom")
	}
	if q.Vector == nil || q.Vector[0] != float32(len(q.Text)) {
		return nil, fmt.Errorf("question %q without its vector", q.Text)
	}
	return f.chunks[q.Text], nil
}

type fakeFiles struct{}

func (fakeFiles) GetFiles(ctx context.Context, ids []string) ([]store.File, error) {
	out := make([]store.File, len(ids))
	for i, id := range ids {
		out[i] = store.File{ID: id, Name: "name-" + id}
	}
	return out, nil
}

// echoAnswerer answers with the text of its first passage.
type echoAnswerer struct{}

func (echoAnswerer) Provider() string { return "echo" }
func (echoAnswerer) Answer(ctx context.Context, q string, ps []Passage) (string, error) {
	return ps[0].File + ": " + ps[0].Text, nil
}

func hit(file, text string) store.ChunkHit {
	return store.ChunkHit{FileID: file, Chunk: store.Chunk{Text: text}}
}

func TestRunAnswers(t *testing.T) {
	queries := []Query{
		{ID: "a", Query: "qa", Relevant: []string{"name-f1"}, Answers: []string{"red"}},
		{ID: "b", Query: "qbb", Relevant: []string{"name-f2"}, Answers: []string{"blue", "navy"}},
		{ID: "c", Query: "qccc", Relevant: []string{"name-f3"}, Answers: []string{"green"}},
		{ID: "d", Query: "qdddd", Relevant: []string{"name-f4"}, Answers: []string{"black"}},
	}
	// first: a at rank 1 (answer hit), b at rank 2 (the answer quotes rank
	// 1: miss), c in the relevant file but without the answer, d nothing.
	first := fakeChunks{name: "first", chunks: map[string][]store.ChunkHit{
		"qa":  {hit("f1", "the red one")},
		"qbb": {hit("f9", "nothing"), hit("f2", "a navy coat"), hit("f2", "blue")},
		"qccc": {hit("f3", "no colour"), hit("f8", "x"), hit("f8", "x"), hit("f8", "x"), hit("f8", "x"),
			hit("f3", "green, sixth, beyond the cut-off")},
	}}
	// second: only d, at rank 5.
	second := fakeChunks{name: "second", chunks: map[string][]store.ChunkHit{
		"qdddd": {hit("f8", "x"), hit("f8", "x"), hit("f8", "x"), hit("f8", "x"), hit("f4", "black")},
	}}
	setup := AnswerSetup{
		Systems:  []ChunkSystem{first, second},
		Embed:    func(ctx context.Context, s string) ([]float32, error) { return []float32{float32(len(s))}, nil },
		Provider: "fake",
		Files:    fakeFiles{},
		Answerer: echoAnswerer{},
	}
	rep, results, err := RunAnswers(context.Background(), setup, queries, Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Queries != 4 || rep.K != 5 || rep.Provider != "fake" || rep.Normalization != Normalization || len(rep.Systems) != 2 {
		t.Fatalf("report %+v", rep)
	}
	f, s := rep.Systems[0], rep.Systems[1]
	if f.System != "first" || f.ContextRecallAt5 != 0.5 || f.ContextRecallAt1 != 0.25 || f.FileRecallAt5 != 0.75 || f.MeanChunks != 2.25 {
		t.Errorf("first: %+v", f)
	}
	if s.System != "second" || s.ContextRecallAt5 != 0.25 || s.ContextRecallAt1 != 0 || s.FileRecallAt5 != 0.25 || s.MeanChunks != 1.25 {
		t.Errorf("second: %+v", s)
	}
	// Answers from the first system: a hits; b quotes "nothing"; c quotes
	// "no colour"; d has no chunk, so no answer.
	if a := rep.Answer; a == nil || a.From != "first" || a.Provider != "echo" || a.ContainsAnswer != 0.25 || a.ContainsAnswerGivenContext != 0.5 {
		t.Errorf("answer score %+v", rep.Answer)
	}
	if r := results[1]; r.Query.ID != "b" || r.Systems[0].AnswerRank != 2 || r.Systems[0].FileRank != 2 || r.Answer != "name-f9: nothing" || r.AnswerHit {
		t.Errorf("result b: %+v", r)
	}
	if r := results[3]; r.Answer != "" || r.AnswerHit || r.Systems[1].AnswerRank != 5 || r.Systems[1].Chunks[4] != (ChunkRef{File: "name-f4"}) {
		t.Errorf("result d: %+v", r)
	}

	details := filepath.Join(t.TempDir(), "d.jsonl")
	if err := WriteAnswerDetails(details, []string{"first", "second"}, results); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(details)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], `"answer_hit":true`) ||
		!strings.Contains(lines[3], `"second":{"answer_rank":5,"file_rank":5`) || !strings.Contains(lines[3], `"first":{"answer_rank":0,"file_rank":0,"chunks":[]`) {
		t.Errorf("details:\n%s", b)
	}

	// A failing system stops the run, naming the query.
	first.fail = "qccc"
	setup.Systems[0] = first
	if _, _, err := RunAnswers(context.Background(), setup, queries, Options{}); err == nil || !strings.Contains(err.Error(), "query c") {
		t.Errorf("failing system: %v", err)
	}
	// Answer mode needs gold answers.
	queries[2].Answers = []string{" "}
	if _, _, err := RunAnswers(context.Background(), setup, queries, Options{}); !errors.Is(err, ErrNoAnswers) {
		t.Errorf("query without answers: %v", err)
	}
}

func TestFirstSentence(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Denver won. [1] It was cold. [2]", "Denver won. [1]"},
		{"Denver won, 24–10 [1][3] and more [2]", "Denver won, 24–10 [1][3]"},
		{"No citation here. Second.", "No citation here."},
		{"Two sentences. Before one citation. [1] Third. [2]", "Two sentences."},
		{"東京は首都である。[1]\n人口は多い。[2]", "東京は首都である。[1]"},
		{"", ""},
	} {
		if got := FirstSentence(c.in); got != c.want {
			t.Errorf("FirstSentence(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if !Cites("a [12] b") || Cites("The passages do not answer.") || Cites("a [x]") {
		t.Error("Cites")
	}
}

func TestPercentileInt(t *testing.T) {
	for _, c := range []struct {
		xs     []int
		p, out int
	}{{nil, 50, 0}, {[]int{5}, 50, 5}, {[]int{4, 1, 3, 2}, 50, 2}, {[]int{1, 2, 3, 4, 5}, 50, 3}, {[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 90, 9}} {
		if got := percentile(c.xs, c.p); got != c.out {
			t.Errorf("percentile(%v, %d) = %d, want %d", c.xs, c.p, got, c.out)
		}
	}
}
