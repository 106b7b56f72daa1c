package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render"
)

// runREPL is `gds search` without a query on a terminal: prompt, search,
// print, repeat. An empty line or Ctrl-D exits. Ctrl-C cancels the running
// search (including a pending clarifying question) and returns to the
// prompt; Ctrl-C at the prompt right after that, or twice in a row, exits.
// SIGTERM ends it as interrupted.
//
// main's context is cancelled by the first SIGINT, so the REPL runs on a
// context without that cancellation and takes the signals itself.
func runREPL(ctx context.Context, d *app.Deps, ss *app.SearchSession, r *render.Interactive, opts searchOptions) error {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	fmt.Fprintln(d.Stderr, d.T("interactive.repl.welcome", ss.Loop.AI.Name()))
	rp := &repl{
		lines:   r.Lines,
		signals: sigs,
		msgs:    d.Stderr,
		t:       d.T,
		search: func(ctx context.Context, q string) error {
			return searchOnce(ctx, d, ss, r, q, opts)
		},
		onError: func(err error) { printError(d, err) },
		cleanup: r.Stop,
	}
	return rp.run(context.WithoutCancel(ctx))
}

// repl is the prompt loop, apart from the terminal and the search so that
// its handling of input, Ctrl-C and Ctrl-D is tested with plain values.
type repl struct {
	lines   render.LineReader
	signals <-chan os.Signal // SIGINT cancels, SIGTERM ends
	msgs    io.Writer        // prompt and notices
	t       func(key i18n.Key, args ...any) string
	prompt  i18n.Key // "" for the search prompt
	search  func(ctx context.Context, query string) error
	onError func(error)
	cleanup func() // called after a search is cancelled (stop the spinner)
}

// errTerminated ends the REPL on SIGTERM.
var errTerminated = errors.New("terminated")

func (r *repl) run(ctx context.Context) error {
	exitArmed := false // the last thing was a Ctrl-C: another one at the prompt exits
	for {
		prompt := r.prompt
		if prompt == "" {
			prompt = "interactive.repl.prompt"
		}
		fmt.Fprint(r.msgs, r.t(prompt))
		var line string
		sig, err := r.interruptible(ctx, func(ctx context.Context) error {
			var err error
			line, err = r.lines.ReadLine(ctx)
			return err
		})
		switch {
		case sig == syscall.SIGTERM:
			fmt.Fprintln(r.msgs)
			return errInterrupted{cause: errTerminated}
		case sig != nil && exitArmed:
			fmt.Fprintln(r.msgs)
			return nil
		case sig != nil:
			exitArmed = true
			fmt.Fprintln(r.msgs)
			fmt.Fprintln(r.msgs, r.t("interactive.repl.exit_hint"))
			continue
		case errors.Is(err, io.EOF):
			fmt.Fprintln(r.msgs)
			return nil
		case err != nil:
			return fmt.Errorf("read the query: %w", err)
		}
		exitArmed = false
		q := strings.TrimSpace(line)
		if q == "" {
			return nil
		}
		sig, err = r.interruptible(ctx, func(ctx context.Context) error { return r.search(ctx, q) })
		switch {
		case sig == syscall.SIGTERM:
			r.cleanup()
			return errInterrupted{cause: errTerminated}
		case sig != nil || errors.Is(err, context.Canceled):
			r.cleanup()
			exitArmed = true
			fmt.Fprintln(r.msgs, r.t("interactive.repl.cancelled"))
		case err != nil:
			r.onError(err)
		}
	}
}

// interruptible runs fn with a context cancelled by a signal, and returns
// the signal if one came while fn ran.
func (r *repl) interruptible(ctx context.Context, fn func(context.Context) error) (os.Signal, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var sig os.Signal
	done, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case sig = <-r.signals:
			cancel()
		case <-done:
		}
	}()
	err := fn(ctx)
	close(done)
	<-watched
	return sig, err
}
