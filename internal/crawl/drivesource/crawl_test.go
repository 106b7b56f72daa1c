package drivesource_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/drive/drivetest"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/postgres"
	"github.com/gds-cli/gds/internal/store/sqlite"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// begins counts crawl.Progress.Begin calls: a crawl that failed before any
// file was processed never begins.
type begins struct{ n int }

func (b *begins) Begin(int, bool)                        { b.n++ }
func (b *begins) File(crawl.Entry, crawl.Status, string) {}

// stores returns the back ends to test: SQLite always, Postgres when
// GDS_TEST_DATABASE_URL is set (scripts/test.sh and CI set it).
func stores(t *testing.T) map[string]func(t *testing.T) store.Store {
	out := map[string]func(t *testing.T) store.Store{
		"sqlite": func(t *testing.T) store.Store {
			s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	}
	if url := os.Getenv("GDS_TEST_DATABASE_URL"); url != "" {
		out["postgres"] = func(t *testing.T) store.Store {
			schema := storetest.FreshSchema(t, url, "gds_drive_test_")
			s, err := postgres.Open(context.Background(), url, postgres.WithSchema(schema))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		}
	} else if os.Getenv("CI") != "" {
		t.Fatal("GDS_TEST_DATABASE_URL is not set under CI: the Postgres crawl test must not be skipped")
	}
	return out
}

func TestCrawlDriveIntoStore(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) { testCrawlDriveIntoStore(t, open(t)) })
	}
}

func testCrawlDriveIntoStore(t *testing.T, st store.Store) {
	ctx := context.Background()
	f := drivetest.New(t)
	// Real uploaded documents next to the Google-native ones.
	for name, mt := range map[string]string{
		"pdftools-hello.pdf":  "application/pdf",
		"docxrs-toc1-ja.docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "realdocs", name))
		if err != nil {
			t.Fatal(err)
		}
		f.Want[name] = "Projects/Alpha/Deep"
		f.IDs[name] = f.Emu.AddBlob(f.Deep, name, mt, b)
	}
	prov := offline.New()
	progress := &begins{}
	opts := crawl.Options{Source: source(t, f), Index: st, Provider: prov, SummaryMaxLength: 200, Concurrency: 4, Progress: progress}

	sum, err := crawl.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Full || sum.New != len(f.Want) || len(sum.Failed) != 0 {
		t.Fatalf("first crawl: %+v", sum)
	}
	var skipped []string
	for _, p := range sum.Skipped {
		skipped = append(skipped, p.Name)
	}
	slices.Sort(skipped)
	if want := []string{"Giant doc", "huge.txt"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped %v (%+v), want %v", skipped, sum.Skipped, want)
	}
	checkRows(t, st, f)

	// One file changes in Drive: only it is read and reprocessed (the
	// skipped files are remembered by name only and not tried again).
	later := sum.Checkpoint.Add(time.Hour)
	f.Emu.Touch(f.IDs["deep.txt"], []byte("rewritten at the bottom of the tree: the 2027 budget"), later)
	sum, err = crawl.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Full || sum.Mode != "feed" || sum.Processed != 1 || sum.Updated != 1 || sum.New+len(sum.Skipped)+len(sum.Failed) != 0 {
		t.Fatalf("second crawl: %+v, want only deep.txt updated", sum)
	}
	if !sum.Checkpoint.Equal(later) {
		t.Errorf("checkpoint %v, want %v", sum.Checkpoint, later)
	}
	got, err := st.GetFiles(ctx, []string{f.IDs["deep.txt"]})
	if err != nil || len(got) != 1 || !got[0].ModifiedAt.Equal(later) {
		t.Errorf("deep.txt row after the change: %+v, %v", got, err)
	}
	checkRows(t, st, f)

	// Another target set: a full scan (unchanged content costs no summary).
	opts.Source = source(t, f, f.Projects)
	sum, err = crawl.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Full || sum.New != 0 || sum.Unchanged != len(f.Want)-3+2 || sum.Removed != 3 {
		t.Errorf("crawl of a new target: %+v, want a full scan of %d unchanged files (2 by name only; the Shared drive target's 3 removed)", sum, len(f.Want)-3+2)
	}

	// A folder that does not exist fails the crawl before any file.
	before, _ := st.Stats(ctx)
	progress.n = 0
	opts.Source = source(t, f, f.Projects, "1DoesNotExistXXXXXXXXXXXXXXXXXXXXX")
	sum, err = crawl.Run(ctx, opts)
	var fe *drive.FolderError
	if !errors.As(err, &fe) || fe.Problem != drive.FolderNotFound {
		t.Fatalf("crawl with a missing folder: %v", err)
	}
	after, _ := st.Stats(ctx)
	if progress.n != 0 || sum.Listed != 0 || after.Sync != before.Sync || after.Files != before.Files {
		t.Errorf("a crawl with a bad folder touched the index: begins %d, %+v, sync %+v → %+v", progress.n, sum, before.Sync, after.Sync)
	}
}

// checkRows asserts the index holds exactly the fixture's indexable files.
func checkRows(t *testing.T, st store.Store, f *drivetest.Fixture) {
	t.Helper()
	ctx := context.Background()
	stats, err := st.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The indexable files, and the two skipped ones (huge.txt, Giant doc)
	// by name only.
	if stats.Files != len(f.Want)+2 {
		t.Errorf("%d rows, want %d", stats.Files, len(f.Want)+2)
	}
	ids := make([]string, 0, len(f.IDs))
	for _, id := range f.IDs {
		ids = append(ids, id)
	}
	rows, err := st.GetFiles(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]store.File{}
	for _, r := range rows {
		byName[r.Name] = r
	}
	for name, path := range f.Want {
		r, ok := byName[name]
		switch {
		case !ok:
			t.Errorf("%s is not indexed", name)
		case r.Path != path || r.Source != "drive" || r.WebLink == "" || r.Summary == "" || len(r.Embedding) == 0:
			t.Errorf("%s row: path %q source %q link %q summary %q", name, r.Path, r.Source, r.WebLink, r.Summary)
		}
	}
	if mt := byName["Budget"].MimeType; mt != "application/vnd.google-apps.spreadsheet" {
		t.Errorf("Budget stored as %s, want the native Sheets type", mt)
	}
}
