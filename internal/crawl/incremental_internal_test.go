package crawl

import (
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
)

func TestChooseMode(t *testing.T) {
	for _, c := range []struct {
		full, feed bool
		token      string
		want       mode
	}{
		{full: true, feed: true, token: "7", want: modeFull},
		{full: true, want: modeFull},
		{feed: true, token: "7", want: modeFeed},
		{feed: true, want: modeReconcile}, // no token stored: list and compare
		{token: "7", want: modeReconcile}, // a token but no feed (cannot happen; still safe)
		{want: modeReconcile},
	} {
		if got := chooseMode(c.full, c.feed, c.token); got != c.want {
			t.Errorf("chooseMode(full=%v, feed=%v, token=%q) = %v, want %v", c.full, c.feed, c.token, got, c.want)
		}
	}
}

func TestCompareEntry(t *testing.T) {
	t0 := time.Date(2020, 5, 1, 10, 0, 0, 123456789, time.UTC)
	rec := store.File{ID: "x", Name: "a.txt", Path: "A", ModifiedAt: t0.Truncate(time.Microsecond), Size: 10,
		MimeType: "text/plain", WebLink: "file:///A/a.txt", Parents: []string{"p"}, ExtractVersion: 3}
	old := rec
	old.ExtractVersion = 2
	base := Entry{ID: "x", Name: "a.txt", Path: "A", ModifiedAt: t0, Size: 10, MimeType: "text/plain",
		WebLink: "file:///A/a.txt", Parents: []string{"p"}}
	with := func(f func(*Entry)) Entry { e := base; f(&e); return e }
	for _, c := range []struct {
		name string
		e    Entry
		rec  *store.File
		want diff
	}{
		{"no record", base, nil, diffNew},
		{"same (nanoseconds beyond what the store keeps)", base, &rec, diffSame},
		{"newer", with(func(e *Entry) { e.ModifiedAt = t0.Add(time.Second) }), &rec, diffChanged},
		{"older (restored from a backup)", with(func(e *Entry) { e.ModifiedAt = t0.Add(-time.Hour) }), &rec, diffChanged},
		{"size", with(func(e *Entry) { e.Size = 11 }), &rec, diffChanged},
		{"type", with(func(e *Entry) { e.MimeType = "text/markdown" }), &rec, diffChanged},
		{"renamed", with(func(e *Entry) { e.Name = "b.txt" }), &rec, diffMoved},
		{"moved to another folder", with(func(e *Entry) { e.Path = "B"; e.Parents = []string{"q"} }), &rec, diffMoved},
		{"new link", with(func(e *Entry) { e.WebLink = "x" }), &rec, diffMoved},
		{"moved and changed", with(func(e *Entry) { e.Path = "B"; e.Size = 3 }), &rec, diffChanged},
		{"read by an older extraction", base, &old, diffStale},
		{"older extraction, and changed", with(func(e *Entry) { e.Size = 11 }), &old, diffChanged},
		{"older extraction, and renamed", with(func(e *Entry) { e.Name = "b.txt" }), &old, diffMoved},
		{"read by a newer extraction (gds downgraded)", base, &store.File{ID: "x", Name: "a.txt", Path: "A",
			ModifiedAt: rec.ModifiedAt, Size: 10, MimeType: "text/plain", WebLink: rec.WebLink, Parents: rec.Parents, ExtractVersion: 4}, diffSame},
	} {
		if got := compareEntry(c.e, c.rec, 3); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDecideChange(t *testing.T) {
	stored := &store.File{ID: "x", Path: "Shortcut home", Parents: []string{"outside"}}
	in := Entry{ID: "x", Name: "a", Path: "Target/Sub"}
	for _, c := range []struct {
		name         string
		ch           Change
		stored       *store.File
		storedInside bool
		want         action
		wantPath     string
	}{
		{"new file inside", Change{ID: "x", Entry: in}, nil, false, actUpsert, "Target/Sub"},
		{"changed file inside", Change{ID: "x", Entry: in}, stored, true, actUpsert, "Target/Sub"},
		{"deleted, indexed", Change{ID: "x", Gone: true}, stored, true, actRemove, ""},
		{"deleted, never indexed", Change{ID: "x", Gone: true}, nil, false, actIgnore, ""},
		{"moved out of the targets", Change{ID: "x", Outside: true, Entry: Entry{ID: "x"}}, stored, true, actRemove, ""},
		{"a file outside changed, never indexed", Change{ID: "x", Outside: true}, nil, false, actIgnore, ""},
		{"a shortcut's target outside changed", Change{ID: "x", Outside: true, Entry: Entry{ID: "x", Name: "a"}}, stored, false, actUpsert, "Shortcut home"},
	} {
		got, e := decideChange(c.ch, c.stored, c.storedInside)
		if got != c.want || (got == actUpsert && e.Path != c.wantPath) {
			t.Errorf("%s: %v %q, want %v %q", c.name, got, e.Path, c.want, c.wantPath)
		}
	}
}

func TestIDSet(t *testing.T) {
	s := idSet{}
	s.add("local-abc")
	if !s.has("local-abc") || s.has("local-abd") {
		t.Fatal("idSet membership wrong")
	}
}
