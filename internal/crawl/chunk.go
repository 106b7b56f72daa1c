package crawl

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/textseg"
)

// Chunk sizes: at most 1,000 characters with 200 characters of overlap,
// or up to ChunkMaxOverlap when that lets the next chunk begin at a
// sentence start (textseg.Windows).
//
// ChunkMaxOverlap is 350: over the benchmark corpora (SQuAD articles and
// paragraphs, docs/BENCHMARKS.md) chunks beginning mid-sentence fall from
// 547 to 107 of 2,122 (articles) and from 152 to 26 of 443 (paragraphs)
// for 1.8 % and 0.5 % more stored text; 400 would halve what is left
// (68) for another 0.3 %, 250 leave three times as many (316).
const (
	ChunkSize       = 1000
	ChunkOverlap    = 200
	ChunkMaxOverlap = 350
)

// ChunkVersion names the chunking rules. Version 1 cut fixed windows of
// ChunkSize characters, mid-word; version 2 cuts at sentence ends, else
// word ends (textseg.Windows); version 3 begins a chunk at a sentence
// start up to ChunkMaxOverlap back. It is part of a file's content hash
// (ContentHash), so a crawl that reads a file indexed under other rules
// indexes it again; the change that bumps it bumps extract.Version too,
// so the next crawl reads every file again.
const ChunkVersion = 3

// ContentHash is the content hash of a file's indexed text: SHA-256 of
// the chunking rules' version and the text. A file whose text and rules
// are unchanged is not indexed again.
func ContentHash(text string) string { return contentHashAt(ChunkVersion, text) }

// contentHashAt is ContentHash under chunking rules version v; version 1
// hashed the text alone.
func contentHashAt(v int, text string) string {
	if v <= 1 {
		sum := sha256.Sum256([]byte(text))
		return hex.EncodeToString(sum[:])
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("gds-chunks-v%d\x00", v) + text))
	return hex.EncodeToString(sum[:])
}

// onlyRulesChanged reports whether stored, a file's stored content hash,
// is the hash of text under older chunking rules: the text is the same,
// so only its chunks must be made again, and its summary and keywords
// still hold.
func onlyRulesChanged(stored, text string) bool {
	for v := 1; v < ChunkVersion; v++ {
		if stored == contentHashAt(v, text) {
			return true
		}
	}
	return false
}

// chunkDoc splits each page into chunks of at most ChunkSize characters
// (runes) that overlap by ChunkOverlap (up to ChunkMaxOverlap to begin
// at a sentence start), cut at sentence ends, else at word ends
// (textseg.Windows), never inside a word; chunks never span pages, so
// each keeps its page number.
func chunkDoc(doc extract.Doc) []store.Chunk {
	var out []store.Chunk
	for _, p := range doc.Pages {
		for _, t := range textseg.Windows(p.Text, ChunkSize, ChunkOverlap, ChunkMaxOverlap) {
			out = append(out, store.Chunk{Ordinal: len(out), Page: p.Number, Text: t})
		}
	}
	return out
}

// Chunks cuts doc into the crawl's chunks (ChunkSize, ChunkOverlap), for a
// reader of a file the index does not hold (the agent's
// get_document_content).
func Chunks(doc extract.Doc) []store.Chunk { return chunkDoc(doc) }

// JoinChunks rebuilds a file's text from its chunks in ordinal order:
// the chunks of a page joined without their overlaps
// (textseg.JoinWindows with the crawl's sizes, so each sentence is said
// once whatever the overlap), pages separated by a blank line. Pure.
func JoinChunks(chunks []store.Chunk) string {
	var b strings.Builder
	for i := 0; i < len(chunks); {
		j := i + 1
		for j < len(chunks) && chunks[j].Page == chunks[i].Page {
			j++
		}
		texts := make([]string, 0, j-i)
		for _, c := range chunks[i:j] {
			texts = append(texts, c.Text)
		}
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(textseg.JoinWindows(texts, ChunkSize, ChunkOverlap, ChunkMaxOverlap))
		i = j
	}
	return b.String()
}
