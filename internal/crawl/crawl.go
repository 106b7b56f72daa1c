package crawl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/store"
)

// Index is what a crawl needs from the store.
type Index interface {
	EnsureEmbeddingSpace(ctx context.Context, s store.EmbeddingSpace) error
	UpsertFile(ctx context.Context, f store.File, chunks []store.Chunk) error
	ContentHashes(ctx context.Context, ids []string) (map[string]string, error)
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
	SyncState(ctx context.Context, source string) (store.SyncState, error)
	SetSyncState(ctx context.Context, s store.SyncState) error
	Reset(ctx context.Context) error
	SourceIDs(ctx context.Context, source string) ([]string, error)
	ClaimFiles(ctx context.Context, from, to string, ids []string) (int, error)
	DeleteFiles(ctx context.Context, ids []string) error
	store.Failures
}

// Status is the outcome for one file.
type Status string

// Outcomes of a file.
const (
	StatusNew       Status = "new"
	StatusUpdated   Status = "updated"
	StatusUnchanged Status = "unchanged"
	StatusSkipped   Status = "skipped"
	StatusFailed    Status = "failed"
	StatusPlanned   Status = "planned" // --dry-run: would be processed
)

// Progress receives crawl events; implementations render them (a progress
// bar in a terminal, plain lines under launchd or cron).
type Progress interface {
	Begin(total int, full bool)
	File(e Entry, s Status, detail string)
}

// Options configure a crawl.
type Options struct {
	Source Source
	// Key is the source key (config.CrawlSource.Key()): the files'
	// store.File.Source and the key of the checkpoint; "" means the
	// source's kind (the key of an index from before sources had keys).
	Key              string
	Index            Index
	Provider         ai.Provider
	SummaryMaxLength int
	// Concurrency is the number of files downloaded and read at once
	// (<= 0 means 4), and of model calls at once for a provider that is
	// not paced; a paced provider's lanes size the summary and embedding
	// stages (pipeline.go).
	Concurrency  int
	Full         bool  // ignore the checkpoint (and reset a mismatched embedding space)
	DryRun       bool  // list and classify only; write nothing
	MaxFileBytes int64 // <= 0: extract.DefaultMaxBytes
	// FileTimeout bounds reading one file (download and extraction); <= 0:
	// 2 minutes. The model calls are bounded by the provider's own time
	// limits, so a file waiting for its turn in a rate-limited lane is
	// not timed out.
	FileTimeout time.Duration
	// Extractor reads each file's text; gds passes an *isolate.Pool, which
	// reads in worker processes under limits. nil: extract.Extract in
	// this process (benchmarks and tests over known files).
	Extractor Extractor
	// ExtractVersion is recorded with every file read and compared with
	// the version recorded with each indexed file: one read by an older
	// version is read again. <= 0: extract.Version (tests set another).
	ExtractVersion int
	Progress       Progress // may be nil
	Now            func() time.Time
}

// Problem is a skipped or failed file with its reason.
type Problem struct {
	Name   string
	Path   string
	Reason string
}

// Summary is the result of a crawl.
type Summary struct {
	Full      bool
	Listed    int
	New       int
	Updated   int
	Unchanged int
	Planned   int
	Skipped   []Problem
	Failed    []Problem
	// Truncated lists files indexed with only their first
	// extract.MaxTextBytes of text (the rest was not read).
	Truncated  []Problem
	Checkpoint time.Time // sync state after the crawl
	// CheckpointSaved is set when this crawl committed Checkpoint as the
	// source's sync state. A crawl that stopped before committing one
	// leaves the previous checkpoint in Checkpoint and claims nothing.
	CheckpointSaved bool
	// Unreadable lists the files whose indexed records could not be read
	// (damaged): each was removed and indexed again (in a dry run, would
	// be).
	Unreadable []Problem
	// Removed counts indexed files a full scan no longer listed (deleted,
	// moved out of the target folders, or of a former target), removed
	// from the index — or, in a dry run, that would be.
	Removed int
	// Processed counts the files read and checked this time (new, changed,
	// moved, or every file of a full scan); Listed-Processed of a
	// reconciling listing were found unchanged from their record (counted
	// in Unchanged without being read).
	Processed int
	// Reextracted counts the unchanged files read again because an older
	// version of the text extraction had read them (Options.ExtractVersion);
	// their text is indexed again only where it differs.
	Reextracted int
	// Moved counts files indexed before that were renamed or moved (within
	// or into the targets) and re-indexed under their new name or path;
	// they are not counted in Updated.
	Moved int
	// Mode is how the crawl found what to do: "full" (every file
	// checked), "reconcile" (a listing compared with the index) or "feed"
	// (the changes feed since the last crawl).
	Mode string
	// Notice says why an incremental crawl listed the targets instead of
	// reading the changes feed (the stored page token was refused, a
	// folder moved); "" otherwise.
	Notice string
	// KeptUnlisted is set when a full scan listed no file at all while the
	// index holds KeptUnlisted files: they are kept, since an empty listing
	// is more likely an unmounted folder or a permissions change than a
	// target emptied on purpose.
	KeptUnlisted int
}

