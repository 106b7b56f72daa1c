-- Covering indexes for filters: keyword search reads (doc_id, file_id) of the
-- files in a period or of some MIME types from the index alone.
DROP INDEX drive_file_index_modified;
DROP INDEX drive_file_index_mime;
CREATE INDEX drive_file_index_modified ON drive_file_index (drive_modified_at, mime_type, doc_id, file_id);
CREATE INDEX drive_file_index_mime ON drive_file_index (mime_type, drive_modified_at, doc_id, file_id);
