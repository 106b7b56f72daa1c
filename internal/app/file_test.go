package app_test

import (
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/store"
)

// windows cuts text into chunks the way the crawl does: size characters
// overlapping by overlap.
func windows(text string, page, size, overlap int) []store.Chunk {
	r := []rune(text)
	var out []store.Chunk
	for start := 0; start < len(r); start += size - overlap {
		end := min(start+size, len(r))
		out = append(out, store.Chunk{Page: page, Text: string(r[start:end])})
		if end == len(r) {
			break
		}
	}
	return out
}

// get_file's text is the indexed text again: the overlaps of a page's
// chunks dropped even in repetitive text, pages separated by a blank line.
func TestJoinChunks(t *testing.T) {
	p1 := strings.Repeat("Alpha ingestion writes partner events to Postgres. ", 30) + "終わり。日本語の文も重なります。"
	p2 := "Second page: " + strings.Repeat("retention 30 days. ", 12)
	chunks := append(windows(p1, 1, 120, 40), windows(p2, 2, 120, 40)...)
	if got, want := app.JoinChunks(chunks, 40), p1+"\n\n"+p2; got != want {
		t.Errorf("rebuilt text differs:\n%q\nwant\n%q", got, want)
	}
	// Chunks that do not overlap as expected are kept whole.
	odd := []store.Chunk{{Text: "first part"}, {Text: "second part"}}
	if got := app.JoinChunks(odd, 40); got != "first part\n\nsecond part" {
		t.Errorf("no overlap: %q", got)
	}
	if got := app.JoinChunks(nil, 40); got != "" {
		t.Errorf("nil: %q", got)
	}
}
