-- gds index schema for Postgres + pgvector, version 1.
--
-- drive_file_index and drive_sync_state keep exactly the seed's names, columns
-- and types; gds's own columns follow the seed's. The embedding columns are
-- dimension-free because models differ; the HNSW cosine indexes are created
-- per recorded dimension as expression indexes, ((embedding::vector(D))
-- vector_cosine_ops), when the store first records the embedding space.

CREATE TABLE IF NOT EXISTS drive_file_index (
    file_id           TEXT PRIMARY KEY,
    file_name         TEXT NOT NULL,
    summary           TEXT NOT NULL,
    keywords          TEXT[],
    embedding         VECTOR NOT NULL,
    drive_modified_at TIMESTAMPTZ NOT NULL,
    mime_type         TEXT NOT NULL,
    -- gds beyond the seed
    web_link          TEXT NOT NULL DEFAULT '',
    parents           TEXT[],
    path              TEXT NOT NULL DEFAULT '',
    size              BIGINT NOT NULL DEFAULT 0,
    content_hash      TEXT NOT NULL DEFAULT '',
    source            TEXT NOT NULL DEFAULT '',
    provider          TEXT NOT NULL DEFAULT '',
    indexed_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- search tokens (package tokenize) of name, keywords, summary and text,
    -- with positions and weights, built by gds
    search_tsv        TSVECTOR NOT NULL DEFAULT ''::tsvector
);

CREATE INDEX IF NOT EXISTS drive_file_index_search_tsv_gin ON drive_file_index USING gin (search_tsv);
CREATE INDEX IF NOT EXISTS drive_file_index_modified_idx ON drive_file_index (drive_modified_at);
CREATE INDEX IF NOT EXISTS drive_file_index_mime_idx ON drive_file_index (mime_type);

CREATE TABLE IF NOT EXISTS drive_sync_state (
    id                TEXT PRIMARY KEY,
    drive_modified_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE IF NOT EXISTS drive_file_chunks (
    file_id   TEXT NOT NULL REFERENCES drive_file_index (file_id) ON DELETE CASCADE,
    ordinal   INTEGER NOT NULL,
    page      INTEGER NOT NULL DEFAULT 0,
    content   TEXT NOT NULL,
    embedding VECTOR NOT NULL,
    PRIMARY KEY (file_id, ordinal)
);

-- Key/value settings of the index: embedding model and dimension, crawl
-- fingerprint, sync time.
CREATE TABLE IF NOT EXISTS gds_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
