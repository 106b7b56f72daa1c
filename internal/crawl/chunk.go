package crawl

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/textseg"
)

// Chunk sizes: at most 1,000 characters with at most 200
// characters of overlap.
const (
	ChunkSize    = 1000
	ChunkOverlap = 200
)

// ChunkVersion names the chunking rules. Version 1 cut fixed windows of
// ChunkSize characters, mid-word; version 2 cuts at sentence ends, else
// word ends (textseg.Windows). It is part of a file's content hash
// (ContentHash), so a crawl that reads a file indexed under other rules
// indexes it again: `gds crawl --full` re-chunks a whole index.
const ChunkVersion = 2

// ContentHash is the content hash of a file's indexed text: SHA-256 of
// the chunking rules' version and the text. A file whose text and rules
// are unchanged is not indexed again.
func ContentHash(text string) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("gds-chunks-v%d\x00", ChunkVersion) + text))
	return hex.EncodeToString(sum[:])
}

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
