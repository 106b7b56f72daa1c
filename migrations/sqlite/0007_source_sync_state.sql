-- Sources side by side (issue 16): every source has its own checkpoint,
-- keyed by its source key (config.CrawlSource.Key(): "drive",
-- "drive:FOLDER_ID", "local:/abs/path"), with the Drive changes-feed page
-- token. The old single row (id 'global') becomes the checkpoint of the
-- bare kind its fingerprint names ("drive" when none); files keep their
-- "drive"/"local" source values, which are the same legacy keys. "drive" is
-- also the key of the Drive source of GOOGLE_DRIVE_TARGET_FOLDER_IDS, so a
-- Drive index goes on incrementally; legacy "local" files are re-claimed by
-- ID by the first crawl of a configured local folder.
ALTER TABLE drive_sync_state ADD COLUMN page_token TEXT NOT NULL DEFAULT '';
UPDATE drive_sync_state
   SET id = CASE WHEN fingerprint LIKE 'local:%' THEN 'local' ELSE 'drive' END
 WHERE id = 'global';
-- Pruning within a source lists its files.
CREATE INDEX drive_file_index_source ON drive_file_index (source, file_id);
