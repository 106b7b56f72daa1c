-- gds embedded index (SQLite), schema version 1.
-- Times are UTC text in a fixed-width RFC 3339 form with nanoseconds
-- (2006-01-02T15:04:05.000000000Z), so text order is time order.

-- The seed's drive_file_index plus gds's extra columns. doc_id links a file
-- to its full-text row and stays stable for the life of the row.
CREATE TABLE drive_file_index (
    file_id           TEXT PRIMARY KEY,
    file_name         TEXT NOT NULL,
    summary           TEXT NOT NULL,
    keywords          TEXT NOT NULL DEFAULT '[]',  -- JSON array of strings
    embedding         BLOB NOT NULL,               -- little-endian float32
    drive_modified_at TEXT NOT NULL,
    mime_type         TEXT NOT NULL,
    doc_id            INTEGER NOT NULL UNIQUE,
    web_link          TEXT NOT NULL DEFAULT '',
    parents           TEXT NOT NULL DEFAULT '[]',  -- JSON array of folder IDs
    path              TEXT NOT NULL DEFAULT '',
    size              INTEGER NOT NULL DEFAULT 0,
    content_hash      TEXT NOT NULL DEFAULT '',
    source            TEXT NOT NULL DEFAULT '',
    provider          TEXT NOT NULL DEFAULT '',
    indexed_at        TEXT NOT NULL
);
CREATE INDEX drive_file_index_modified ON drive_file_index (drive_modified_at);
CREATE INDEX drive_file_index_mime ON drive_file_index (mime_type);

-- The crawl checkpoint: one row, id = 'global'.
CREATE TABLE drive_sync_state (
    id                TEXT PRIMARY KEY,
    drive_modified_at TEXT NOT NULL,
    fingerprint       TEXT NOT NULL DEFAULT '',
    updated_at        TEXT NOT NULL
);

-- Chunks of a file's text (question answering).
CREATE TABLE drive_file_chunk (
    file_id   TEXT NOT NULL,
    ordinal   INTEGER NOT NULL,
    page      INTEGER NOT NULL DEFAULT 0,
    text      TEXT NOT NULL,
    embedding BLOB NOT NULL,
    PRIMARY KEY (file_id, ordinal)
) WITHOUT ROWID;

-- Key/value settings: embedding_model, embedding_dim, generation (bumped by
-- every write so readers can validate caches).
CREATE TABLE gds_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- Full text over tokenize.Join(...) of each column; rowid = doc_id.
-- Contentless: the text lives only in the index.
CREATE VIRTUAL TABLE drive_file_fts USING fts5(
    name, keywords, summary, body,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 0 categories ''L* N* Co M*'''
);