// SourceResult is the outcome of crawling one source of a multi-source
// crawl.
type SourceResult struct {
	Source  string  // the source key
	Summary Summary // also when the crawl of this source failed
	Err     error   // why the crawl of this source stopped; nil when it finished
	// Started is false when the source could not be set up (a missing
	// folder, no sign-in): nothing was crawled and Summary is empty.
	Started bool
}

// Fingerprint of the crawl target: the source's own plus what decides what
// is crawled. A change forces a full scan. It starts with the
// source kind ("drive:…", "local:…") so a search knows which keyword search
// fits the index (store.SyncState.SourceKind).
func fingerprint(src Source) string {
	h := sha256.Sum256([]byte("gds-crawl-v1\x00" + src.Fingerprint()))
	return src.Kind() + ":" + hex.EncodeToString(h[:])
}

// Run crawls opts.Source into opts.Index. It returns an error for problems
// that stop the crawl (store unreachable, embedding model mismatch, listing
// failure); per-file problems are reported in the Summary.
//
// A first crawl, a changed target and opts.Full process every listed file
// (modeFull). An incremental crawl of a source with a changes feed reads
// the feed from the page token of the last sync state (modeFeed); of any
// other source, or without a usable token, it lists the targets and
// processes only what differs from the index (modeReconcile). Both remove
// what is gone. See the package comment, "How a crawl flows".
func Run(ctx context.Context, opts Options) (Summary, error) {
	var sum Summary
	opts = withDefaults(opts)
	state, err := opts.Index.SyncState(ctx, opts.Key)
	if err != nil {
		return sum, fmt.Errorf("read sync state: %w", err)
	}
	fp := fingerprint(opts.Source)
	sum.Full = opts.Full || state.Fingerprint != fp
	sum.Checkpoint = state.ModifiedAt
	if !opts.DryRun {
		if err := ensureSpace(ctx, opts); err != nil {
			return sum, err
		}
	}
	p, err := planWork(ctx, opts, state, &sum)
	if err != nil {
		return sum, err
	}
	sum.Mode = p.mode.String()
	sum.Reextracted = countStale(p.todo)
	fails, err := newFailureLog(ctx, opts)
	if err != nil {
		return sum, err
	}

	entries := make([]Entry, len(p.todo))
	how := make(map[string]work, len(p.todo))
	for i, w := range p.todo {
		entries[i] = w.Entry
		how[w.ID] = w
	}
	sum.Processed = len(entries)
	wm := newWatermark(entries) // sorts entries: before the pipeline reads them
	if opts.Progress != nil {
		opts.Progress.Begin(len(entries), sum.Full)
	}

	// A Stop error from the source, or the account's quota running out,
	// ends the feed; the files already started finish and are reported.
	feedCtx, stopFeed := context.WithCancel(ctx)
	defer stopFeed()
	stopper := &stopWatch{Source: opts.Source, stop: stopFeed}
	opts.Source = stopper
	results := make(chan result)
	pl := newPipeline(ctx, feedCtx, stopFeed, opts, results)
	go pl.run(entries, how)

	if err := collect(ctx, opts, state, fp, p.midToken, entries, how, wm, results, fails, &sum); err != nil {
		return sum, err
	}
	if err := pl.err(); err != nil {
		return sum, err
	}
	if err := stopper.err(); err != nil {
		return sum, err
	}
	if err := ctx.Err(); err != nil {
		return sum, err
	}
	return sum, finish(ctx, opts, p, fp, fails, &sum)
}

