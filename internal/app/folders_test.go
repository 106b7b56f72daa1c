package app

import (
	"slices"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

func TestFolderTree(t *testing.T) {
	got := FolderTree([]store.FolderCount{
		{Source: "local:/docs", Path: "", Files: 4},
		{Source: "local:/docs", Path: "Reports", Files: 2},
		{Source: "local:/docs", Path: "Reports/2024/Q1", Files: 3},
		{Source: "drive:F", Path: "Reports", Files: 1},
		{Source: "drive:F", Path: "minutes", Files: 5},
		{Source: store.SourceUpload, Path: "", Files: 7},
	})
	want := []Folder{
		{Name: "minutes", Path: "minutes", Source: "drive:F", Files: 5},
		{Name: "Reports", Path: "Reports", Source: "drive:F", Files: 1},
		{Name: "Reports", Path: "Reports", Source: "local:/docs", Files: 5},
		{Name: "2024", Path: "Reports/2024", Source: "local:/docs", Files: 3},
		{Name: "Q1", Path: "Reports/2024/Q1", Source: "local:/docs", Files: 3},
	}
	if !slices.Equal(got, want) {
		t.Errorf("FolderTree =\n%v\nwant\n%v", got, want)
	}
}
