package store

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gds-cli/gds/internal/tokenize"
)

// maxChunkOverlap bounds the overlap JoinChunkTexts looks for between two
// consecutive chunks of a page (the crawler overlaps them by a few hundred
// characters).
const maxChunkOverlap = 1000

// minChunkOverlap is the shortest repeat taken for an overlap: a chunk
// that happens to start with the previous one's last few characters is
// not cut.
const minChunkOverlap = 8

// JoinChunkTexts rebuilds a file's text from its stored chunks, in
// ordinal order: consecutive chunks of one page lose the longest prefix
// that repeats the previous chunk's end (their overlap); pages are
// separated by a blank line. It is the text a store re-tokenises when its
// tokenisation changes (the full text itself is not stored). Pure.
func JoinChunkTexts(texts []string, pages []int) string {
	var b strings.Builder
	var prev []rune
	for i, t := range texts {
		r := []rune(t)
		if i > 0 {
			if pages[i] == pages[i-1] {
				r = r[overlap(prev, r):]
			} else {
				b.WriteString("\n\n")
			}
		}
		b.WriteString(string(r))
		prev = []rune(t)
	}
	return b.String()
}

// overlap is the length of the longest suffix of a that is a prefix of b
// (minChunkOverlap to maxChunkOverlap runes and shorter than either; else 0).
func overlap(a, b []rune) int {
	for k := min(len(a)-1, len(b)-1, maxChunkOverlap); k >= minChunkOverlap; k-- {
		if string(a[len(a)-k:]) == string(b[:k]) {
			return k
		}
	}
	return 0
}

// MetaRetokenize is the gds_meta key of the re-tokenising pass that the
// migrations changing the tokenisation queue (accent folding, stemming,
// edge characters); its value is the last file ID done ("" at first).
const MetaRetokenize = "retokenize_backfill"

// MetaRetokenizeFrom is the gds_meta key of the tokenisation version
// (tokenize.Version) the stored tokens were made with when the pending
// pass was queued; the pass rewrites only the texts whose tokens changed
// since (tokenize.RetokenizesSince). Absent: version 1. A migration sets
// it only when no pass is pending, so a pending pass keeps the oldest.
const MetaRetokenizeFrom = "retokenize_from"

// Retokenizer is what Retokenize needs of a back end.
type Retokenizer interface {
	// Meta returns the gds_meta value of key (ok false: not set).
	Meta(ctx context.Context, key string) (value string, ok bool, err error)
	// CountRetokenized returns the number of files whose ID sorts up to
	// the value of MetaRetokenize (in the order of RetokenizeTx.Files)
	// and the number of files.
	CountRetokenized(ctx context.Context) (done, total int, err error)
	// InRetokenizeTx runs fn in one write transaction, committed when fn
	// returns nil.
	InRetokenizeTx(ctx context.Context, fn func(RetokenizeTx) error) error
}

// RetokenizeTx is what one batch of Retokenize does in a transaction.
type RetokenizeTx interface {
	// Meta returns the gds_meta value of key (ok false: not set), locking
	// its row against other processes running the pass where they can.
	Meta(ctx context.Context, key string) (value string, ok bool, err error)
	// SetMeta updates the gds_meta value of key.
	SetMeta(ctx context.Context, key, value string) error
	// DeleteMeta removes the gds_meta rows of keys.
	DeleteMeta(ctx context.Context, keys ...string) error
	// Files returns at most limit files whose ID sorts after after, in ID
	// order, with their ID, Name, Keywords and Summary.
	Files(ctx context.Context, after string, limit int) ([]File, error)
	// Chunks returns a file's chunks in ordinal order, with their
	// Ordinal, Page and Text.
	Chunks(ctx context.Context, f File) ([]Chunk, error)
	// Rewrite replaces the full-text tokens of file f, its text being
	// text, and of the chunks given (a subset of its chunks).
	Rewrite(ctx context.Context, f File, text string, chunks []Chunk) error
}

