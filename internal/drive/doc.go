// Package drive reads Google Drive for gds through the official
// google.golang.org/api/drive/v3 client: a typed builder for Drive's `q`
// search language (Query; every value escaped), a retry policy for every
// call (RetryPolicy: rate limits, 5xx, dropped and truncated transfers,
// full-jitter backoff, Retry-After), and a Client that resolves target
// folders, walks them, searches, exports and downloads. It knows nothing of
// the crawl: package crawl/drivesource adapts the Client to crawl.Source.
//
// Decisions:
//
//   - Target folders are resolved first (files.get with supportsAllDrives);
//     a missing, invisible, trashed, forbidden or non-folder ID is a
//     *FolderError, so a crawl can stop before any file is listed.
//   - The walk is breadth-first and lists up to Options.BatchFolders folders
//     per files.list query (`'a' in parents or 'b' in parents ...`, q kept
//     under Options.MaxQueryLen), pageSize 100, minimal fields,
//     corpora=allDrives with includeItemsFromAllDrives and supportsAllDrives,
//     `trashed = false`. A tree of F folders costs about F/30 queries plus
//     one per extra page of 100 items.
//   - Incremental listing adds `modifiedTime > since` (milliseconds kept) but
//     still lists every folder and shortcut: a folder's modifiedTime does not
//     change when a descendant does, and a shortcut's target may change
//     without the shortcut.
//   - Shortcuts to files are followed: the target is fetched and reported
//     once, under its own ID, at the shortcut's folder path. Shortcuts to
//     folders are skipped: they can lead outside the targets or into
//     cycles; add the folder as a target instead.
//   - A listing answered with incompleteSearch=true is retried and then
//     fails the walk (ErrIncompleteSearch) rather than let the checkpoint
//     pass files that were never seen.
//   - Refused names the types that can never be indexed (images, video,
//     audio, fonts, archives, executables, Google Forms/Drawings/...);
//     ExportMimeType the text format of Google Docs and Slides (text/plain)
//     and Sheets (text/csv).
//   - Export and Download read the whole content (bounded) inside the
//     retry loop and check its length, so a damaged transfer is retried
//     rather than indexed; Download also checks the MD5 checksum from the
//     listing, and content that changed since the listing fails the file
//     (ErrChanged) so the next crawl takes it with its new metadata.
package drive
