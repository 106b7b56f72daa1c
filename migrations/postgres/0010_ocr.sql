-- Text read by OCR (issue 35 item 2): the engine that read a file's text
-- from its images (a scan, a photo), so results can say so; '' when the
-- text was extracted from the file itself.
ALTER TABLE drive_file_index ADD COLUMN IF NOT EXISTS ocr TEXT NOT NULL DEFAULT '';
