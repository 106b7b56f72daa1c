// Package drivetest holds test helpers shared by the tests of package drive
// and of the Drive crawl source: a Drive tree in the emulator with every
// kind of item a crawl must handle, and a client pointed at it.
package drivetest

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/driveemu"
)

// Fixture is a Drive tree with every kind of item the crawl must handle.
type Fixture struct {
	Emu     *driveemu.Emulator
	Srv     *httptest.Server
	Targets []string // target folder IDs: Projects (My Drive) and Team/Shared (Shared drive)

	Projects, Alpha, Deep, Deeper, Shared, SharedSub string // folder IDs
	Outside                                          string // a text file outside the targets, reached by a shortcut
	NotFolder, Hidden, TrashedFolder                 string // IDs that cannot be targets
	Big, BigDoc                                      string // over the size limit / over the export limit

	// Want maps the name of every indexable file to its folder path.
	Want map[string]string
	// IDs maps indexable file names to their IDs.
	IDs map[string]string
}

// MaxBytes is the download limit the fixture's tests use: Big is one
// byte over it.
const MaxBytes = 256 << 10

// New builds the fixture and serves it until the test ends.
func New(t *testing.T) *Fixture {
	t.Helper()
	e := driveemu.New()
	f := &Fixture{Emu: e, Want: map[string]string{}, IDs: map[string]string{}}
	add := func(name, path, id string) {
		f.Want[name] = path
		f.IDs[name] = id
	}
	f.Projects = e.AddFolder("root", "Projects")
	add("Plan", "Projects", e.AddDoc(f.Projects, "Plan", "Project plan: ship the Drive crawler in March."))
	add("Budget", "Projects", e.AddSheet(f.Projects, "Budget", "item,cost\nservers,1200\nlicences,300\n"))
	add("Kickoff deck", "Projects", e.AddSlides(f.Projects, "Kickoff deck", "Kickoff\nGoals and milestones"))
	f.Alpha = e.AddFolder(f.Projects, "Alpha")
	add("notes.txt", "Projects/Alpha", e.AddBlob(f.Alpha, "notes.txt", "text/plain", []byte("Alpha notes: the quinn's paper\\essay draft.")))
	add("議事録.md", "Projects/Alpha", e.AddBlob(f.Alpha, "議事録.md", "text/markdown", []byte("# 定例会議\n\n来月のリリース日程を確認した。")))
	e.AddBlob(f.Alpha, "logo.png", "image/png", []byte("\x89PNG\r\n\x1a\nnot really"))
	e.AddBlob(f.Alpha, "photos.zip", "application/zip", []byte("PK\x03\x04"))
	e.AddBlob(f.Alpha, "clip.mp4", "video/mp4", []byte("....ftypmp42"))
	e.AddFile(driveemu.File{Name: "Survey", MimeType: driveemu.MimeForm, Parents: []string{f.Alpha}})
	old := e.AddDoc(f.Alpha, "Old draft", "trashed text")
	e.Trash(old, true)
	f.Big = e.AddBlob(f.Alpha, "huge.txt", "text/plain", make([]byte, MaxBytes+1))
	f.BigDoc = e.AddFile(driveemu.File{Name: "Giant doc", MimeType: driveemu.MimeDoc, Parents: []string{f.Alpha}, ExportText: "giant", ExportSize: 11 << 20})
	f.Deep = e.AddFolder(f.Alpha, "Deep")
	f.Deeper = e.AddFolder(f.Deep, "Deeper")
	add("deep.txt", "Projects/Alpha/Deep/Deeper", e.AddBlob(f.Deeper, "deep.txt", "text/plain", []byte("found at the bottom of the tree")))
	trashedSub := e.AddFolder(f.Projects, "Trashed folder")
	e.AddBlob(trashedSub, "inside-trashed.txt", "text/plain", []byte("never listed"))
	e.Trash(trashedSub, true)

	f.Outside = e.AddBlob("root", "outside.txt", "text/plain", []byte("outside the targets, linked by a shortcut"))
	e.AddBlob("root", "unrelated.txt", "text/plain", []byte("outside the targets and never listed"))
	add("outside.txt", "Projects", f.Outside)
	e.AddShortcut(f.Projects, "Link to outside", f.Outside)
	e.AddShortcut(f.Alpha, "Second link to outside", f.Outside) // reported once
	e.AddShortcut(f.Projects, "Link to a folder", e.AddFolder("root", "Elsewhere"))

	team := e.AddSharedDrive("Team")
	f.Shared = e.AddFolder(team, "Shared")
	add("team-notes.txt", "Shared", e.AddBlob(f.Shared, "team-notes.txt", "text/plain", []byte("Shared drive notes about the roadmap.")))
	add("Team plan", "Shared", e.AddDoc(f.Shared, "Team plan", "Shared drive plan: a Google Doc in a Shared drive."))
	f.SharedSub = e.AddFolder(f.Shared, "Specs")
	add("spec.csv", "Shared/Specs", e.AddBlob(f.SharedSub, "spec.csv", "text/csv", []byte("name,value\nlatency,50ms\n")))
	e.AddBlob(team, "drive-root.txt", "text/plain", []byte("in the Shared drive but outside the target folder"))

	f.NotFolder = f.IDs["Plan"]
	f.Hidden = e.AddFolder("root", "Private")
	e.AddBlob(f.Hidden, "secret.txt", "text/plain", []byte("no access"))
	e.SetInaccessible(f.Hidden, true)
	f.TrashedFolder = trashedSub

	f.Targets = []string{f.Projects, f.Shared}
	f.Srv = httptest.NewServer(e)
	t.Cleanup(f.Srv.Close)
	return f
}

// Instant is a retry policy that never really sleeps.
func Instant(attempts int) drive.RetryPolicy {
	return drive.RetryPolicy{
		MaxAttempts: attempts,
		Sleep:       func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
	}
}

// Client returns a client of the fixture's server (o.Endpoint and
// o.Retry default to it and to Instant(8)).
func (f *Fixture) Client(t *testing.T, o drive.Options) *drive.Client {
	t.Helper()
	if o.Endpoint == "" {
		o.Endpoint = f.Srv.URL
	}
	if o.Retry.MaxAttempts == 0 {
		o.Retry = Instant(8)
	}
	c, err := drive.New(context.Background(), o) // a test fixture: the client lives as long as the test
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Serve serves e until the test ends and returns its URL.
func Serve(t *testing.T, e *driveemu.Emulator) string {
	t.Helper()
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv.URL
}
