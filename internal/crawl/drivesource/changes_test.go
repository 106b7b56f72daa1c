package drivesource_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/drive/drivetest"
	"github.com/gds-cli/gds/internal/driveemu"
)

// changes reads the source's changes from tok as sorted "name|state|path"
// lines (by ID for gone files).
func changes(t *testing.T, f *drivetest.Fixture, src crawl.ChangeSource, tok string) ([]string, string, error) {
	t.Helper()
	var out []string
	next, err := src.Changes(context.Background(), tok, func(ch crawl.Change) error {
		name := ch.Entry.Name
		if name == "" {
			if e, ok := f.Emu.File(ch.ID); ok {
				name = e.Name
			} else {
				name = ch.ID
			}
		}
		switch {
		case ch.Gone:
			out = append(out, name+"|gone")
		case ch.Outside:
			out = append(out, name+"|outside")
		default:
			out = append(out, name+"|in|"+ch.Entry.Path)
		}
		return nil
	})
	sort.Strings(out)
	return out, next, err
}

// The Drive source reads the changes feed and places every changed file by
// its ancestry: moved in (any modification time), moved between target
// folders (one change, new path), renamed, moved out, trashed, deleted, a
// shortcut added; and asks for a listing when a folder moves or the token
// is refused.
func TestChangesPlaceFilesByAncestry(t *testing.T) {
	f := drivetest.New(t)
	e := f.Emu
	src := source(t, f)
	ctx := context.Background()
	tok, err := src.StartToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, next, err := changes(t, f, src, tok)
	if err != nil || len(got) != 0 || next != tok {
		t.Fatalf("no change yet: %v, %q, %v", got, next, err)
	}

	old := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	movedIn := e.AddFile(driveemu.File{Name: "archive.txt", MimeType: "text/plain", Parents: []string{"root"},
		Content: []byte("an old report"), ModifiedTime: old})
	tok, _ = src.StartToken(ctx) // the file existed outside before
	e.Move(movedIn, f.Deeper)
	e.Move(f.IDs["notes.txt"], f.SharedSub)                        // between the two targets
	e.Rename(f.IDs["Plan"], "Plan v2", time.Time{})                // renamed in place
	e.Move(f.IDs["Budget"], e.RootID())                            // out of the targets
	e.Trash(f.IDs["Kickoff deck"], true)                           // trashed
	e.Delete(f.IDs["team-notes.txt"])                              // deleted
	e.AddShortcut(f.Alpha, "Link to archive", movedIn)             // a shortcut to a file already inside
	e.AddBlob("root", "unrelated2.txt", "text/plain", []byte("x")) // outside, never indexed
	got, next, err = changes(t, f, src, tok)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Budget|outside",
		"Kickoff deck|gone",
		"Plan v2|in|Projects",
		"archive.txt|in|Projects/Alpha",             // through the shortcut (the later change wins in the crawl)
		"archive.txt|in|Projects/Alpha/Deep/Deeper", // moved in with a 2015 modification time
		"notes.txt|in|Shared/Specs",
		f.IDs["team-notes.txt"] + "|gone",
		"unrelated2.txt|outside",
	}
	sort.Strings(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("changes\n got %q\nwant %q", got, want)
	}
	if next == tok {
		t.Errorf("the new token %q did not move", next)
	}
	// The stored parents of a file reached through a shortcut are outside.
	if in, err := src.Inside(ctx, []string{e.RootID()}); err != nil || in {
		t.Errorf("Inside(My Drive root) = %v, %v", in, err)
	}
	if in, err := src.Inside(ctx, []string{f.Deep}); err != nil || !in {
		t.Errorf("Inside(Deep) = %v, %v", in, err)
	}

	// A folder moved into the targets: the files under it have no change
	// of their own, so the feed asks for a listing.
	tok = next
	folder := e.AddFolder("root", "Moved later")
	e.AddBlob(folder, "inside-moved.txt", "text/plain", []byte("y"))
	tok2 := e.StartPageToken()
	e.Move(folder, f.Projects)
	_, _, err = changes(t, f, src, tok2)
	if !errors.Is(err, crawl.ErrRescan) {
		t.Fatalf("a folder moved in: %v, want ErrRescan", err)
	}

	// A refused token.
	e.ExpireChanges()
	_, _, err = changes(t, f, src, tok)
	if !errors.Is(err, crawl.ErrRescan) {
		t.Fatalf("an expired token: %v, want ErrRescan", err)
	}
}
