//go:build !windows

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/gds-cli/gds/internal/i18n"
)

// ---- the REPL's prompt loop, with plain values ----

// chanLines is a LineReader fed by a test through a channel; a closed
// channel is the end of input (Ctrl-D). reading gets a value each time the
// REPL waits at its prompt.
type chanLines struct {
	c       chan string
	reading chan struct{}
}

func (c chanLines) ReadLine(ctx context.Context) (string, error) {
	c.reading <- struct{}{}
	select {
	case l, ok := <-c.c:
		if !ok {
			return "", io.EOF
		}
		return l, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

type replHarness struct {
	lines    chan string
	reading  chan struct{}
	signals  chan os.Signal
	msgs     bytes.Buffer
	mu       sync.Mutex
	queries  []string
	errs     []error
	started  chan string // each search's query, when it starts
	block    bool        // searches wait for cancellation
	cleanups int
}

func newReplHarness(block bool) *replHarness {
	return &replHarness{lines: make(chan string), reading: make(chan struct{}, 100), signals: make(chan os.Signal), started: make(chan string, 10), block: block}
}

func (h *replHarness) repl() *repl {
	return &repl{
		lines:   chanLines{h.lines, h.reading},
		signals: h.signals,
		msgs:    &h.msgs,
		t:       func(k i18n.Key, a ...any) string { return i18n.T(i18n.En, k, a...) },
		search: func(ctx context.Context, q string) error {
			h.mu.Lock()
			h.queries = append(h.queries, q)
			h.mu.Unlock()
			h.started <- q
			if q == "fail" {
				return errors.New("the index is broken")
			}
			if h.block {
				<-ctx.Done()
				return fmt.Errorf("keyword search: %w", ctx.Err())
			}
			return nil
		},
		onError: func(err error) { h.errs = append(h.errs, err) },
		cleanup: func() { h.cleanups++ },
	}
}

func (h *replHarness) start() chan error {
	done := make(chan error, 1)
	r := h.repl()
	go func() { done <- r.run(context.Background()) }()
	return done
}

func TestREPLRunsQueriesUntilCtrlDOrEmptyLine(t *testing.T) {
	for _, end := range []string{"ctrl-d", "empty line"} {
		h := newReplHarness(false)
		done := h.start()
		h.lines <- "first query"
		h.lines <- "  second  "
		h.lines <- "fail"
		h.lines <- "after the error"
		if end == "ctrl-d" {
			close(h.lines)
		} else {
			h.lines <- ""
		}
		if err := <-done; err != nil {
			t.Fatalf("%s: %v", end, err)
		}
		if fmt.Sprint(h.queries) != "[first query second fail after the error]" {
			t.Errorf("%s: queries %q", end, h.queries)
		}
		if len(h.errs) != 1 || !strings.Contains(h.errs[0].Error(), "broken") {
			t.Errorf("%s: errors %v", end, h.errs)
		}
		if n := strings.Count(h.msgs.String(), "search> "); n != 5 {
			t.Errorf("%s: %d prompts: %q", end, n, h.msgs.String())
		}
	}
}

func TestREPLCtrlCCancelsTheSearchThenExitsAtThePrompt(t *testing.T) {
	h := newReplHarness(true)
	done := h.start()
	h.lines <- "slow query"
	<-h.started
	h.signals <- os.Interrupt // cancels the search, not the REPL
	h.lines <- "next query"   // the prompt is back
	<-h.started
	h.signals <- os.Interrupt
	h.signals <- os.Interrupt // right after a cancellation: exit
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(h.msgs.String(), "Search cancelled."); got != 2 || h.cleanups != 2 {
		t.Errorf("%d cancellations, %d cleanups: %q", got, h.cleanups, h.msgs.String())
	}
}

func TestREPLOneCtrlCAtThePromptOnlyWarns(t *testing.T) {
	h := newReplHarness(false)
	done := h.start()
	// Each step waits for the prompt, so a Ctrl-C cannot reach a search
	// and a line cannot race a Ctrl-C.
	<-h.reading
	h.signals <- os.Interrupt
	<-h.reading
	h.lines <- "still here"
	<-h.started
	<-h.reading
	h.signals <- os.Interrupt
	select {
	case err := <-done:
		t.Fatalf("one Ctrl-C after a search ended the REPL: %v", err)
	case h.signals <- os.Interrupt:
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(h.msgs.String(), "press Ctrl-C again"); got != 2 {
		t.Errorf("%d hints: %q", got, h.msgs.String())
	}
}

func TestREPLSIGTERMIsAnInterruption(t *testing.T) {
	h := newReplHarness(true)
	done := h.start()
	h.lines <- "slow"
	<-h.started
	h.signals <- syscall.SIGTERM
	if err := <-done; exitCode(err) != exitInterrupted {
		t.Fatalf("SIGTERM: %v (exit %d)", err, exitCode(err))
	}
}

// ---- end to end: the built gds on a pseudo-terminal ----

// budgetCorpus writes 130 small reports in three folders, modified over
// three years, so that "budget report" matches more than 100 files and
// the loop asks a clarifying question.
func budgetCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	folders := []string{"alpha", "beta", "gamma"}
	topics := []string{"marketing", "hiring", "servers", "travel", "office", "training", "licences", "research", "events", "security"}
	for i := range 130 {
		f := folders[i%3]
		if err := os.MkdirAll(filepath.Join(dir, f), 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, f, fmt.Sprintf("report-%03d.txt", i))
		text := fmt.Sprintf("Quarterly budget report number %d for the %s team.\nThis report covers %s spending and the budget forecast.\nItem code Z%03dQ.\n", i, f, topics[i%10], i)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := time.Date(2022+i%3, time.Month(3+i%9), 10, 12, 0, 0, 0, time.UTC)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// indexedHome crawls the budget corpus offline into a new gds home.
func indexedHome(t *testing.T, bin string) string {
	t.Helper()
	home := t.TempDir()
	if out, err := crawlCmd(bin, home, budgetCorpus(t)).CombinedOutput(); err != nil {
		t.Fatalf("crawl: %v\n%s", err, out)
	}
	return home
}

// ptySession is gds running on a pseudo-terminal (stdin, stdout and
// stderr all the terminal, as in a shell). The test keeps its own handle on
// the terminal open, so output written just before gds exits is never
// dropped by the kernel when the last writer closes it.
type ptySession struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File
	tty  *os.File // the terminal's child side (its mode tells raw from line input)
	mu   sync.Mutex
	raw  bytes.Buffer
	more chan struct{} // signalled on every read
	pos  int           // expect searches the screen text after pos
}

func startPTY(t *testing.T, bin, home, lang string, args ...string) *ptySession {
	t.Helper()
	return startPTYEnv(t, bin, home, lang, nil, args...)
}

// startPTYEnv is startPTY with extra environment variables, which win over
// the defaults.
func startPTYEnv(t *testing.T, bin, home, lang string, env []string, args ...string) *ptySession {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 50, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = t.TempDir() // no stray .env
	cmd.Env = append(os.Environ(), "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "DATABASE_URL=", "SUPABASE_DB_URL=",
		"LC_ALL=", "LC_MESSAGES=", "LANG="+lang, "TERM=xterm-256color", "GDS_HYPERLINKS=", "NO_COLOR=")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &ptySession{t: t, cmd: cmd, ptmx: ptmx, tty: tty, more: make(chan struct{}, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			s.mu.Lock()
			s.raw.Write(buf[:n])
			s.mu.Unlock()
			select {
			case s.more <- struct{}{}:
			default:
			}
			if err != nil {
				return // the test closed the terminal
			}
		}
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		tty.Close()
		ptmx.Close()
	})
	return s
}

var escapes = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\r`)

// screen is the output so far without escape sequences and carriage returns.
func (s *ptySession) screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return escapes.ReplaceAllString(s.raw.String(), "")
}

// expect waits until re matches the screen after the last match and
// returns the submatches; it fails the test after a deadline.
func (s *ptySession) expect(re string) []string {
	s.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.After(20 * time.Second)
	for {
		scr := s.screen()
		if loc := rx.FindStringSubmatchIndex(scr[s.pos:]); loc != nil {
			m := rx.FindStringSubmatch(scr[s.pos:])
			s.pos += loc[1]
			return m
		}
		select {
		case <-s.more:
		case <-deadline:
			s.t.Fatalf("timed out waiting for %q; screen:\n%s", re, s.screen())
		}
	}
}

func (s *ptySession) send(text string) {
	s.t.Helper()
	if _, err := s.ptmx.WriteString(text); err != nil {
		s.t.Fatal(err)
	}
}

// exit waits for gds to end and returns its exit code.
func (s *ptySession) exit() int {
	s.t.Helper()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			s.t.Fatal(err)
		}
		return s.cmd.ProcessState.ExitCode()
	case <-time.After(20 * time.Second):
		s.t.Fatalf("gds did not exit; screen:\n%s", s.screen())
		return -1
	}
}

func TestInteractiveSearchAnswersTheQuestionWithAChoice(t *testing.T) {
	bin := gdsBinary(t)
	home := indexedHome(t, bin)
	s := startPTY(t, bin, home, "C", "search", "--verbose", "budget report")
	s.expect(`Loop 1: keywords \[[^\]]*budget[^\]]*\] · required \[none\] · filters: none · 130 hits → ask a question`)
	s.expect(`130 files match\. [^\n]*\?`)
	choice := s.expect(`1\) ([^\n]+) \((\d+)\)`)
	s.expect(`Answer with a number \(1–\d\)`)
	s.send("1\n")
	round := s.expect(`Loop 2: keywords \[[^\]]*\] · required \[([^\]]*)\] · filters: ([^·]*) · (\d+) hits`)
	if hits, _ := strconv.Atoi(round[3]); hits >= 130 || hits == 0 {
		t.Errorf("answering %q left %d hits", choice[1], hits)
	}
	if round[1] == "none" && strings.TrimSpace(round[2]) == "none" {
		t.Errorf("answering %q added no keyword or filter: %q", choice[1], round[0])
	}
	s.expect(`AI provider: offline`)
	first := s.expect(` 1\. (report-\d{3}\.txt)\n    (\w+) · (\d{4}-\d{2}-\d{2})\n((?:    [^\n]*\n)+?)    file://\S+/(\w+)/(report-\d{3}\.txt)\n`)
	if first[5] != first[2] || first[6] != first[1] {
		t.Errorf("the link does not point at the file: %q", first[0])
	}
	s.expect(`10\. report-\d{3}\.txt`)
	if code := s.exit(); code != exitOK {
		t.Fatalf("exit %d; screen:\n%s", code, s.screen())
	}
	// The chosen facet (a folder, a year, a month or a keyword) holds for
	// the first result.
	if text := strings.ToLower(first[2] + " · " + first[3] + " " + first[4]); !strings.Contains(text, strings.ToLower(choice[1])) {
		t.Errorf("the first result is not in the chosen %q: %q", choice[1], first[0])
	}
}

