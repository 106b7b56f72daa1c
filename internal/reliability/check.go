package reliability

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store"
)

// Index is what the checks read from a store; both back ends implement it.
type Index interface {
	SyncStates(ctx context.Context) ([]store.SyncState, error)
	FilterIndexed(ctx context.Context, ids []string) ([]string, error)
	ContentHashes(ctx context.Context, ids []string) (map[string]string, error)
	ChunkSearch(ctx context.Context, vec []float32, f store.Filter, k int) ([]store.ChunkHit, error)
	Stats(ctx context.Context) (store.Stats, error)
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
}

// batch is how many IDs one store call gets.
const batch = 500

// indexedSet returns the IDs of files that are in the index.
func indexedSet(ctx context.Context, idx Index, files []Expect) (map[string]bool, error) {
	got := map[string]bool{}
	for start := 0; start < len(files); start += batch {
		ids := make([]string, 0, batch)
		for _, f := range files[start:min(start+batch, len(files))] {
			ids = append(ids, f.ID)
		}
		in, err := idx.FilterIndexed(ctx, ids)
		if err != nil {
			return nil, fmt.Errorf("read indexed files: %w", err)
		}
		for _, id := range in {
			got[id] = true
		}
	}
	return got, nil
}

// Snapshot is the state of an index after a stop.
type Snapshot struct {
	Checkpoint time.Time // sync state (zero when none)
	Indexed    int       // corpus files in the index
	// Behind counts the corpus files at or before the checkpoint: those the
	// next incremental run will not list again.
	Behind int

	indexed map[string]bool // IDs of the indexed corpus files
}

// CheckpointError says the checkpoint claims files that are not indexed.
type CheckpointError struct {
	Checkpoint time.Time
	Missing    []string // relative paths, at most 10
	Count      int
}

func (e *CheckpointError) Error() string {
	return fmt.Sprintf("checkpoint %s claims %d files that are not indexed (e.g. %s)",
		e.Checkpoint.Format(time.RFC3339Nano), e.Count, strings.Join(e.Missing, ", "))
}

// CheckCheckpoint checks the crash-safety invariant: every indexable file
// modified at or before the sync checkpoint is indexed (a skipped file is
// at most indexed by name only, so it is not required). It returns a *CheckpointError when
// the checkpoint got ahead of the committed rows. files are in ModTime order.
func CheckCheckpoint(ctx context.Context, idx Index, files []Expect) (Snapshot, error) {
	var snap Snapshot
	states, err := idx.SyncStates(ctx)
	if err != nil {
		return snap, fmt.Errorf("read sync state: %w", err)
	}
	// The harness crawls one source.
	st := store.LatestSync(states)
	snap.Checkpoint = st.ModifiedAt
	in, err := indexedSet(ctx, idx, files)
	if err != nil {
		return snap, err
	}
	snap.indexed = in
	perr := &CheckpointError{Checkpoint: st.ModifiedAt}
	for _, f := range files {
		if in[f.ID] {
			snap.Indexed++
		}
		if st.ModifiedAt.IsZero() || f.ModTime.After(st.ModifiedAt) {
			continue
		}
		snap.Behind++
		if f.Indexable() && !in[f.ID] {
			perr.Count++
			if len(perr.Missing) < 10 {
				perr.Missing = append(perr.Missing, f.Rel)
			}
		}
	}
	if perr.Count > 0 {
		return snap, perr
	}
	return snap, nil
}

// CheckGraceful checks that a graceful stop saved its state. prev is the
// snapshot taken before the stopped run, snap the one after it. Every file
// the run committed for the first time, from the old checkpoint on without a
// gap, must be covered by the new checkpoint: a graceful stop must not leave
// work it finished to be redone because it forgot to record it. The run of
// files ends at the first one the stopped run did not newly commit (not
// indexed, indexed before the run, or a skipped file, which leaves no trace
// in the index), so the check never demands more than the run finished.
func CheckGraceful(files []Expect, prev, snap Snapshot) error {
	covered := prev.Checkpoint
	for _, f := range files {
		if !prev.Checkpoint.IsZero() && !f.ModTime.After(prev.Checkpoint) {
			continue
		}
		if !f.Indexable() || !snap.indexed[f.ID] || prev.indexed[f.ID] {
			break
		}
		covered = f.ModTime
	}
	if snap.Checkpoint.Before(covered) {
		return fmt.Errorf("graceful stop did not save its state: checkpoint %s, but the run committed every file up to %s",
			snap.Checkpoint.Format(time.RFC3339Nano), covered.Format(time.RFC3339Nano))
	}
	return nil
}

// Completeness is the result of CheckComplete.
type Completeness struct {
	Indexed   int // indexable corpus files in the index
	Missing   int // indexable files not in the index: files lost
	WrongHash int // indexed with another content hash
	Unwanted  int // skipped files that were indexed with content anyway
	NameOnly  int // skipped files indexed by name only (crawl.IndexNameOnly), as they should be
	ExtraRows int // files in the index that are not in the corpus
	BadChunks int // files whose chunks are missing, duplicated or wrong
	Problems  []string
}

