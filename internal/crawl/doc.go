// Package crawl builds and refreshes the index (seed §5.3): it lists a source
// (Google Drive or a local folder), extracts text, asks the AI provider for a
// summary and keywords, embeds them, and upserts files and chunks. The sync
// checkpoint only ever advances over files that were committed, so a crash
// or kill at any point never makes the next run skip a file.
package crawl
