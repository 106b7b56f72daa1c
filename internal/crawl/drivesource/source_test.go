package drivesource_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/crawl/drivesource"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/drive/drivetest"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/i18n"
)

func TestResolveFolderFailuresStopBeforeListing(t *testing.T) {
	f := drivetest.New(t)
	tests := []struct {
		name    string
		id      string
		fault   *driveemu.Rule
		problem drive.FolderProblem
		msg     string // in the English message besides the ID
	}{
		{"missing", "1NoSuchFolderXXXXXXXXXXXXXXXXXXXXX", nil, drive.FolderNotFound, "not found"},
		{"not a folder", f.NotFolder, nil, drive.FolderNotAFolder, driveemu.MimeDoc},
		{"invisible (Drive answers 404)", f.Hidden, nil, drive.FolderNotFound, "no access"},
		{"trashed", f.TrashedFolder, nil, drive.FolderTrashed, "trash"},
		{"forbidden", f.Alpha, &driveemu.Rule{Kind: driveemu.FaultStatus, Status: 403, Reason: "insufficientFilePermissions", PathPrefix: "/drive/v3/files/" + f.Alpha,
			Message: "The user does not have sufficient permissions for this file."}, drive.FolderNoPermission, "no permission"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.Emu.Faults().Clear()
			if tt.fault != nil {
				f.Emu.Faults().Add(tt.fault.On(driveemu.EndpointGet))
			}
			f.Emu.ResetStats()
			// The good target comes first: resolution still fails before any listing.
			src := source(t, f, f.Projects, tt.id)
			listed := 0
			err := src.List(context.Background(), time.Time{}, func(crawl.Entry) error { listed++; return nil })
			var fe *drive.FolderError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *FolderError", err)
			}
			if fe.ID != tt.id || fe.Problem != tt.problem {
				t.Errorf("FolderError = %+v, want ID %s problem %s", fe, tt.id, tt.problem)
			}
			if en := fe.Message(i18n.En); !strings.Contains(en, tt.id) || !strings.Contains(en, tt.msg) {
				t.Errorf("message %q lacks the ID or %q", en, tt.msg)
			}
			if ja := fe.Message(i18n.Ja); !strings.Contains(ja, tt.id) || ja == fe.Message(i18n.En) {
				t.Errorf("Japanese message %q", ja)
			}
			st := f.Emu.Stats()
			if listed != 0 || st.Calls[driveemu.EndpointList] != 0 || st.Calls[driveemu.EndpointDownload]+st.Calls[driveemu.EndpointExport] != 0 {
				t.Errorf("listed %d files, calls %v: resolution must stop the crawl first", listed, st.Calls)
			}
		})
	}
}

func TestListFindsExactlyTheIndexableFiles(t *testing.T) {
	f := drivetest.New(t)
	src := source(t, f)
	got := listAll(t, src, time.Time{})
	// Over-limit files are listed (and skipped at Open with a reason).
	want := names(f.Want)
	want = append(want, "huge.txt", "Giant doc")
	slices.Sort(want)
	if fmt.Sprint(names(got)) != fmt.Sprint(want) {
		t.Fatalf("listed %v\nwant   %v", names(got), want)
	}
	for name, path := range f.Want {
		e := got[name]
		if e.Path != path || e.ID != f.IDs[name] {
			t.Errorf("%s: path %q id %s, want %q %s", name, e.Path, e.ID, path, f.IDs[name])
		}
		if e.WebLink == "" || e.ModifiedAt.IsZero() || len(e.Parents) == 0 {
			t.Errorf("%s: missing link, time or parents: %+v", name, e)
		}
	}
	if mt := got["Plan"].MimeType; mt != driveemu.MimeDoc {
		t.Errorf("a Google Doc is listed as %s, want its native type", mt)
	}
	st := src.Stats()
	if st.Refused != 4 || st.Shortcuts != 1 || st.SkippedLink != 2 {
		t.Errorf("stats %+v: want 4 refused (png, zip, mp4, form), 1 shortcut resolved, 2 skipped (duplicate, folder)", st)
	}
	// Projects, Alpha, Deep, Deeper, Shared, Specs: the trashed folder is not walked.
	if st.Folders != 6 {
		t.Errorf("walked %d folders, want 6", st.Folders)
	}
}