// Lost is the number of files the index does not hold correctly.
func (c Completeness) Lost() int { return c.Missing + c.WrongHash }

// OK reports whether the index is exactly the expected one.
func (c Completeness) OK() bool {
	return c.Missing+c.WrongHash+c.Unwanted+c.ExtraRows+c.BadChunks == 0
}

func (c *Completeness) note(format string, args ...any) {
	if len(c.Problems) < 10 {
		c.Problems = append(c.Problems, fmt.Sprintf(format, args...))
	}
}

// CheckComplete checks the finished index: every indexable file present
// once with the right content hash and exactly its expected chunks, no
// skipped file indexed except by name only, no other row. It returns an error listing the first
// problems when the index is not complete.
func CheckComplete(ctx context.Context, idx Index, files []Expect) (Completeness, error) {
	var c Completeness
	want := map[string]Expect{}
	var ids []string
	for _, f := range files {
		want[f.ID] = f
		ids = append(ids, f.ID)
	}
	hashes := map[string]string{}
	for start := 0; start < len(ids); start += batch {
		h, err := idx.ContentHashes(ctx, ids[start:min(start+batch, len(ids))])
		if err != nil {
			return c, fmt.Errorf("read content hashes: %w", err)
		}
		for k, v := range h {
			hashes[k] = v
		}
	}
	var wantChunks int
	for _, f := range files {
		got, ok := hashes[f.ID]
		switch {
		case !f.Indexable() && ok && strings.HasPrefix(got, crawl.NameOnlyHashPrefix):
			c.NameOnly++ // no chunks: the total chunk count below checks it
		case !f.Indexable() && ok:
			c.Unwanted++
			c.note("skipped file %s is indexed with content", f.Rel)
		case !f.Indexable():
		case !ok:
			c.Missing++
			c.note("%s is not indexed", f.Rel)
		case got != f.Hash:
			c.WrongHash++
			c.note("%s has content hash %.12s…, want %.12s…", f.Rel, got, f.Hash)
		default:
			c.Indexed++
			wantChunks += len(f.Chunks)
		}
	}
	stats, err := idx.Stats(ctx)
	if err != nil {
		return c, fmt.Errorf("read index stats: %w", err)
	}
	if extra := stats.Files - c.Indexed - c.WrongHash - c.Unwanted - c.NameOnly; extra != 0 {
		c.ExtraRows = extra
		c.note("the index has %d files, %d more than the corpus accounts for", stats.Files, extra)
	}
	if err := checkChunks(ctx, idx, files, hashes, stats, &c); err != nil {
		return c, err
	}
	if stats.Chunks != wantChunks && c.BadChunks == 0 && c.ExtraRows == 0 {
		c.BadChunks++
		c.note("the index has %d chunks, want %d", stats.Chunks, wantChunks)
	}
	if !c.OK() {
		return c, fmt.Errorf("index incomplete: %s", strings.Join(c.Problems, "; "))
	}
	return c, nil
}

// checkChunks compares every indexed file's chunks with the expected ones.
// ChunkSearch restricted to a batch of IDs, with k above the number of
// chunks they hold, returns all of their chunks (an exact scan on both
// back ends).
func checkChunks(ctx context.Context, idx Index, files []Expect, hashes map[string]string, stats store.Stats, c *Completeness) error {
	if stats.Space.Dim == 0 {
		return nil
	}
	vec := make([]float32, stats.Space.Dim)
	for i := range vec {
		vec[i] = 1
	}
	const per = 100
	for start := 0; start < len(files); start += per {
		var ids []string
		k := 1
		for _, f := range files[start:min(start+per, len(files))] {
			if _, ok := hashes[f.ID]; ok {
				ids = append(ids, f.ID)
				k += len(f.Chunks) * 2 // room for duplicates
			}
		}
		if len(ids) == 0 {
			continue
		}
		hits, err := idx.ChunkSearch(ctx, vec, store.Filter{IDs: ids}, k)
		if err != nil {
			return fmt.Errorf("read chunks: %w", err)
		}
		got := map[string][]store.ChunkHit{}
		for _, h := range hits {
			got[h.FileID] = append(got[h.FileID], h)
		}
		for _, f := range files[start:min(start+per, len(files))] {
			if _, ok := hashes[f.ID]; !ok || f.Hash != hashes[f.ID] {
				continue
			}
			cs := got[f.ID]
			slices.SortFunc(cs, func(a, b store.ChunkHit) int { return a.Ordinal - b.Ordinal })
			ok := len(cs) == len(f.Chunks)
			for i := 0; ok && i < len(cs); i++ {
				ok = cs[i].Ordinal == i && cs[i].Text == f.Chunks[i]
			}
			if !ok {
				c.BadChunks++
				c.note("%s has %d chunks, want %d matching the text", f.Rel, len(cs), len(f.Chunks))
			}
		}
	}
	return nil
}