func TestREPLTwoQueriesThenCtrlD(t *testing.T) {
	bin := gdsBinary(t)
	home := indexedHome(t, bin)
	s := startPTY(t, bin, home, "C", "search")
	s.expect(`AI provider: offline\)\. Type a query`)
	s.expect(`search> `)
	s.send("Z007Q\n")
	s.expect(` 1\. report-007\.txt\n    beta · 2023-10-10\n`)
	s.expect(`search> `)
	s.send("Z042Q\n")
	s.expect(` 1\. report-042\.txt\n`)
	s.expect(`search> `)
	s.send("\x04") // Ctrl-D
	if code := s.exit(); code != exitOK {
		t.Fatalf("exit %d; screen:\n%s", code, s.screen())
	}
}

func TestREPLCtrlCCancelsTheQuestionNotTheREPL(t *testing.T) {
	bin := gdsBinary(t)
	home := indexedHome(t, bin)
	s := startPTY(t, bin, home, "ja_JP.UTF-8", "search")
	s.expect(`検索> `)
	s.send("budget report\n")
	s.expect(`130件のファイルが見つかりました。`)
	s.expect(`番号（1〜\d）か言葉で答えてください`)
	s.send("\x03") // Ctrl-C while the search waits for the answer
	s.expect(`検索を中止しました。\n`)
	s.expect(`検索> `)
	s.send("Z011Q\n") // the REPL still searches
	s.expect(` 1\. report-011\.txt\n`)
	s.expect(`検索> `)
	s.send("\x03")
	s.expect(`もう一度 Ctrl-C`)
	s.expect(`検索> `)
	s.send("\x03")
	if code := s.exit(); code != exitOK {
		t.Fatalf("exit %d; screen:\n%s", code, s.screen())
	}
}

func TestInteractiveSearchCtrlCAtTheQuestionIsAnInterruption(t *testing.T) {
	bin := gdsBinary(t)
	home := indexedHome(t, bin)
	s := startPTY(t, bin, home, "C", "search", "budget report")
	s.expect(`Answer with a number`)
	s.send("\x03")
	s.expect(`Error: interrupted\n`)
	if code := s.exit(); code != exitInterrupted {
		t.Fatalf("exit %d; screen:\n%s", code, s.screen())
	}
}
