package driveemu_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"google.golang.org/api/drive/v3"

	"github.com/gds-cli/gds/internal/driveemu"
)

// changeSummary renders the changes from tok (every page) as sorted
// "name:state" lines and returns the new start page token.
func changeSummary(t *testing.T, svc *drive.Service, tok string, opts func(*drive.ChangesListCall) *drive.ChangesListCall) ([]string, string, int) {
	t.Helper()
	var out []string
	pages := 0
	for {
		call := svc.Changes.List(tok).PageSize(2).Fields("nextPageToken,newStartPageToken,changes(fileId,removed,changeType,kind,time,file(name,trashed,parents))")
		if opts != nil {
			call = opts(call)
		}
		res, err := call.Do()
		if err != nil {
			t.Fatalf("changes.list(%s): %v", tok, err)
		}
		pages++
		if (res.NextPageToken == "") == (res.NewStartPageToken == "") {
			t.Fatalf("page %d: nextPageToken %q, newStartPageToken %q: exactly one must be set", pages, res.NextPageToken, res.NewStartPageToken)
		}
		for _, c := range res.Changes {
			if c.Kind != "drive#change" || c.ChangeType != "file" || c.Time == "" {
				t.Fatalf("change %+v: kind, changeType or time missing", c)
			}
			switch {
			case c.Removed && c.File != nil:
				t.Fatalf("removed change %s carries a file", c.FileId)
			case c.Removed:
				out = append(out, c.FileId+":removed")
			case c.File.Trashed:
				out = append(out, c.File.Name+":trashed")
			default:
				out = append(out, c.File.Name+":in "+strings.Join(c.File.Parents, ","))
			}
		}
		if res.NewStartPageToken != "" {
			sort.Strings(out)
			return out, res.NewStartPageToken, pages
		}
		tok = res.NextPageToken
	}
}

func TestChangesFeed(t *testing.T) {
	emu := driveemu.New()
	a := emu.AddFolder("root", "A")
	b := emu.AddFolder("root", "B")
	keep := emu.AddDoc(a, "keep", "unchanged")
	edit := emu.AddDoc(a, "edit", "v1")
	move := emu.AddDoc(a, "move", "moving")
	trash := emu.AddDoc(a, "trash", "to the bin")
	del := emu.AddDoc(a, "del", "to delete")
	hide := emu.AddDoc(b, "hide", "access lost")
	svc := newService(t, emu)

	st, err := svc.Changes.GetStartPageToken().Do()
	if err != nil {
		t.Fatal(err)
	}
	if st.StartPageToken != emu.StartPageToken() {
		t.Fatalf("startPageToken %q, emulator says %q", st.StartPageToken, emu.StartPageToken())
	}
	got, next, _ := changeSummary(t, svc, st.StartPageToken, nil)
	if len(got) != 0 || next != st.StartPageToken {
		t.Fatalf("no change yet: got %v, new token %q (want %q)", got, next, st.StartPageToken)
	}

	emu.Touch(edit, []byte("v2"), time.Time{})
	emu.Rename(edit, "edited", time.Time{}) // two changes of one file: reported once
	emu.Move(move, b)
	emu.Trash(trash, true)
	emu.Delete(del)
	emu.SetInaccessible(hide, true)
	added := emu.AddDoc(b, "new", "fresh")

	got, next2, pages := changeSummary(t, svc, st.StartPageToken, nil)
	want := []string{del + ":removed", hide + ":removed", "edited:in " + a, "move:in " + b, "new:in " + b, "trash:trashed"}
	sort.Strings(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("changes\n got %v\nwant %v", got, want)
	}
	if pages != 3 {
		t.Errorf("6 changes at pageSize 2: %d pages, want 3", pages)
	}
	_ = keep
	_ = added

	// The new start token lists nothing until the next change.
	got, _, _ = changeSummary(t, svc, next2, nil)
	if len(got) != 0 {
		t.Fatalf("from newStartPageToken: %v, want nothing", got)
	}
	emu.Move(keep, b)
	got, _, _ = changeSummary(t, svc, next2, nil)
	if fmt.Sprint(got) != fmt.Sprint([]string{"keep:in " + b}) {
		t.Fatalf("after one move: %v", got)
	}

	// includeRemoved=false leaves the removed entries out.
	got, _, _ = changeSummary(t, svc, st.StartPageToken, func(c *drive.ChangesListCall) *drive.ChangesListCall {
		return c.IncludeRemoved(false)
	})
	for _, g := range got {
		if strings.HasSuffix(g, ":removed") {
			t.Fatalf("includeRemoved=false listed %s", g)
		}
	}
}

