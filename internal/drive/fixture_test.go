package drive_test

import (
	"context"
	"net/http/httptest"
	"sort"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/driveemu"
)

// fixture is a Drive tree with every kind of item the crawl must handle.
type fixture struct {
	emu     *driveemu.Emulator
	srv     *httptest.Server
	targets []string // target folder IDs: Projects (My Drive) and Team/Shared (Shared drive)

	projects, alpha, deep, deeper, shared, sharedSub string
	outside                                          string // a text file outside the targets, reached by a shortcut
	notFolder, hidden, trashedFolder                 string // IDs that cannot be targets
	big, bigDoc                                      string // over the size limit / over the export limit

	// want maps the name of every indexable file to its folder path.
	want map[string]string
	// ids maps indexable file names to their IDs.
	ids map[string]string
}

// maxBytes is the download limit the fixture's tests use.
const maxBytes = 256 << 10

func newFixture(t *testing.T) *fixture {
	t.Helper()
	e := driveemu.New()
	f := &fixture{emu: e, want: map[string]string{}, ids: map[string]string{}}
	add := func(name, path, id string) {
		f.want[name] = path
		f.ids[name] = id
	}
	f.projects = e.AddFolder("root", "Projects")
	add("Plan", "Projects", e.AddDoc(f.projects, "Plan", "Project plan: ship the Drive crawler in March."))
	add("Budget", "Projects", e.AddSheet(f.projects, "Budget", "item,cost\nservers,1200\nlicences,300\n"))
	add("Kickoff deck", "Projects", e.AddSlides(f.projects, "Kickoff deck", "Kickoff\nGoals and milestones"))
	f.alpha = e.AddFolder(f.projects, "Alpha")
	add("notes.txt", "Projects/Alpha", e.AddBlob(f.alpha, "notes.txt", "text/plain", []byte("Alpha notes: the quinn's paper\\essay draft.")))
	add("議事録.md", "Projects/Alpha", e.AddBlob(f.alpha, "議事録.md", "text/markdown", []byte("# 定例会議\n\n来月のリリース日程を確認した。")))
	e.AddBlob(f.alpha, "logo.png", "image/png", []byte("\x89PNG\r\n\x1a\nnot really"))
	e.AddBlob(f.alpha, "photos.zip", "application/zip", []byte("PK\x03\x04"))
	e.AddBlob(f.alpha, "clip.mp4", "video/mp4", []byte("....ftypmp42"))
	e.AddFile(driveemu.File{Name: "Survey", MimeType: driveemu.MimeForm, Parents: []string{f.alpha}})
	old := e.AddDoc(f.alpha, "Old draft", "trashed text")
	e.Trash(old, true)
	f.big = e.AddBlob(f.alpha, "huge.txt", "text/plain", make([]byte, maxBytes+1))
	f.bigDoc = e.AddFile(driveemu.File{Name: "Giant doc", MimeType: driveemu.MimeDoc, Parents: []string{f.alpha}, ExportText: "giant", ExportSize: 11 << 20})
	f.deep = e.AddFolder(f.alpha, "Deep")
	f.deeper = e.AddFolder(f.deep, "Deeper")
	add("deep.txt", "Projects/Alpha/Deep/Deeper", e.AddBlob(f.deeper, "deep.txt", "text/plain", []byte("found at the bottom of the tree")))
	trashedSub := e.AddFolder(f.projects, "Trashed folder")
	e.AddBlob(trashedSub, "inside-trashed.txt", "text/plain", []byte("never listed"))
	e.Trash(trashedSub, true)

	f.outside = e.AddBlob("root", "outside.txt", "text/plain", []byte("outside the targets, linked by a shortcut"))
	e.AddBlob("root", "unrelated.txt", "text/plain", []byte("outside the targets and never listed"))
	add("outside.txt", "Projects", f.outside)
	e.AddShortcut(f.projects, "Link to outside", f.outside)
	e.AddShortcut(f.alpha, "Second link to outside", f.outside) // reported once
	e.AddShortcut(f.projects, "Link to a folder", e.AddFolder("root", "Elsewhere"))

	team := e.AddSharedDrive("Team")
	f.shared = e.AddFolder(team, "Shared")
	add("team-notes.txt", "Shared", e.AddBlob(f.shared, "team-notes.txt", "text/plain", []byte("Shared drive notes about the roadmap.")))
	add("Team plan", "Shared", e.AddDoc(f.shared, "Team plan", "Shared drive plan: a Google Doc in a Shared drive."))
	f.sharedSub = e.AddFolder(f.shared, "Specs")
	add("spec.csv", "Shared/Specs", e.AddBlob(f.sharedSub, "spec.csv", "text/csv", []byte("name,value\nlatency,50ms\n")))
	e.AddBlob(team, "drive-root.txt", "text/plain", []byte("in the Shared drive but outside the target folder"))

	f.notFolder = f.ids["Plan"]
	f.hidden = e.AddFolder("root", "Private")
	e.AddBlob(f.hidden, "secret.txt", "text/plain", []byte("no access"))
	e.SetInaccessible(f.hidden, true)
	f.trashedFolder = trashedSub

	f.targets = []string{f.projects, f.shared}
	f.srv = httptest.NewServer(e)
	t.Cleanup(f.srv.Close)
	return f
}

// instant is a retry policy that never really sleeps.
func instant(max int) drive.RetryPolicy {
	return drive.RetryPolicy{
		MaxAttempts: max,
		Sleep:       func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
	}
}

func (f *fixture) client(t *testing.T, o drive.Options) *drive.Client {
	t.Helper()
	if o.Endpoint == "" {
		o.Endpoint = f.srv.URL
	}
	if o.Retry.MaxAttempts == 0 {
		o.Retry = instant(8)
	}
	c, err := drive.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *fixture) source(t *testing.T, ids ...string) *drive.Source {
	t.Helper()
	if len(ids) == 0 {
		ids = f.targets
	}
	return drive.NewSource(f.client(t, drive.Options{}), drive.SourceOptions{FolderIDs: ids, MaxFileBytes: maxBytes})
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

// newServer serves e and returns its URL.
func newServer(t *testing.T, e *driveemu.Emulator) string {
	t.Helper()
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv.URL
}
