package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/ratelimit"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/i18n"
)

var rt0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func TestRateLine(t *testing.T) {
	type obs struct {
		at   time.Duration
		done int
		sent int64
	}
	cases := []struct {
		name        string
		rpm         int
		paced       bool
		obs         []obs
		done, total int
		lang        string
		want        string
	}{
		{"nothing yet", 600, true, []obs{{0, 0, 0}}, 0, 100, i18n.En, ""},
		{"under a second: no rate", 600, true, []obs{{0, 0, 0}, {500 * time.Millisecond, 5, 5}}, 5, 100, i18n.En, ""},
		{"steady", 600, true, []obs{{0, 0, 0}, {10 * time.Second, 95, 98}}, 95, 1000, i18n.En,
			"9.5 files/s · ETA 1m35s · model calls 9.8/s of 10.0/s allowed"},
		{"limit unknown", 0, true, []obs{{0, 0, 0}, {2 * time.Second, 4, 4}}, 4, 10, i18n.En, "2.0 files/s · ETA 3s · model calls 2.0/s"},
		{"not paced (offline)", 0, false, []obs{{0, 0, 0}, {4 * time.Second, 800, 0}}, 800, 2000, i18n.En, "200 files/s · ETA 6s"},
		{"finished: no ETA", 0, false, []obs{{0, 0, 0}, {4 * time.Second, 10, 0}}, 10, 10, i18n.En, "2.5 files/s"},
		{"stalled", 600, true, []obs{{0, 10, 10}, {30 * time.Second, 10, 10}}, 10, 20, i18n.En, "0.0 files/s · ETA — · model calls 0.0/s of 10.0/s allowed"},
		{"Japanese", 6000, true, []obs{{0, 0, 0}, {10 * time.Second, 650, 660}}, 650, 50000, i18n.Ja,
			"65.0 件/秒 · 残り約 13m · モデル呼び出し 66.0 回/秒（上限 100 回/秒）"},
		{"window forgets old samples", 0, false, []obs{{0, 0, 0}, {60 * time.Second, 600, 0}, {70 * time.Second, 600, 0}, {80 * time.Second, 1000, 0}}, 1000, 1000, i18n.En,
			"20.0 files/s"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sent int64
			var calls Calls
			if c.paced {
				calls = func() ratelimit.Stats { return ratelimit.Stats{Sent: sent, RPM: c.rpm} }
			}
			r := newRates(calls)
			for _, o := range c.obs {
				sent = o.sent
				r.observe(rt0.Add(o.at), o.done)
			}
			if got := r.line(c.lang, "progress.unit.files", c.done, c.total); got != c.want {
				t.Errorf("line = %q\nwant   %q", got, c.want)
			}
		})
	}
}

func TestFormatETA(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{1500 * time.Millisecond, "2s"},
		{95 * time.Second, "1m35s"},
		{3 * time.Minute, "3m"},
		{13*time.Minute + 20*time.Second, "13m"},
		{2*time.Hour + 31*time.Second, "2h1m"},
		{7 * time.Hour, "7h"},
	} {
		if got := formatETA(c.d); got != c.want {
			t.Errorf("formatETA(%s) = %q, want %q", c.d, got, c.want)
		}
	}
}

// TestLineProgressSaysRate: a crawl logged line by line (launchd) says its
// rate, ETA and model calls every tenth of the files.
func TestLineProgressSaysRate(t *testing.T) {
	var buf bytes.Buffer
	now := rt0
	sent := int64(0)
	p := &lineProgress{w: &buf, lang: i18n.En, now: func() time.Time { return now },
		rates: newRates(func() ratelimit.Stats { return ratelimit.Stats{Sent: sent, RPM: 600} })}
	p.Begin(100, true)
	for i := range 100 {
		now = now.Add(100 * time.Millisecond)
		sent++
		p.File(crawl.Entry{Name: "f.txt"}, crawl.StatusNew, "")
		_ = i
	}
	out := buf.String()
	if n := strings.Count(out, "files/s"); n != 9 {
		t.Errorf("%d rate lines, want 9 (every tenth, not at the end):\n%s", n, out)
	}
	if !strings.Contains(out, "Files: 50/100 · 10.0 files/s · ETA 5s · model calls 10.0/s of 10.0/s allowed") {
		t.Errorf("no rate line at 50/100:\n%s", out)
	}
}
