package crawl

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/gds-cli/gds/internal/store"
)

// ChangeSource is a Source with a changes feed (Google Drive's
// changes.list): an incremental crawl reads what changed since the page
// token committed with the last sync state instead of listing the targets.
type ChangeSource interface {
	Source
	// StartToken returns the feed's current position. A full listing takes
	// it before it starts, so nothing changed during the listing is missed.
	StartToken(ctx context.Context) (string, error)
	// Changes reads the feed from token, calling fn once per changed file
	// of interest, and returns the token to read from next time. An error
	// wrapping ErrRescan means the feed cannot say what changed (a token the
	// service no longer accepts, a folder moved or renamed): the crawl
	// lists the targets instead.
	Changes(ctx context.Context, token string, fn func(Change) error) (string, error)
	// Inside reports whether a file with these parent folders is inside
	// the targets. The crawl asks it about the stored parents of an indexed
	// file the feed reports outside the targets: a file reached through a
	// shortcut lives outside and stays indexed.
	Inside(ctx context.Context, parents []string) (bool, error)
}

// Change is one changed file of a changes feed.
type Change struct {
	ID string
	// Gone: deleted for good, trashed, no longer visible to the user, or of
	// a type that is never indexed. Entry is then empty.
	Gone bool
	// Outside: the file exists but is not inside the targets (moved out, or
	// a file outside that changed). Entry holds its state, Path empty.
	Outside bool
	// Entry is the file's state now, with its path, when inside the targets.
	Entry Entry
}

// ErrRescan is wrapped by ChangeSource.Changes when the feed cannot tell
// what changed; the crawl then lists the targets (a reconciling listing),
// with the reason as a notice.
var ErrRescan = errors.New("the changes feed cannot be used; listing the targets")

// mode is how a crawl finds what to do.
type mode int

const (
	// modeFull lists everything and processes every listed file (content
	// hashes keep unchanged files from being summarised again), then
	// removes what was not listed: a first crawl, a changed fingerprint,
	// `--full`.
	modeFull mode = iota
	// modeReconcile lists everything but processes only the files whose
	// listing differs from the index (new, changed, moved, renamed), then
	// removes what was not listed: the incremental crawl of a source
	// without a changes feed, or with no usable token.
	modeReconcile
	// modeFeed reads the changes feed from the stored page token.
	modeFeed
)

func (m mode) String() string {
	return [...]string{"full", "reconcile", "feed"}[m]
}

// chooseMode decides how a crawl runs: full when asked or when the target
// changed; else the changes feed when the source has one and a token is
// stored; else a reconciling listing.
func chooseMode(full, hasFeed bool, token string) mode {
	switch {
	case full:
		return modeFull
	case hasFeed && token != "":
		return modeFeed
	}
	return modeReconcile
}

// diff is how a listed file differs from its indexed record.
type diff int

const (
	diffSame    diff = iota // nothing to do
	diffNew                 // not indexed (or skipped last time without a record)
	diffChanged             // modified time, size or type differ: content may differ
	diffMoved               // same content metadata, another name, folder or link
	diffStale               // unchanged, but read by an older text extraction
)

// sameTime compares modification times at the precision every back end
// keeps (Postgres stores microseconds).
func sameTime(a, b time.Time) bool {
	return a.UTC().Truncate(time.Microsecond).Equal(b.UTC().Truncate(time.Microsecond))
}

// compareEntry decides what a reconciling listing does with e given its
// indexed record (nil when none) and the running extraction's version.
func compareEntry(e Entry, f *store.File, version int) diff {
	switch {
	case f == nil:
		return diffNew
	case !sameTime(e.ModifiedAt, f.ModifiedAt) || e.Size != f.Size || e.MimeType != f.MimeType:
		return diffChanged
	case e.Name != f.Name || e.Path != f.Path || e.WebLink != f.WebLink || !slices.Equal(e.Parents, f.Parents):
		return diffMoved
	case f.ExtractVersion < version:
		return diffStale
	}
	return diffSame
}

// countStale counts the files to read again only because an older
// extraction read them.
func countStale(ws []work) int {
	n := 0
	for _, w := range ws {
		if w.diff == diffStale {
			n++
		}
	}
	return n
}

