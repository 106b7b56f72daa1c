// Package ocr gives scans and photos their text: a file without text of
// its own — an image (PNG, JPEG, TIFF, WebP, GIF, BMP) or a PDF whose
// pages are pictures — is read by an OCR engine, page by page.
//
// Extractor stands in front of the extractor gds uses (an isolate.Pool):
// other files pass through unread; an image, or a PDF the extractor finds
// no text in, is read by Reader (Tesseract: the tesseract command with
// Japanese and English data) after Renderer (Poppler: pdftoppm at 200 dpi)
// has drawn a PDF's pages. The Doc it returns names the engine
// (extract.Doc.OCR), which the crawl stores with the file, so results can
// say the text came from OCR. What was read is kept in Cache (DirCache, in
// the gds home) under the file's content hash and the engine: a re-crawl
// of an unchanged file reads no image; each rendered page of a PDF is also
// kept under its image's hash, so a scan changed in part, or whose reading
// was interrupted, costs only the pages not read before. Without an engine a scan is refused
// with ErrScanned (it matches extract.ErrUnsupported), whose text, in the
// user's language, says to install tesseract or use a model; the crawl
// indexes the file by name only with it.
//
// The tools run as limited child processes, like package isolate's
// workers (run, child.go): their own process group, an environment with
// nothing of the user's but PATH, HOME and TESSDATA_PREFIX, one OpenMP
// thread, RLIMIT_CPU and RLIMIT_AS set by a shell that then execs the
// tool, the wall time enforced by the parent (the group is killed), and
// stdout capped. A breach matches extract.ErrTooComplex, as a parser's
// does, and names the limit.
package ocr
