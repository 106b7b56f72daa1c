// Package store defines the index records gds keeps for every crawled file and
// the contract that both index back ends (the embedded SQLite store and
// Postgres + pgvector) satisfy. Consumers (crawl, search) declare the narrow
// interfaces they need; Store is the full contract the back ends implement and
// the contract test suite (storetest) checks. RetrieveChunks (hybrid chunk
// retrieval for question answering) and its fusion rule (Fuse) are
// written once here, over the ChunkRetriever part of the contract.
//
// The contract covers upserting files with their chunks; keyword and vector
// search over files; KeywordFacets (a keyword query's matches counted by
// folder, MIME type and month in one grouped query, for the clarifying
// question); vector and full-text search over chunks, a file's chunks in
// order and a keyset-paged scan of every chunk; a sync state per source key
// (SyncState, SetSyncState, SyncStates, with the Drive changes-feed page
// token) and the files of one source (SourceIDs, ClaimFiles,
// Filter.Sources); statistics; and GraphStore, the graph records both back
// ends keep (per-chunk extractions, reports by community signature, the
// merged graph replaced at once); and Failures, the files a crawl of a
// source could not index, with their reason (never search hits). Name-only entries (File.SkipReason) have
// no embedding and are never vector hits.
//
// RetrieveChunks fuses the chunk rankings by weighted, normalised reciprocal
// rank fusion (Fuse: full text 8 : vector 1, k 10, chosen by context
// recall@5 on the benchmark's dev splits). Back ends: store/sqlite
// (embedded, pure Go, FTS5), store/postgres (pgx + pgvector, HNSW,
// tsvector), and store/storetest, the one contract suite both run. Schemas
// live in migrations/, read and validated by one loader for the stores and
// gds doctor; after a migration that changes the search tokens, the stores
// re-tokenise the stored texts that change, in resumable batches, by one
// pass written here (Retokenize over a back end's Retokenizer; JoinChunkTexts
// rebuilds a file's text from its chunks).
package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
)

// Sentinel errors shared by every back end. Match them with errors.Is.
var (
	// ErrNotFound is returned when a requested file is not in the index.
	ErrNotFound = apperr.Mark(errors.New("not found in the index"), apperr.NotFound)
	// ErrEmbeddingMismatch is returned when embeddings of another model or
	// dimension would be mixed with the ones already stored. The wrapping
	// error tells the user to re-crawl with --full.
	ErrEmbeddingMismatch = apperr.Mark(errors.New("embedding model mismatch"), apperr.Index)
	// ErrSchemaOld is returned by a read-only open of an index an older gds
	// made: it needs the migrations a read-write open applies.
	ErrSchemaOld = apperr.Mark(errors.New("index schema is older than this gds"), apperr.Index)
	// ErrSchemaTooNew is returned when the database was migrated by a newer gds.
	ErrSchemaTooNew = apperr.Mark(errors.New("index schema is newer than this gds"), apperr.Index)
)

// Backfill reports a store's data pass after a migration — re-tokenising
// the stored text of an index made by an older tokenizer — as it goes:
// Done of Total files examined; the last report has Done == Total. A
// back end calls its hook (sqlite.Options.Backfill,
// postgres.WithBackfill) only when such a pass runs.
type Backfill struct {
	Done, Total int
}

// BackfillProgress returns what a store's data pass calls after each batch
// with the files it examined there (last: whether the pass is over). It
// tells hook the files examined so far of all the files, starting from
// count (done: those up to the pass's stored position, so a resumed pass
// starts where it stopped), read once; it reports once before returning,
// and Done == Total at the end. With a nil hook it counts nothing.
func BackfillProgress(hook func(Backfill), count func() (done, total int, err error)) (func(examined int, last bool), error) {
	if hook == nil {
		return func(int, bool) {}, nil
	}
	done, total, err := count()
	if err != nil {
		return nil, err
	}
	hook(Backfill{Done: done, Total: total})
	return func(examined int, last bool) {
		done = min(done+examined, total)
		if last {
			done = total
		}
		hook(Backfill{Done: done, Total: total})
	}, nil
}