// action is what a crawl does with one file of the changes feed.
type action int

const (
	actIgnore action = iota // not indexed and not to be
	actUpsert               // index (or re-index) the entry
	actRemove               // remove from the index
)

// decideChange decides what to do with a change given the file's indexed
// record (nil when none) and, for a change outside the targets, whether
// the record's own parents are inside the targets (storedInside; a file
// indexed through a shortcut has parents outside). It returns the entry to
// index for actUpsert: a file reached through a shortcut keeps its path.
func decideChange(ch Change, stored *store.File, storedInside bool) (action, Entry) {
	switch {
	case ch.Gone && stored == nil, ch.Outside && stored == nil:
		return actIgnore, Entry{}
	case ch.Gone:
		return actRemove, Entry{}
	case ch.Outside && storedInside:
		return actRemove, Entry{} // moved out of the targets
	case ch.Outside:
		e := ch.Entry
		e.Path = stored.Path // reached through a shortcut in the targets
		return actUpsert, e
	}
	return actUpsert, ch.Entry
}

// work is a file to process, with how it differs from the index.
type work struct {
	Entry
	diff diff
	// moved: indexed under another name, folder or link; renamed: under
	// another name (the name is part of the file's embedding, so an
	// unchanged text is indexed again).
	moved, renamed bool
}

// newWork describes e for processing given its record (nil when none).
func newWork(e Entry, f *store.File, d diff) work {
	w := work{Entry: e, diff: d}
	if f != nil {
		w.renamed = e.Name != f.Name
		w.moved = w.renamed || e.Path != f.Path || e.WebLink != f.WebLink || !slices.Equal(e.Parents, f.Parents)
	}
	return w
}

// lookupBatch is how many records a listing looks up at once.
const lookupBatch = 256

// idSet is a compact set of file IDs (64-bit FNV hashes: a collision could
// only keep one stale file a little longer), so that a listing of a
// million files remembers what it saw in about 20 MB.
type idSet map[uint64]struct{}

func idKey(id string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(id))
	return h.Sum64()
}

func (s idSet) add(id string)      { s[idKey(id)] = struct{}{} }
func (s idSet) has(id string) bool { _, ok := s[idKey(id)]; return ok }

// listing streams a source's complete listing against the index: every
// entry is compared with its record in batches of lookupBatch, and only
// the entries to process are kept (with all, every entry: a full scan),
// so memory grows with the changes, not with the folder. seen holds every
// listed ID.
type listing struct {
	all     bool
	version int // the running extraction's (compareEntry)
	work    []work
	seen    idSet
	listed  int
	same    int
	pending []Entry
	// claim is called with every batch of listed IDs before it is
	// compared (claimLegacy).
	claim func(ctx context.Context, ids []string) error
	// records reads a batch's records (readRecords); unreadable holds
	// the listed files whose records could not be read.
	records    recordReader
	unreadable []Problem
}

func (l *listing) add(ctx context.Context, idx Index, e Entry) error {
	l.listed++
	l.seen.add(e.ID)
	l.pending = append(l.pending, e)
	if len(l.pending) >= lookupBatch {
		return l.flush(ctx, idx)
	}
	return nil
}

func (l *listing) flush(ctx context.Context, idx Index) error {
	if len(l.pending) == 0 {
		return nil
	}
	ids := make([]string, len(l.pending))
	for i, e := range l.pending {
		ids[i] = e.ID
	}
	if l.claim != nil {
		if err := l.claim(ctx, ids); err != nil {
			return err
		}
	}
	recs, bad, err := l.records.read(ctx, idx, ids)
	if err != nil {
		return fmt.Errorf("read indexed files: %w", err)
	}
	byID := make(map[string]*store.File, len(recs))
	for i := range recs {
		byID[recs[i].ID] = &recs[i]
	}
	for _, e := range l.pending {
		if reason, ok := bad[e.ID]; ok {
			l.unreadable = append(l.unreadable, Problem{e.Name, e.Path, reason})
		}
		rec := byID[e.ID]
		d := compareEntry(e, rec, l.version)
		switch {
		case d == diffSame && l.all:
			// A full scan reads every file (its text hash decides).
			l.work = append(l.work, newWork(e, rec, diffChanged))
		case d == diffSame:
			l.same++
		default:
			l.work = append(l.work, newWork(e, rec, d))
		}
	}
	l.pending = l.pending[:0]
	return nil
}

