package crawl

import (
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/textseg"
)

// Chunk sizes from seed 004: at most 1,000 characters with at most 200
// characters of overlap.
const (
	ChunkSize    = 1000
	ChunkOverlap = 200
)

// ChunkVersion names the chunking rules. Version 1 cut fixed windows of
// ChunkSize characters, mid-word; version 2 cuts at sentence ends, else
// word ends (textseg.Windows). An index keeps the chunks it was written
// with until its files are indexed again.
const ChunkVersion = 2

// chunkDoc splits each page into pieces of at most size characters
// (runes) that overlap by at most overlap characters, cut at sentence
// ends, else at word ends (textseg.Windows), never inside a word; chunks
// never span pages, so each keeps its page number.
func chunkDoc(doc extract.Doc, size, overlap int) []store.Chunk {
	var out []store.Chunk
	for _, p := range doc.Pages {
		for _, t := range textseg.Windows(p.Text, size, overlap) {
			out = append(out, store.Chunk{Ordinal: len(out), Page: p.Number, Text: t})
		}
	}
	return out
}

// Chunks cuts doc into the crawl's chunks (ChunkSize, ChunkOverlap), for a
// reader of a file the index does not hold (the agent's
// get_document_content).
func Chunks(doc extract.Doc) []store.Chunk { return chunkDoc(doc, ChunkSize, ChunkOverlap) }
