// Package crawl builds and refreshes the index: it lists a source
// (Google Drive or a local folder), extracts text, asks the AI provider for a
// summary and keywords, embeds them, and upserts files and chunks. The sync
// checkpoint only ever advances over files that were committed, so a crash
// or kill at any point never makes the next run skip a file.
//
// # How a crawl flows
//
// `gds crawl` → app.Deps.Crawl resolves the sources (app.CrawlTargets: the
// --source specs, else GDS_SOURCES, or the legacy GDS_SOURCE), takes the
// crawl lock once, and runs Run for each source in turn with Options.Key =
// the source's key; a failing source does not stop the next, and the report
// holds one SourceResult per source.
//
// Run reads the sync state of its key and picks a mode (chooseMode, pure;
// Summary.Mode):
//
//   - full — the first crawl of a source, a changed crawl-target fingerprint
//     (source, folder IDs, root path) or --full: every listed file is read
//     (files whose text hash is unchanged still cost no AI call). --full also
//     resets an index built with a different embedding model.
//   - feed — an incremental crawl of a ChangeSource (Google Drive) with a
//     stored page token: changes.list from the token. drivesource places each
//     changed file by its ancestry (parents resolved up to a target folder or
//     a drive root, each folder fetched once per crawl): inside the targets →
//     index it at its path (moved in with any modification time, moved
//     between target folders = one entry, renamed); deleted, trashed, no
//     longer visible or of a refused type → remove; outside → remove unless
//     it was reached through a shortcut. A folder created, moved or renamed,
//     or a token Drive refuses, ends the feed with ErrRescan: the crawl
//     reconciles instead and says why (Summary.Notice).
//   - reconcile — any other incremental crawl (a local folder; Drive without
//     a token): the listing is streamed and compared, 256 at a time, with the
//     indexed records (modified time, size, type → changed; name, path,
//     parents, link → moved); only new, changed and moved files are read,
//     and the unchanged ones an older text extraction read (the record's
//     ExtractVersion below extract.Version: Summary.Reextracted). A feed
//     crawl whose sync state has an older ExtractVersion reconciles instead,
//     since the feed names only changed files.
//     Memory grows with the changes plus 8 bytes per listed ID, not with the
//     listing (incremental.go: compareEntry, decideChange).
//
// For each file to read (Options.Concurrency in parallel): extract the text
// (in an isolate worker) → when the text hash is unchanged, rewrite only the
// listing metadata (UpdateFileMeta) unless the file was renamed (the name is
// part of the file's embedding) → ai.Summarize → embed "summary + keywords +
// name" and the 1000/200-character chunks → UpsertFile (file and chunks
// atomically, File.Source = the source key). A file whose text cannot be
// extracted (unsupported, malformed, too large, no text) becomes a name-only
// entry (IndexNameOnly: File.SkipReason, no embedding or chunks; its content
// hash covers name, path, type, date, size and reason, so an unchanged one
// is not rewritten). Before that, a listing claims the files an older index
// recorded under the bare kind (local, drive) for the key (ClaimFiles), so
// they move without re-indexing. The embedding model and dimension are
// recorded once; mixing is refused (store.ErrEmbeddingMismatch, exit 5).
//
// The checkpoint (SyncState.ModifiedAt) advances only over committed files,
// never back. The page token is committed once, at the end, with the sync
// state, after every file it covers and the removals: a state written
// mid-run carries the old token in feed mode (a crash replays the changes,
// which is idempotent) and none while listing. A failed file keeps the old
// token, so the next crawl reads its change again.
//
// Failed files: a file whose download, export or reading failed (after the
// Drive client's retries), or that the model or the store refused, is
// recorded in the index with its apperr kind and a bounded message
// (store.Failures, failures.go; not a searchable record), so the coverage
// check names it "failed" with its reason. It is tried again by the next
// crawl (it is not in the index, or its record there is older than the
// listing, and a failed crawl keeps the old page token); a crawl that
// indexes or skips it, or no longer lists it, clears the record. A file
// the crawl's interruption stopped is not recorded.
//
// Removals: the feed's removed files (DeleteFiles), or, after a complete
// full or reconciling listing, the source's indexed files it did not hold
// (SourceIDs(key) − listed; another source's files are never touched). A
// listed file that failed stays; an empty listing removes nothing
// (Summary.KeptUnlisted).
//
// When a crawl changed any file, app.Deps.Crawl merges the SQLite store's
// full-text index into one segment if it holds more than 4 (OptimizeText):
// every Alfred keystroke, a new process, would otherwise seek each term in
// each segment.
package crawl
