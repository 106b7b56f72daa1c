package drive_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/drive/drivetest"
	"github.com/gds-cli/gds/internal/driveemu"
)

func names(fs []drive.FolderEntry) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

// TestFolderPickerTree walks the fixture's tree the way `gds init` does:
// My Drive's folders, a subfolder, the Shared drives and their folders.
func TestFolderPickerTree(t *testing.T) {
	fx := drivetest.New(t)
	c := fx.Client(t, drive.Options{})
	ctx := context.Background()

	top, err := c.ChildFolders(ctx, drive.MyDriveRoot)
	if err != nil {
		t.Fatal(err)
	}
	// Private is inaccessible, the trashed folder is in Projects: neither
	// is listed; files are never listed.
	if got, want := names(top), []string{"Elsewhere", "Projects"}; !reflect.DeepEqual(got, want) {
		t.Errorf("My Drive folders = %v, want %v", got, want)
	}
	sub, err := c.ChildFolders(ctx, fx.Projects)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(sub), []string{"Alpha"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Projects folders = %v, want %v (the trashed folder must not show)", got, want)
	}
	if sub[0].ID != fx.Alpha {
		t.Errorf("Alpha id %q", sub[0].ID)
	}

	drives, err := c.SharedDrives(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(drives) != 1 || drives[0].Name != "Team" || !drives[0].SharedDrive {
		t.Fatalf("shared drives = %+v", drives)
	}
	inTeam, err := c.ChildFolders(ctx, drives[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(inTeam) != 1 || inTeam[0].ID != fx.Shared || inTeam[0].DriveID != drives[0].ID {
		t.Errorf("Team folders = %+v", inTeam)
	}
}

// TestFindFoldersEscapes searches by names holding quotes and backslashes:
// they must reach Drive as literal text, find the folder, and never break
// or widen the query.
func TestFindFoldersEscapes(t *testing.T) {
	e := driveemu.New()
	odd := e.AddFolder("root", `Bob's \backup\ "2024"`)
	e.AddFolder("root", "Bobby")
	team := e.AddSharedDrive("Team")
	shared := e.AddFolder(team, "Bob's shared")
	e.AddBlob("root", "Bob's file.txt", "text/plain", []byte("a file, not a folder"))
	c, err := drive.New(context.Background(), drive.Options{Endpoint: drivetest.Serve(t, e), Retry: drivetest.Instant(3)})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		want []string
	}{
		{`Bob's`, []string{odd, shared}},
		{`Bob's \backup\`, []string{odd}},
		{`"2024"`, []string{odd}},
		{`Bob' or name contains '`, nil}, // an injection attempt is a plain name
		{`\`, []string{odd}},             // a lone backslash is searched for literally
	}
	for _, tc := range cases {
		got, err := c.FindFolders(context.Background(), tc.name)
		if err != nil {
			t.Errorf("%q: %v", tc.name, err)
			continue
		}
		ids := []string{}
		for _, f := range got {
			ids = append(ids, f.ID)
		}
		want := tc.want
		if want == nil {
			want = []string{}
		}
		if !sameSet(ids, want) {
			t.Errorf("%q: got %v (%v), want %v", tc.name, ids, names(got), want)
		}
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}