// withDefaults fills the options a caller left zero.
func withDefaults(opts Options) Options {
	if opts.Concurrency <= 0 {
		opts.Concurrency = 4
	}
	if opts.FileTimeout <= 0 {
		opts.FileTimeout = 2 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Key == "" {
		opts.Key = opts.Source.Kind()
	}
	if opts.ExtractVersion <= 0 {
		opts.ExtractVersion = extract.Version
	}
	return opts
}

// ensureSpace records the provider's embedding space in the index; a full
// crawl into an index of another space starts it over.
func ensureSpace(ctx context.Context, opts Options) error {
	em := opts.Provider.EmbeddingModel(ctx)
	space := store.EmbeddingSpace{Model: em.Name, Dim: em.Dim}
	err := opts.Index.EnsureEmbeddingSpace(ctx, space)
	if errors.Is(err, store.ErrEmbeddingMismatch) && opts.Full {
		if err = opts.Index.Reset(ctx); err == nil {
			err = opts.Index.EnsureEmbeddingSpace(ctx, space)
		}
	}
	return err
}

// crawlPlan is what a crawl processes, what it removes, and the page
// tokens it commits.
type crawlPlan struct {
	mode    mode
	todo    []work
	removed []string // modeFeed: the IDs the feed says are gone
	seen    idSet    // modeFull, modeReconcile: every listed ID
	// nextToken is the page token to commit at the end ("" for a source
	// without a feed).
	nextToken string
	// midToken is the page token every sync state written before the
	// end carries: the old one while replaying the feed (a crash replays
	// from it), none while listing (a crash before the end must list
	// again, since the listing's token covers only what the listing
	// finished).
	midToken string
}

// planWork reads the changes feed (modeFeed) or lists the source
// (modeFull, modeReconcile), counting what it found into sum.
func planWork(ctx context.Context, opts Options, state store.SyncState, sum *Summary) (crawlPlan, error) {
	feedSrc, hasFeed := opts.Source.(ChangeSource)
	p := crawlPlan{mode: chooseMode(sum.Full, hasFeed, pageToken(state))}
	if p.mode == modeFeed && state.ExtractVersion < opts.ExtractVersion {
		// The feed names changed files only: the files an older
		// extraction read are found by listing.
		p.mode = modeReconcile
	}
	records := recordReader{dryRun: opts.DryRun, forget: opts.Index.DeleteFiles}
	if p.mode == modeFeed {
		res, err := readFeed(ctx, feedSrc, opts.Index, pageToken(state), records, opts.ExtractVersion)
		switch {
		case errors.Is(err, ErrRescan):
			sum.Notice = err.Error()
			p.mode = modeReconcile
		case err != nil:
			return p, fmt.Errorf("read changes: %w", err)
		default:
			p.todo, p.removed, p.nextToken, p.midToken = res.work, res.removed, res.token, pageToken(state)
			sum.Listed, sum.Unreadable = res.changes, res.unreadable
		}
	}
	if p.mode == modeFeed {
		return p, nil
	}
	if hasFeed {
		// Before the listing: whatever changes while it runs is read from
		// the feed next time. Without a position the crawl still lists;
		// the next one lists again instead of reading the feed.
		var err error
		if p.nextToken, err = feedSrc.StartToken(ctx); err != nil {
			if ctx.Err() != nil {
				return p, err
			}
			p.nextToken, sum.Notice = "", err.Error()
		}
	}
	l := &listing{all: p.mode == modeFull, version: opts.ExtractVersion, seen: idSet{}, records: records, claim: func(ctx context.Context, ids []string) error {
		return claimLegacy(ctx, opts, ids)
	}}
	if err := opts.Source.List(ctx, time.Time{}, func(e Entry) error { return l.add(ctx, opts.Index, e) }); err != nil {
		return p, fmt.Errorf("list files: %w", err)
	}
	if err := l.flush(ctx, opts.Index); err != nil {
		return p, err
	}
	p.todo, p.seen, sum.Listed, sum.Unchanged = l.work, l.seen, l.listed, l.same
	sum.Unreadable = append(sum.Unreadable, l.unreadable...)
	return p, nil
}

// collect tallies the pipeline's results into sum and moves the checkpoint
// as files finish; the first failure to save it is returned once the
// pipeline is done.
func collect(ctx context.Context, opts Options, state store.SyncState, fp, midToken string, entries []Entry, how map[string]work, wm *watermark, results <-chan result, fails *failureLog, sum *Summary) error {
	var stateErr error
	for r := range results {
		e := entries[r.i]
		tally(sum, e, how[e.ID].moved, r)
		fails.note(ctx, e, r)
		if opts.Progress != nil {
			opts.Progress.File(e, r.status, r.detail)
		}
		if r.status == StatusFailed || opts.DryRun || stateErr != nil {
			continue
		}
		// The checkpoint claims every file modified up to it is indexed:
		// it moves to the watermark of the files processed, never back
		// (a reconciling run processes files older than it, moved in).
		// A full scan starts over from zero under the new fingerprint.
		if t, movedOn := wm.finish(r.i); movedOn {
			if !sum.Full && t.Before(state.ModifiedAt) {
				continue
			}
			// It keeps the version of the last complete crawl: one
			// that stops before the end has not re-read every file an
			// older extraction read.
			next := store.SyncState{Source: opts.Key, ModifiedAt: t, Fingerprint: fp, UpdatedAt: opts.Now().UTC(),
				ExtractVersion: state.ExtractVersion}
			setPageToken(&next, midToken)
			if err := opts.Index.SetSyncState(context.WithoutCancel(ctx), next); err != nil {
				stateErr = fmt.Errorf("save sync state: %w", err)
				continue
			}
			sum.Checkpoint, sum.CheckpointSaved = t, true
		}
	}
	if stateErr == nil {
		stateErr = fails.err
	}
	return stateErr
}

// tally counts one file's result into sum.
func tally(sum *Summary, e Entry, moved bool, r result) {
	switch {
	case moved && (r.status == StatusUpdated || r.status == StatusUnchanged):
		sum.Moved++
	case r.status == StatusNew:
		sum.New++
	case r.status == StatusUpdated:
		sum.Updated++
	case r.status == StatusUnchanged:
		sum.Unchanged++
	case r.status == StatusPlanned:
		sum.Planned++
	case r.status == StatusSkipped:
		sum.Skipped = append(sum.Skipped, Problem{e.Name, e.Path, r.detail})
	case r.status == StatusFailed:
		sum.Failed = append(sum.Failed, Problem{e.Name, e.Path, r.detail})
	}
	if (r.status == StatusNew || r.status == StatusUpdated) && r.detail != "" {
		sum.Truncated = append(sum.Truncated, Problem{e.Name, e.Path, r.detail})
	}
}

// finish removes what is gone (and the failure records of what is gone)
// and commits the final sync state, unless the run was a dry run or a
// file failed.
func finish(ctx context.Context, opts Options, p crawlPlan, fp string, fails *failureLog, sum *Summary) error {
	if p.mode == modeFeed {
		if err := remove(ctx, opts, p.removed, sum); err != nil {
			return err
		}
		removed := make(map[string]bool, len(p.removed))
		for _, id := range p.removed {
			removed[id] = true
		}
		fails.forget(ctx, func(id string) bool { return removed[id] })
	} else {
		if err := prune(ctx, opts, p.seen, sum.Listed, sum); err != nil {
			return err
		}
		if sum.Listed > 0 {
			fails.forget(ctx, func(id string) bool { return !p.seen.has(id) })
		}
	}
	if fails.err != nil {
		return fails.err
	}
	if opts.DryRun || len(sum.Failed) > 0 {
		// A failed file keeps the old page token: the next crawl reads
		// its change again (or lists again) and retries it.
		return nil
	}
	final := store.SyncState{Source: opts.Key, ModifiedAt: sum.Checkpoint, Fingerprint: fp, UpdatedAt: opts.Now().UTC(),
		ExtractVersion: opts.ExtractVersion}
	setPageToken(&final, p.nextToken)
	if err := opts.Index.SetSyncState(context.WithoutCancel(ctx), final); err != nil {
		return fmt.Errorf("save sync state: %w", err)
	}
	sum.CheckpointSaved = true
	return nil
}

// remove deletes the files the changes feed reported gone.
func remove(ctx context.Context, opts Options, ids []string, sum *Summary) error {
	sum.Removed = len(ids)
	if len(ids) == 0 || opts.DryRun {
		return nil
	}
	if err := opts.Index.DeleteFiles(context.WithoutCancel(ctx), ids); err != nil {
		return fmt.Errorf("remove %d files no longer in the target folders: %w", len(ids), err)
	}
	return nil
}

// legacyKey is the bare kind under which an index from before sources had
// keys recorded the files a source with this key lists now: "local" for
// every local folder, "drive" for a single Drive folder ("drive:ID"); ""
// when there is none (the key is itself a bare kind).
func legacyKey(key string) string {
	kind, rest, ok := strings.Cut(key, ":")
	if !ok || rest == "" {
		return ""
	}
	return kind
}

// claimLegacy moves the listed files an older index recorded under the
// bare kind to this source, so an unchanged file (not rewritten by the
// crawl) is pruned, searched and reported as this source's. A listing
// calls it once per batch of listed IDs.
func claimLegacy(ctx context.Context, opts Options, ids []string) error {
	from := legacyKey(opts.Key)
	if from == "" || opts.DryRun || len(ids) == 0 {
		return nil
	}
	if _, err := opts.Index.ClaimFiles(ctx, from, opts.Key, ids); err != nil {
		return fmt.Errorf("claim the files indexed under %q: %w", from, err)
	}
	return nil
}

// prune removes the files of this source a complete listing did not hold:
// the index keeps only what is in the source's folders now. A file that
// was listed but failed or was skipped this time is not removed; another
// source's files are never touched.
func prune(ctx context.Context, opts Options, seen idSet, listed int, sum *Summary) error {
	indexed, err := opts.Index.SourceIDs(ctx, opts.Key)
	if err != nil {
		return fmt.Errorf("list indexed files: %w", err)
	}
	if listed == 0 {
		sum.KeptUnlisted = len(indexed)
		return nil
	}
	var stale []string
	for _, id := range indexed {
		if !seen.has(id) {
			stale = append(stale, id)
		}
	}
	sum.Removed = len(stale)
	if len(stale) == 0 || opts.DryRun {
		return nil
	}
	if err := opts.Index.DeleteFiles(context.WithoutCancel(ctx), stale); err != nil {
		return fmt.Errorf("remove %d files no longer in the target folders: %w", len(stale), err)
	}
	return nil
}

// stopWatch passes Open through and remembers the first Stop error, ending
// the feed of new files.
type stopWatch struct {
	Source
	stop func()

	mu    sync.Mutex
	first error
}

func (w *stopWatch) Open(ctx context.Context, e Entry) (io.ReadCloser, error) {
	rc, err := w.Source.Open(ctx, e)
	var se stopError
	if err != nil && errors.As(err, &se) {
		w.mu.Lock()
		if w.first == nil {
			w.first = se.err
		}
		w.mu.Unlock()
		w.stop()
	}
	return rc, err
}

func (w *stopWatch) err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.first
}

