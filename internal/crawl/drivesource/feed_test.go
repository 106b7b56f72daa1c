package drivesource_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/drive/drivetest"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/store"
)

// The Drive acceptance of incremental crawls, through the emulator's changes feed
// and both stores: after a full crawl, a file moved into a target folder
// with an old modification time and a deleted file are both reflected by
// a plain incremental crawl, and a file moved between the two target
// folders keeps one entry, with its new path. Also: renamed, moved out,
// trashed; a refused page token falls back to a listing with a notice.
func TestFeedCrawlSeesMovesAndDeletions(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) { testFeedCrawl(t, open(t)) })
	}
}

func testFeedCrawl(t *testing.T, st store.Store) {
	ctx := context.Background()
	f := drivetest.New(t)
	e := f.Emu
	old := time.Date(2014, 6, 1, 12, 0, 0, 0, time.UTC)
	archive := e.AddFile(driveemu.File{Name: "archive.txt", MimeType: "text/plain", Parents: []string{"root"},
		Content: []byte("an old lighthouse report from 2014"), ModifiedTime: old})
	opts := crawl.Options{Source: source(t, f), Index: st, Provider: offline.New(), SummaryMaxLength: 200, Concurrency: 3}
	sum, err := crawl.Run(ctx, opts)
	if err != nil || sum.Mode != "full" || len(sum.Failed) != 0 {
		t.Fatalf("first crawl: %+v, %v", sum, err)
	}
	state, _ := st.SyncState(ctx, "drive")
	if state.PageToken == "" {
		t.Fatalf("no page token after the full crawl: %+v", state)
	}

	e.Move(archive, f.Deep)                         // moved in, 2014
	e.Delete(f.IDs["deep.txt"])                     // deleted
	e.Move(f.IDs["notes.txt"], f.SharedSub)         // between the two targets (My Drive → Shared drive)
	e.Rename(f.IDs["Plan"], "Plan v2", time.Time{}) // renamed
	e.Move(f.IDs["Budget"], e.RootID())             // moved out
	e.Trash(f.IDs["team-notes.txt"], true)          // trashed
	e.AddBlob("root", "elsewhere.txt", "text/plain", []byte("never in the targets"))
	sum, err = crawl.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Full || sum.Mode != "feed" || sum.New != 1 || sum.Moved != 2 || sum.Removed != 3 || sum.Updated != 0 || len(sum.Failed) != 0 {
		t.Fatalf("incremental crawl: %+v; want feed, 1 new (archive), 2 moved (notes, Plan), 3 removed", sum)
	}
	rows := byName(t, st)
	if r, ok := rows["archive.txt"]; !ok || r.Path != "Projects/Alpha/Deep" || !r.ModifiedAt.Equal(old) {
		t.Errorf("archive.txt moved in: %+v (present %v)", r, ok)
	}
	if r := rows["notes.txt"]; r.Path != "Shared/Specs" || r.ID != f.IDs["notes.txt"] {
		t.Errorf("notes.txt moved between targets: %+v", r)
	}
	if r := rows["Plan v2"]; r.ID != f.IDs["Plan"] {
		t.Errorf("Plan renamed: %+v", rows)
	}
	for _, gone := range []string{"deep.txt", "Budget", "team-notes.txt", "Plan", "elsewhere.txt"} {
		if _, ok := rows[gone]; ok {
			t.Errorf("%s is still indexed", gone)
		}
	}
	n := 0
	for _, r := range rows {
		if r.ID == f.IDs["notes.txt"] {
			n++
		}
	}
	if n != 1 {
		t.Errorf("notes.txt has %d entries, want 1", n)
	}
	next, _ := st.SyncState(ctx, "drive")
	if next.PageToken == state.PageToken || next.PageToken == "" {
		t.Errorf("page token %q after the incremental crawl (was %q)", next.PageToken, state.PageToken)
	}

	// Nothing changed: the feed is read, nothing else.
	sum, err = crawl.Run(ctx, opts)
	if err != nil || sum.Mode != "feed" || sum.Processed != 0 || sum.Removed != 0 {
		t.Fatalf("crawl with nothing changed: %+v, %v", sum, err)
	}

	// Drive refuses the stored token: the crawl lists the targets (unchanged
	// files are not read) and says why; the index stays right.
	e.Touch(f.IDs["spec.csv"], []byte("name,value\nlatency,40ms\n"), time.Time{})
	e.ExpireChanges()
	sum, err = crawl.Run(ctx, opts)
	if err != nil || sum.Mode != "reconcile" || !strings.Contains(sum.Notice, "no longer accepts") || sum.Processed != 1 || sum.Updated != 1 {
		t.Fatalf("crawl with a refused token: %+v, %v", sum, err)
	}
	if after, _ := st.SyncState(ctx, "drive"); after.PageToken != e.StartPageToken() {
		t.Errorf("token after the fallback listing %q, want the current %q", after.PageToken, e.StartPageToken())
	}
}