// File is one indexed file: the seed's drive_file_index row plus what gds
// needs beyond it.
type File struct {
	ID          string    // Drive file ID, or a stable ID for a local file
	Name        string    // file name as shown to the user
	Summary     string    // AI summary, at most SUMMARY_MAX_LENGTH characters
	Keywords    []string  // 1–5 AI keywords
	Embedding   []float32 // embedding of summary + keywords + name
	ModifiedAt  time.Time // Drive modifiedTime (drive_modified_at)
	MimeType    string
	WebLink     string   // Drive webViewLink or file:// URL
	Parents     []string // parent folder IDs
	Path        string   // human-readable folder path, "Projects/Alpha"
	Size        int64    // bytes of the original file
	ContentHash string   // hash of the extracted text; unchanged content costs no LLM call
	Source      string   // "drive" or "local"
	Provider    string   // AI provider that produced summary and keywords
	IndexedAt   time.Time
	// SkipReason is set on a name-only entry: a file whose content could
	// not be extracted (an image, an archive, a scanned PDF without text,
	// an unsupported type). It says why; such an entry has no summary,
	// keywords, embedding or chunks and is found by name, type and dates
	// only. "" for a file indexed with its content.
	SkipReason string
	// OCR names the engine that read the file's text from its images (a
	// scan, a photo): "tesseract 5.3.0 jpn+eng", or a model. "" when the
	// text was extracted from the file itself.
	OCR string
	// ExtractVersion is the extract.Version of the text extraction that
	// read the file (0: read before versions were recorded). A crawl reads
	// a file again when it is older than the running one.
	ExtractVersion int
	// Text is the extracted text used by keyword search. It is written by
	// UpsertFile and is not returned by GetFiles.
	Text string
}

// NameOnly reports whether f is a name-only entry (SkipReason set).
func (f File) NameOnly() bool { return f.SkipReason != "" }

// Chunk is a piece of a file's text (1,000 characters, 200 overlap) with its
// own embedding, used for question answering. A chunk is identified by its
// file's ID and its Ordinal.
type Chunk struct {
	Ordinal   int // 0-based position in the file, at most MaxChunkOrdinal
	Page      int // 1-based page number where the format has pages, else 0
	Text      string
	Embedding []float32
}

// MaxChunkOrdinal is the highest chunk ordinal a store accepts (2^24 − 1:
// about 13 billion characters of text in one file). UpsertFile refuses
// chunks outside 0..MaxChunkOrdinal.
const MaxChunkOrdinal = 1<<24 - 1

// CheckOrdinals returns an error naming the first chunk whose ordinal is
// outside 0..MaxChunkOrdinal; every back end's UpsertFile calls it.
func CheckOrdinals(chunks []Chunk) error {
	for _, c := range chunks {
		if c.Ordinal < 0 || c.Ordinal > MaxChunkOrdinal {
			return fmt.Errorf("chunk ordinal %d is outside 0..%d", c.Ordinal, MaxChunkOrdinal)
		}
	}
	return nil
}

// ChunkHit is a chunk found by ChunkSearch, ChunkTextSearch or
// RetrieveChunks. Only ChunkSearch sets Chunk.Embedding.
type ChunkHit struct {
	FileID string
	Chunk
	// Score is higher for better hits: the cosine similarity for
	// ChunkSearch, a full-text relevance comparable only within one result
	// for ChunkTextSearch, the fused 0–1 score for RetrieveChunks.
	Score float64
}

// FileChunk is a chunk with the ID of its file, as ScanChunks returns it
// (Embedding is not set).
type FileChunk struct {
	FileID string
	Chunk
}

// Cursor is the position of c in the scan order (file ID by bytes, then
// ordinal).
func (c FileChunk) Cursor() ChunkCursor { return ChunkCursor{FileID: c.FileID, Ordinal: c.Ordinal} }

// ChunkCursor is a position in the scan order of every chunk: file ID
// compared by bytes, then ordinal. A scan continues after it. The zero value
// is before the first chunk. It is plain data: keep it to resume a scan in
// another process.
type ChunkCursor struct {
	FileID  string
	Ordinal int
}

// DefaultChunkPage is the number of chunks FileChunks and ScanChunks return
// when no limit is given.
const DefaultChunkPage = 500

// ChunkScan selects one page of ScanChunks.
type ChunkScan struct {
	After ChunkCursor // continue after this position; zero: from the start
	Limit int         // chunks in the page; <= 0 means DefaultChunkPage
	// IndexedSince keeps the chunks of files (re)indexed at or after this
	// time (File.IndexedAt: a file's chunks are rewritten whenever it is);
	// zero keeps all.
	IndexedSince time.Time
	// Filter keeps the chunks of the files passing it (IDs, folder, …).
	Filter Filter
}

