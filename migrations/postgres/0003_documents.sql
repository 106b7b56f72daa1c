-- Uploaded documents (gds serve): title, tags and the stored file's name
-- of an indexed file. A row lives as long as its file in drive_file_index
-- (the store deletes both).
CREATE TABLE IF NOT EXISTS gds_document (
    file_id     TEXT PRIMARY KEY,
    title       TEXT NOT NULL DEFAULT '',
    tags        TEXT[] NOT NULL DEFAULT '{}',
    stored_name TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);

CREATE INDEX IF NOT EXISTS gds_document_tags_gin ON gds_document USING gin (tags);
CREATE INDEX IF NOT EXISTS drive_file_index_indexed_idx ON drive_file_index (indexed_at, file_id);
