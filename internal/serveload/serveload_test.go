package serveload

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestCheckTarget(t *testing.T) {
	for raw, want := range map[string]bool{
		"http://127.0.0.1:8000":     true,
		"http://127.9.9.9:1/":       true,
		"http://localhost:8000":     true,
		"https://LOCALHOST":         true,
		"http://[::1]:8000":         true,
		"http://0.0.0.0:8000":       false,
		"http://192.168.1.10:8000":  false,
		"http://example.com":        false,
		"http://localhost.evil.com": false,
		"ftp://127.0.0.1":           false,
		"127.0.0.1:8000":            false,
		"http://[::ffff:8.8.8.8]:1": false,
	} {
		if err := CheckTarget(raw); (err == nil) != want {
			t.Errorf("CheckTarget(%q) = %v, want ok %v", raw, err, want)
		}
	}
}

func TestSummarize(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- { // unsorted on purpose
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	got := Summarize(ds)
	want := Latency{P50: 50, P95: 95, P99: 99, Mean: 50.5, Max: 100}
	if got != want {
		t.Fatalf("Summarize(1..100 ms) = %+v, want %+v", got, want)
	}
	if ds[0] != 100*time.Millisecond {
		t.Fatal("Summarize sorted its argument")
	}
	if got := Summarize([]time.Duration{7 * time.Millisecond}); got.P50 != 7 || got.P99 != 7 || got.Max != 7 {
		t.Fatalf("one sample: %+v", got)
	}
	if got := Summarize(nil); got != (Latency{}) {
		t.Fatalf("no samples: %+v", got)
	}
}

func TestReadStream(t *testing.T) {
	const (
		text = `data: {"content": "a", "done": false, "sources": null}` + "\n\n"
		done = `data: {"content": "", "done": true, "sources": [{"document_id": "x"}]}` + "\n\n"
	)
	for _, c := range []struct {
		name      string
		in        string
		frames    int
		done      bool
		errFrame  bool
		malformed bool
		cut       bool
	}{
		{name: "complete", in: text + text + done, frames: 3, done: true},
		{name: "done only, CRLF", in: strings.ReplaceAll(done, "\n", "\r\n"), frames: 1, done: true},
		{name: "comment lines are allowed", in: ": keep-alive\n\n" + text + done, frames: 2, done: true},
		{name: "no done frame", in: text + text, frames: 2, cut: true},
		{name: "cut inside a frame", in: text + `data: {"content": "b"`, frames: 1, cut: true},
		{name: "empty body", in: "", cut: true},
		{name: "error frame", in: text + `data: {"content": "", "done": true, "sources": [], "error": {"status": 500, "detail": "boom"}}` + "\n\n", frames: 2, errFrame: true},
		{name: "not JSON", in: "data: hello\n\n", malformed: true},
		{name: "done without sources", in: `data: {"content": "", "done": true}` + "\n\n", malformed: true},
		{name: "frame without content", in: `data: {"done": false, "sources": null}` + "\n\n", malformed: true},
		{name: "another field", in: "event: x\n" + done, malformed: true},
		{name: "two data lines", in: "data: {}\ndata: {}\n\n", malformed: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			firsts := 0
			res, err := readStream(strings.NewReader(c.in), func() { firsts++ })
			if got := errors.Is(err, errStreamMalformed); got != c.malformed {
				t.Fatalf("malformed = %v (%v), want %v", got, err, c.malformed)
			}
			if got := errors.Is(err, io.ErrUnexpectedEOF); got != c.cut {
				t.Fatalf("cut = %v (%v), want %v", got, err, c.cut)
			}
			if c.malformed || c.cut {
				return
			}
			if res.frames != c.frames || res.done != c.done || (res.errMsg != "") != c.errFrame {
				t.Fatalf("readStream = %+v, want %d frames, done %v, error frame %v", res, c.frames, c.done, c.errFrame)
			}
			if firsts != 1 {
				t.Fatalf("first-frame callback ran %d times", firsts)
			}
		})
	}
}

func TestQueriesFromTexts(t *testing.T) {
	texts := []string{
		"one two three four five six seven eight nine ten eleven twelve",
		"短い",
		"吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。",
		"one two three four five six seven eight nine ten eleven twelve", // a duplicate
		"alpha beta gamma delta epsilon zeta eta theta",
	}
	got := QueriesFromTexts(texts, 10)
	want := []string{"five six seven eight nine", "とんと見当がつかぬ。何でも薄暗いじめじめ", "gamma delta epsilon zeta eta"}
	if !slices.Equal(got, want) {
		t.Fatalf("QueriesFromTexts = %q, want %q", got, want)
	}
	if got := QueriesFromTexts(texts, 1); len(got) != 1 {
		t.Fatalf("n=1 gave %d queries", len(got))
	}
}

func TestFailures(t *testing.T) {
	clean := Report{Chat: KindReport{Clients: 2, OK: 10}, Search: KindReport{Clients: 2, OK: 30}}
	if f := clean.Failures(); len(f) != 0 {
		t.Fatalf("a clean run fails: %v", f)
	}
	noSearch := Report{Chat: KindReport{Clients: 2, OK: 10}} // no search clients asked for
	if f := noSearch.Failures(); len(f) != 0 {
		t.Fatalf("a chat-only run fails: %v", f)
	}
	badBaseline := Report{Chat: KindReport{Clients: 2, OK: 10}, Baseline: &Baseline{Chat: KindReport{Clients: 1, OK: 4, Dropped: 1}}}
	if f := badBaseline.Failures(); len(f) != 1 {
		t.Fatalf("a drop in the baseline: failures %q", f)
	}
	bad := Report{Chat: KindReport{Clients: 2, OK: 10, Dropped: 1}, Search: KindReport{Clients: 1, Errors: 2}}
	if f := bad.Failures(); len(f) != 3 {
		t.Fatalf("failures = %q, want dropped chat, search errors, no search completed", f)
	}
}

func TestSummarizeKind(t *testing.T) {
	ss := []sample{
		{outcome: ok, status: 200, latency: 10 * time.Millisecond, ttff: 2 * time.Millisecond, frames: 4},
		{outcome: ok, status: 200, latency: 20 * time.Millisecond, ttff: 4 * time.Millisecond, frames: 6},
		{outcome: failed, status: 503, detail: "status 503"},
		{outcome: dropped, detail: "reset"},
	}
	r := summarizeKind(3, ss, 2*time.Second, true)
	if r.Requests != 4 || r.OK != 2 || r.Errors != 1 || r.Dropped != 1 || r.RequestsPerS != 1 ||
		r.Statuses[503] != 1 || len(r.Samples) != 2 || r.FramesPerChat != 5 || r.FirstFrame == nil || r.FirstFrame.Max != 4 || r.Latency.Max != 20 {
		t.Fatalf("summarizeKind = %+v", r)
	}
}

func TestRatio(t *testing.T) {
	loaded := KindReport{Latency: Latency{P50: 30}}
	if r := Ratio(loaded, KindReport{Latency: Latency{P50: 10}}); r != 3 {
		t.Fatalf("Ratio = %v, want 3", r)
	}
	if r := Ratio(loaded, KindReport{}); r != 0 {
		t.Fatalf("Ratio without a baseline = %v, want 0", r)
	}
}
