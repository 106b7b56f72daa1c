package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// termBuf is a fake terminal: a writer safe for the spinner's goroutine.
type termBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (t *termBuf) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.b.Write(p)
}

func (t *termBuf) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.b.String()
}

// fakeSpinner records what a spinner was asked to show.
type fakeSpinner struct {
	log *[]string
}

func (f fakeSpinner) Update(text string) { *f.log = append(*f.log, "update "+text) }
func (f fakeSpinner) Stop()              { *f.log = append(*f.log, "stop") }

func startFake(log *[]string) func(io.Writer, string) Spinner {
	return func(_ io.Writer, text string) Spinner {
		*log = append(*log, "start "+text)
		return fakeSpinner{log}
	}
}

// scriptLines answers ReadLine from a list; after it, io.EOF.
type scriptLines struct{ lines []string }

func (s *scriptLines) ReadLine(ctx context.Context) (string, error) {
	if len(s.lines) == 0 {
		return "", io.EOF
	}
	l := s.lines[0]
	s.lines = s.lines[1:]
	return l, nil
}

func round(loop, hits int, b search.Branch, kw ...string) search.Round {
	return search.Round{Loop: loop, Conditions: search.Conditions{Keywords: kw}, Hits: hits, Branch: b}
}

func TestStepsDriveOneSpinnerAndVerboseRoundsAsTheyHappen(t *testing.T) {
	var log []string
	var errOut termBuf
	r := &Interactive{Err: &errOut, Out: io.Discard, Lang: i18n.En, Verbose: true, StartSpinner: startFake(&log)}
	s := search.NewState("budget report", i18n.En, time.Now(), 5)
	r.Begin()
	r.Step(search.StepAnalyze, s)
	s.Loop = 1
	r.Step(search.StepSearch, s)
	if strings.Contains(errOut.String(), "Loop 1") {
		t.Fatalf("round printed before it happened: %q", errOut.String())
	}
	s.Rounds = []search.Round{round(1, 150, search.BranchClarify, "budget", "report")}
	r.Step(search.StepClarify, s)
	if !strings.Contains(errOut.String(), "Loop 1: keywords [budget, report] · required [none] · filters: none · 150 hits → ask a question") {
		t.Fatalf("round 1 not printed when it completed: %q", errOut.String())
	}
	r.Step(search.StepAsk, s)
	s.Loop = 2
	s.Cond.Required = []string{"alpha"}
	r.Step(search.StepSearch, s)
	want := []string{
		"start [loop 1/5] Analysing the query…",
		"update [loop 1/5] Searching the index…",
		"update [loop 1/5] Too many matches; preparing a question…",
		"stop",
		"start [loop 2/5] Searching the index…",
	}
	if fmt.Sprint(log) != fmt.Sprint(want) {
		t.Errorf("spinner calls\n got %q\nwant %q", log, want)
	}
	// The last round is printed by Finish, with required keywords.
	rd := round(2, 40, search.BranchNarrow, "budget", "report")
	rd.Conditions.Required = []string{"alpha"}
	s.Rounds = append(s.Rounds, rd)
	s.End = search.EndNotFound
	r.Finish(search.Outcome{State: s, Provider: "offline"}, 0)
	if got := strings.Count(errOut.String(), "Loop 1:"); got != 1 {
		t.Errorf("round 1 printed %d times", got)
	}
	if !strings.Contains(errOut.String(), "Loop 2: keywords [budget, report] · required [alpha] · filters: none · 40 hits → vector search") ||
		!strings.Contains(errOut.String(), "AI provider: offline") {
		t.Errorf("Finish did not print the last round and provider: %q", errOut.String())
	}
	if log[len(log)-1] != "stop" {
		t.Errorf("Finish left the spinner running: %q", log)
	}
}

func TestStepTextDriveAndJapanese(t *testing.T) {
	s := search.State{Loop: 2, MaxLoops: 3}
	if got := StepText(search.StepSearch, s, true, i18n.En); got != "[loop 2/3] Searching Google Drive…" {
		t.Errorf("drive search: %q", got)
	}
	if got := StepText(search.StepNarrow, s, false, i18n.Ja); got != "[ループ 3/3] 該当ファイルをベクトル検索しています…" {
		t.Errorf("ja narrow: %q", got)
	}
}

