-- Edge characters in the stored tokens (tokenize.Version 4): a CJK run that
-- touches a word (digits, Latin letters) also gives its edge character alone,
-- so that a keyword crossing the boundary (第45回) is found in a text where the
-- run goes on (…の第45回衆議院…: の第 第 45 回 回衆 …). As for 0007 and 0008,
-- search_tsv holds tokens made by gds itself, which SQL cannot make: after
-- migrating, the store re-tokenises the files whose tokens changed since the
-- version they were made with, and their chunks, in short resumable batches in
-- file_id order. With no pass pending the tokens are version 3's
-- (retokenize_from): only texts with such a run are rewritten. A pass still
-- pending from 0007 or 0008 keeps its start (version 1: accents and stems
-- too); its position is reset to the start ('') so that one pass with the
-- current tokenizer covers every change. The rows are deleted when done.
INSERT INTO gds_meta (key, value)
    SELECT 'retokenize_from', '3' WHERE EXISTS (SELECT 1 FROM drive_file_index)
        AND NOT EXISTS (SELECT 1 FROM gds_meta WHERE key = 'retokenize_backfill')
    ON CONFLICT (key) DO UPDATE SET value = '3';
INSERT INTO gds_meta (key, value)
    SELECT 'retokenize_backfill', '' WHERE EXISTS (SELECT 1 FROM drive_file_index)
    ON CONFLICT (key) DO UPDATE SET value = '';