// ChunkPage is one page of ScanChunks.
type ChunkPage struct {
	Chunks []FileChunk // in scan order
	// Next is the cursor to pass as ChunkScan.After for the following page
	// (the position of the last chunk; After itself when the page is empty).
	Next ChunkCursor
	// Done reports that no chunk passing the scan follows Next at the time
	// of the read.
	Done bool
}

// Filter restricts a search. Zero values mean "no restriction".
type Filter struct {
	ModifiedAfter  time.Time // inclusive lower bound on ModifiedAt
	ModifiedBefore time.Time // exclusive upper bound on ModifiedAt
	MimeTypes      []string  // any of these MIME types
	IDs            []string  // only these file IDs (nil: all; empty non-nil: none)
	// Folder keeps the files whose Path is this folder or below it
	// ("Reports" matches "Reports" and "Reports/2024", not "Reports-old").
	// Compared after CleanFolder; "" means every folder.
	Folder string
	// Sources keeps the files of these sources (File.Source, a source key
	// such as "local:/abs/path"); an entry that is a bare kind ("drive")
	// also keeps every source of that kind ("drive:FOLDER_ID"). nil or
	// empty: every source. Sources alone does not make a query without
	// terms a filter-only listing.
	Sources []string
}

// FilterOnly reports whether a query without usable terms still selects
// files by f: a period, MIME-type or folder restriction (IDs and Sources
// only narrow a search).
func (f Filter) FilterOnly() bool {
	return !f.ModifiedAfter.IsZero() || !f.ModifiedBefore.IsZero() || len(f.MimeTypes) > 0 ||
		CleanFolder(f.Folder) != ""
}

// ChunkID names a chunk, in the graph records and the API: its file's ID
// and its ordinal, "fileID#ordinal".
func ChunkID(fileID string, ordinal int) string { return fileID + "#" + strconv.Itoa(ordinal) }

// EmbeddingMismatch is the error of a back end holding embeddings of
// space have when want is configured (wrapping ErrEmbeddingMismatch).
func EmbeddingMismatch(have, want EmbeddingSpace) error {
	return fmt.Errorf("%w: the index holds embeddings of %q (%d dimensions) but %q (%d dimensions) is configured; "+
		"re-crawl with `gds crawl --full` to rebuild the index with the new model",
		ErrEmbeddingMismatch, have.Model, have.Dim, want.Model, want.Dim)
}

// InSources reports whether a file of source passes Filter.Sources.
func InSources(source string, sources []string) bool {
	if len(sources) == 0 {
		return true
	}
	for _, s := range sources {
		if source == s || !strings.Contains(s, ":") && strings.HasPrefix(source, s+":") {
			return true
		}
	}
	return false
}

