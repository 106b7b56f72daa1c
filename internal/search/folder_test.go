package search_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// The whole loop over a real index: 150 alike reports in three folders make
// the offline provider ask for the folder; choosing one keeps the results
// in that folder's subtree.
func TestFolderChoiceNarrowsToTheFolder(t *testing.T) {
	ctx := context.Background()
	st := reportsIndex(t)
	mod := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	l := &search.Loop{Keywords: search.StoreSearcher{Index: st}, Index: st, AI: offline.New(), Asker: search.Deferred{}}
	out, err := l.Run(ctx, search.NewState("quarterly report", "en", mod, 5))
	if err != nil {
		t.Fatal(err)
	}
	if out.Pending == nil {
		t.Fatalf("no question for 150 hits: end %q", out.State.End)
	}
	choice := -1
	for i, c := range out.Pending.Choices {
		if c.Filters.Folder == "Sales" {
			choice = i
		}
	}
	if choice < 0 {
		t.Fatalf("question %q offers no Sales folder: %+v", out.Pending.Question, out.Pending.Choices)
	}
	out, err = l.Resume(ctx, out.State, search.Answer{Choice: choice})
	if err != nil {
		t.Fatal(err)
	}
	if out.State.End != search.EndResults || len(out.Results) == 0 {
		t.Fatalf("after the folder answer: end %q, %d results", out.State.End, len(out.Results))
	}
	for _, r := range out.Results {
		if !store.InFolder(r.File.Path, "Sales") {
			t.Errorf("result %s is in %q, outside Sales", r.File.Name, r.File.Path)
		}
	}
	if got := out.State.Rounds[1].Hits; got != 100 {
		t.Errorf("the folder round found %d hits, want the 100 in Sales/Tokyo and Sales/Osaka", got)
	}
}

// reportsIndex is an index of 150 alike reports, a third each in
// Sales/Tokyo, Legal and Sales/Osaka.
func reportsIndex(t *testing.T) *sqlite.Store {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	mod := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for i := range 150 {
		folder := []string{"Sales/Tokyo", "Legal", "Sales/Osaka"}[i%3]
		text := fmt.Sprintf("Quarterly report number %d.", i)
		f := store.File{ID: fmt.Sprintf("f%03d", i), Name: fmt.Sprintf("report %03d.txt", i), Summary: "Quarterly report.",
			Keywords: []string{"report"}, Embedding: offline.Embedding(text), ModifiedAt: mod, MimeType: "text/plain",
			Path: folder, ContentHash: fmt.Sprint(i), Source: "local", Provider: "offline", IndexedAt: mod, Text: text}
		if err := st.UpsertFile(ctx, f, []store.Chunk{{Text: text, Embedding: offline.Embedding(text)}}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestScoped(t *testing.T) {
	c := func(folder string) search.Conditions {
		return search.Conditions{Keywords: []string{"a"}, Filters: ai.Filters{FileType: ai.FileTypePDF, Folder: folder}}
	}
	for _, tt := range []struct{ folder, scope, want string }{
		{"", "", ""},
		{"Sales", "", "Sales"},
		{"", "Sales", "Sales"},
		{"Sales/Tokyo", "Sales", "Sales/Tokyo"}, // an answer narrowed it
		{"Sales", "Sales/Tokyo", "Sales/Tokyo"}, // broader than the scope
		{"Legal", "/Sales/", "Sales"},           // outside the scope
	} {
		got := search.Scoped(c(tt.folder), tt.scope)
		if got.Filters.Folder != tt.want || got.Filters.FileType != ai.FileTypePDF {
			t.Errorf("Scoped(folder %q, scope %q) = %+v, want folder %q", tt.folder, tt.scope, got.Filters, tt.want)
		}
	}
}

// A search scoped to a folder never leaves it: 50 of the 150 reports are in
// Legal, so the scoped search narrows them without a question.
func TestScopeKeepsTheSearchInTheFolder(t *testing.T) {
	ctx := context.Background()
	st := reportsIndex(t)
	l := &search.Loop{Keywords: search.StoreSearcher{Index: st}, Index: st, AI: offline.New(), Asker: search.Deferred{}}
	s := search.NewState("quarterly report", "en", time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), 5)
	s.Scope = "Legal"
	out, err := l.Run(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if out.Pending != nil || out.State.End != search.EndResults || out.State.Rounds[0].Hits != 50 {
		t.Fatalf("scoped search: end %q, rounds %+v, question %v", out.State.End, out.State.Rounds, out.Pending)
	}
	for _, r := range out.Results {
		if r.File.Path != "Legal" {
			t.Errorf("result %s is in %q", r.File.Name, r.File.Path)
		}
	}
}
