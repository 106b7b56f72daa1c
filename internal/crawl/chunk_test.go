package crawl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/textseg"
)

// A file's text rebuilt from its chunks is its pages' text, each sentence
// once: overlaps of every length the chunker makes (sentence starts up to
// ChunkMaxOverlap back, word starts), a repeated sentence, Japanese,
// pages separated by a blank line.
func TestJoinChunks(t *testing.T) {
	var en strings.Builder
	for i := range 80 {
		fmt.Fprintf(&en, "Sentence %d tells of lighthouse %d%s. ", i, i*7, strings.Repeat(", whose keeper kept a log of the ships and the weather", i%11))
	}
	var ja strings.Builder
	for i := range 60 {
		fmt.Fprintf(&ja, "灯台%dの記録によれば%s船が通った。", i, strings.Repeat("、嵐の夜にも", i%7))
	}
	pages := []extract.Page{
		{Number: 1, Text: strings.TrimSpace(en.String())},
		{Number: 2, Text: strings.TrimSpace(strings.Repeat("The keeper lit the lamp. ", 150))},
		{Number: 3, Text: ja.String()},
		{Number: 4, Text: "A short last page."},
	}
	chunks := crawl.Chunks(extract.Doc{Pages: pages})
	if len(chunks) < 10 {
		t.Fatalf("%d chunks: the test needs several per page", len(chunks))
	}
	// The overlaps vary: some reach past ChunkOverlap to a sentence start.
	longest := 0
	for i := 1; i < len(chunks); i++ {
		if chunks[i].Page == chunks[i-1].Page {
			longest = max(longest, textseg.Overlap(chunks[i-1].Text, chunks[i].Text, crawl.ChunkSize, crawl.ChunkOverlap, crawl.ChunkMaxOverlap))
		}
	}
	if longest <= crawl.ChunkOverlap {
		t.Errorf("longest overlap %d: the test needs one beyond %d", longest, crawl.ChunkOverlap)
	}
	var want []string
	for _, p := range pages {
		want = append(want, p.Text)
	}
	if got := crawl.JoinChunks(chunks); got != strings.Join(want, "\n\n") {
		t.Errorf("rebuilt text differs:\n%q\nwant\n%q", got, strings.Join(want, "\n\n"))
	}
	if got := crawl.JoinChunks(nil); got != "" {
		t.Errorf("no chunks: %q", got)
	}
}
