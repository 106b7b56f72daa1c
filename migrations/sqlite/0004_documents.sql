-- Uploaded documents (gds serve): title, tags and the stored file's name
-- of an indexed file. A row lives as long as its file in drive_file_index
-- (the store deletes both). Times as in 0001.
CREATE TABLE IF NOT EXISTS gds_document (
    file_id     TEXT PRIMARY KEY,
    title       TEXT NOT NULL DEFAULT '',
    tags        TEXT NOT NULL DEFAULT '[]',  -- JSON array of strings
    stored_name TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS drive_file_index_indexed ON drive_file_index (indexed_at, file_id);
