//go:build !windows

package main

import (
	"bytes"
	"errors"
	"fmt"
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

	"github.com/gds-cli/gds/internal/sysopen"
)

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

// In the search REPL, a number opens that result with the system's opener
// (here a script named xdg-open/open on PATH that records its argument),
// "c N" copies the link (no pbcopy on PATH: the OSC 52 sequence goes to
// the terminal), and a number not listed is refused.
func TestREPLNumberOpensTheResult(t *testing.T) {
	bin := gdsBinary(t)
	home := indexedHome(t, bin)
	dir := t.TempDir()
	opened := filepath.Join(dir, "opened.txt")
	script := "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '" + opened + "'\n"
	for _, name := range []string{"xdg-open", "open"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := startPTYEnv(t, bin, home, "C", []string{"PATH=" + dir}, "search")
	s.expect(`search> `)
	s.send("Z007Q\n")
	s.expect(` 1\. report-007\.txt\n`)
	s.expect(`a number or o N opens that result`)
	s.expect(`search> `)
	s.send("1\n")
	m := s.expect(`Opened 1: (file://\S+)\n`)
	s.expect(`search> `)
	got, err := os.ReadFile(opened)
	if err != nil || strings.TrimSpace(string(got)) != m[1] || !strings.HasSuffix(m[1], "/report-007.txt") {
		t.Fatalf("the opener got %q (%v), want the link of report-007.txt %q", got, err, m[1])
	}
	s.send("c 1\n")
	s.expect(`Sent the link of 1 to the terminal's clipboard`)
	s.expect(`search> `)
	s.mu.Lock()
	raw := s.raw.String()
	s.mu.Unlock()
	if want := sysopen.OSC52(m[1]); !strings.Contains(raw, want) {
		t.Errorf("the terminal did not get the OSC 52 sequence %q", want)
	}
	s.send("o 99\n")
	s.expect(`there is no result 99; choose 1–\d+`)
	s.expect(`search> `)
	s.send("\x04")
	if code := s.exit(); code != exitOK {
		t.Fatalf("exit %d; screen:\n%s", code, s.screen())
	}
	if got, _ := os.ReadFile(opened); strings.Count(string(got), "\n") != 1 {
		t.Errorf("the opener ran %d times: %q", strings.Count(string(got), "\n"), got)
	}
}
