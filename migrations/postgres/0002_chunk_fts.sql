-- Full text over chunks (question answering) and paged reads of every chunk.
--
-- search_tsv holds the tokens (package tokenize) of the chunk's text with
-- positions, built by gds. Adding a nullable column rewrites nothing; chunks
-- stored before this version keep NULL until gds fills them: after
-- migrating, the store tokenises them in short batches, in (file_id COLLATE
-- "C", ordinal) order, and keeps the position reached in gds_meta (JSON
-- [file_id, ordinal]; '' = from the start) so an interrupted backfill
-- resumes. The row is deleted when the backfill is done.
ALTER TABLE drive_file_chunks ADD COLUMN IF NOT EXISTS search_tsv TSVECTOR;

CREATE INDEX IF NOT EXISTS drive_file_chunks_search_tsv_gin ON drive_file_chunks USING gin (search_tsv);

-- Keyset paging in byte order of file IDs whatever the database collation.
CREATE INDEX IF NOT EXISTS drive_file_chunks_scan_idx ON drive_file_chunks ((file_id COLLATE "C"), ordinal);

INSERT INTO gds_meta (key, value)
    SELECT 'chunk_fts_backfill', '' WHERE EXISTS (SELECT 1 FROM drive_file_chunks)
    ON CONFLICT (key) DO NOTHING;