// recordReader reads the indexed records of a batch of files past the
// ones that cannot be read. A record the store reports damaged (a
// store.DamagedError naming the file: a keywords list that is not JSON,
// say) is left out, as if the file were not indexed, so the crawl indexes
// it again; unless dryRun, forget removes it first (a search would
// otherwise keep failing on it, and an unchanged text would keep it). bad
// maps each such file to the reason. Damage not tied to one record is
// returned as the error.
type recordReader struct {
	dryRun bool
	forget func(ctx context.Context, ids []string) error
}

func (r recordReader) read(ctx context.Context, idx Index, ids []string) (recs []store.File, bad map[string]string, err error) {
	for {
		recs, err = idx.GetFiles(ctx, ids)
		var de *store.DamagedError
		if err == nil || !errors.As(err, &de) || de.FileID == "" || !slices.Contains(ids, de.FileID) {
			break
		}
		if bad == nil {
			bad = map[string]string{}
		}
		bad[de.FileID] = de.Err.Error()
		ids = slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return id == de.FileID })
	}
	if err != nil || len(bad) == 0 || r.dryRun || r.forget == nil {
		return recs, bad, err
	}
	gone := make([]string, 0, len(bad))
	for id := range bad {
		gone = append(gone, id)
	}
	slices.Sort(gone)
	if err := r.forget(context.WithoutCancel(ctx), gone); err != nil {
		return nil, nil, fmt.Errorf("remove %d unreadable records: %w", len(gone), err)
	}
	return recs, bad, nil
}

// feedResult is what reading a changes feed decided.
type feedResult struct {
	token      string    // the token to commit once everything is done
	work       []work    // files to index
	removed    []string  // IDs to remove from the index
	changes    int       // changes read
	unreadable []Problem // files whose records could not be read (recordReader)
}

// readFeed reads src's changes from token and decides every change
// against the index.
func readFeed(ctx context.Context, src ChangeSource, idx Index, token string, records recordReader, version int) (feedResult, error) {
	var res feedResult
	order := []string{}
	last := map[string]Change{}
	next, err := src.Changes(ctx, token, func(ch Change) error {
		res.changes++
		if _, ok := last[ch.ID]; !ok {
			order = append(order, ch.ID)
		}
		last[ch.ID] = ch // a later change of the same file wins
		return nil
	})
	if err != nil {
		return res, err
	}
	res.token = next
	for start := 0; start < len(order); start += lookupBatch {
		ids := order[start:min(start+lookupBatch, len(order))]
		recs, bad, err := records.read(ctx, idx, ids)
		if err != nil {
			return res, fmt.Errorf("read indexed files: %w", err)
		}
		byID := make(map[string]*store.File, len(recs))
		for i := range recs {
			byID[recs[i].ID] = &recs[i]
		}
		for _, id := range ids {
			ch, stored := last[id], byID[id]
			if reason, ok := bad[id]; ok {
				name := ch.Entry.Name
				if name == "" {
					name = id // gone: the feed names it no more, and its record was unreadable
				}
				res.unreadable = append(res.unreadable, Problem{name, ch.Entry.Path, reason})
			}
			inside := false
			if ch.Outside && stored != nil {
				if inside, err = src.Inside(ctx, stored.Parents); err != nil {
					return res, err
				}
			}
			act, e := decideChange(ch, stored, inside)
			switch act {
			case actRemove:
				res.removed = append(res.removed, id)
			case actUpsert:
				d := compareEntry(e, stored, version)
				if d == diffSame {
					continue // a change that does not touch what is indexed (sharing, starring)
				}
				res.work = append(res.work, newWork(e, stored, d))
			}
		}
	}
	return res, nil
}

// pageToken and setPageToken read and write the changes-feed page token of
// a sync state.
func pageToken(s store.SyncState) string { return s.PageToken }

func setPageToken(s *store.SyncState, tok string) { s.PageToken = tok }