func TestOpenExportsDownloadsAndSkips(t *testing.T) {
	f := drivetest.New(t)
	src := source(t, f)
	got := listAll(t, src, time.Time{})
	ctx := context.Background()
	read := func(name string) (string, error) {
		rc, err := src.Open(ctx, got[name])
		if err != nil {
			return "", err
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		return string(b), err
	}
	for name, want := range map[string]string{
		"Plan":         "ship the Drive crawler",
		"Budget":       "servers,1200",
		"Kickoff deck": "Goals and milestones",
		"notes.txt":    `quinn's paper\essay`,
		"議事録.md":       "リリース日程",
		"spec.csv":     "latency,50ms",
		"Team plan":    "a Google Doc in a Shared drive",
		"outside.txt":  "linked by a shortcut",
	} {
		text, err := read(name)
		if err != nil || !strings.Contains(text, want) {
			t.Errorf("%s: %q, %v; want %q", name, text, err, want)
		}
	}
	for name, reason := range map[string]string{"huge.txt": "larger than", "Giant doc": "10 MB"} {
		_, err := read(name)
		if !errors.Is(err, crawl.ErrSkip) || !strings.Contains(err.Error(), reason) {
			t.Errorf("%s: err = %v, want a skip mentioning %q", name, err, reason)
		}
	}
	// Refused types are skipped without a request even when asked directly.
	f.Emu.ResetStats()
	_, err := src.Open(ctx, crawl.Entry{ID: "x", Name: "a.png", MimeType: "image/png"})
	if !errors.Is(err, crawl.ErrSkip) || f.Emu.Stats().Total() != 0 {
		t.Errorf("png: %v after %d calls", err, f.Emu.Stats().Total())
	}
	// A file deleted between listing and opening is skipped, not failed.
	f.Emu.Delete(f.IDs["deep.txt"])
	if _, err := read("deep.txt"); !errors.Is(err, crawl.ErrSkip) {
		t.Errorf("deleted file: %v, want a skip", err)
	}
}

func TestIncrementalListing(t *testing.T) {
	f := drivetest.New(t)
	src := source(t, f)
	all := listAll(t, src, time.Time{})
	var since time.Time
	for _, e := range all {
		if e.ModifiedAt.After(since) {
			since = e.ModifiedAt
		}
	}
	if got := listAll(t, src, since); len(got) != 0 {
		t.Fatalf("nothing changed, listed %v", names(got))
	}
	// A file deep in an unchanged folder, and the target of a shortcut, change.
	later := since.Add(time.Minute)
	f.Emu.Touch(f.IDs["deep.txt"], []byte("edited"), later)
	f.Emu.Touch(f.Outside, []byte("edited outside"), later.Add(time.Second))
	f.Emu.Touch(f.IDs["team-notes.txt"], []byte("edited team notes"), later.Add(1500*time.Millisecond))
	got := listAll(t, src, since)
	if want := []string{"deep.txt", "outside.txt", "team-notes.txt"}; fmt.Sprint(names(got)) != fmt.Sprint(want) {
		t.Fatalf("listed %v, want %v", names(got), want)
	}
	// Millisecond precision: a checkpoint at the last change (12:00:01.500)
	// lists nothing; one truncated to the second would list team-notes.txt again.
	if got := listAll(t, src, later.Add(1500*time.Millisecond)); len(got) != 0 {
		t.Errorf("listed %v after the last change", names(got))
	}
}

func TestWalkBatchesFolders(t *testing.T) {
	e := driveemu.New()
	top := e.AddFolder("root", "Top")
	want := 0
	// 40 folders of 3 subfolders each: 161 folders in 3 levels, a file in each leaf.
	for i := range 40 {
		mid := e.AddFolder(top, fmt.Sprintf("m%02d", i))
		for j := range 3 {
			leaf := e.AddFolder(mid, fmt.Sprintf("l%d", j))
			e.AddBlob(leaf, fmt.Sprintf("f-%02d-%d.txt", i, j), "text/plain", []byte("x"))
			want++
		}
	}
	srv := drivetest.Serve(t, e)
	c, err := drive.New(context.Background(), drive.Options{Endpoint: srv, Retry: drivetest.Instant(3)})
	if err != nil {
		t.Fatal(err)
	}
	src := drivesource.New(c, drivesource.Options{FolderIDs: []string{top}})
	got := listAll(t, src, time.Time{})
	if len(got) != want {
		t.Fatalf("listed %d files, want %d", len(got), want)
	}
	calls := e.Stats().Calls[driveemu.EndpointList]
	// One query per batch of 30 folders: 1 (Top) + 2 (40 mids) + 4 (120 leaves) = 7
	// queries; one folder per query would need 161.
	if calls > 8 {
		t.Errorf("%d files.list calls for 161 folders, want at most 8", calls)
	}
	if st := src.Stats(); st.Folders != 161 || st.ListCalls != calls {
		t.Errorf("stats %+v, emulator saw %d list calls", st, calls)
	}
}

func TestListPagesThroughLargeFolders(t *testing.T) {
	e := driveemu.New()
	dir := e.AddFolder("root", "Many")
	for i := range 250 {
		e.AddBlob(dir, fmt.Sprintf("f%03d.txt", i), "text/plain", []byte("x"))
	}
	c, err := drive.New(context.Background(), drive.Options{Endpoint: drivetest.Serve(t, e), Retry: drivetest.Instant(3)})
	if err != nil {
		t.Fatal(err)
	}
	src := drivesource.New(c, drivesource.Options{FolderIDs: []string{dir}})
	if got := listAll(t, src, time.Time{}); len(got) != 250 {
		t.Fatalf("listed %d of 250", len(got))
	}
	if calls := e.Stats().Calls[driveemu.EndpointList]; calls != 3 {
		t.Errorf("%d pages for 250 files at 100 per page, want 3", calls)
	}
}

func TestFaultStormEndsWithEveryFileListedAndOpened(t *testing.T) {
	f := drivetest.New(t)
	fl := f.Emu.Faults()
	fl.Seed(7)
	for _, r := range []driveemu.Rule{
		driveemu.TooManyRequests(time.Second).WithProbability(0.12),
		driveemu.UserRateLimitExceeded().WithProbability(0.08),
		driveemu.RateLimitExceeded().WithProbability(0.08),
		driveemu.ServerError(http.StatusInternalServerError).WithProbability(0.06),
		driveemu.ServerError(http.StatusServiceUnavailable).WithProbability(0.06),
		driveemu.DropConnection().WithProbability(0.06),
		driveemu.TruncateBody().WithProbability(0.1),
	} {
		fl.Add(r)
	}
	var waits []time.Duration
	c := f.Client(t, drive.Options{Retry: drive.RetryPolicy{
		MaxAttempts: 40,
		Sleep:       func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return ctx.Err() },
	}})
	src := drivesource.New(c, drivesource.Options{FolderIDs: f.Targets, MaxFileBytes: drivetest.MaxBytes})
	got := listAll(t, src, time.Time{})
	for name := range f.Want {
		e, ok := got[name]
		if !ok {
			t.Errorf("%s not listed under faults", name)
			continue
		}
		rc, err := src.Open(context.Background(), e)
		if err != nil {
			t.Errorf("open %s under faults: %v", name, err)
			continue
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		if len(b) == 0 {
			t.Errorf("%s: empty content", name)
		}
	}
	st := f.Emu.Stats()
	for _, k := range []driveemu.FaultKind{driveemu.FaultStatus, driveemu.FaultDrop, driveemu.FaultTruncate} {
		if st.Faults[k] == 0 {
			t.Errorf("no %s fault was injected; the storm proves nothing (faults %v)", k, st.Faults)
		}
	}
	if !slices.Contains(waits, time.Second) {
		t.Errorf("Retry-After of 1s never honoured; waits %v", waits)
	}
}

func TestGivesUpAfterBoundedTries(t *testing.T) {
	f := drivetest.New(t)
	f.Emu.Faults().Add(driveemu.ServerError(http.StatusServiceUnavailable).On(driveemu.EndpointExport))
	c := f.Client(t, drive.Options{Retry: drivetest.Instant(4)})
	src := drivesource.New(c, drivesource.Options{FolderIDs: f.Targets})
	got := listAll(t, src, time.Time{})
	f.Emu.ResetStats()
	_, err := src.Open(context.Background(), got["Plan"])
	var re *drive.RetryError
	if !errors.As(err, &re) || re.Attempts != 4 || errors.Is(err, crawl.ErrSkip) {
		t.Fatalf("err = %v, want a RetryError after 4 tries that is not a skip", err)
	}
	if n := f.Emu.Stats().Calls[driveemu.EndpointExport]; n != 4 {
		t.Errorf("%d export calls, want 4", n)
	}
}

func TestFingerprint(t *testing.T) {
	f := drivetest.New(t)
	a := source(t, f, f.Projects, f.Shared).Fingerprint()
	if b := source(t, f, f.Shared, f.Projects).Fingerprint(); a != b {
		t.Errorf("order changed the fingerprint")
	}
	if b := source(t, f, f.Projects).Fingerprint(); a == b {
		t.Errorf("a different folder set kept the fingerprint")
	}
}

func TestOpenOfAFileChangedSinceListingFailsWithoutRetries(t *testing.T) {
	f := drivetest.New(t)
	src := source(t, f)
	e := listAll(t, src, time.Time{})["notes.txt"]
	f.Emu.Touch(e.ID, []byte("new content written after the listing"), time.Time{})
	f.Emu.ResetStats()
	_, err := src.Open(context.Background(), e)
	if !errors.Is(err, drive.ErrChanged) || errors.Is(err, crawl.ErrSkip) {
		t.Fatalf("err = %v, want ErrChanged (a failure the next crawl retries)", err)
	}
	if n := f.Emu.Stats().Calls[driveemu.EndpointDownload]; n != 1 {
		t.Errorf("%d downloads, want 1 (a changed file is not a transient error)", n)
	}
}

func TestIncompleteSearchFailsTheListing(t *testing.T) {
	lists := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/drive/v3/files" {
			lists++
			fmt.Fprint(w, `{"incompleteSearch":true,"files":[{"id":"f1","name":"a.txt","mimeType":"text/plain","parents":["top"]}]}`)
			return
		}
		fmt.Fprint(w, `{"id":"top","name":"Top","mimeType":"application/vnd.google-apps.folder"}`)
	}))
	defer srv.Close()
	c, err := drive.New(context.Background(), drive.Options{Endpoint: srv.URL, Retry: drivetest.Instant(3)})
	if err != nil {
		t.Fatal(err)
	}
	src := drivesource.New(c, drivesource.Options{FolderIDs: []string{"top"}})
	err = src.List(context.Background(), time.Time{}, func(crawl.Entry) error { return nil })
	if !errors.Is(err, drive.ErrIncompleteSearch) || lists != 3 {
		t.Errorf("err = %v after %d lists, want ErrIncompleteSearch after 3", err, lists)
	}
}

