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
//     at list time without a request and counted in drive.WalkStats.Refused.
//   - Google Docs and Slides are exported as text/plain and Sheets as
//     text/csv; the Entry keeps the native MIME type, which package extract
//     maps. Files over the size limit, exports over Drive's 10 MB limit and
//     files Drive refuses to serve are skipped at Open (crawl.ErrSkip) with
//     a reason; a sign-in failure stops the crawl (crawl.Stop).
//   - Open reads the whole content (bounded) before it returns, so a
//     damaged transfer is retried by the client rather than indexed.
package drivesource
