package crawl

import (
	"strings"

	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/store"
)

// Chunk sizes from seed 004: 1,000 characters with 200 characters of overlap.
const (
	ChunkSize    = 1000
	ChunkOverlap = 200
)

// chunkDoc splits each page into windows of size characters (runes) that
// overlap by overlap characters; chunks never span pages, so each keeps its
// page number.
func chunkDoc(doc extract.Doc, size, overlap int) []store.Chunk {
	var out []store.Chunk
	step := size - overlap
	for _, p := range doc.Pages {
		r := []rune(strings.TrimSpace(p.Text))
		for start := 0; start < len(r); start += step {
			end := min(start+size, len(r))
			out = append(out, store.Chunk{Ordinal: len(out), Page: p.Number, Text: string(r[start:end])})
			if end == len(r) {
				break
			}
		}
	}
	return out
}

// Chunks cuts doc into the crawl's chunks (ChunkSize, ChunkOverlap), for a
// reader of a file the index does not hold (the agent's
// get_document_content).
func Chunks(doc extract.Doc) []store.Chunk { return chunkDoc(doc, ChunkSize, ChunkOverlap) }
