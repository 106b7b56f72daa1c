-- Name-only entries (issue 15 item 5): a file whose content cannot be
-- extracted is indexed by name, type and dates with the reason its content
-- was skipped. The seed's embedding column stays NOT NULL: such a file
-- stores a zero vector, and vector search leaves out every file with a skip
-- reason.
ALTER TABLE drive_file_index ADD COLUMN IF NOT EXISTS skip_reason TEXT NOT NULL DEFAULT '';
