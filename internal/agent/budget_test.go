package agent

import (
	"testing"
	"time"
)

func TestBudgetStep(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	lim := Limits{MaxSteps: 2, MaxTokens: 100, MaxWall: time.Minute}
	cases := []struct {
		name   string
		steps  int
		tokens int
		at     time.Duration
		want   Stop
	}{
		{"fresh", 0, 0, 0, StopNone},
		{"last step", 1, 99, 59 * time.Second, StopNone},
		{"steps spent", 2, 0, 0, StopSteps},
		{"tokens spent", 0, 100, 0, StopTokens},
		{"clock first", 2, 100, time.Minute, StopTime},
		{"tokens before steps", 2, 100, 0, StopTokens},
	}
	for _, tc := range cases {
		b := NewBudget(lim, t0)
		b.Steps, b.Tokens = tc.steps, tc.tokens
		got := b.Step(t0.Add(tc.at))
		if got != tc.want {
			t.Errorf("%s: Step = %q, want %q", tc.name, got, tc.want)
		}
		wantSteps := tc.steps
		if got == StopNone {
			wantSteps++
		}
		if b.Steps != wantSteps {
			t.Errorf("%s: steps %d, want %d", tc.name, b.Steps, wantSteps)
		}
	}
}

func TestBudgetCallsPerTool(t *testing.T) {
	b := NewBudget(Limits{MaxCallsPerTool: 2}, time.Time{})
	seq := []struct {
		tool string
		want bool
	}{{"a", true}, {"a", true}, {"b", true}, {"a", false}, {"b", true}, {"b", false}}
	for i, s := range seq {
		if got := b.Call(s.tool); got != s.want {
			t.Errorf("call %d (%s) = %v, want %v", i, s.tool, got, s.want)
		}
	}
	if b.Total != 4 {
		t.Errorf("total %d, want 4 (refused calls are not counted)", b.Total)
	}
}

func TestLimitsDefaults(t *testing.T) {
	l := Limits{MaxSteps: 3}.withDefaults()
	if l.MaxSteps != 3 || l.MaxTokens != DefaultLimits.MaxTokens || l.MaxWall != DefaultLimits.MaxWall || l.MaxChunks != 500 {
		t.Errorf("withDefaults = %+v", l)
	}
}
