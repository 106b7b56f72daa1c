package app

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/store"
)

// MaxFileText is the longest text GetFile returns by default (characters).
const MaxFileText = 20000

// FileDetail is one indexed file: its metadata, summary and text.
type FileDetail struct {
	File store.File
	// Text is the file's indexed text rebuilt from its chunks (their
	// overlaps removed), cut at the request's limit.
	Text string
	// Truncated is true when Text was cut.
	Truncated bool
	Chunks    int
}

// GetFile returns one indexed file with at most maxChars characters of its
// text (0: MaxFileText). An ID that is not indexed is apperr.NotFound.
func (d *Deps) GetFile(ctx context.Context, id string, maxChars int) (FileDetail, error) {
	if strings.TrimSpace(id) == "" {
		return FileDetail{}, apperr.L(apperr.Usage, "mcp.no_file_id")
	}
	if maxChars <= 0 {
		maxChars = MaxFileText
	}
	var out FileDetail
	err := d.withStore(ctx, func(s store.Store) error {
		files, err := s.GetFiles(ctx, []string{id})
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return apperr.L(apperr.NotFound, "serve.not_found")
		}
		chunks, err := s.FileChunks(ctx, id, store.MaxChunkOrdinal+1)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		texts := make([]string, len(chunks))
		for i, c := range chunks {
			texts[i] = c.Text
		}
		out = FileDetail{File: files[0], Chunks: len(chunks)}
		out.Text, out.Truncated = cutRunes(JoinChunks(texts), maxChars)
		return nil
	})
	return out, err
}

// JoinChunks rebuilds a text from its overlapping chunks in order: where
// the end of the text so far repeats at the start of the next chunk (the
// crawl's 200-character overlap, possibly trimmed), the repeat is dropped.
func JoinChunks(chunks []string) string {
	var b strings.Builder
	for _, c := range chunks {
		acc := b.String()
		b.WriteString(c[overlap(acc, c):])
	}
	return b.String()
}

// overlap is the length in bytes of the longest prefix of next (at most
// 400 bytes, at least 16) that ends acc, on rune boundaries; 0 if none.
func overlap(acc, next string) int {
	n := min(len(next), len(acc), 400)
	for k := n; k >= 16; k-- {
		if !utf8.RuneStart(next[k-1]) && k < len(next) && !utf8.RuneStart(next[k]) {
			continue
		}
		if strings.HasSuffix(acc, next[:k]) && utf8.ValidString(next[:k]) {
			return k
		}
	}
	return 0
}

// cutRunes cuts s to at most n characters.
func cutRunes(s string, n int) (string, bool) {
	if utf8.RuneCountInString(s) <= n {
		return s, false
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j], true
		}
		i++
	}
	return s, false
}