func byName(t *testing.T, st store.Store) map[string]store.File {
	t.Helper()
	ctx := context.Background()
	ids, err := st.SourceIDs(ctx, "drive")
	if err != nil {
		t.Fatal(err)
	}
	files, err := st.GetFiles(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]store.File{}
	for _, f := range files {
		out[f.Name] = f
	}
	return out
}

// failOnce fails the first Open of one file, as a dropped download would.
type failOnce struct {
	crawl.ChangeSource
	id     string
	failed atomic.Bool
}

func (s *failOnce) Open(ctx context.Context, e crawl.Entry) (io.ReadCloser, error) {
	if e.ID == s.id && s.failed.CompareAndSwap(false, true) {
		return nil, errors.New("connection reset")
	}
	return s.ChangeSource.Open(ctx, e)
}

// A file that fails keeps the old page token, so the next crawl reads its
// change again: a change is never lost to a failure (or a crash, which
// commits no token either).
func TestFeedKeepsTheTokenWhenAFileFails(t *testing.T) {
	ctx := context.Background()
	f := drivetest.New(t)
	st := stores(t)["sqlite"](t)
	src := &failOnce{ChangeSource: source(t, f)}
	opts := crawl.Options{Source: src, Index: st, Provider: offline.New(), SummaryMaxLength: 200}
	if _, err := crawl.Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	before, _ := st.SyncState(ctx, "drive")
	doc := f.Emu.AddDoc(f.Alpha, "Fresh doc", "written after the first crawl")
	src.id = doc
	f.Emu.Touch(f.IDs["notes.txt"], []byte("Alpha notes, second version"), time.Time{})
	sum, err := crawl.Run(ctx, opts)
	if err != nil || len(sum.Failed) != 1 || sum.Updated != 1 {
		t.Fatalf("crawl with a failing file: %+v, %v", sum, err)
	}
	if after, _ := st.SyncState(ctx, "drive"); after.PageToken != before.PageToken {
		t.Fatalf("the token moved past a failed file: %q → %q", before.PageToken, after.PageToken)
	}
	sum, err = crawl.Run(ctx, opts)
	if err != nil || sum.Mode != "feed" || sum.New != 1 || sum.Processed != 1 || len(sum.Failed) != 0 {
		t.Fatalf("replay: %+v, %v; want the failed file indexed and the other change found unchanged from its record", sum, err)
	}
	if after, _ := st.SyncState(ctx, "drive"); after.PageToken == before.PageToken {
		t.Errorf("the token did not move after the replay")
	}
}

// A changes feed position Drive will not give does not stop the crawl: it
// lists as it would anyway, stores no token, and says so; the next crawl
// lists again.
func TestCrawlWithoutAStartToken(t *testing.T) {
	ctx := context.Background()
	f := drivetest.New(t)
	st := stores(t)["sqlite"](t)
	f.Emu.Faults().Add(driveemu.Rule{Kind: driveemu.FaultStatus, Status: 403, Domain: "global", Reason: "forbidden",
		Message: "changes are not available"}.On(driveemu.EndpointStartToken))
	opts := crawl.Options{Source: source(t, f), Index: st, Provider: offline.New(), SummaryMaxLength: 200}
	sum, err := crawl.Run(ctx, opts)
	if err != nil || sum.Mode != "full" || !strings.Contains(sum.Notice, "changes feed position") || !strings.Contains(sum.Notice, "changes are not available") || sum.New != len(f.Want) {
		t.Fatalf("crawl without a start token: %+v, %v", sum, err)
	}
	if state, _ := st.SyncState(ctx, "drive"); state.PageToken != "" {
		t.Errorf("a token was stored: %q", state.PageToken)
	}
	f.Emu.Faults().Clear()
	sum, err = crawl.Run(ctx, opts)
	if err != nil || sum.Mode != "reconcile" || sum.Processed != 0 {
		t.Fatalf("next crawl: %+v, %v; want a listing that reads nothing", sum, err)
	}
	if state, _ := st.SyncState(ctx, "drive"); state.PageToken == "" {
		t.Errorf("no token after the second crawl")
	}
}
