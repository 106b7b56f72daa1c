package drivesource_test

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/crawl/drivesource"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/drive/drivetest"
)

// source is the Drive source over f's targets (or ids) with the fixture's
// size limit.
func source(t *testing.T, f *drivetest.Fixture, ids ...string) *drivesource.Source {
	t.Helper()
	if len(ids) == 0 {
		ids = f.Targets
	}
	return drivesource.New(f.Client(t, drive.Options{}), drivesource.Options{FolderIDs: ids, MaxFileBytes: drivetest.MaxBytes})
}

// listAll lists src into a name → entry map, failing on duplicates.
func listAll(t *testing.T, src crawl.Source, since time.Time) map[string]crawl.Entry {
	t.Helper()
	out := map[string]crawl.Entry{}
	err := src.List(context.Background(), since, func(e crawl.Entry) error {
		if _, dup := out[e.Name]; dup {
			t.Errorf("%s listed twice", e.Name)
		}
		out[e.Name] = e
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func names[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