// readFile is a crawl's first stage for one file: download and extract
// it (within opts.FileTimeout) and compare its text with the index. A file
// that needs the model comes back as a fileText for the next stages
// (pipeline.go); any other outcome as its status and detail. A renamed
// file is indexed again even when its text is unchanged; another change of
// its metadata (touched, moved to another folder) with an unchanged text
// only rewrites the metadata.
func readFile(ctx context.Context, opts Options, w work) (*fileText, result) {
	e := w.Entry
	if ctx.Err() != nil {
		return nil, interrupted
	}
	if opts.DryRun {
		if ai.FileTypeOf(e.MimeType) == "" && !strings.HasPrefix(e.MimeType, "text/") {
			return nil, result{status: StatusSkipped, detail: "content not indexed: " + e.MimeType + NameOnlySuffix}
		}
		return nil, result{status: StatusPlanned}
	}
	fctx, cancel := context.WithTimeout(ctx, opts.FileTimeout)
	defer cancel()
	rc, err := opts.Source.Open(fctx, e)
	stale := w.diff == diffStale
	if errors.Is(err, ErrSkip) && !errors.Is(err, ErrGone) {
		return nil, nameOnly(ctx, opts, e, err.Error(), stale)
	}
	if errors.Is(err, ErrSkip) {
		return nil, result{status: StatusSkipped, detail: err.Error()}
	}
	if err != nil {
		return nil, failed(err)
	}
	f, res, err := readText(fctx, FileOptions{
		Index: opts.Index, Provider: opts.Provider, SummaryMaxLength: opts.SummaryMaxLength,
		MaxFileBytes: opts.MaxFileBytes, Source: opts.Key, Now: opts.Now, Refresh: w.renamed,
		UpdateMeta: w.diff != diffNew, Extractor: opts.Extractor, ExtractVersion: opts.ExtractVersion,
	}, e, rc)
	rc.Close()
	switch {
	case err == nil && f != nil:
		return f, result{}
	case err == nil && res.Truncated:
		return nil, result{status: res.Status, detail: TruncatedDetail}
	case err == nil:
		return nil, result{status: res.Status}
	case ctx.Err() != nil && errors.Is(err, ErrExtract):
		return nil, interrupted
	case errors.Is(err, extract.ErrRead):
		// The content stopped coming (a stalled mount, an I/O error):
		// a failure, tried again by the next crawl, as a Drive
		// download that stalls is.
		return nil, failed(err)
	case errors.Is(err, context.DeadlineExceeded) && errors.Is(err, ErrExtract):
		// A parser over the time limit: skipped until the file changes.
		// A file not indexed yet is recorded by name only, with the
		// reason, so the next listing knows it and does not parse it
		// again; an entry that has content is kept (a slow parse on a
		// busy machine must not replace it), and the file is tried again.
		reason := skipDetail(err)
		if hashes, herr := opts.Index.ContentHashes(ctx, []string{e.ID}); herr == nil && hashes[e.ID] == "" {
			if _, nerr := IndexNameOnly(ctx, FileOptions{Index: opts.Index, Source: opts.Key, Now: opts.Now, ExtractVersion: opts.ExtractVersion}, e, reason); nerr == nil {
				return nil, result{status: StatusSkipped, detail: reason + NameOnlySuffix}
			}
		}
		return nil, result{status: StatusSkipped, detail: reason}
	case errors.Is(err, ErrExtract), errors.Is(err, ErrNoText):
		// Unsupported, too large, malformed, or no text: the content is
		// skipped until the file changes, and the file is indexed by name
		// only (found by name, type and dates; the reason kept).
		return nil, nameOnly(ctx, opts, e, skipDetail(err), stale)
	}
	return nil, failed(err)
}

