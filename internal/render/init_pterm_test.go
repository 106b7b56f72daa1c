package render

import (
	"context"
	"testing"
	"time"

	"atomicgo.dev/keyboard"
	"atomicgo.dev/keyboard/keys"
	"github.com/pterm/pterm"

	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/setup"
)

// askWithKeys answers one pterm question with simulated key presses (the
// keyboard library's test hook, as pterm's own tests do). The deadline is
// only a hang guard.
func askWithKeys(t *testing.T, s setup.State, a setup.Action, presses ...keys.Key) setup.Event {
	t.Helper()
	pterm.DisableOutput()
	t.Cleanup(pterm.EnableOutput)
	go func() {
		for _, k := range presses {
			_ = keyboard.SimulateKeyPress(k)
		}
	}()
	type result struct {
		ev  setup.Event
		err error
	}
	ch := make(chan result, 1)
	p := &InitPrompter{Lang: i18n.En, Pterm: true, Out: &discard{}}
	go func() {
		ev, err := p.Ask(context.Background(), s, a)
		ch <- result{ev, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.ev
	case <-time.After(time.Minute):
		t.Fatal("the prompt did not return")
		return setup.Event{}
	}
}

type discard struct{}

func (*discard) Write(b []byte) (int, error) { return len(b), nil }

// TestInitPrompterPterm drives the terminal prompts with key presses: the
// provider menu, the sources multi-select and Ctrl-C.
func TestInitPrompterPterm(t *testing.T) {
	s, _ := setup.Start(setup.Current{})
	s.Step = setup.StepProvider
	ev := askWithKeys(t, s, setup.Action{Kind: setup.AskProvider}, keys.Key{Code: keys.Down}, keys.Key{Code: keys.Enter})
	if ev.Kind != setup.EvProvider || ev.Provider != setup.ProviderOpenAI {
		t.Errorf("down, enter: %+v", ev)
	}
	s, _ = setup.Start(setup.Current{})
	// Space ticks the first option (Drive), down, space ticks Local, enter.
	ev = askWithKeys(t, s, setup.Action{Kind: setup.AskSources},
		keys.Key{Code: keys.Space}, keys.Key{Code: keys.Down}, keys.Key{Code: keys.Space}, keys.Key{Code: keys.Enter})
	if ev.Kind != setup.EvSources || !ev.Drive || !ev.Local || ev.Mirror {
		t.Errorf("sources: %+v", ev)
	}
	ev = askWithKeys(t, s, setup.Action{Kind: setup.AskCrawl}, keys.Key{Code: keys.CtrlC})
	if ev.Kind != setup.EvCancel {
		t.Errorf("ctrl-c: %+v", ev)
	}
}
