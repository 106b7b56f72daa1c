package crawl_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// damagedFolder crawls a folder of three files into a new index and then
// writes garbage over the keywords of note-1.txt's record (the probe of
// a record SQLite reads but gds cannot decode).
func damagedFolder(t *testing.T) (dir, path string, opts crawl.Options, ids []string) {
	t.Helper()
	ctx := context.Background()
	dir = t.TempDir()
	old := time.Now().Add(-time.Hour)
	for i := range 3 {
		p := filepath.Join(dir, fmt.Sprintf("note-%d.txt", i))
		if err := os.WriteFile(p, []byte(fmt.Sprintf("note %d about the quarterly budget review", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
		ids = append(ids, crawl.LocalID(dir, filepath.Base(p)))
	}
	path = filepath.Join(t.TempDir(), "index.db")
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	src, err := crawl.NewLocalSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	opts = crawl.Options{Source: src, Index: st, Provider: offline.New(), SummaryMaxLength: 120, Concurrency: 2}
	if sum, err := crawl.Run(ctx, opts); err != nil || sum.New != 3 {
		t.Fatalf("first crawl: %+v, %v", sum, err)
	}
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`UPDATE drive_file_index SET keywords = ? WHERE file_id = ?`, "\x9d{garbage", ids[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetFiles(ctx, ids); !errors.Is(err, store.ErrDamaged) {
		t.Fatalf("the damaged record reads: %v", err)
	}
	return dir, path, opts, ids
}

// A crawl that meets a record it cannot read names the file, indexes it
// again and finishes; the index reads whole afterwards. A dry run names it
// and changes nothing.
func TestCrawlReindexesAnUnreadableRecord(t *testing.T) {
	ctx := context.Background()
	for _, full := range []bool{false, true} {
		t.Run(fmt.Sprint("full=", full), func(t *testing.T) {
			_, _, opts, ids := damagedFolder(t)
			opts.Full = full

			dry := opts
			dry.DryRun = true
			sum, err := crawl.Run(ctx, dry)
			if err != nil || len(sum.Unreadable) != 1 || sum.Unreadable[0].Name != "note-1.txt" {
				t.Fatalf("dry run: %+v, %v", sum, err)
			}
			if _, err := opts.Index.GetFiles(ctx, ids); !errors.Is(err, store.ErrDamaged) {
				t.Fatalf("the dry run changed the record: %v", err)
			}

			sum, err = crawl.Run(ctx, opts)
			if err != nil {
				t.Fatalf("crawl: %v", err)
			}
			if len(sum.Unreadable) != 1 || sum.Unreadable[0].Name != "note-1.txt" || sum.Unreadable[0].Reason == "" {
				t.Errorf("unreadable = %+v, want note-1.txt with a reason", sum.Unreadable)
			}
			if sum.New != 1 || len(sum.Failed) != 0 || !sum.CheckpointSaved {
				t.Errorf("summary %+v: want the file indexed again as new and the checkpoint saved", sum)
			}
			files, err := opts.Index.GetFiles(ctx, ids)
			if err != nil || len(files) != 3 {
				t.Fatalf("after the crawl: %d files, %v", len(files), err)
			}
			if len(files[1].Keywords) == 0 {
				t.Errorf("note-1.txt indexed again without keywords: %+v", files[1])
			}
			if sum, err := crawl.Run(ctx, opts); err != nil || len(sum.Unreadable) != 0 {
				t.Errorf("the next crawl: %+v, %v", sum, err)
			}
		})
	}
}

// damagedPages is an index whose pages SQLite reports damaged on every
// read of records: the crawl stops with the damage.
type damagedPages struct{ *sqlite.Store }

func (d damagedPages) GetFiles(context.Context, []string) ([]store.File, error) {
	return nil, &store.DamagedError{Backend: sqlite.Backend, Location: d.Path(), Err: errors.New("database disk image is malformed")}
}

// A crawl stopped by damage before it committed anything claims no
// checkpoint: CheckpointSaved is false though the previous crawl's is
// known.
func TestCrawlStoppedByDamageClaimsNoCheckpoint(t *testing.T) {
	ctx := context.Background()
	_, _, opts, _ := damagedFolder(t)
	opts.Index = damagedPages{opts.Index.(*sqlite.Store)}
	sum, err := crawl.Run(ctx, opts)
	if !errors.Is(err, store.ErrDamaged) {
		t.Fatalf("crawl: %v, want the damage", err)
	}
	if sum.CheckpointSaved || sum.Checkpoint.IsZero() {
		t.Errorf("summary %+v: want the previous checkpoint known and none claimed", sum)
	}
}
