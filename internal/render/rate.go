package render

import (
	"strconv"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/ai/ratelimit"
	"github.com/gds-cli/gds/internal/i18n"
)

// Calls reports the model calls a long job has made so far and the limit
// they run under: the chat lane's ratelimit.Stats (Sent, RPM). nil: the
// provider's calls are not paced (offline), and progress shows no calls.
type Calls func() ratelimit.Stats

// LaneCalls is the Calls of a provider's chat lane, or nil when the
// provider is not paced.
func LaneCalls(provider any) Calls {
	p, ok := provider.(ratelimit.Paced)
	if !ok {
		return nil
	}
	lane := p.Scheduler().Chat()
	return lane.Stats
}

// rateWindow is how far back a rate looks: long enough to smooth a
// lane's pauses, short enough to follow a change of pace.
const rateWindow = 20 * time.Second

// sample is a count at a time.
type sample struct {
	at time.Time
	n  int64
}

// meter is the rate of a growing count over the last rateWindow. Its
// methods are pure: the time is a parameter.
type meter struct{ samples []sample }

// add records that the count is n at t.
func (m *meter) add(t time.Time, n int64) {
	m.samples = append(m.samples, sample{t, n})
	// Keep one sample at or before the window's start.
	cut := 0
	for cut+1 < len(m.samples) && t.Sub(m.samples[cut+1].at) >= rateWindow {
		cut++
	}
	m.samples = m.samples[cut:]
}

// rate is the count's increase per second over the samples kept; ok is
// false until they span at least a second.
func (m *meter) rate() (float64, bool) {
	if len(m.samples) < 2 {
		return 0, false
	}
	first, last := m.samples[0], m.samples[len(m.samples)-1]
	dt := last.at.Sub(first.at).Seconds()
	if dt < 1 {
		return 0, false
	}
	return float64(last.n-first.n) / dt, true
}

// rates tracks a job's done count and, when paced, its model calls.
type rates struct {
	done, calls meter
	src         Calls
}

func newRates(src Calls) *rates { return &rates{src: src} }

// observe records done at now (and the calls made so far).
func (r *rates) observe(now time.Time, done int) {
	r.done.add(now, int64(done))
	if r.src != nil {
		r.calls.add(now, r.src().Sent)
	}
}

// line says the rate, the ETA of total and the model calls against their
// limit, in lang: "9.6 files/s · ETA 1m44s · model calls 9.8/s of 10/s";
// "" until a rate is known. unit is the i18n key of the unit ("files",
// "chunks").
func (r *rates) line(lang string, unit i18n.Key, done, total int) string {
	perSec, ok := r.done.rate()
	if !ok {
		return ""
	}
	parts := []string{i18n.T(lang, "progress.rate", formatRate(perSec), i18n.T(lang, unit))}
	if total > done {
		if perSec > 0 {
			eta := time.Duration(float64(total-done) / perSec * float64(time.Second))
			parts = append(parts, i18n.T(lang, "progress.eta", formatETA(eta)))
		} else {
			parts = append(parts, i18n.T(lang, "progress.eta", "—"))
		}
	}
	if r.src != nil {
		if c, ok := r.calls.rate(); ok {
			if rpm := r.src().RPM; rpm > 0 {
				parts = append(parts, i18n.T(lang, "progress.calls_limit", formatRate(c), formatRate(float64(rpm)/60)))
			} else {
				parts = append(parts, i18n.T(lang, "progress.calls", formatRate(c)))
			}
		}
	}
	return strings.Join(parts, " · ")
}

// formatRate writes a rate with one decimal below 100, none above.
func formatRate(f float64) string {
	if f >= 100 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(f, 'f', 1, 64)
}

// formatETA rounds to seconds below ten minutes, to minutes above.
func formatETA(d time.Duration) string {
	if d >= 10*time.Minute {
		d = d.Round(time.Minute)
	} else {
		d = d.Round(time.Second)
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
