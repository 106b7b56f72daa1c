// Package interrupt makes sure gds ends soon after SIGINT or SIGTERM.
//
// main's context is cancelled by the first signal, and work that watches
// it stops at once. Work that does not (a library call without a context,
// a read that blocks, a loop that never looks) would keep the process alive,
// and since signal.NotifyContext replaced the default action (end the
// process) the signal would then do nothing at all. The Watchdog is the
// guarantee behind the context: after the first signal it gives the
// command Grace to return on its own, then ends the process with the
// interrupted exit code; a second signal ends it at once. A command whose
// stop saves state for longer (a crawl recording its checkpoint, a server
// draining its requests) sets a longer grace, and is told after
// NoticeAfter to say that it is stopping and how to quit at once. The REPL,
// which takes SIGINT itself to cancel one line, holds the watchdog while
// it runs.
package interrupt

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// DefaultGrace is how long a command has, after the first signal, to
// return on its own.
const DefaultGrace = time.Second

// NoticeAfter is when a command with a longer grace is told to say that
// it is stopping.
const NoticeAfter = time.Second

// Timer is a pending call (time.Timer).
type Timer interface{ Stop() bool }

// Watchdog decides when an interrupted process must end. Its methods are
// safe for concurrent use; the zero value is not usable (New).
type Watchdog struct {
	mu       sync.Mutex
	grace    time.Duration
	held     int
	armed    bool
	done     bool
	timers   []Timer
	afterFn  func(time.Duration, func()) Timer
	exitFn   func()
	noticeFn func()
}

// New returns a watchdog that calls exit (which ends the process) when a
// signalled command does not return in time. after schedules a call (nil:
// time.AfterFunc).
func New(exit func(), after func(time.Duration, func()) Timer) *Watchdog {
	if after == nil {
		after = func(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
	}
	return &Watchdog{grace: DefaultGrace, afterFn: after, exitFn: exit}
}

// Start returns a watchdog fed by the process's SIGINT and SIGTERM, and a
// function that stops it.
func Start(exit func()) (*Watchdog, func()) {
	w := New(exit, nil)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case <-sigs:
				w.Signal()
			case <-quit:
				return
			}
		}
	}()
	return w, func() {
		signal.Stop(sigs)
		close(quit)
		w.Stop()
	}
}

// Signal records a SIGINT or SIGTERM: the first one starts the grace, a
// second one ends the process at once. While the watchdog is held, signals
// are the holder's.
func (w *Watchdog) Signal() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.held > 0 || w.done {
		return
	}
	if w.armed {
		w.fire()
		return
	}
	w.armed = true
	if w.grace > NoticeAfter && w.noticeFn != nil {
		w.timers = append(w.timers, w.afterFn(NoticeAfter, w.notice))
	}
	w.timers = append(w.timers, w.afterFn(w.grace, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.fire()
	}))
}

// fire ends the process once; w.mu is held.
func (w *Watchdog) fire() {
	if w.done {
		return
	}
	w.done = true
	w.stopTimers()
	w.exitFn()
}

func (w *Watchdog) notice() {
	w.mu.Lock()
	f := w.noticeFn
	done := w.done
	w.mu.Unlock()
	if f != nil && !done {
		f()
	}
}

func (w *Watchdog) stopTimers() {
	for _, t := range w.timers {
		t.Stop()
	}
	w.timers = nil
}

// SetGrace sets how long a command has after the first signal (at least
// DefaultGrace). It applies to a signal still to come.
func (w *Watchdog) SetGrace(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.grace = max(d, DefaultGrace)
}

// OnNotice sets what a command with a longer grace says NoticeAfter into
// it (that it is stopping, and that a second Ctrl-C quits at once).
func (w *Watchdog) OnNotice(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.noticeFn = f
}

// Hold gives the signals to the caller until release is called (the REPL
// cancels a line on SIGINT and goes on). A grace already running goes on.
func (w *Watchdog) Hold() (release func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.held++
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.held--
		})
	}
}

// Stop cancels a pending end (the command returned in time).
func (w *Watchdog) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopTimers()
	w.done = true
}

type ctxKey struct{}

// NewContext returns ctx carrying w.
func NewContext(ctx context.Context, w *Watchdog) context.Context {
	return context.WithValue(ctx, ctxKey{}, w)
}

// FromContext returns the watchdog of ctx, or nil.
func FromContext(ctx context.Context) *Watchdog {
	w, _ := ctx.Value(ctxKey{}).(*Watchdog)
	return w
}

// Hold holds the watchdog of ctx, if any; see Watchdog.Hold.
func Hold(ctx context.Context) (release func()) {
	if w := FromContext(ctx); w != nil {
		return w.Hold()
	}
	return func() {}
}

// SetGrace sets the grace of the watchdog of ctx, if any, and what it
// says when the stop takes longer than NoticeAfter.
func SetGrace(ctx context.Context, d time.Duration, notice func()) {
	if w := FromContext(ctx); w != nil {
		w.SetGrace(d)
		w.OnNotice(notice)
	}
}
