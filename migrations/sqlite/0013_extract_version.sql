-- The version of the text extraction that read each file (issue 31): a
-- crawl with a newer extractor reads the file again even though it has not
-- changed. 0 is "read before versions were recorded", older than every
-- version. A source's sync state records the version of the last crawl
-- that listed it and re-read what was older, so a crawl with a newer
-- extractor lists the source instead of reading the changes feed.
ALTER TABLE drive_file_index ADD COLUMN extract_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE drive_sync_state ADD COLUMN extract_version INTEGER NOT NULL DEFAULT 0;
