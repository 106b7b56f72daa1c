-- Edge characters in the stored tokens (tokenize.Version 4): a CJK run that
-- touches a word (digits, Latin letters) also gives its edge character alone,
-- so that a keyword crossing the boundary (第45回) is found in a text where the
-- run goes on (…の第45回衆議院…: の第 第 45 回 回衆 …). As for 0007 and 0008,
-- search_tsv holds tokens made by gds itself, which SQL cannot make: after
-- migrating, the store re-tokenises every file whose text holds such a run, an
-- accented letter or a word the stemmer changes (tokenize.Retokenizes), and
-- those chunks, in short resumable batches in file_id order. The position is
-- reset to the start (''): one pass with the current tokenizer covers every
-- change. The row is deleted when done.
INSERT INTO gds_meta (key, value)
    SELECT 'retokenize_backfill', '' WHERE EXISTS (SELECT 1 FROM drive_file_index)
    ON CONFLICT (key) DO UPDATE SET value = '';