// nameOnly indexes a skipped file by name only with the reason; stale: its
// record was written by an older extraction (an unchanged entry gets the
// current version).
func nameOnly(ctx context.Context, opts Options, e Entry, reason string, stale bool) result {
	res, err := IndexNameOnly(ctx, FileOptions{Index: opts.Index, Source: opts.Key, Now: opts.Now,
		ExtractVersion: opts.ExtractVersion, UpdateMeta: stale}, e, reason)
	switch {
	case err != nil:
		return failed(fmt.Errorf("%s; indexing by name failed: %w", reason, err))
	case res.Status == StatusUnchanged:
		return result{status: StatusUnchanged}
	}
	return result{status: StatusSkipped, detail: reason + NameOnlySuffix}
}

// NameOnlySuffix ends the skip detail of a file whose content was skipped
// but which was indexed by name only.
const NameOnlySuffix = " (indexed by name only)"

// NameOnlyHashPrefix starts the content hash of a name-only entry: a hash
// of what such an entry holds (name, path, type, date, size, reason), so an
// unchanged one is not written again and a file that gains text is
// re-indexed with it.
const NameOnlyHashPrefix = "name-only:"

// IndexNameOnly stores e as a name-only entry (store.File.SkipReason set to
// reason; no summary, keywords, embedding or chunks) unless the same entry
// is already stored (StatusUnchanged). The embedding space must already be
// recorded.
func IndexNameOnly(ctx context.Context, o FileOptions, e Entry, reason string) (Indexed, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	h := sha256.Sum256([]byte(strings.Join([]string{e.Name, e.Path, e.MimeType,
		e.ModifiedAt.UTC().Format(time.RFC3339Nano), fmt.Sprint(e.Size), reason}, "\x00")))
	hash := NameOnlyHashPrefix + hex.EncodeToString(h[:])
	hashes, err := o.Index.ContentHashes(ctx, []string{e.ID})
	if err != nil {
		return Indexed{}, err
	}
	old, existed := hashes[e.ID]
	f := store.File{
		ID: e.ID, Name: e.Name, ModifiedAt: e.ModifiedAt, MimeType: e.MimeType, WebLink: e.WebLink,
		Parents: e.Parents, Path: e.Path, Size: e.Size, ContentHash: hash, Source: o.Source,
		IndexedAt: o.Now().UTC(), SkipReason: reason, ExtractVersion: o.extractVersion(),
	}
	if existed && old == hash {
		return Indexed{Status: StatusUnchanged}, o.updateMeta(ctx, f)
	}
	if err := o.Index.UpsertFile(context.WithoutCancel(ctx), f, nil); err != nil {
		return Indexed{}, err
	}
	st := StatusNew
	if existed {
		st = StatusUpdated
	}
	return Indexed{Status: st}, nil
}

