package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

// ChunkBackfilling is what RunChunkBackfill needs of a back end beyond the
// contract: an index it can take back to before chunks had full-text
// tokens, or leave as an interrupted backfill leaves it.
type ChunkBackfilling struct {
	// New returns a fresh, migrated store whose chunk full-text backfill
	// takes batches of 2 chunks, and a function that closes it and opens
	// the same index again, running a pending backfill. Both clean up
	// through t.Cleanup.
	New func(t *testing.T) (store.Store, Reopen)
	// Downgrade makes the open index one of the schema before chunks had
	// full-text tokens (their tokens gone, the migrations from the one
	// adding them unrecorded), so that opening it again upgrades it.
	Downgrade func(t *testing.T, s store.Store)
	// Interrupt removes every chunk's full-text tokens and stores pos as
	// the backfill's position (store.MetaChunkBackfill), as a backfill
	// interrupted there leaves the index.
	Interrupt func(t *testing.T, s store.Store, pos string)
	// Indexed returns the number of full-text entries of chunks (a row or
	// a token vector) and the number of chunks without one.
	Indexed func(t *testing.T, s store.Store) (entries, missing int)
	// Meta reports whether gds_meta holds key.
	Meta func(t *testing.T, s store.Store, key string) bool
}

// RunChunkBackfill runs the suite of the chunk full-text backfill
// (store.BackfillChunkFTS): an index from before chunks had full-text
// tokens is upgraded on open, in batches; an interrupted backfill resumes
// at its position.
func RunChunkBackfill(t *testing.T, b ChunkBackfilling) {
	t.Helper()
	t.Run("Upgrade", func(t *testing.T) { testChunkBackfillUpgrade(t, b) })
	t.Run("Resumes", func(t *testing.T) { testChunkBackfillResumes(t, b) })
}

// writeChunked writes files a, b and c with 3 chunks each, every chunk
// saying "common" and its own word "w<file><ordinal>".
func writeChunked(t *testing.T, ctx context.Context, s store.Store) {
	t.Helper()
	if err := s.EnsureEmbeddingSpace(ctx, Space); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b", "c"} {
		var cs []store.Chunk
		for i := range 3 {
			cs = append(cs, chunk(i, 0, fmt.Sprintf("common w%s%d", id, i), 1))
		}
		upsert(t, ctx, s, file(id, id+".txt", "file text"), cs...)
	}
}

// checkIndexed fails unless all 9 chunks have one full-text entry and the
// backfill's position is gone.
func (b ChunkBackfilling) checkIndexed(t *testing.T, s store.Store, when string) {
	t.Helper()
	if entries, missing := b.Indexed(t, s); entries != 9 || missing != 0 {
		t.Errorf("%s: %d chunk full-text entries, %d chunks without; want 9, 0", when, entries, missing)
	}
	if b.Meta(t, s, store.MetaChunkBackfill) {
		t.Errorf("%s: the backfill position is still stored", when)
	}
}

// An index from before chunk full text is upgraded on open: every stored
// chunk becomes searchable, in several batches, and the position is
// removed; another open has nothing to do.
func testChunkBackfillUpgrade(t *testing.T, b ChunkBackfilling) {
	ctx := context.Background()
	s, reopen := b.New(t)
	writeChunked(t, ctx, s)
	b.Downgrade(t, s)
	s = reopen(t, nil)
	var all []chunkKey
	for _, id := range []string{"a", "b", "c"} {
		for i := range 3 {
			all = append(all, chunkKey{id, i})
		}
	}
	wantChunkIDs(t, ctx, s, "common", all...)
	wantChunkIDs(t, ctx, s, "wb2", chunkKey{"b", 2})
	b.checkIndexed(t, s, "after the upgrade")
	s = reopen(t, nil)
	b.checkIndexed(t, s, "after another open")
}

// An interrupted backfill resumes at the stored position: the chunks up
// to it are not read again (here they have no tokens either), the ones
// after it are indexed.
func testChunkBackfillResumes(t *testing.T, b ChunkBackfilling) {
	ctx := context.Background()
	s, reopen := b.New(t)
	writeChunked(t, ctx, s)
	b.Interrupt(t, s, `["b",0]`)
	s = reopen(t, nil)
	wantChunkIDs(t, ctx, s, "common", chunkKey{"b", 1}, chunkKey{"b", 2}, chunkKey{"c", 0}, chunkKey{"c", 1}, chunkKey{"c", 2})
	if b.Meta(t, s, store.MetaChunkBackfill) {
		t.Error("after resuming the backfill position is still stored")
	}
}
