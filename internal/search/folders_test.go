package search

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/store"
)

func TestResolveFolder(t *testing.T) {
	const docs, reports = "local:/home/u/Docs", "local:/home/u/Reports"
	folders := []store.FolderCount{
		{Source: "drive", Path: "Team/Specs", Files: 3},
		{Source: "drive@work:F1", Path: "Plans", Files: 2},
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
		{"drive@work", scope("", "drive@work")},
		{"drive@work:F1", scope("", "drive@work:F1")},
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

// The closest folders: near ones (a typo, the last segment, a part of
// the name) nearest first, then the folders holding the most files; the
// case the index writes; at most MaxClosestFolders.
func TestClosestFolders(t *testing.T) {
	folders := []store.FolderCount{
		{Source: "local:/a/Notes", Path: "Reports", Files: 2},
		{Source: "local:/a/Notes", Path: "Reports/2024", Files: 1},
		{Source: "local:/a/Notes", Path: "Minutes", Files: 9},
		{Source: "drive:F", Path: "Budget/Plans", Files: 1},
		{Source: "drive:F", Path: "議事録", Files: 3},
	}
	for _, c := range []struct {
		typed string
		want  []string
	}{
		{"Reprots", []string{"Reports", "Notes", "Minutes"}},
		{"plan", []string{"Budget/Plans", "Notes", "Minutes"}},
		{"Repo", []string{"Reports", "Reports/2024", "Notes"}},
		{"議事", []string{"議事録", "Notes", "Minutes"}},
		{"Nope", []string{"Notes", "Minutes", "Reports"}},
		{"zzzzzzzz", []string{"Notes", "Minutes", "Reports"}},
	} {
		got := ResolveFolder(c.typed, folders)
		if got.Found || !reflect.DeepEqual(got.Closest, c.want) {
			t.Errorf("ResolveFolder(%q) = %+v, want closest %q", c.typed, got, c.want)
		}
	}
	if got := ResolveFolder("x", nil); got.Found || len(got.Closest) != 0 {
		t.Errorf("ResolveFolder on no folders = %+v, want no match and nothing close", got)
	}
	// The error names them quoted, and lists the folders in its hint.
	m := ResolveFolder("Reprots", folders)
	e := UnknownFolder("Reprots", m, folders)
	if msg := e.Message("en"); msg != `no indexed folder matches "Reprots"; closest: "Reports", "Notes", "Minutes"` {
		t.Errorf("message %q", msg)
	}
	if h := e.Hint("en"); !strings.Contains(h, "Minutes") || !strings.Contains(h, "議事録") {
		t.Errorf("hint %q", h)
	}
	if !errors.Is(e, apperr.Usage) {
		t.Errorf("an unknown folder is not a usage error")
	}
}
