package storetest

import (
	"fmt"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

// testFolderCounts: FolderCounts counts the files of each source directly
// in each folder (not below it), sorted by source and path by bytes, and
// follows deletions.
func testFolderCounts(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	counts := func() string {
		t.Helper()
		cs, err := s.FolderCounts(ctx)
		if err != nil {
			t.Fatalf("FolderCounts: %v", err)
		}
		return fmt.Sprint(cs)
	}
	if got := counts(); got != "[]" {
		t.Fatalf("FolderCounts of an empty store = %s, want []", got)
	}
	mk := func(id, source, path string) {
		f := file(id, id+".txt", "text "+id)
		f.Source, f.Path = source, path
		upsert(t, ctx, s, f)
	}
	mk("a1", "local:/docs", "Reports")
	mk("a2", "local:/docs", "Reports")
	mk("a3", "local:/docs", "Reports/2024")
	mk("a4", "local:/docs", "")
	mk("b1", "drive:F1", "Reports")
	mk("b2", "drive:F1", "Zeta")
	mk("b3", "drive:F1", "zeta")
	mk("u1", store.SourceUpload, "")
	want := "[{drive:F1 Reports 1} {drive:F1 Zeta 1} {drive:F1 zeta 1} {local:/docs  1} {local:/docs Reports 2} {local:/docs Reports/2024 1} {upload  1}]"
	if got := counts(); got != want {
		t.Fatalf("FolderCounts = %s\nwant %s", got, want)
	}
	if err := s.DeleteFiles(ctx, []string{"a1", "a3"}); err != nil {
		t.Fatal(err)
	}
	want = "[{drive:F1 Reports 1} {drive:F1 Zeta 1} {drive:F1 zeta 1} {local:/docs  1} {local:/docs Reports 1} {upload  1}]"
	if got := counts(); got != want {
		t.Fatalf("FolderCounts after deleting a1, a3 = %s\nwant %s", got, want)
	}
}