// Retokenize runs the re-tokenising pass a migration that changed the
// tokenisation queued (MetaRetokenize set), if any: it rewrites the
// full-text tokens (file and chunks) of the files whose tokens changed
// since the tokenisation version it starts from (MetaRetokenizeFrom;
// tokenize.RetokenizesSince: accents, English words, CJK runs next to a
// word); the other files' tokens are unchanged and are not touched. A
// file's text is rebuilt from its chunks (JoinChunkTexts). It runs in
// batches of batch files in ID order, one transaction each, keeping its
// position in MetaRetokenize, so an interrupted pass resumes; the last
// batch removes both keys. hook (nil: none) hears the progress
// (BackfillProgress).
func Retokenize(ctx context.Context, b Retokenizer, batch int, hook func(Backfill)) error {
	if _, pending, err := b.Meta(ctx, MetaRetokenize); err != nil || !pending {
		if err != nil {
			return fmt.Errorf("read the re-tokenising position: %w", err)
		}
		return nil
	}
	v, ok, err := b.Meta(ctx, MetaRetokenizeFrom)
	if err != nil {
		return fmt.Errorf("read the tokenisation version to re-tokenise from: %w", err)
	}
	from := retokenizeFrom(v, ok)
	progress, err := BackfillProgress(hook, func() (int, int, error) { return b.CountRetokenized(ctx) })
	if err != nil {
		return fmt.Errorf("count the files to re-tokenise: %w", err)
	}
	for {
		var done bool
		examined := 0
		err := b.InRetokenizeTx(ctx, func(tx RetokenizeTx) error {
			var err error
			examined, done, err = retokenizeBatch(ctx, tx, batch, from)
			return err
		})
		if err != nil {
			return fmt.Errorf("re-tokenise stored text: %w", err)
		}
		progress(examined, done)
		if done {
			return nil
		}
	}
}

// retokenizeFrom is the tokenisation version a pass starts from: the
// stored MetaRetokenizeFrom when it is a version above 1, else 1.
func retokenizeFrom(v string, ok bool) int {
	if n, err := strconv.Atoi(v); ok && err == nil && n > 1 {
		return n
	}
	return 1
}

// retokenizeBatch examines the files after the stored position, at most
// batch of them, and moves the position past them; done: the pass is over
// (no position stored, or fewer files than batch left, the keys removed).
func retokenizeBatch(ctx context.Context, tx RetokenizeTx, batch, from int) (examined int, done bool, err error) {
	after, ok, err := tx.Meta(ctx, MetaRetokenize)
	if err != nil {
		return 0, false, fmt.Errorf("read the re-tokenising position: %w", err)
	}
	if !ok {
		return 0, true, nil
	}
	files, err := tx.Files(ctx, after, batch)
	if err != nil {
		return 0, false, fmt.Errorf("read files: %w", err)
	}
	for _, f := range files {
		if err := retokenizeFile(ctx, tx, f, from); err != nil {
			return 0, false, fmt.Errorf("file %q: %w", f.ID, err)
		}
	}
	if len(files) < batch {
		return len(files), true, tx.DeleteMeta(ctx, MetaRetokenize, MetaRetokenizeFrom)
	}
	return len(files), false, tx.SetMeta(ctx, MetaRetokenize, files[len(files)-1].ID)
}

// retokenizeFile rewrites one file's full-text tokens when they changed
// since tokenisation version from, with those of its chunks that changed.
func retokenizeFile(ctx context.Context, tx RetokenizeTx, f File, from int) error {
	chunks, err := tx.Chunks(ctx, f)
	if err != nil {
		return fmt.Errorf("read chunks: %w", err)
	}
	changed := retokenizedChunks(f, chunks, from)
	if changed == nil {
		return nil
	}
	texts := make([]string, len(chunks))
	pages := make([]int, len(chunks))
	for i, c := range chunks {
		texts[i], pages[i] = c.Text, c.Page
	}
	return tx.Rewrite(ctx, f, JoinChunkTexts(texts, pages), changed)
}

// retokenizedChunks decides what a re-tokenising pass rewrites of a file
// and its chunks: nil when no text of the file (name, keywords, summary,
// chunks) changes its tokens since tokenisation version from
// (tokenize.RetokenizesSince); else the chunks whose tokens change, the
// file's own tokens to be rewritten too (a non-nil, maybe empty slice).
// Pure.
func retokenizedChunks(f File, chunks []Chunk, from int) []Chunk {
	retok := func(s string) bool { return tokenize.RetokenizesSince(s, from) }
	changed := retok(f.Name) || retok(f.Summary) || slices.ContainsFunc(f.Keywords, retok)
	out := []Chunk{}
	for _, c := range chunks {
		if retok(c.Text) {
			out = append(out, c)
		}
	}
	if !changed && len(out) == 0 {
		return nil
	}
	return out
}
