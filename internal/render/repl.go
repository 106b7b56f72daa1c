package render

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/interrupt"
)

// REPL is the prompt loop of `gds search`, `gds ask` and `gds federate`
// without a query on a terminal: prompt, run, print, repeat. An empty
// line or Ctrl-D exits. Ctrl-C cancels the running line (including a
// pending clarifying question) and returns to the prompt; Ctrl-C at the
// prompt right after that, or twice in a row, exits. SIGTERM ends it as
// an interruption (apperr.Interrupted). It is apart from the terminal and
// the search so that its handling of input, Ctrl-C and Ctrl-D is tested
// with plain values.
type REPL struct {
	Lines   LineReader
	Signals <-chan os.Signal // SIGINT cancels, SIGTERM ends; RunREPL sets it
	Msgs    io.Writer        // prompt and notices
	T       func(key i18n.Key, args ...any) string
	Prompt  i18n.Key                                     // "" for the search prompt
	Run     func(ctx context.Context, line string) error // one line, trimmed and not empty
	OnError func(error)
	Cleanup func() // called after a line is cancelled (stop the spinner); may be nil
}

// ErrTerminated ends the REPL on SIGTERM.
var ErrTerminated = apperr.Mark(errors.New("terminated"), apperr.Interrupted)

// RunREPL runs r with the process's SIGINT and SIGTERM. main's context is
// cancelled by the first SIGINT, so the loop runs on a context without
// that cancellation and takes the signals itself.
func RunREPL(ctx context.Context, r *REPL) error {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	defer interrupt.Hold(ctx)() // main's watchdog leaves the signals to the loop
	r.Signals = sigs
	return r.Loop(context.WithoutCancel(ctx))
}

// Loop prompts and runs lines until the user ends it.
func (r *REPL) Loop(ctx context.Context) error {
	cleanup := func() {
		if r.Cleanup != nil {
			r.Cleanup()
		}
	}
	exitArmed := false // the last thing was a Ctrl-C: another one at the prompt exits
	for {
		prompt := r.Prompt
		if prompt == "" {
			prompt = "interactive.repl.prompt"
		}
		fmt.Fprint(r.Msgs, r.T(prompt))
		var line string
		sig, err := r.interruptible(ctx, func(ctx context.Context) error {
			var err error
			line, err = r.Lines.ReadLine(ctx)
			return err
		})
		switch {
		case sig == syscall.SIGTERM:
			fmt.Fprintln(r.Msgs)
			return ErrTerminated
		case sig != nil && exitArmed:
			fmt.Fprintln(r.Msgs)
			return nil
		case sig != nil:
			exitArmed = true
			fmt.Fprintln(r.Msgs)
			fmt.Fprintln(r.Msgs, r.T("interactive.repl.exit_hint"))
			continue
		case errors.Is(err, io.EOF):
			fmt.Fprintln(r.Msgs)
			return nil
		case err != nil:
			return fmt.Errorf("read the query: %w", err)
		}
		exitArmed = false
		q := strings.TrimSpace(line)
		if q == "" {
			return nil
		}
		sig, err = r.interruptible(ctx, func(ctx context.Context) error { return r.Run(ctx, q) })
		switch {
		case sig == syscall.SIGTERM:
			cleanup()
			return ErrTerminated
		case sig != nil || errors.Is(err, context.Canceled):
			cleanup()
			exitArmed = true
			fmt.Fprintln(r.Msgs, r.T("interactive.repl.cancelled"))
		case err != nil:
			r.OnError(err)
		}
	}
}

// interruptible runs fn with a context cancelled by a signal, and returns
// the signal if one came while fn ran.
func (r *REPL) interruptible(ctx context.Context, fn func(context.Context) error) (os.Signal, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var sig os.Signal
	done, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case sig = <-r.Signals:
			cancel()
		case <-done:
		}
	}()
	err := fn(ctx)
	close(done)
	<-watched
	return sig, err
}
