-- English stemming in the shared tokenizer (tokenize.Version 3): "running"
-- and "runs" are one search token "run" (Porter2), so a question's "died"
-- finds a text's "dies". As for 0008, the full-text rows
-- hold tokens made by gds itself, which SQL cannot make: after migrating, a
-- read-write open re-tokenises the name, keywords, summary and text
-- (rebuilt from the chunks) of every file holding an accented letter or a
-- word the stemmer changes (tokenize.Retokenizes), and those chunks, in
-- short resumable batches in file_id order. The position is reset to the
-- start ('') even when 0008's pass is still under way: one pass with the
-- current tokenizer covers both changes. The row is deleted when done.
INSERT OR REPLACE INTO gds_meta (key, value)
    SELECT 'retokenize_backfill', '' WHERE EXISTS (SELECT 1 FROM drive_file_index);