// CleanFolder is the canonical form of a folder path in a Filter: no
// leading or trailing slashes, no empty or "." segments. Names are kept
// exactly (a folder may be named "Reports "), as the index stores them.
func CleanFolder(folder string) string {
	var parts []string
	for _, p := range strings.Split(folder, "/") {
		if p != "" && p != "." {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "/")
}

// InFolder reports whether a file whose Path is path lies in folder (or
// below it); folder "" holds every file. Both are compared cleaned.
func InFolder(path, folder string) bool {
	folder = CleanFolder(folder)
	if folder == "" {
		return true
	}
	path = CleanFolder(path)
	return path == folder || strings.HasPrefix(path, folder+"/")
}

// MatchMode says how the terms of a keyword query combine.
type MatchMode int

const (
	// MatchAll requires every term (Drive's fullText semantics for several words).
	MatchAll MatchMode = iota
	// MatchAny requires at least one term; hits are ranked by relevance.
	MatchAny
)

// KeywordQuery is a full-text query over name, summary, keywords and text.
// Each term matches as a substring-like phrase through package tokenize
// (words for Latin scripts, character bigrams for CJK), so Japanese terms are
// found even where a word tokeniser would split them differently.
type KeywordQuery struct {
	Terms  []string
	Match  MatchMode
	Filter Filter
	Limit  int // maximum hits returned (ranked); <= 0 means a default of 100
	// TopOnly asks for the Limit best hits only, not for how many match:
	// Total may then be len(Hits). A store may use it to stop reading
	// matches and files it would not return (the per-keystroke path sets
	// it); the hits and their order are the same either way.
	TopOnly bool
}

// Hit is one ranked search result.
type Hit struct {
	ID    string
	Score float64 // higher is better; comparable only within one result
}

// KeywordResult holds the ranked hits and the total number of matching files
// (Total may exceed len(Hits)).
type KeywordResult struct {
	Hits  []Hit
	Total int
}

// FacetCount is the number of files matching a keyword query that share
// one folder path, MIME type and month of ModifiedAt ("2006-01", UTC).
type FacetCount struct {
	Path     string // File.Path as stored
	MimeType string
	Month    string
	N        int
}

// SyncState is the crawl checkpoint of one source (a row of
// drive_sync_state, keyed by the source key).
type SyncState struct {
	// Source is the source key, config.CrawlSource.Key(): "drive",
	// "drive:FOLDER_ID", "local:/abs/path". An index written before sources
	// had keys holds its one checkpoint under the bare kind ("drive" or
	// "local"), like its files (see SourceLegacyLocal).
	Source      string
	ModifiedAt  time.Time // max modifiedTime of committed files of this source
	Fingerprint string    // hash of the settings that decide what is crawled
	PageToken   string    // Drive changes-feed page token; "" when none
	UpdatedAt   time.Time // when the crawl committed ("last crawl")
	// ExtractVersion is the extract.Version of the last crawl that read
	// every file of the source older than it (0: none yet): a crawl with
	// a newer one lists the source instead of reading the changes feed.
	ExtractVersion int
}

// SourceKind returns the source kind ("drive" or "local") of the state: the
// part of the source key before ":", else the kind recorded in the
// fingerprint (the crawl writes it first: "drive:…", "local:…"); "" when
// neither says.
func (s SyncState) SourceKind() string {
	if s.Source != "" {
		return SourceKindOf(s.Source)
	}
	kind, _, ok := strings.Cut(s.Fingerprint, ":")
	if !ok {
		return ""
	}
	return kind
}

// SourceKindOf returns the kind of a source key: the part before the first
// ":" and any "@ACCOUNT" ("local:/a" → "local", "drive" → "drive",
// "drive@work:ID" → "drive").
func SourceKindOf(key string) string {
	kind, _, _ := strings.Cut(key, ":")
	kind, _, _ = strings.Cut(kind, "@")
	return kind
}

// SourceAccountOf returns the Google account of a Drive source key ("work"
// for "drive@work" and "drive@work:ID"); "" for the default account
// ("drive", "drive:ID") and for other kinds.
func SourceAccountOf(key string) string {
	head, _, _ := strings.Cut(key, ":")
	_, account, _ := strings.Cut(head, "@")
	return account
}

// DefaultAccountName is the name results and `gds auth status` give the
// default Google account (config.DefaultAccount).
const DefaultAccountName = "default"

// DriveAccount names the Google account of a file's source: "default" or
// the account's name for a Drive source key, "" for any other source
// (local folders, uploads).
func DriveAccount(source string) string {
	if SourceKindOf(source) != "drive" {
		return ""
	}
	if a := SourceAccountOf(source); a != "" {
		return a
	}
	return DefaultAccountName
}

// Legacy source keys. An index written before sources had keys recorded
// every file's source as its bare kind, "drive" or "local", and its one
// checkpoint under the same kind (migration 0007 / postgres 0006). "drive"
// is also the key of the Drive source crawling GOOGLE_DRIVE_TARGET_FOLDER_IDS,
// so such an index goes on incrementally; a local folder's path cannot be
// recovered, so files under SourceLegacyLocal are re-claimed by ID by the
// first crawl of a configured local source (UpsertFile rewrites Source)
// and stay searchable until then.
const SourceLegacyLocal = "local"

// AnyKind reports whether any state is of a source of this kind
// (SyncState.SourceKind).
func AnyKind(states []SyncState, kind string) bool {
	for _, s := range states {
		if s.SourceKind() == kind {
			return true
		}
	}
	return false
}

// LatestSync returns the state committed last (by UpdatedAt; ties by
// Source), the zero value for none.
func LatestSync(states []SyncState) SyncState {
	var out SyncState
	for _, s := range states {
		if out.Source == "" || s.UpdatedAt.After(out.UpdatedAt) {
			out = s
		}
	}
	return out
}

// EmbeddingSpace names the embedding model and dimension an index holds.
type EmbeddingSpace struct {
	Model string
	Dim   int
}

// Stats summarises the index for `gds doctor` and `gds db status`.
type Stats struct {
	Backend       string // "sqlite" or "postgres"
	Location      string // file path or URL with the password masked
	SchemaVersion int
	Files         int
	Chunks        int
	Space         EmbeddingSpace // zero when nothing is indexed yet
	// Sync is the state committed last (LatestSync of Syncs): its
	// UpdatedAt is the last crawl; zero when no crawl has committed yet.
	Sync  SyncState
	Syncs []SyncState // every source's state, sorted by Source
}

// Store is the contract of an index back end. All methods are safe for
// concurrent use by several goroutines and several processes.
type Store interface {
	// Migrate applies pending schema migrations. It is safe when several
	// processes call it at once. Open already calls it.
	Migrate(ctx context.Context) error

	// EnsureEmbeddingSpace records the model and dimension on first use and
	// returns an error wrapping ErrEmbeddingMismatch when they differ from
	// the recorded ones.
	EnsureEmbeddingSpace(ctx context.Context, s EmbeddingSpace) error

	// UpsertFile inserts or replaces a file and all its chunks atomically.
	// The embedding dimensions must match the recorded EmbeddingSpace; a
	// file without an embedding (a name-only entry) is accepted and left
	// out of VectorSearch.
	UpsertFile(ctx context.Context, f File, chunks []Chunk) error
	// DeleteFiles removes files and their chunks (from every search,
	// full-text included); unknown IDs are ignored.
	DeleteFiles(ctx context.Context, ids []string) error
	// GetFiles returns the files with these IDs in the given order, skipping
	// unknown IDs. Text is left empty.
	GetFiles(ctx context.Context, ids []string) ([]File, error)
	// ContentHashes returns file ID → content hash for the IDs that are indexed.
	ContentHashes(ctx context.Context, ids []string) (map[string]string, error)
	// FilterIndexed returns the IDs that are indexed, in input order.
	FilterIndexed(ctx context.Context, ids []string) ([]string, error)
	// IndexedIDs returns the ID of every indexed file except uploads
	// (Source SourceUpload), sorted (a full crawl removes those its listing
	// no longer holds).
	IndexedIDs(ctx context.Context) ([]string, error)
	// SourceIDs returns the IDs of the files whose Source is source, sorted
	// by bytes (a full scan of a source prunes within it only).
	SourceIDs(ctx context.Context, source string) ([]string, error)
	// ClaimFiles sets Source to `to` on the files among ids whose Source is
	// `from`, and returns how many it changed; unknown IDs and files of
	// other sources are left alone. A configured source re-claims this way
	// the files an older index recorded under a bare kind (SourceLegacyLocal).
	ClaimFiles(ctx context.Context, from, to string, ids []string) (int, error)

	// KeywordSearch runs a full-text query: hits best first, equal scores
	// by file ID (bytes), also where the limit cuts among them, whatever
	// order the files were written in. A query with no usable term
	// (no term yields a search token) matches nothing, unless its filter
	// restricts the period, the MIME types or the folder: then every file passing the
	// filter matches, newest (ModifiedAt) first, ties by ID, with Total
	// counting them all. This is the filter-only search of a query such as
	// 「先月のPDF」.
	KeywordSearch(ctx context.Context, q KeywordQuery) (KeywordResult, error)
	// KeywordFacets counts every file KeywordSearch would match for q
	// (q.Limit ignored; the filter-only case included), grouped by folder
	// path, MIME type and month, without returning the files: the facets
	// of a clarifying question over all hits. Groups come in no set order.
	KeywordFacets(ctx context.Context, q KeywordQuery) ([]FacetCount, error)
	// VectorSearch returns the k files most similar (cosine) to vec among
	// those passing the filter, best first. Files stored without an
	// embedding are never returned.
	VectorSearch(ctx context.Context, vec []float32, f Filter, k int) ([]Hit, error)
	// ChunkSearch returns the k chunks most similar (cosine) to vec among
	// the files passing the filter, best first.
	ChunkSearch(ctx context.Context, vec []float32, f Filter, k int) ([]ChunkHit, error)
	// ChunkTextSearch runs a full-text query over the chunks' text (each
	// term a phrase of its tokenize tokens, as in KeywordSearch, so CJK
	// terms match as substrings) among the chunks of the files passing
	// q.Filter, best first, at most q.Limit (<= 0: 100). A query without a
	// usable term matches nothing (there is no filter-only listing).
	ChunkTextSearch(ctx context.Context, q KeywordQuery) ([]ChunkHit, error)
	// FileChunks returns the first limit chunks of a file in ordinal order
	// (limit <= 0 means DefaultChunkPage), without embeddings; an error
	// wrapping ErrNotFound when the file is not indexed. Pass limit+1 to
	// learn whether the file has more.
	FileChunks(ctx context.Context, fileID string, limit int) ([]Chunk, error)
	// ScanChunks returns the next page of every chunk in scan order (file
	// ID by bytes, then ordinal), without embeddings. Paging is by key, so
	// it is stable while files change: a page never repeats or skips a chunk
	// that stays in place; chunks written behind the cursor are seen by the
	// next scan only.
	ScanChunks(ctx context.Context, s ChunkScan) (ChunkPage, error)

	// SyncState returns the checkpoint of a source; the zero value with
	// Source set when there is none.
	SyncState(ctx context.Context, source string) (SyncState, error)
	// SetSyncState stores the checkpoint of s.Source (which must not be
	// empty), replacing that source's previous one only.
	SetSyncState(ctx context.Context, s SyncState) error
	// SyncStates returns the checkpoint of every source, sorted by Source.
	SyncStates(ctx context.Context) ([]SyncState, error)
	// Reset deletes every file, chunk, checkpoint and the embedding space
	// (used by `gds crawl --full`).
	Reset(ctx context.Context) error

	Documents
	Failures

	Stats(ctx context.Context) (Stats, error)
	Close() error
}

// SourceUpload is File.Source of a document uploaded through the HTTP API
// (`gds serve`). Crawls never remove such files: IndexedIDs leaves them out.
const SourceUpload = "upload"

// DocumentMeta is what an uploaded document adds to its indexed file.
type DocumentMeta struct {
	FileID     string
	Title      string
	Tags       []string
	StoredName string // the file's name in the upload directory
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// DefaultDocumentPage is the page size of ListDocuments when none is given.
const DefaultDocumentPage = 20

// DocumentQuery selects one page of ListDocuments.
type DocumentQuery struct {
	Tag    string // only documents with this tag; "" lists every indexed file
	Offset int
	Limit  int // <= 0: DefaultDocumentPage
}

// Document is an indexed file (Embedding and Text left empty) with its
// document metadata (Meta.FileID is "" for a file without any, such as a
// crawled one) and its number of chunks.
type Document struct {
	File   File
	Meta   DocumentMeta
	Chunks int
}

// DocumentPage is one page of ListDocuments and the number of documents
// passing the query.
type DocumentPage struct {
	Items []Document
	Total int
}

// Documents is the part of the contract that keeps uploaded documents'
// metadata. A document's metadata lives as long as its file: DeleteFiles
// and Reset remove it too.
type Documents interface {
	// PutDocumentMeta inserts or replaces the metadata of m.FileID.
	PutDocumentMeta(ctx context.Context, m DocumentMeta) error
	// DocumentMetas returns file ID → metadata for the ids that have any.
	DocumentMetas(ctx context.Context, ids []string) (map[string]DocumentMeta, error)
	// ListDocuments returns one page of the indexed files, most recently
	// indexed first (ties by ID), with their metadata and chunk counts.
	ListDocuments(ctx context.Context, q DocumentQuery) (DocumentPage, error)
	// TaggedFileIDs returns the IDs of the indexed files whose metadata has
	// any of tags, sorted.
	TaggedFileIDs(ctx context.Context, tags []string) ([]string, error)
	// FolderCounts counts the indexed files by source and folder (File.Path
	// exactly, not the files below it), sorted by source, then path, by
	// bytes: the folders a user can scope a search or an answer to.
	FolderCounts(ctx context.Context) ([]FolderCount, error)
}

// FolderCount is the number of indexed files of one source directly in
// one folder (Path "" is the source's root).
type FolderCount struct {
	Source string
	Path   string
	Files  int
}
