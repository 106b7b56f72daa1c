package render

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

func TestSourceLabel(t *testing.T) {
	for key, want := range map[string]string{
		"drive": "Drive", "drive:1AbC": "Drive", "local:/home/u/Docs": "Docs", "upload": "upload", "local": "local",
		"drive@work": "Drive (work)", "drive@work:1AbC": "Drive (work)", "local:/x/a@b:c": "a@b:c",
	} {
		if got := SourceLabel(key); got != want {
			t.Errorf("SourceLabel(%q) = %q, want %q", key, got, want)
		}
	}
}

// Results from several sources say which source each came from; results
// of one source do not repeat it.
func TestSearchTextShowsSourceWhenMixed(t *testing.T) {
	res := func(sources ...string) search.Outcome {
		var out search.Outcome
		for i, s := range sources {
			out.Results = append(out.Results, search.Result{File: store.File{ID: string(rune('a' + i)), Name: "f" + s, Source: s, Path: "P"}})
		}
		return out
	}
	var b bytes.Buffer
	SearchText(&b, res("drive:F1", "local:/x/Notes"), false, false, "en")
	if got := b.String(); !strings.Contains(got, "(Drive · P · ") || !strings.Contains(got, "(Notes · P · ") {
		t.Errorf("mixed sources:\n%s\nwant each line labelled with its source", got)
	}
	b.Reset()
	SearchText(&b, res("drive", "drive@work:F2"), false, false, "en")
	if got := b.String(); !strings.Contains(got, "(Drive · P · ") || !strings.Contains(got, "(Drive (work) · P · ") {
		t.Errorf("two accounts:\n%s\nwant each line labelled with its account", got)
	}
	b.Reset()
	SearchText(&b, res("local:/x/Notes", "local:/x/Notes"), false, false, "en")
	if got := b.String(); strings.Contains(got, "Notes ·") {
		t.Errorf("one source:\n%s\nwant no source label", got)
	}
}

// One source prints its summary as before (nothing when it could not be set
// up); several print a heading each, and why a source was not crawled.
func TestCrawlReport(t *testing.T) {
	var b bytes.Buffer
	CrawlReport(&b, []crawl.SourceResult{{Source: "local:/a", Err: errors.New("no folder")}}, false, "en")
	if b.Len() != 0 {
		t.Errorf("one source not set up printed %q, want nothing (the error is printed by the caller)", b.String())
	}
	CrawlReport(&b, []crawl.SourceResult{{Source: "local:/a", Started: true, Summary: crawl.Summary{New: 2}}}, false, "en")
	if got := b.String(); !strings.HasPrefix(got, "Done: 2 new") || strings.Contains(got, "local:/a") {
		t.Errorf("one source: %q, want the plain summary", got)
	}
	b.Reset()
	CrawlReport(&b, []crawl.SourceResult{
		{Source: "local:/a", Started: true, Summary: crawl.Summary{New: 2}},
		{Source: "drive", Err: errors.New("no sign-in")},
	}, false, "en")
	got := b.String()
	for _, want := range []string{"local:/a:\nDone: 2 new", "drive:\n  not crawled: no sign-in"} {
		if !strings.Contains(got, want) {
			t.Errorf("two sources:\n%s\nlacks %q", got, want)
		}
	}
}
