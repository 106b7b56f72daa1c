-- A read-only view of every token instance of the file full-text index
-- (term, doc, col, offset), FTS5's own "instance" vocabulary table: the
-- keystroke server reads it to hold the index in memory (sqlite.Resident).
-- It stores nothing; creating it writes only its definition. It is made
-- here because a read-only connection cannot create one.
CREATE VIRTUAL TABLE IF NOT EXISTS drive_file_fts_instance USING fts5vocab(drive_file_fts, instance);
