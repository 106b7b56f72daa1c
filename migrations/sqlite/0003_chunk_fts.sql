-- Full text over chunks (question answering): tokenize.Join of each chunk's
-- text; rowid = doc_id * 2^24 + ordinal of drive_file_index.doc_id and
-- drive_file_chunk.ordinal (store.MaxChunkOrdinal is 2^24 - 1). Contentless,
-- like drive_file_fts.
CREATE VIRTUAL TABLE IF NOT EXISTS drive_chunk_fts USING fts5(
    body,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 0 categories ''L* N* Co M*'''
);

-- Chunks stored before this version are tokenised by gds itself (SQL cannot
-- run the Go tokenizer): after migrating, a read-write open indexes them in
-- short batches, in (file_id, ordinal) order, and keeps the position reached
-- here (JSON [file_id, ordinal]; '' = from the start) so an interrupted
-- backfill resumes. The row is deleted when the backfill is done.
INSERT OR IGNORE INTO gds_meta (key, value)
    SELECT 'chunk_fts_backfill', '' WHERE EXISTS (SELECT 1 FROM drive_file_chunk);

