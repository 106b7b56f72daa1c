-- GraphRAG (gds graph build / query, internal/graph). Extractions and
-- reports are the units a build commits one at a time (a killed build
-- resumes); entities, relationships and communities are replaced at once
-- at the end of each build. Lists are JSON arrays of strings, embeddings
-- little-endian float32, times as in 0001.
CREATE TABLE IF NOT EXISTS gds_graph_extraction (
    chunk_id  TEXT PRIMARY KEY,   -- file_id#ordinal
    file_id   TEXT NOT NULL,
    ordinal   INTEGER NOT NULL,
    text_hash TEXT NOT NULL,
    data      BLOB NOT NULL       -- JSON
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS gds_graph_entity (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    type        TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    chunk_ids   TEXT NOT NULL DEFAULT '[]',
    degree      INTEGER NOT NULL DEFAULT 0,
    embedding   BLOB
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS gds_graph_relationship (
    id          TEXT PRIMARY KEY,
    source      TEXT NOT NULL,
    target      TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    weight      REAL NOT NULL DEFAULT 0,
    chunk_ids   TEXT NOT NULL DEFAULT '[]'
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS gds_graph_community (
    id               TEXT PRIMARY KEY,
    level            INTEGER NOT NULL,
    parent           TEXT NOT NULL DEFAULT '',
    entity_ids       TEXT NOT NULL DEFAULT '[]',
    relationship_ids TEXT NOT NULL DEFAULT '[]',
    weight           INTEGER NOT NULL DEFAULT 0,
    signature        TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS gds_graph_report (
    signature TEXT PRIMARY KEY,
    data      BLOB NOT NULL       -- JSON
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS gds_graph_meta (
    id       TEXT PRIMARY KEY CHECK (id = 'graph'),
    built_at TEXT NOT NULL,
    provider TEXT NOT NULL DEFAULT '',
    folder   TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