// A listing call that stops answering is abandoned after CallTimeout and
// tried again, so a hung connection cannot hang the crawl; when every try
// hangs, the listing fails with a clear error instead of waiting forever.
func TestHungListingIsAbandonedAndRetried(t *testing.T) {
	e := driveemu.New()
	dir := e.AddFolder("root", "Docs")
	for i := range 3 {
		e.AddBlob(dir, fmt.Sprintf("f%d.txt", i), "text/plain", []byte("x"))
	}
	hang := e.Faults().Add(driveemu.Latency(time.Hour).On(driveemu.EndpointList).Times(2))
	retry := drivetest.Instant(3)
	// Generous, so the call that answers does so within it on a loaded
	// machine; the hung ones never would.
	retry.CallTimeout = 2 * time.Second
	c, err := drive.New(context.Background(), drive.Options{Endpoint: drivetest.Serve(t, e), Retry: retry})
	if err != nil {
		t.Fatal(err)
	}
	src := drivesource.New(c, drivesource.Options{FolderIDs: []string{dir}})
	if got := listAll(t, src, time.Time{}); len(got) != 3 {
		t.Fatalf("listed %d of 3 after two hung tries", len(got))
	}
	if n := e.Stats().Calls[driveemu.EndpointList]; n != 3 {
		t.Errorf("%d list calls, want 3 (two abandoned, one answered)", n)
	}

	e.Faults().Remove(hang)
	e.Faults().Add(driveemu.Latency(time.Hour).On(driveemu.EndpointList))
	err = src.List(context.Background(), time.Time{}, func(crawl.Entry) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "no answer within 2s") {
		t.Fatalf("every try hung: error %v, want one naming the call timeout", err)
	}
}