// ErrExtract wraps the errors of extracting a file's text (extract's
// ErrUnsupported, ErrTooLarge, ErrMalformed, ErrRead, or the context's).
var ErrExtract = errors.New("extract")

// ErrNoText means a file has no text to index.
var ErrNoText = errors.New("no text")

// extractError keeps the extraction error's own text while matching
// ErrExtract.
type extractError struct{ err error }

func (e extractError) Error() string   { return e.err.Error() }
func (e extractError) Unwrap() []error { return []error{e.err, ErrExtract} }

func skipDetail(err error) string {
	if errors.Is(err, ErrNoText) {
		return "no text"
	}
	return err.Error()
}

// FileIndex is what indexing one file needs from the store.
type FileIndex interface {
	UpsertFile(ctx context.Context, f store.File, chunks []store.Chunk) error
	ContentHashes(ctx context.Context, ids []string) (map[string]string, error)
}

// Extractor reads a file's text with extract.Extract's contract (its
// errors, its limits). *isolate.Pool is the one gds uses.
type Extractor interface {
	Extract(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (extract.Doc, error)
}

// Extract reads r with x, or with extract.Extract in this process when x
// is nil.
func Extract(ctx context.Context, x Extractor, mimeType string, r io.Reader, maxBytes int64) (extract.Doc, error) {
	if x == nil {
		return extract.Extract(ctx, mimeType, r, maxBytes)
	}
	return x.Extract(ctx, mimeType, r, maxBytes)
}

// FileOptions configure IndexFile.
type FileOptions struct {
	Index            FileIndex
	Provider         ai.Provider
	SummaryMaxLength int
	MaxFileBytes     int64     // <= 0: extract.DefaultMaxBytes
	Source           string    // File.Source (a source key, or store.SourceUpload)
	Extractor        Extractor // nil: extract.Extract in this process
	Now              func() time.Time
	// Refresh indexes the file again even when its text is unchanged: it
	// was renamed, and the name is part of the file's embedding.
	Refresh bool
	// Extra is more text that should find the file (an upload's title and
	// tags): indexed with its text for keyword search and in its file
	// embedding (and so part of its content hash), not in its chunks or
	// summary.
	Extra string
	// UpdateMeta rewrites the stored metadata (modified time, size, path,
	// parents, link, extraction version) when the text is unchanged,
	// through the index's UpdateFileMeta when it has one: a file touched or
	// moved keeps its summary and embeddings but not a stale path or time.
	UpdateMeta bool
	// ExtractVersion is recorded with the file (store.File.ExtractVersion);
	// <= 0: extract.Version.
	ExtractVersion int
}

func (o FileOptions) extractVersion() int {
	if o.ExtractVersion > 0 {
		return o.ExtractVersion
	}
	return extract.Version
}

// updateMeta writes f's metadata when asked (UpdateMeta) and the index
// can.
func (o FileOptions) updateMeta(ctx context.Context, f store.File) error {
	mu, ok := o.Index.(metaUpdater)
	if !ok || !o.UpdateMeta {
		return nil
	}
	return mu.UpdateFileMeta(context.WithoutCancel(ctx), f)
}

// metaUpdater is the index method behind FileOptions.UpdateMeta (the
// SQLite and Postgres stores have it).
type metaUpdater interface {
	UpdateFileMeta(ctx context.Context, f store.File) error
}

// Indexed is the outcome of IndexFile.
type Indexed struct {
	Status    Status // StatusNew, StatusUpdated or StatusUnchanged
	Chunks    int    // chunks stored (0 when unchanged)
	Truncated bool   // only the first extract.MaxTextBytes of text were read
}

// TruncatedDetail is the progress detail of a file indexed with only the
// first extract.MaxTextBytes of its text.
var TruncatedDetail = fmt.Sprintf("only the first %d MiB of text indexed", extract.MaxTextBytes>>20)

// IndexFile indexes one file the way a crawl does: extract its text from r,
// and unless the text is unchanged, summarise it, split it into chunks
// (ChunkSize, ChunkOverlap), embed the summary and the chunks, and store the
// file with its chunks. The embedding space must already be recorded.
// Extraction errors match ErrExtract (and extract's sentinels); a file
// without text is ErrNoText.
func IndexFile(ctx context.Context, o FileOptions, e Entry, r io.Reader) (Indexed, error) {
	f, res, err := readText(ctx, o, e, r)
	if err != nil || f == nil {
		return res, err
	}
	if err := f.summarize(ctx); err != nil {
		return Indexed{}, err
	}
	vecs, err := o.Provider.Embed(ctx, f.inputs)
	if err != nil {
		return Indexed{}, err
	}
	return f.commit(ctx, vecs)
}

// fileText is a file whose text was read and differs from what is
// indexed: what is left of IndexFile is the model's work (summarize, the
// embeddings of inputs) and the commit. A crawl runs these steps in stages,
// embedding many files' inputs per request (pipeline.go).
type fileText struct {
	i       int // the entry's index in the crawl
	e       Entry
	o       FileOptions
	doc     extract.Doc
	text    string // the file's text (summarized, chunked)
	indexed string // what keyword search reads: FileOptions.Extra and the text
	hash    string
	existed bool

	kept   *ai.DocSummary // the stored summary, when only the chunking rules changed
	sum    ai.DocSummary
	chunks []store.Chunk
	inputs []string // summary + keywords + name, then each chunk
}

// readText is IndexFile's first step: extract the text from r; when it is
// unchanged (and the file not renamed), rewrite the metadata if asked and
// return the final Indexed with a nil fileText.
func readText(ctx context.Context, o FileOptions, e Entry, r io.Reader) (*fileText, Indexed, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	doc, err := Extract(ctx, o.Extractor, e.MimeType, r, o.MaxFileBytes)
	if err != nil {
		return nil, Indexed{}, extractError{err}
	}
	text := doc.Text()
	if strings.TrimSpace(text) == "" {
		return nil, Indexed{}, ErrNoText
	}
	indexed := text // what keyword search reads
	if extra := strings.TrimSpace(o.Extra); extra != "" {
		indexed = extra + "\n\n" + text
	}
	hash := ContentHash(indexed)
	hashes, err := o.Index.ContentHashes(ctx, []string{e.ID})
	if err != nil {
		return nil, Indexed{}, err
	}
	old, existed := hashes[e.ID]
	if existed && old == hash && !o.Refresh {
		f := store.File{ID: e.ID, ModifiedAt: e.ModifiedAt, MimeType: e.MimeType, WebLink: e.WebLink,
			Parents: e.Parents, Path: e.Path, Size: e.Size, Source: o.Source, IndexedAt: o.Now().UTC(),
			ExtractVersion: o.extractVersion()}
		if err := o.updateMeta(ctx, f); err != nil {
			return nil, Indexed{}, err
		}
		return nil, Indexed{Status: StatusUnchanged}, nil
	}
	f := &fileText{e: e, o: o, doc: doc, text: text, indexed: indexed, hash: hash, existed: existed}
	if existed && !o.Refresh && onlyRulesChanged(old, indexed) {
		f.kept = o.keptSummary(ctx, e.ID)
	}
	return f, Indexed{}, nil
}

// keptSummary returns the stored summary and keywords of file id when the
// index can give them and the same provider wrote them (nil otherwise):
// a file whose text is unchanged but whose chunks must be made again
// (new chunking rules) keeps them, and costs no model call but its
// embeddings.
func (o FileOptions) keptSummary(ctx context.Context, id string) *ai.DocSummary {
	g, ok := o.Index.(fileGetter)
	if !ok {
		return nil
	}
	files, err := g.GetFiles(ctx, []string{id})
	if err != nil || len(files) != 1 || files[0].NameOnly() || files[0].Summary == "" || files[0].Provider != o.Provider.Name() {
		return nil
	}
	return &ai.DocSummary{Summary: files[0].Summary, Keywords: files[0].Keywords}
}

// fileGetter is the index method behind keptSummary (the SQLite and
// Postgres stores have it).
type fileGetter interface {
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
}

// summarize asks the model for the summary and keywords and lays out the
// texts to embed.
func (f *fileText) summarize(ctx context.Context) error {
	if f.kept != nil {
		f.sum = *f.kept
	} else {
		ds, err := ai.Summarize(ctx, f.o.Provider, ai.DocInput{Name: f.e.Name, MimeType: f.e.MimeType, Text: f.text, MaxLength: f.o.SummaryMaxLength})
		if err != nil {
			return err
		}
		f.sum = ds
	}
	f.chunks = chunkDoc(f.doc)
	f.inputs = make([]string, 0, len(f.chunks)+1)
	head := f.sum.Summary + "\n" + strings.Join(f.sum.Keywords, " ") + "\n" + f.e.Name
	if extra := strings.TrimSpace(f.o.Extra); extra != "" {
		head += "\n" + extra
	}
	f.inputs = append(f.inputs, head)
	for _, c := range f.chunks {
		f.inputs = append(f.inputs, c.Text)
	}
	return nil
}

// commit stores the file with its chunks and their embeddings (vecs, one
// per input).
func (f *fileText) commit(ctx context.Context, vecs [][]float32) (Indexed, error) {
	if len(vecs) != len(f.inputs) {
		return Indexed{}, fmt.Errorf("embedding: got %d vectors for %d inputs", len(vecs), len(f.inputs))
	}
	for i := range f.chunks {
		f.chunks[i].Embedding = vecs[i+1]
	}
	e, o := f.e, f.o
	rec := store.File{
		ID: e.ID, Name: e.Name, Summary: f.sum.Summary, Keywords: f.sum.Keywords, Embedding: vecs[0],
		ModifiedAt: e.ModifiedAt, MimeType: e.MimeType, WebLink: e.WebLink, Parents: e.Parents, Path: e.Path,
		Size: e.Size, ContentHash: f.hash, Source: o.Source, Provider: o.Provider.Name(),
		IndexedAt: o.Now().UTC(), Text: f.indexed, OCR: f.doc.OCR, ExtractVersion: o.extractVersion(),
	}
	// Commit even if the caller is being interrupted: the work is done.
	if err := o.Index.UpsertFile(context.WithoutCancel(ctx), rec, f.chunks); err != nil {
		return Indexed{}, err
	}
	st := StatusNew
	if f.existed {
		st = StatusUpdated
	}
	return Indexed{Status: st, Chunks: len(f.chunks), Truncated: f.doc.Truncated}, nil
}

// LegacyKey is the bare kind under which an index from before sources had
// keys may still hold the files of the source with this key ("" when
// there is none); a crawl claims them as it lists them.
func LegacyKey(key string) string { return legacyKey(key) }
