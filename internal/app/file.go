package app

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store"
)

// MaxFileText is the longest text GetFile returns by default (characters).
const MaxFileText = 20000

// FileDetail is one indexed file: its metadata, summary and text.
type FileDetail struct {
	File store.File
	// Text is the file's indexed text rebuilt from its chunks
	// (crawl.JoinChunks: their overlaps removed, pages separated by a
	// blank line), cut at the request's limit.
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
		out = FileDetail{File: files[0], Chunks: len(chunks)}
		out.Text, out.Truncated = cutRunes(crawl.JoinChunks(chunks), maxChars)
		return nil
	})
	return out, err
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
