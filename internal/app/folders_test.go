package app

import (
	"fmt"
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

func TestMatchFolder(t *testing.T) {
	folders := FolderTree([]store.FolderCount{
		{Source: "local:/a", Path: "Reports", Files: 2},
		{Source: "local:/a", Path: "Reports/2024", Files: 1},
		{Source: "local:/a", Path: "Minutes", Files: 9},
		{Source: "drive:F", Path: "Budget/Plans", Files: 1},
		{Source: "drive:F", Path: "Zeta", Files: 1},
		{Source: "drive:F", Path: "zeta", Files: 1},
		{Source: "drive:F", Path: "議事録", Files: 3},
	})
	tests := []struct {
		name string
		in   string
		want FolderMatch
	}{
		{"blank is every folder", "  ", FolderMatch{OK: true}},
		{"slashes only is every folder", "/", FolderMatch{OK: true}},
		{"exact path", "Reports/2024", FolderMatch{OK: true, Path: "Reports/2024"}},
		{"exact with slashes around", "/Reports/", FolderMatch{OK: true, Path: "Reports"}},
		{"case-insensitive, one match", "reports", FolderMatch{OK: true, Path: "Reports"}},
		{"case-insensitive nested", "REPORTS/2024", FolderMatch{OK: true, Path: "Reports/2024"}},
		{"exact wins over folded", "zeta", FolderMatch{OK: true, Path: "zeta"}},
		{"two folded matches: ambiguous", "ZETA", FolderMatch{Closest: []string{"Zeta", "zeta"}}},
		{"typo names the near folder", "Reprots", FolderMatch{Closest: []string{"Reports"}}},
		{"last segment near", "plan", FolderMatch{Closest: []string{"Budget/Plans"}}},
		{"substring", "Repo", FolderMatch{Closest: []string{"Reports", "Reports/2024"}}},
		{"Japanese exact", "議事録", FolderMatch{OK: true, Path: "議事録"}},
		{"nothing near: the largest folders", "Nope", FolderMatch{Closest: []string{"Minutes", "Reports", "議事録", "Budget", "Budget/Plans"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := MatchFolder(tc.in, folders)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("MatchFolder(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
	if got := MatchFolder("x", nil); got.OK || len(got.Closest) != 0 {
		t.Errorf("MatchFolder on no folders = %+v, want no match and nothing close", got)
	}
}
