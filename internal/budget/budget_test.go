package budget

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

func TestStepTimeout(t *testing.T) {
	p := Policy{} // defaults: 5 s total, Drive 2 s, AI 2 s, DB 3 s; reserve 1 s; MinDB 0.5 s
	tests := []struct {
		svc     Service
		elapsed time.Duration
		want    time.Duration
	}{
		{Drive, 0, 2 * time.Second},
		{Drive, 2500 * time.Millisecond, 1500 * time.Millisecond}, // ends 1 s before the budget
		{Drive, 4 * time.Second, 0},                               // no time: straight to the index
		{Drive, 6 * time.Second, -2 * time.Second},
		{AI, 0, 2 * time.Second},
		{AI, 3500 * time.Millisecond, 500 * time.Millisecond},
		{DB, 0, 3 * time.Second},
		{DB, 4 * time.Second, time.Second},
		{DB, 10 * time.Second, 500 * time.Millisecond}, // never below MinDB
	}
	for _, tt := range tests {
		if got := p.StepTimeout(tt.svc, tt.elapsed); got != tt.want {
			t.Errorf("StepTimeout(%s, %v) = %v, want %v", tt.svc, tt.elapsed, got, tt.want)
		}
	}
	custom := Policy{Total: 20 * time.Second, Drive: 10 * time.Second}
	if got := custom.StepTimeout(Drive, 0); got != 10*time.Second {
		t.Errorf("custom Drive limit = %v, want 10s", got)
	}
}

// TestDecide is the degrade table: Drive → the local index, AI → the
// offline provider, the database → fail; a cancelled search never
// continues; one bad answer does not give the service up.
func TestDecide(t *testing.T) {
	tests := []struct {
		svc    Service
		cause  Cause
		want   Fallback
		sticky bool
	}{
		{Drive, CauseTimeout, FallbackIndex, true},
		{Drive, CauseUnreachable, FallbackIndex, true},
		{Drive, CauseRateLimited, FallbackIndex, true},
		{Drive, CauseUnavailable, FallbackIndex, true},
		{Drive, CauseAuth, FallbackIndex, true},
		{Drive, CauseBudget, FallbackIndex, true},
		{Drive, CauseOther, FallbackIndex, false},
		{Drive, CauseCanceled, FallbackNone, false},
		{AI, CauseTimeout, FallbackOffline, true},
		{AI, CauseUnreachable, FallbackOffline, true},
		{AI, CauseAuth, FallbackOffline, true},
		{AI, CauseOther, FallbackOffline, false},
		{AI, CauseCanceled, FallbackNone, false},
		{DB, CauseTimeout, FallbackNone, false},
		{DB, CauseUnreachable, FallbackNone, false},
	}
	for _, tt := range tests {
		d := Decide(tt.svc, tt.cause)
		if d.Fallback != tt.want || (d.Degrade() && d.Sticky != tt.sticky) {
			t.Errorf("Decide(%s, %s) = %+v, want fallback %q sticky %v", tt.svc, tt.cause, d, tt.want, tt.sticky)
		}
	}
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{EnvTotal: "8s", EnvDrive: "1.5", EnvAI: "750ms", EnvLocal: "1"}
	p, err := FromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	want := Policy{Total: 8 * time.Second, Drive: 1500 * time.Millisecond, AI: 750 * time.Millisecond, Local: true}
	if p != want {
		t.Errorf("FromEnv = %+v, want %+v", p, want)
	}
	for _, bad := range []map[string]string{{EnvTotal: "soon"}, {EnvDB: "-1s"}, {EnvDrive: "0"}, {EnvLocal: "maybe"}} {
		if _, err := FromEnv(func(k string) (string, bool) { v, ok := bad[k]; return v, ok }); err == nil {
			t.Errorf("FromEnv(%v) accepted", bad)
		}
	}
}

// Every notice and failure has a message in both languages (no raw key),
// and a failure is one line naming the service, with its fix.
func TestMessages(t *testing.T) {
	causes := []Cause{CauseTimeout, CauseUnreachable, CauseRateLimited, CauseUnavailable, CauseAuth, CauseBudget, CauseOther}
	for _, lang := range []string{i18n.En, i18n.Ja} {
		for _, svc := range []Service{Drive, AI} {
			for _, c := range causes {
				n := Notice{Service: svc, Reason: c, Step: "rerank", Limit: 2 * time.Second}
				if txt := n.Text(lang); strings.Contains(txt, "budget.notice") || strings.Contains(txt, "%!") {
					t.Errorf("%s notice %s/%s = %q", lang, svc, c, txt)
				}
			}
		}
		for _, c := range []Cause{CauseTimeout, CauseUnreachable, CauseUnavailable, CauseBudget} {
			f := &Failure{Service: DB, Cause: c, Where: "postgres://u@db:5432/gds", Limit: 3 * time.Second, Step: "narrow", Err: errors.New("x")}
			msg := f.Message(lang)
			if strings.Contains(msg, "budget.fail") || strings.Contains(msg, "%!") || strings.Contains(msg, "\n") {
				t.Errorf("%s failure %s = %q", lang, c, msg)
			}
			if c != CauseBudget && !strings.Contains(msg, "postgres://u@db:5432/gds") {
				t.Errorf("%s failure %s does not name the database: %q", lang, c, msg)
			}
		}
	}
	if n := (Notice{Service: Drive, Reason: CauseTimeout, Limit: 2 * time.Second}).Text(i18n.En); n != "Drive did not answer within 2s; searched the local index" {
		t.Errorf("Drive timeout notice = %q", n)
	}
	f := &Failure{Service: DB, Cause: CauseTimeout, Err: errors.New("x")}
	if !errors.Is(f, apperr.Unavailable) || apperr.Hint(f, i18n.En) != "" {
		t.Errorf("failure kind/hint: %v %q", apperr.KindOf(f), apperr.Hint(f, i18n.En))
	}
}
