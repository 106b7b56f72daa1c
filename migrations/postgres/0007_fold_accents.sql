-- Accent folding in the shared tokenizer (tokenize.Version 2, issue 15
-- item 6): Temür and Temur, Straße and strasse are the same search token.
-- search_tsv holds tokens made by gds itself, which SQL cannot make: after
-- migrating, the store re-tokenises the name, keywords, summary and text
-- (rebuilt from the chunks) of every file holding a character the folding
-- changes, and those files' chunks, in short resumable batches in file_id
-- order. The position reached is kept here (the last file_id done; '' =
-- from the start); the row is deleted when the re-tokenising is done.
INSERT INTO gds_meta (key, value)
    SELECT 'retokenize_backfill', '' WHERE EXISTS (SELECT 1 FROM drive_file_index)
    ON CONFLICT (key) DO UPDATE SET value = '';