func TestChangesTrashFolderReportsContents(t *testing.T) {
	emu := driveemu.New()
	a := emu.AddFolder("root", "A")
	sub := emu.AddFolder(a, "Sub")
	emu.AddDoc(sub, "inner", "x")
	svc := newService(t, emu)
	tok := emu.StartPageToken()
	emu.Trash(sub, true)
	got, _, _ := changeSummary(t, svc, tok, nil)
	if fmt.Sprint(got) != "[Sub:trashed inner:trashed]" {
		t.Fatalf("trashing a folder: %v, want the folder and its file trashed", got)
	}
	tok = emu.StartPageToken()
	emu.Delete(sub)
	got, _, _ = changeSummary(t, svc, tok, nil)
	if len(got) != 2 || !strings.HasSuffix(got[0], ":removed") || !strings.HasSuffix(got[1], ":removed") {
		t.Fatalf("deleting a folder: %v, want two removed entries", got)
	}
}

func TestChangesSharedDrives(t *testing.T) {
	emu := driveemu.New()
	sd := emu.AddSharedDrive("Team")
	my := emu.AddFolder("root", "Mine")
	tok := emu.StartPageToken()
	emu.AddDoc(sd, "team doc", "t")
	emu.AddDoc(my, "my doc", "m")
	svc := newService(t, emu)

	got, _, _ := changeSummary(t, svc, tok, nil)
	if fmt.Sprint(got) != "[my doc:in "+my+"]" {
		t.Fatalf("without includeItemsFromAllDrives: %v", got)
	}
	all := func(c *drive.ChangesListCall) *drive.ChangesListCall {
		return c.IncludeItemsFromAllDrives(true).SupportsAllDrives(true)
	}
	got, _, _ = changeSummary(t, svc, tok, all)
	if len(got) != 2 {
		t.Fatalf("with includeItemsFromAllDrives: %v, want both", got)
	}
	got, _, _ = changeSummary(t, svc, tok, func(c *drive.ChangesListCall) *drive.ChangesListCall {
		return all(c).DriveId(sd)
	})
	if fmt.Sprint(got) != "[team doc:in "+sd+"]" {
		t.Fatalf("driveId=%s: %v", sd, got)
	}
	got, _, _ = changeSummary(t, svc, tok, func(c *drive.ChangesListCall) *drive.ChangesListCall {
		return all(c).RestrictToMyDrive(true)
	})
	if fmt.Sprint(got) != "[my doc:in "+my+"]" {
		t.Fatalf("restrictToMyDrive: %v", got)
	}
	st, err := svc.Changes.GetStartPageToken().DriveId(sd).SupportsAllDrives(true).Do()
	if err != nil || st.StartPageToken != emu.StartPageToken() {
		t.Fatalf("getStartPageToken(driveId): %+v, %v", st, err)
	}
	_, err = svc.Changes.GetStartPageToken().DriveId("0Anope").SupportsAllDrives(true).Do()
	apiErr(t, err, 404, "notFound")
}

func TestChangesErrors(t *testing.T) {
	emu := driveemu.New()
	emu.AddFolder("root", "A")
	svc := newService(t, emu)
	ctx := context.Background()
	for _, tok := range []string{"abc", "0", "999"} {
		_, err := svc.Changes.List(tok).Context(ctx).Do()
		apiErr(t, err, 400, "invalid")
	}
	old := emu.StartPageToken()
	emu.AddFolder("root", "B")
	emu.ExpireChanges()
	_, err := svc.Changes.List(old).Do()
	apiErr(t, err, 400, "invalid")
	if _, err := svc.Changes.List(emu.StartPageToken()).Do(); err != nil {
		t.Fatalf("the current token after ExpireChanges: %v", err)
	}
	_, err = svc.Changes.List(old).PageSize(1001).Do()
	apiErr(t, err, 400, "invalid")
	_, err = svc.Changes.List(emu.StartPageToken()).Fields("changes(bogus)").Do()
	apiErr(t, err, 400, "invalidParameter")
	_, err = svc.Changes.List(emu.StartPageToken()).Spaces("nowhere").Do()
	apiErr(t, err, 400, "invalid")

	// Faults apply to the changes endpoints like to any other.
	emu.Faults().Add(driveemu.ServerError(503).On(driveemu.EndpointChanges).Times(1))
	_, err = svc.Changes.List(emu.StartPageToken()).Do()
	apiErr(t, err, 503, "")
	if _, err := svc.Changes.List(emu.StartPageToken()).Do(); err != nil {
		t.Fatalf("after the one fault: %v", err)
	}
	if n := emu.Stats().Calls[driveemu.EndpointChanges]; n < 2 {
		t.Fatalf("changes.list calls counted: %d", n)
	}
}
