package storetest

import (
	"context"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

// testExtractVersion: the version of the extraction that read a file is
// kept with it (written by UpsertFile and UpdateFileMeta, read by
// GetFiles; 0 when none was given), and a source's sync state keeps the
// version of the crawl that last re-read its files.
func testExtractVersion(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	old := file("a", "a.txt", "text read by version 3")
	old.ExtractVersion = 3
	upsert(t, ctx, s, old)
	upsert(t, ctx, s, file("b", "b.txt", "no version given"))
	if g := getOne(t, ctx, s, "a"); g.ExtractVersion != 3 {
		t.Errorf("ExtractVersion after UpsertFile = %d, want 3", g.ExtractVersion)
	}
	if g := getOne(t, ctx, s, "b"); g.ExtractVersion != 0 {
		t.Errorf("ExtractVersion of a file written without one = %d, want 0", g.ExtractVersion)
	}

	// Read again by a newer extraction, same text: only the metadata and
	// the version are written.
	mu, ok := s.(interface {
		UpdateFileMeta(ctx context.Context, f store.File) error
	})
	if !ok {
		t.Fatalf("%T has no UpdateFileMeta", s)
	}
	meta := old
	meta.ExtractVersion = 4
	if err := mu.UpdateFileMeta(ctx, meta); err != nil {
		t.Fatalf("UpdateFileMeta: %v", err)
	}
	if g := getOne(t, ctx, s, "a"); g.ExtractVersion != 4 {
		t.Errorf("ExtractVersion after UpdateFileMeta = %d, want 4", g.ExtractVersion)
	}
	// Rewritten whole without a version: 0 again (the caller says which
	// extraction read the text).
	upsert(t, ctx, s, file("a", "a.txt", "text read by version 3"))
	if g := getOne(t, ctx, s, "a"); g.ExtractVersion != 0 {
		t.Errorf("ExtractVersion after an UpsertFile without one = %d, want 0", g.ExtractVersion)
	}

	st, err := s.SyncState(ctx, "local:/x")
	if err != nil || st.ExtractVersion != 0 {
		t.Fatalf("SyncState of a new source = %+v, %v; want version 0", st, err)
	}
	for _, v := range []int{7, 2} {
		if err := s.SetSyncState(ctx, store.SyncState{Source: "local:/x", Fingerprint: "fp", ExtractVersion: v}); err != nil {
			t.Fatalf("SetSyncState(version %d): %v", v, err)
		}
		if st, err := s.SyncState(ctx, "local:/x"); err != nil || st.ExtractVersion != v {
			t.Errorf("SyncState after storing version %d = %+v, %v", v, st, err)
		}
	}
	states, err := s.SyncStates(ctx)
	if err != nil || len(states) != 1 || states[0].ExtractVersion != 2 {
		t.Errorf("SyncStates = %+v, %v; want one at version 2", states, err)
	}
}
