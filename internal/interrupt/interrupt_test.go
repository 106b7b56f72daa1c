package interrupt

import (
	"context"
	"strings"
	"testing"
	"time"
)

// fakeTimers records scheduled calls; the test runs them by delay.
type fakeTimers struct{ pending []*fakeTimer }

type fakeTimer struct {
	d       time.Duration
	f       func()
	stopped bool
}

func (t *fakeTimer) Stop() bool { was := !t.stopped; t.stopped = true; return was }

func (c *fakeTimers) after(d time.Duration, f func()) Timer {
	t := &fakeTimer{d: d, f: f}
	c.pending = append(c.pending, t)
	return t
}

// elapse runs the calls due within d that were not stopped.
func (c *fakeTimers) elapse(d time.Duration) {
	var due []*fakeTimer
	for _, t := range c.pending {
		if !t.stopped && t.d <= d {
			t.stopped = true
			due = append(due, t)
		}
	}
	for _, t := range due {
		t.f()
	}
}

func TestWatchdog(t *testing.T) {
	cases := []struct {
		name  string
		grace time.Duration
		steps string // s: signal, h: hold, r: release, x: stop, 1/30: elapse 1 s / 30 s
		want  string // n: notice, e: exit
	}{
		{"no signal, no end", 0, "1 30", ""},
		{"a signal ends after the grace", 0, "s 1", "e"},
		{"the grace has not passed", 0, "s", ""},
		{"a second signal ends at once", 0, "s s", "e"},
		{"the end comes once", 0, "s s s 1 30", "e"},
		{"a command that returned is not ended", 0, "s x 1 30", ""},
		{"held: the signals are the REPL's", 0, "h s s 1 30", ""},
		{"released: signals count again", 0, "h s r s 1", "e"},
		{"a grace running when the hold starts goes on", 0, "s h 1", "e"},
		{"a long grace: a notice, then the end", 30 * time.Second, "s 1 30", "ne"},
		{"a long grace: a second signal ends at once", 30 * time.Second, "s 1 s", "ne"},
		{"a long grace: a stop in time", 30 * time.Second, "s x 1 30", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var clock fakeTimers
			var got strings.Builder
			w := New(func() { got.WriteString("e") }, clock.after)
			if c.grace > 0 {
				w.SetGrace(c.grace)
			}
			w.OnNotice(func() { got.WriteString("n") })
			var release func()
			for _, s := range strings.Fields(c.steps) {
				switch s {
				case "s":
					w.Signal()
				case "h":
					release = w.Hold()
				case "r":
					release()
				case "x":
					w.Stop()
				case "1":
					clock.elapse(time.Second)
				case "30":
					clock.elapse(30 * time.Second)
				}
			}
			if got.String() != c.want {
				t.Errorf("steps %q: got %q, want %q", c.steps, got.String(), c.want)
			}
		})
	}
}

func TestContextHelpers(t *testing.T) {
	ctx := context.Background()
	Hold(ctx)() // no watchdog: nothing to do
	SetGrace(ctx, time.Minute, nil)

	var clock fakeTimers
	ended := false
	w := New(func() { ended = true }, clock.after)
	ctx = NewContext(ctx, w)
	if FromContext(ctx) != w {
		t.Fatal("FromContext lost the watchdog")
	}
	release := Hold(ctx)
	w.Signal()
	clock.elapse(time.Minute)
	release()
	if ended {
		t.Error("a held watchdog ended the process")
	}
	SetGrace(ctx, 20*time.Second, nil)
	w.Signal()
	clock.elapse(time.Second)
	if ended {
		t.Error("ended before the longer grace")
	}
	clock.elapse(20 * time.Second)
	if !ended {
		t.Error("not ended after the grace")
	}
}
