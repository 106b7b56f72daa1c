package crawl

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/extract"
)

func TestWatermark(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 1, 1, 0, m, 0, 0, time.UTC) }
	tests := []struct {
		name   string
		times  []int // minutes, any order
		finish []int // indexes into the sorted order
		want   int   // minutes; -1 = zero time
	}{
		{"nothing finished", []int{1, 2, 3}, nil, -1},
		{"prefix finished", []int{3, 1, 2}, []int{0, 1}, 2},
		{"gap holds back", []int{1, 2, 3}, []int{0, 2}, 1},
		{"all finished", []int{1, 2, 3}, []int{2, 1, 0}, 3},
		{"tie with unfinished file", []int{1, 2, 2, 3}, []int{0, 1}, 1},
		{"tie at the start", []int{2, 2}, []int{0}, -1},
		{"tie all finished", []int{2, 2}, []int{1, 0}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var es []Entry
			for _, m := range tt.times {
				es = append(es, Entry{ModifiedAt: at(m)})
			}
			w := newWatermark(es)
			for i := 1; i < len(es); i++ {
				if es[i].ModifiedAt.Before(es[i-1].ModifiedAt) {
					t.Fatal("entries not sorted")
				}
			}
			for _, i := range tt.finish {
				w.finish(i)
			}
			got := w.value()
			if tt.want < 0 {
				if !got.IsZero() {
					t.Errorf("got %v, want zero", got)
				}
			} else if !got.Equal(at(tt.want)) {
				t.Errorf("got %v, want %v", got, at(tt.want))
			}
		})
	}
}

func TestChunkDoc(t *testing.T) {
	// Japanese without punctuation: no sentence or word boundary, so the
	// chunks are fixed windows of 1,000 characters overlapping by 200.
	text := make([]rune, 2500)
	for i := range text {
		text[i] = rune('あ' + i%50)
	}
	chunks := chunkDoc(extractDoc(string(text), 3))
	if len(chunks) != 3 {
		t.Fatalf("got %d chunks, want 3", len(chunks))
	}
	for i, c := range chunks {
		if c.Ordinal != i || c.Page != 3 {
			t.Errorf("chunk %d: ordinal %d page %d", i, c.Ordinal, c.Page)
		}
	}
	a, b := []rune(chunks[0].Text), []rune(chunks[1].Text)
	if string(a[800:]) != string(b[:200]) {
		t.Error("chunks 0 and 1 do not overlap by 200 characters")
	}
	if n := len([]rune(chunks[2].Text)); n != 900 {
		t.Errorf("last chunk has %d characters, want 900", n)
	}
}

// English pages are cut at sentence ends, each chunk on its own page.
func TestChunkDocSentences(t *testing.T) {
	var page strings.Builder
	for i := range 40 {
		fmt.Fprintf(&page, "The Normans settled in Normandy during the tenth century, sentence %d. ", i)
	}
	doc := extract.Doc{Pages: []extract.Page{{Number: 1, Text: page.String()}, {Number: 2, Text: "A short page."}}}
	chunks := chunkDoc(doc)
	if len(chunks) < 4 {
		t.Fatalf("%d chunks", len(chunks))
	}
	for i, c := range chunks {
		if n := len([]rune(c.Text)); n > 1000 {
			t.Errorf("chunk %d has %d characters", i, n)
		}
		if !strings.HasPrefix(c.Text, "The Normans") && c.Page == 1 || !strings.HasSuffix(c.Text, ".") {
			t.Errorf("chunk %d is not whole sentences: %q … %q", i, c.Text[:20], c.Text[len(c.Text)-20:])
		}
		if c.Ordinal != i {
			t.Errorf("chunk %d has ordinal %d", i, c.Ordinal)
		}
	}
	if last := chunks[len(chunks)-1]; last.Page != 2 || last.Text != "A short page." {
		t.Errorf("last chunk %+v", last)
	}
}
