package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

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

// retokenizeBatch is the number of files examined per transaction.
var retokenizeBatch = 200

// retokenize rebuilds search_tsv (file and chunks) of the files whose
// tokens changed since the tokenisation version the pass starts from
// (metaRetokenizeFrom; tokenize.RetokenizesSince: accents, English words,
// CJK runs next to a word), after the migration that changed the
// tokenisation queued it; the other files' tokens are unchanged and are
// not touched.
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
	from := 1
	var v string
	switch err := s.pool.QueryRow(ctx, s.q("SELECT value FROM {schema}.gds_meta WHERE key = $1"), metaRetokenizeFrom).Scan(&v); {
	case err == nil:
		if n, perr := strconv.Atoi(v); perr == nil && n > 1 {
			from = n
		}
	case !errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("postgres: reading the tokenisation version to re-tokenise from in %s: %w", s.location, err)
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
				if err := s.retokenizeFile(ctx, tx, f, from); err != nil {
					return fmt.Errorf("file %q: %w", f.ID, err)
				}
			}
			if len(files) < retokenizeBatch {
				done = true
				_, err = tx.Exec(ctx, s.q("DELETE FROM {schema}.gds_meta WHERE key IN ($1, $2)"), metaRetokenize, metaRetokenizeFrom)
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

// retokenizeFile rebuilds one file's search tokens when they changed
// since tokenisation version from (tokenize.RetokenizesSince).
func (s *Store) retokenizeFile(ctx context.Context, tx pgx.Tx, f store.File, from int) error {
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
	retok := func(s string) bool { return tokenize.RetokenizesSince(s, from) }
	changed := retok(f.Name) || retok(f.Summary)
	for _, k := range f.Keywords {
		changed = changed || retok(k)
	}
	for _, t := range texts {
		changed = changed || retok(t)
	}
	if !changed {
		return nil
	}
	f.Text = store.JoinChunkTexts(texts, pages)
	if _, err := tx.Exec(ctx, s.q(`UPDATE {schema}.drive_file_index SET search_tsv = $2::tsvector WHERE file_id = $1`), f.ID, buildTSVector(f)); err != nil {
		return fmt.Errorf("writing the search tokens: %w", err)
	}
	for i, t := range texts {
		if !retok(t) {
			continue
		}
		if _, err := tx.Exec(ctx, s.q(`UPDATE {schema}.drive_file_chunks SET search_tsv = $3::tsvector WHERE file_id = $1 AND ordinal = $2`),
			f.ID, ordinals[i], buildChunkTSVector(t)); err != nil {
			return fmt.Errorf("writing chunk %d's search tokens: %w", ordinals[i], err)
		}
	}
	return nil
}
