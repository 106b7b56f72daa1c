package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

func TestParseREPLLine(t *testing.T) {
	cases := []struct {
		line  string
		shown int
		want  REPLCommand
	}{
		{"1", 10, REPLCommand{REPLOpen, 1}},
		{" 10 ", 10, REPLCommand{REPLOpen, 10}},
		{"o 3", 10, REPLCommand{REPLOpen, 3}},
		{"O 3", 10, REPLCommand{REPLOpen, 3}},
		{"open 3", 10, REPLCommand{REPLOpen, 3}},
		{"c 2", 10, REPLCommand{REPLCopy, 2}},
		{"copy 2", 10, REPLCommand{REPLCopy, 2}},
		{"o 11", 10, REPLCommand{REPLBadIndex, 11}},
		{"c 0", 10, REPLCommand{REPLBadIndex, 0}},
		{"c -1", 10, REPLCommand{REPLBadIndex, -1}},
		{"11", 10, REPLCommand{Action: REPLSearch}},   // a number not listed: a search
		{"2024", 10, REPLCommand{Action: REPLSearch}}, // a year
		{"0", 10, REPLCommand{Action: REPLSearch}},
		{"+1", 10, REPLCommand{Action: REPLSearch}},
		{"1", 0, REPLCommand{Action: REPLSearch}}, // nothing listed yet
		{"o 1", 0, REPLCommand{Action: REPLSearch}},
		{"o ring", 10, REPLCommand{Action: REPLSearch}},
		{"x 1", 10, REPLCommand{Action: REPLSearch}},
		{"o 1 2", 10, REPLCommand{Action: REPLSearch}},
		{"budget report", 10, REPLCommand{Action: REPLSearch}},
		{"1.5", 10, REPLCommand{Action: REPLSearch}},
	}
	for _, c := range cases {
		if got := ParseREPLLine(c.line, c.shown); got != c.want {
			t.Errorf("ParseREPLLine(%q, %d) = %+v, want %+v", c.line, c.shown, got, c.want)
		}
	}
}

// recordingOpener records what the prompt opened and copied.
type recordingOpener struct{ opened, copied []string }

func (r *recordingOpener) Open(_ context.Context, link string) error {
	r.opened = append(r.opened, link)
	return nil
}

func (r *recordingOpener) Copy(_ context.Context, text string) (bool, error) {
	r.copied = append(r.copied, text)
	return false, nil
}

func TestResultLinksHandle(t *testing.T) {
	rec := &recordingOpener{}
	var msgs bytes.Buffer
	l := &ResultLinks{Opener: rec, Msgs: &msgs, T: func(k i18n.Key, a ...any) string { return i18n.T(i18n.En, k, a...) }}
	out := search.Outcome{Results: []search.Result{
		{File: store.File{Name: "a", WebLink: "https://d/a"}},
		{File: store.File{Name: "b", WebLink: "https://d/b"}},
		{File: store.File{Name: "c"}},
	}}
	l.List(out, 3)
	for _, line := range []string{"2", "o 1", "c 2", "budget"} {
		if _, err := l.Handle(context.Background(), line); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
	}
	if fmt.Sprint(rec.opened) != "[https://d/b https://d/a]" || fmt.Sprint(rec.copied) != "[https://d/b]" {
		t.Errorf("opened %v, copied %v", rec.opened, rec.copied)
	}
	if done, err := l.Handle(context.Background(), "budget"); done || err != nil {
		t.Errorf("a query was handled: %v %v", done, err)
	}
	if _, err := l.Handle(context.Background(), "o 3"); !errors.Is(err, apperr.NotFound) {
		t.Errorf("a result without a link: %v", err)
	}
	if _, err := l.Handle(context.Background(), "c 4"); !errors.Is(err, apperr.Usage) || apperr.Message(err, i18n.En) != "there is no result 4; choose 1–3" {
		t.Errorf("c 4: %v", err)
	}
	// Only the shown results count; a search without a list clears them.
	l.List(out, 1)
	if done, _ := l.Handle(context.Background(), "2"); done {
		t.Error("result 2 was not shown but was opened")
	}
	l.List(search.Outcome{Results: out.Results, State: search.State{End: search.EndNotFound}}, 10)
	if len(l.Links) != 0 {
		t.Errorf("links after a search without a list: %v", l.Links)
	}
}
