-- Name-only entries (issue 15 item 5): a file whose content cannot be
-- extracted is indexed by name, type and dates with an empty embedding and
-- the reason its content was skipped.
ALTER TABLE drive_file_index ADD COLUMN skip_reason TEXT NOT NULL DEFAULT '';
