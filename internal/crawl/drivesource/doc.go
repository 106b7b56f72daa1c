// Package drivesource is the Google Drive crawl source: it adapts a
// drive.Client to crawl.Source, so that package drive (the API client)
// does not depend on the crawl, and the crawl does not depend on Drive.
//
// Decisions:
//
//   - The target folders are resolved before anything is listed; a bad one
//     (*drive.FolderError) stops the crawl before any file is touched.
//   - Files that can never be indexed (drive.Refused: images, video, audio,
//     fonts, archives, executables, Google Forms/Drawings/...) are dropped
//     at list time without a request and counted in drive.WalkStats.Refused;
//     but for the images OCR reads (drive.ScanImage) when the crawl reads
//     images (Source.SetReadImages), which are downloaded like any file.
//   - Google Docs and Slides are exported as text/plain and Sheets as
//     text/csv; the Entry keeps the native MIME type, which package extract
//     maps. Files over the size limit, exports over Drive's 10 MB limit and
//     files Drive refuses to serve are skipped at Open (crawl.ErrSkip) with
//     a reason; a sign-in failure stops the crawl (crawl.Stop).
//   - Open reads the whole content (bounded) before it returns, so a
//     damaged transfer is retried by the client rather than indexed.
//   - Incremental crawls read the changes feed (crawl.ChangeSource:
//     StartToken before a full listing, Changes from the stored token).
//     Each changed file is placed by its ancestry, its parent folders
//     fetched once per crawl (files.get) up to a target folder or a drive
//     root; a folder created, moved or renamed, or a refused token, asks
//     the crawl to list instead (crawl.ErrRescan). A file deleted since it
//     was listed is skipped without a record (crawl.ErrGone); other skips
//     are recorded by name only, so a listing does not try them again.
package drivesource
