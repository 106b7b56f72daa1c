-- Coverage you can check (issue 35 item 4): the files a crawl listed but
-- could not index (a download that kept failing, a read error, a model
-- refusal), per source, with the failure's kind and a bounded message, so
-- the coverage check says "failed (reason)" instead of "not crawled yet".
-- Not searchable: no file record, text or vector is written for them.
CREATE TABLE gds_crawl_failure (
    source      TEXT NOT NULL,
    file_id     TEXT NOT NULL,
    file_name   TEXT NOT NULL,
    path        TEXT NOT NULL DEFAULT '',
    mime_type   TEXT NOT NULL DEFAULT '',
    modified_at TEXT NOT NULL,
    kind        TEXT NOT NULL,
    message     TEXT NOT NULL DEFAULT '',
    failed_at   TEXT NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (source, file_id)
) WITHOUT ROWID;
