package search

import (
	"reflect"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

func TestResolveFolder(t *testing.T) {
	const docs, reports = "local:/home/u/Docs", "local:/home/u/Reports"
	folders := []store.FolderCount{
		{Source: "drive", Path: "Team/Specs", Files: 3},
		{Source: docs, Path: "", Files: 1},
		{Source: docs, Path: "Projects/Alpha", Files: 2},
		{Source: docs, Path: "wiki-en", Files: 4},
		{Source: reports, Path: "", Files: 5},
		{Source: reports, Path: "2024/Q1", Files: 2},
	}
	scope := func(p string, srcs ...string) FolderMatch {
		return FolderMatch{Found: true, Scope: FolderScope{Path: p, Sources: srcs}}
	}
	for _, c := range []struct {
		typed string
		want  FolderMatch
	}{
		{"", FolderMatch{Found: true}},
		// As results show it, exactly or in any case; a folder with files
		// only below it counts.
		{"Team/Specs", scope("Team/Specs")},
		{"team/specs/", scope("Team/Specs")},
		{"projects", scope("Projects")},
		{"WIKI-EN", scope("wiki-en")},
		// A local source's name, alone or with a path inside it.
		{"Reports", scope("", reports)},
		{"reports/2024", scope("2024", reports)},
		{"Docs/projects/alpha", scope("Projects/Alpha", docs)},
		// The local path, or a source spec.
		{"/home/u/Reports", scope("", reports)},
		{"/home/u/Reports/2024/q1", scope("2024/Q1", reports)},
		{"/home/u/Docs/wiki-en/", scope("wiki-en", docs)},
		{"local:/home/u/Docs/Projects", scope("Projects", docs)},
		{"local:/home/u/Reports", scope("", reports)},
		{"drive", scope("", "drive")},
	} {
		if got := ResolveFolder(c.typed, folders); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ResolveFolder(%q) = %+v, want %+v", c.typed, got, c.want)
		}
	}
}

// An unknown folder names the closest indexed folders, the nearest first.
func TestResolveUnknownFolder(t *testing.T) {
	folders := []store.FolderCount{
		{Source: "drive", Path: "Team/Specs", Files: 3},
		{Source: "local:/home/u/Reports", Path: "2024/Q1", Files: 2},
		{Source: "local:/home/u/Docs", Path: "wiki-en", Files: 4},
		{Source: "local:/home/u/Docs", Path: "wiki-ja", Files: 4},
	}
	for typed, first := range map[string]string{
		"wiki_en":                "wiki-en",
		"Reprots":                "Reports",
		"specs2":                 "Team/Specs",
		"/home/u/Docs/wiki-fr":   "wiki-en",
		"local:/home/u/Other/Q2": "2024/Q1",
		"NoSuchFolder":           "",
	} {
		got := ResolveFolder(typed, folders)
		if got.Found || len(got.Closest) != MaxClosestFolders || first != "" && got.Closest[0] != first {
			t.Errorf("ResolveFolder(%q) = %+v, want not found, %d closest, %q first", typed, got, MaxClosestFolders, first)
		}
	}
}
