package drive_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/drive/drivetest"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/i18n"
)

func TestResolveAShortcutTargetNamesTheFolder(t *testing.T) {
	f := drivetest.New(t)
	link := f.Emu.AddShortcut("root", "Link to Alpha", f.Alpha)
	_, err := f.Client(t, drive.Options{}).ResolveFolders(context.Background(), []string{link})
	var fe *drive.FolderError
	if !errors.As(err, &fe) || fe.Problem != drive.FolderShortcut || fe.Detail != f.Alpha {
		t.Fatalf("err = %v, want a shortcut problem naming %s", err, f.Alpha)
	}
	if !strings.Contains(fe.Message(i18n.En), f.Alpha) {
		t.Errorf("message %q does not name the folder's own ID", fe.Message(i18n.En))
	}
}

func TestNormalizeEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"":                                  "",
		"http://127.0.0.1:8088":             "http://127.0.0.1:8088/drive/v3/",
		"http://127.0.0.1:8088/":            "http://127.0.0.1:8088/drive/v3/",
		"http://127.0.0.1:8088/drive/v3":    "http://127.0.0.1:8088/drive/v3/",
		"https://example.test/x/drive/v3/ ": "https://example.test/x/drive/v3/", //nolint:gocritic // the trailing space is what is trimmed
	} {
		if got := drive.NormalizeEndpoint(in); got != want {
			t.Errorf("NormalizeEndpoint(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFoldersListsTheTargetTrees(t *testing.T) {
	f := drivetest.New(t)
	c := f.Client(t, drive.Options{})
	ctx := context.Background()
	roots, err := c.ResolveFolders(ctx, f.Targets)
	if err != nil {
		t.Fatal(err)
	}
	f.Emu.ResetStats()
	folders, err := c.Folders(ctx, roots)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, fo := range folders {
		got[fo.ID] = fo.Name
	}
	want := map[string]string{
		f.Projects: "Projects", f.Alpha: "Projects/Alpha", f.Deep: "Projects/Alpha/Deep",
		f.Deeper: "Projects/Alpha/Deep/Deeper", f.Shared: "Shared", f.SharedSub: "Shared/Specs",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || len(folders) != len(want) {
		t.Errorf("folders %v\nwant    %v", got, want)
	}
	// Four levels, one query each; no file content is touched.
	st := f.Emu.Stats()
	if st.Calls[driveemu.EndpointList] != 4 || st.Total() != 4 {
		t.Errorf("calls %v, want 4 files.list", st.Calls)
	}
	// The folder IDs restrict a Drive keyword search to the targets.
	ids := make([]string, len(folders))
	for i, fo := range folders {
		ids[i] = fo.ID
	}
	var hits []string
	err = c.Search(ctx, drive.And(drive.InParents(ids...), drive.NotTrashed(), drive.FullTextContains("roadmap")), func(f drive.File) error {
		hits = append(hits, f.Name)
		return nil
	})
	if err != nil || fmt.Sprint(hits) != "[team-notes.txt]" {
		t.Errorf("search hits %v, %v; want [team-notes.txt]", hits, err)
	}
}

func TestResolveRateLimitedIsNotAFolderProblem(t *testing.T) {
	f := drivetest.New(t)
	f.Emu.Faults().Add(driveemu.UserRateLimitExceeded().On(driveemu.EndpointGet))
	_, err := f.Client(t, drive.Options{Retry: drivetest.Instant(3)}).ResolveFolders(context.Background(), f.Targets)
	var (
		fe *drive.FolderError
		re *drive.RetryError
	)
	if errors.As(err, &fe) || !errors.As(err, &re) || re.Attempts != 3 {
		t.Errorf("err = %v, want a RetryError after 3 tries and no FolderError", err)
	}
}
