//go:build !windows

package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

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

func (h *replHarness) repl() *REPL {
	return &REPL{
		Lines:   chanLines{h.lines, h.reading},
		Signals: h.signals,
		Msgs:    &h.msgs,
		T:       func(k i18n.Key, a ...any) string { return i18n.T(i18n.En, k, a...) },
		Run: func(ctx context.Context, q string) error {
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
		OnError: func(err error) { h.errs = append(h.errs, err) },
		Cleanup: func() { h.cleanups++ },
	}
}

func (h *replHarness) start() chan error {
	done := make(chan error, 1)
	r := h.repl()
	go func() { done <- r.Loop(context.Background()) }()
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
	if err := <-done; apperr.Classify(err).Exit != apperr.ExitInterrupted {
		t.Fatalf("SIGTERM: %v (exit %d)", err, apperr.Classify(err).Exit)
	}
}