func TestQuietWithoutVerboseOrSpinner(t *testing.T) {
	var errOut termBuf
	r := &Interactive{Err: &errOut, Out: io.Discard, Lang: i18n.En}
	s := search.State{Loop: 1, MaxLoops: 5, Rounds: []search.Round{round(1, 3, search.BranchRerank, "x")}}
	r.Step(search.StepRerank, s)
	if errOut.String() != "" {
		t.Errorf("wrote %q", errOut.String())
	}
}

var question = ai.Question{Question: "150 files match. Which folder is it in?", Choices: []ai.Choice{
	{Label: "alpha (50)", Keyword: "alpha"}, {Label: "beta (50)", Keyword: "beta"}, {Label: "gamma (50)", Keyword: "gamma"}}}

func TestAskShowsNumberedChoicesAndReadsAnswers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		lines   []string
		want    search.Answer
		wantErr error
		reasked bool
	}{
		{"number picks a choice", []string{"2"}, search.Answer{Choice: 1}, nil, false},
		{"spaces around a number", []string{"  3 "}, search.Answer{Choice: 2}, nil, false},
		{"hash and number", []string{"#3"}, search.Answer{Choice: 2}, nil, false},
		{"out of range asks again", []string{"7", "1"}, search.Answer{Choice: 0}, nil, true},
		{"zero asks again", []string{"0", "the budget"}, search.Answer{Choice: -1, Text: "the budget"}, nil, true},
		{"free text", []string{"the 2024 slides"}, search.Answer{Choice: -1, Text: "the 2024 slides"}, nil, false},
		{"empty line skips", []string{""}, search.Answer{}, search.ErrNoAnswer, false},
		{"end of input skips", nil, search.Answer{}, search.ErrNoAnswer, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var errOut termBuf
			var log []string
			r := &Interactive{Err: &errOut, Out: io.Discard, Lang: i18n.En, Lines: &scriptLines{lines: tc.lines}, StartSpinner: startFake(&log)}
			r.Step(search.StepClarify, search.State{Loop: 1, MaxLoops: 5})
			ans, err := r.Ask(context.Background(), question, search.State{})
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && ans != tc.want) {
				t.Fatalf("Ask = %+v, %v; want %+v, %v", ans, err, tc.want, tc.wantErr)
			}
			out := errOut.String()
			for _, w := range []string{question.Question, "  1) alpha (50)", "  2) beta (50)", "  3) gamma (50)", "Answer with a number (1–3)"} {
				if !strings.Contains(out, w) {
					t.Errorf("prompt lacks %q:\n%s", w, out)
				}
			}
			if got := strings.Contains(out, "Pick a number from 1 to 3"); got != tc.reasked {
				t.Errorf("re-asked = %v:\n%s", got, out)
			}
			if len(log) < 2 || log[len(log)-1] != "stop" {
				t.Errorf("the spinner was not stopped before the question: %q", log)
			}
		})
	}
}

func TestAskFreeTextQuestionAndCancel(t *testing.T) {
	var errOut termBuf
	pr, pw := io.Pipe()
	defer pw.Close()
	r := &Interactive{Err: &errOut, Lang: i18n.Ja, Lines: NewLines(pr)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := r.Ask(ctx, ai.Question{Question: "もう少し詳しく"}, search.State{})
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Ask: %v", err)
	}
	if !strings.Contains(errOut.String(), "回答を入力してください") || strings.Contains(errOut.String(), "1)") {
		t.Errorf("free-text prompt: %q", errOut.String())
	}
}

