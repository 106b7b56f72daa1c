-- Sources side by side (issue 16): every source has its own checkpoint,
-- keyed by its source key (config.CrawlSource.Key(): "drive",
-- "drive:FOLDER_ID", "local:/abs/path"). drive_sync_state keeps exactly the
-- seed's two columns, one row per source (id = the source key); the rest of
-- a source's state (fingerprint, Drive changes-feed page token, the time
-- the crawl committed), which so far lived in gds_meta (sync_fingerprint,
-- sync_updated_at) for the one row, goes to gds_sync_state.
--
-- The old row (id 'global') becomes the checkpoint of the bare kind its
-- fingerprint names ("drive" when none); files keep their "drive"/"local"
-- source values, which are the same legacy keys. "drive" is also the key of
-- the Drive source of GOOGLE_DRIVE_TARGET_FOLDER_IDS, so a Drive index goes
-- on incrementally; legacy "local" files are re-claimed by ID by the first
-- crawl of a configured local folder.
CREATE TABLE IF NOT EXISTS gds_sync_state (
    source      TEXT PRIMARY KEY REFERENCES drive_sync_state (id) ON DELETE CASCADE ON UPDATE CASCADE,
    fingerprint TEXT NOT NULL DEFAULT '',
    page_token  TEXT NOT NULL DEFAULT '',
    updated_at  TIMESTAMPTZ NOT NULL
);
INSERT INTO gds_sync_state (source, fingerprint, updated_at)
SELECT id,
       COALESCE((SELECT value FROM gds_meta WHERE key = 'sync_fingerprint'), ''),
       COALESCE((SELECT value::timestamptz FROM gds_meta WHERE key = 'sync_updated_at'), now())
  FROM drive_sync_state WHERE id = 'global'
ON CONFLICT (source) DO NOTHING;
UPDATE drive_sync_state
   SET id = CASE WHEN (SELECT fingerprint FROM gds_sync_state WHERE source = 'global') LIKE 'local:%' THEN 'local' ELSE 'drive' END
 WHERE id = 'global';
DELETE FROM gds_meta WHERE key IN ('sync_fingerprint', 'sync_updated_at');
-- Pruning within a source lists its files.
CREATE INDEX IF NOT EXISTS drive_file_index_source_idx ON drive_file_index (source, file_id COLLATE "C");