// A crawl that reads images by OCR is offered Drive's photos and scans
// (image/png here), downloaded like any file; other refused types stay
// refused; the fingerprint changes, so the next crawl is a full scan that
// finds the images listed before.
func TestReadImagesOffersImages(t *testing.T) {
	f := drivetest.New(t)
	plain := source(t, f)
	src := source(t, f)
	src.SetReadImages(true)
	if plain.Fingerprint() == src.Fingerprint() {
		t.Error("reading images kept the fingerprint")
	}
	got := listAll(t, src, time.Time{})
	e, ok := got["logo.png"]
	if !ok || e.MimeType != "image/png" {
		t.Fatalf("logo.png not listed (%v)", names(got))
	}
	if st := src.Stats(); st.Refused != 3 {
		t.Errorf("stats %+v: want 3 refused (zip, mp4, form)", st)
	}
	rc, err := src.Open(context.Background(), e)
	if err != nil {
		t.Fatalf("open logo.png: %v", err)
	}
	defer rc.Close()
	if b, _ := io.ReadAll(rc); !strings.HasPrefix(string(b), "\x89PNG") {
		t.Errorf("logo.png downloaded as %q", b)
	}
	if _, err := src.Open(context.Background(), crawl.Entry{ID: "x", Name: "a.mp4", MimeType: "video/mp4"}); !errors.Is(err, crawl.ErrSkip) {
		t.Errorf("mp4: %v, want a skip", err)
	}
}