func TestLinesKeepsAnAbandonedRead(t *testing.T) {
	pr, pw := io.Pipe()
	l := NewLines(pr)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.ReadLine(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled read: %v", err)
	}
	go func() {
		fmt.Fprint(pw, "first\r\nsecond\n")
		pw.Close()
	}()
	for _, want := range []string{"first", "second"} {
		got, err := l.ReadLine(context.Background())
		if err != nil || got != want {
			t.Fatalf("ReadLine = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := l.ReadLine(context.Background()); !errors.Is(err, io.EOF) {
		t.Fatalf("after the input: %v", err)
	}
}

func results() search.Outcome {
	mod := time.Date(2024, 5, 1, 12, 0, 0, 0, time.Local)
	return search.Outcome{State: search.State{End: search.EndResults}, Provider: "offline", Results: []search.Result{
		{File: store.File{ID: "a", Name: "Budget 2024.pdf", Path: "/Finance", ModifiedAt: mod, WebLink: "https://drive.google.com/file/d/a/view",
			Summary: "The approved budget for the fiscal year 2024,\n with  quarterly figures per department and notes on capital spending."}},
		{File: store.File{ID: "b", Name: "予算案.docx", ModifiedAt: mod, WebLink: "https://drive.google.com/file/d/b/view",
			Summary: "二〇二四年度の予算案です。部門ごとの四半期の数字と設備投資についての注記を含みます。"}},
		{File: store.File{ID: "c", Name: "third.txt", ModifiedAt: mod, WebLink: "file:///tmp/third.txt"}},
	}}
}

func TestFinishPrintsAReadableList(t *testing.T) {
	var out termBuf
	r := &Interactive{Out: &out, Err: io.Discard, Lang: i18n.En, Width: 40}
	r.Finish(results(), 2)
	got := out.String()
	want := ` 1. Budget 2024.pdf
    /Finance · 2024-05-01
    The approved budget for the fiscal
    year 2024, with quarterly figures
    per department and notes on capital
    spending.
    https://drive.google.com/file/d/a/view

 2. 予算案.docx
    2024-05-01
    二〇二四年度の予算案です。部門ごとの
    四半期の数字と設備投資についての注記
    を含みます。
    https://drive.google.com/file/d/b/view
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(got, "\x1b") {
		t.Error("escape codes without Color or Hyperlinks")
	}
}

func TestFinishColoursAndHyperlinks(t *testing.T) {
	var out termBuf
	r := &Interactive{Out: &out, Err: io.Discard, Lang: i18n.En, Color: true, Hyperlinks: true}
	r.Finish(results(), 0)
	got := out.String()
	for _, w := range []string{
		"\x1b]8;;https://drive.google.com/file/d/a/view\x1b\\\x1b[1mBudget 2024.pdf\x1b[0m\x1b]8;;\x1b\\",
		"\x1b[2m/Finance · 2024-05-01\x1b[0m",
		" 3. \x1b]8;;file:///tmp/third.txt\x1b\\",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("output lacks %q:\n%q", w, got)
		}
	}
}

func TestFinishEndMessages(t *testing.T) {
	for _, tc := range []struct {
		end  search.End
		lang string
		want string
	}{
		{search.EndNotFound, i18n.En, "No files found."},
		{search.EndNotFound, i18n.Ja, "見つかりませんでした"},
		{search.EndLoopCap, i18n.En, i18n.T(i18n.En, i18n.LoopLimitReached, 3)},
		{search.EndLoopCap, i18n.Ja, i18n.T(i18n.Ja, i18n.LoopLimitReached, 3)},
	} {
		var out termBuf
		r := &Interactive{Out: &out, Err: io.Discard, Lang: tc.lang, Color: true}
		r.Finish(search.Outcome{State: search.State{End: tc.end, MaxLoops: 3}}, 0)
		if got := out.String(); got != yellow+tc.want+reset+"\n" {
			t.Errorf("%s/%s: %q", tc.end, tc.lang, got)
		}
	}
}

func TestWrapRespectsDisplayWidth(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  []string
	}{
		{"a bb ccc dddd", 6, []string{"a bb", "ccc", "dddd"}},
		{"abcdefghijklmnopqrstuvwxyz", 10, []string{"abcdefghij", "klmnopqrst", "uvwxyz"}},
		{"日本語の文章を折り返します", 10, []string{"日本語の文", "章を折り返", "します"}},
		{"Drive の議事録", 10, []string{"Drive", "の議事録"}},
		{"", 10, nil},
	} {
		got := Wrap(tc.in, tc.width)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
		for _, l := range got {
			if w := runewidth.StringWidth(l); w > tc.width {
				t.Errorf("line %q is %d columns", l, w)
			}
		}
	}
}

func TestPtermSpinnerWritesToItsTerminal(t *testing.T) {
	var term termBuf
	sp := PtermSpinner(&term, "Analysing the query…")
	sp.Update("Searching the index…")
	sp.Stop()
	if !strings.Contains(term.String(), "Searching the index…") {
		t.Errorf("spinner output %q", term.String())
	}
}
