package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// metaRetokenize is the gds_meta key of the re-tokenising backfill the
// accent-folding and stemming migrations start; its value is the last
// file_id done.
const metaRetokenize = "retokenize_backfill"

// retokenizeBatch is the number of files examined per transaction.
var retokenizeBatch = 200

// retokenize rebuilds search_tsv (file and chunks) of the files whose
// stored text holds a character the tokenizer now folds or
// stems differently (accents, English words: tokenize.Retokenizes), after
// the migration that changed the tokenisation
// queued it; the other files' tokens are unchanged and are not touched.
// The file's text is rebuilt from its chunks (store.JoinChunkTexts). It
// runs in batches of retokenizeBatch files in file_id COLLATE "C" order,
// one transaction each holding the gds_meta row of the position (so
// concurrent processes take turns), and resumes where it stopped.
func (s *Store) retokenize(ctx context.Context) error {
	var pending int
	if err := s.pool.QueryRow(ctx, s.q("SELECT count(*) FROM {schema}.gds_meta WHERE key = $1"), metaRetokenize).Scan(&pending); err != nil {
		return fmt.Errorf("postgres: reading the re-tokenising position in %s: %w", s.location, err)
	}
	if pending == 0 {
		return nil
	}
	progress, err := s.backfillProgress(ctx)
	if err != nil {
		return err
	}
	for {
		done, examined := false, 0
		err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			var after string
			err := tx.QueryRow(ctx, s.q("SELECT value FROM {schema}.gds_meta WHERE key = $1 FOR UPDATE"), metaRetokenize).Scan(&after)
			if errors.Is(err, pgx.ErrNoRows) {
				done = true
				return nil
			}
			if err != nil {
				return fmt.Errorf("reading the re-tokenising position: %w", err)
			}
			rows, err := tx.Query(ctx, s.q(`SELECT file_id, file_name, COALESCE(keywords, '{}'), summary
				FROM {schema}.drive_file_index WHERE file_id COLLATE "C" > $1 COLLATE "C"
				ORDER BY file_id COLLATE "C" LIMIT $2`), after, retokenizeBatch)
			if err != nil {
				return fmt.Errorf("reading files: %w", err)
			}
			var files []store.File
			for rows.Next() {
				var f store.File
				if err := rows.Scan(&f.ID, &f.Name, &f.Keywords, &f.Summary); err != nil {
					rows.Close()
					return fmt.Errorf("reading files: %w", err)
				}
				files = append(files, f)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("reading files: %w", err)
			}
			examined = len(files)
			for _, f := range files {
				if err := s.retokenizeFile(ctx, tx, f); err != nil {
					return fmt.Errorf("file %q: %w", f.ID, err)
				}
			}
			if len(files) < retokenizeBatch {
				done = true
				_, err = tx.Exec(ctx, s.q("DELETE FROM {schema}.gds_meta WHERE key = $1"), metaRetokenize)
				return err
			}
			_, err = tx.Exec(ctx, s.q("UPDATE {schema}.gds_meta SET value = $1 WHERE key = $2"), files[len(files)-1].ID, metaRetokenize)
			return err
		})
		if err != nil {
			return fmt.Errorf("postgres: re-tokenising stored text in %s: %w", s.location, err)
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
		err = s.pool.QueryRow(ctx, s.q(`SELECT
			(SELECT count(*) FROM {schema}.drive_file_index WHERE file_id COLLATE "C" <= COALESCE((SELECT value FROM {schema}.gds_meta WHERE key = $1), '') COLLATE "C"),
			(SELECT count(*) FROM {schema}.drive_file_index)`), metaRetokenize).Scan(&done, &total)
		if err != nil {
			err = fmt.Errorf("postgres: counting the files to re-tokenise in %s: %w", s.location, err)
		}
		return done, total, err
	}
	return store.BackfillProgress(s.backfill, count)
}

// retokenizeFile rebuilds one file's search tokens when its text holds a
// character the tokenizer folds or a word it stems.
func (s *Store) retokenizeFile(ctx context.Context, tx pgx.Tx, f store.File) error {
	rows, err := tx.Query(ctx, s.q(`SELECT ordinal, page, content FROM {schema}.drive_file_chunks WHERE file_id = $1 ORDER BY ordinal`), f.ID)
	if err != nil {
		return fmt.Errorf("reading chunks: %w", err)
	}
	var (
		ordinals []int32
		pages    []int
		texts    []string
	)
	for rows.Next() {
		var o int32
		var p int
		var t string
		if err := rows.Scan(&o, &p, &t); err != nil {
			rows.Close()
			return fmt.Errorf("reading chunks: %w", err)
		}
		ordinals, pages, texts = append(ordinals, o), append(pages, p), append(texts, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading chunks: %w", err)
	}
	changed := tokenize.Retokenizes(f.Name) || tokenize.Retokenizes(f.Summary)
	for _, k := range f.Keywords {
		changed = changed || tokenize.Retokenizes(k)
	}
	for _, t := range texts {
		changed = changed || tokenize.Retokenizes(t)
	}
	if !changed {
		return nil
	}
	f.Text = store.JoinChunkTexts(texts, pages)
	if _, err := tx.Exec(ctx, s.q(`UPDATE {schema}.drive_file_index SET search_tsv = $2::tsvector WHERE file_id = $1`), f.ID, buildTSVector(f)); err != nil {
		return fmt.Errorf("writing the search tokens: %w", err)
	}
	for i, t := range texts {
		if !tokenize.Retokenizes(t) {
			continue
		}
		if _, err := tx.Exec(ctx, s.q(`UPDATE {schema}.drive_file_chunks SET search_tsv = $3::tsvector WHERE file_id = $1 AND ordinal = $2`),
			f.ID, ordinals[i], buildChunkTSVector(t)); err != nil {
			return fmt.Errorf("writing chunk %d's search tokens: %w", ordinals[i], err)
		}
	}
	return nil
}
