package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// metaRetokenize is the gds_meta key of the re-tokenising backfill the
// accent-folding and stemming migrations start; its value is the last
// file_id done.
const metaRetokenize = "retokenize_backfill"

// metaRetokenizeFrom is the gds_meta key of the tokenisation version
// (tokenize.Version) the stored tokens were made with when the pending
// pass was queued; the pass rewrites only the texts whose tokens changed
// since (tokenize.RetokenizesSince). Absent: version 1. A migration sets
// it only when no pass is pending, so a pending pass keeps the oldest.
const metaRetokenizeFrom = "retokenize_from"

// retokenizeBatch is the number of files examined per write transaction.
var retokenizeBatch = 200

// retokenize rewrites the full-text rows (file and chunks) of the files
// whose tokens changed since the tokenisation version the pass starts from
// (metaRetokenizeFrom; tokenize.RetokenizesSince: accents, English words,
// CJK runs next to a word), after the migration that changed the
// tokenisation queued it. The other files' tokens are unchanged and are
// not touched.
// The file's text is rebuilt from its chunks (store.JoinChunkTexts). It
// runs in batches of retokenizeBatch files, one write transaction each,
// keeping the position in gds_meta, so an interrupted run resumes.
func (s *Store) retokenize(ctx context.Context) error {
	var pending int
	if err := s.write.QueryRowContext(ctx, `SELECT count(*) FROM gds_meta WHERE key = ?`, metaRetokenize).Scan(&pending); err != nil {
		return fmt.Errorf("sqlite index %s: read the re-tokenising position: %w", s.path, err)
	}
	if pending == 0 {
		return nil
	}
	from := 1
	var v string
	switch err := s.write.QueryRowContext(ctx, `SELECT value FROM gds_meta WHERE key = ?`, metaRetokenizeFrom).Scan(&v); {
	case err == nil:
		if n, perr := strconv.Atoi(v); perr == nil && n > 1 {
			from = n
		}
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("sqlite index %s: read the tokenisation version to re-tokenise from: %w", s.path, err)
	}
	progress, err := s.backfillProgress(ctx)
	if err != nil {
		return err
	}
	for {
		done, examined := false, 0
		err := s.inWriteTx(ctx, "re-tokenise stored text", func(tx *sql.Tx) error {
			var after string
			err := tx.QueryRowContext(ctx, `SELECT value FROM gds_meta WHERE key = ?`, metaRetokenize).Scan(&after)
			if errors.Is(err, sql.ErrNoRows) {
				done = true
				return nil
			}
			if err != nil {
				return fmt.Errorf("read the re-tokenising position: %w", err)
			}
			type file struct {
				id, name, keywords, summary string
				doc                         int64
			}
			rows, err := tx.QueryContext(ctx, `SELECT file_id, file_name, keywords, summary, doc_id FROM drive_file_index
				WHERE file_id > ? ORDER BY file_id LIMIT ?`, after, retokenizeBatch)
			if err != nil {
				return fmt.Errorf("read files: %w", err)
			}
			var files []file
			for rows.Next() {
				var f file
				if err := rows.Scan(&f.id, &f.name, &f.keywords, &f.summary, &f.doc); err != nil {
					rows.Close()
					return fmt.Errorf("read files: %w", err)
				}
				files = append(files, f)
			}
			if err := rows.Close(); err != nil {
				return fmt.Errorf("read files: %w", err)
			}
			examined = len(files)
			for _, f := range files {
				if err := retokenizeFile(ctx, tx, f.id, f.name, f.keywords, f.summary, f.doc, from); err != nil {
					return fmt.Errorf("file %q: %w", f.id, err)
				}
			}
			if len(files) < retokenizeBatch {
				done = true
				_, err = tx.ExecContext(ctx, `DELETE FROM gds_meta WHERE key IN (?, ?)`, metaRetokenize, metaRetokenizeFrom)
				return err
			}
			_, err = tx.ExecContext(ctx, `UPDATE gds_meta SET value = ? WHERE key = ?`, files[len(files)-1].id, metaRetokenize)
			return err
		})
		if err != nil {
			return err
		}
		progress(examined, done)
		if done {
			return nil
		}
	}
}

// backfillProgress returns what the re-tokenising pass calls after each
// batch (store.BackfillProgress with this store's counts).
func (s *Store) backfillProgress(ctx context.Context) (func(examined int, last bool), error) {
	count := func() (done, total int, err error) {
		err = s.write.QueryRowContext(ctx, `SELECT
			(SELECT count(*) FROM drive_file_index WHERE file_id <= ifnull((SELECT value FROM gds_meta WHERE key = ?), '')),
			(SELECT count(*) FROM drive_file_index)`, metaRetokenize).Scan(&done, &total)
		if err != nil {
			err = fmt.Errorf("sqlite index %s: count the files to re-tokenise: %w", s.path, err)
		}
		return done, total, err
	}
	return store.BackfillProgress(s.backfill, count)
}

// retokenizeFile rewrites one file's full-text rows when their tokens
// changed since tokenisation version from (tokenize.RetokenizesSince).
func retokenizeFile(ctx context.Context, tx *sql.Tx, id, name, keywordsJSON, summary string, doc int64, from int) error {
	var keywords []string
	if err := json.Unmarshal([]byte(keywordsJSON), &keywords); err != nil {
		return fmt.Errorf("keywords %q: %w", keywordsJSON, err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT ordinal, page, text FROM drive_file_chunk WHERE file_id = ? ORDER BY ordinal`, id)
	if err != nil {
		return fmt.Errorf("read chunks: %w", err)
	}
	var (
		ordinals, pages []int
		texts           []string
	)
	for rows.Next() {
		var o, p int
		var t string
		if err := rows.Scan(&o, &p, &t); err != nil {
			rows.Close()
			return fmt.Errorf("read chunks: %w", err)
		}
		ordinals, pages, texts = append(ordinals, o), append(pages, p), append(texts, t)
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("read chunks: %w", err)
	}
	kwText := jsonKeywordsText(keywords)
	retok := func(s string) bool { return tokenize.RetokenizesSince(s, from) }
	changed := retok(name) || retok(kwText) || retok(summary)
	for _, t := range texts {
		changed = changed || retok(t)
	}
	if !changed {
		return nil
	}
	body := store.JoinChunkTexts(texts, pages)
	if _, err := tx.ExecContext(ctx, `DELETE FROM drive_file_fts WHERE rowid = ?`, doc); err != nil {
		return fmt.Errorf("delete the full-text row: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO drive_file_fts (rowid, name, keywords, summary, body) VALUES (?, ?, ?, ?, ?)`,
		doc, tokenize.IndexJoin(name), tokenize.IndexJoin(kwText), tokenize.IndexJoin(summary), tokenize.IndexJoin(body)); err != nil {
		return fmt.Errorf("write the full-text row: %w", err)
	}
	for i, t := range texts {
		if !retok(t) {
			continue
		}
		if _, err := tx.ExecContext(ctx, insertChunkFTS, chunkRowID(doc, ordinals[i]), tokenize.IndexJoin(t)); err != nil {
			return fmt.Errorf("write chunk %d's full-text row: %w", ordinals[i], err)
		}
	}
	// The full-text rankings cached by KeywordSearch are of the old tokens.
	if err := bumpGeneration(ctx, tx); err != nil {
		return err
	}
	return nil
}
