package drivesearch_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/crawl/drivesource"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/search/drivesearch"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// driveFixture serves a target folder through the Drive emulator, crawls it
// into a SQLite index with the offline provider, and returns the searcher.
type driveFixture struct {
	emu      *driveemu.Emulator
	searcher drivesearch.Searcher
	store    *sqlite.Store
	ids      map[string]string
}

func newDriveFixture(t *testing.T) *driveFixture {
	t.Helper()
	ctx := context.Background()
	e := driveemu.New()
	target := e.AddFolder("root", "Team")
	sub := e.AddFolder(target, "Finance")
	ids := map[string]string{}
	for i := range 120 {
		e.AddDoc(sub, fmt.Sprintf("Budget memo %03d", i), fmt.Sprintf("Budget memo number %d about travel costs.", i))
	}
	ids["alpha"] = e.AddDoc(target, "Project Alpha plan", "The alpha launch plan and its budget for the quarter.")
	ids["minutes"] = e.AddDoc(target, "定例会議事録", "本日の定例会議事録です。予算について議論した。")
	ids["outside"] = e.AddDoc("root", "Alpha outside", "An alpha budget file outside the target folder.")
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)

	c, err := drive.New(ctx, drive.Options{Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	src := drivesource.New(c, drivesource.Options{FolderIDs: []string{target}})
	sum, err := crawl.Run(ctx, crawl.Options{Source: src, Index: st, Provider: offline.New(), SummaryMaxLength: 100})
	if err != nil || sum.New != 122 {
		t.Fatalf("crawl: %+v, %v", sum, err)
	}
	return &driveFixture{emu: e, store: st, ids: ids,
		searcher: drivesearch.Searcher{Drive: c, Index: st, Local: search.StoreSearcher{Index: st}}}
}

func TestSearcher(t *testing.T) {
	ctx := context.Background()
	f := newDriveFixture(t)

	// Many Drive hits: reading stops once the ≥ 101 branch is decided.
	f.emu.ResetStats()
	hits, total, err := f.searcher.SearchKeywords(ctx, search.Conditions{Keywords: []string{"budget"}}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if total < search.ClarifyAt || len(hits) != 100 {
		t.Errorf("budget: %d hits, total %d", len(hits), total)
	}

	// Hits are intersected with the index: the file outside the target
	// folder matches in Drive but is not a hit.
	hits, total, err = f.searcher.SearchKeywords(ctx, search.Conditions{Keywords: []string{"alpha"}}, 100)
	if err != nil || total != 1 || hits[0] != f.ids["alpha"] {
		t.Errorf("alpha: %v total %d, %v", hits, total, err)
	}

	// Required keywords must all match.
	hits, _, err = f.searcher.SearchKeywords(ctx, search.Conditions{Keywords: []string{"travel"}, Required: []string{"launch"}}, 100)
	if err != nil || len(hits) != 0 {
		t.Errorf("travel+launch: %v, %v", hits, err)
	}

	// Drive does not find 議事録 inside the compound 定例会議事録; the local
	// bigram index does.
	hits, total, err = f.searcher.SearchKeywords(ctx, search.Conditions{Keywords: []string{"議事録"}}, 100)
	if err != nil || total != 1 || hits[0] != f.ids["minutes"] {
		t.Errorf("議事録: %v total %d, %v", hits, total, err)
	}
	noLocal := f.searcher
	noLocal.Local = nil
	if hits, _, _ := noLocal.SearchKeywords(ctx, search.Conditions{Keywords: []string{"議事録"}}, 100); len(hits) != 0 {
		t.Errorf("the emulator found a CJK substring (%v): the fallback is untested", hits)
	}

	// Folder filter: Drive's query cannot say "below this folder", so the
	// hits are kept to the folder by the paths the index records. "budget"
	// matches the 120 memos in the subfolder and the alpha plan above it.
	files, err := f.store.GetFiles(ctx, []string{f.ids["alpha"]})
	if err != nil || len(files) != 1 {
		t.Fatalf("alpha in the index: %v, %v", files, err)
	}
	top := files[0].Path
	sub := top + "/Finance"
	for _, tc := range []struct {
		folder    string
		total     int
		withAlpha bool
	}{{sub, 120, false}, {top, 121, true}, {top + "/Fin", 0, false}} {
		hits, total, err := f.searcher.SearchKeywords(ctx, search.Conditions{Keywords: []string{"budget"}, Filters: ai.Filters{Folder: tc.folder}}, 200)
		if err != nil || total != tc.total || slices.Contains(hits, f.ids["alpha"]) != tc.withAlpha {
			t.Errorf("budget in %q: %d hits, total %d (want %d), alpha %v, %v", tc.folder, len(hits), total, tc.total, slices.Contains(hits, f.ids["alpha"]), err)
		}
	}

	// Type filter: no PDFs here.
	hits, total, err = f.searcher.SearchKeywords(ctx, search.Conditions{Keywords: []string{"budget"}, Filters: ai.Filters{FileType: ai.FileTypePDF}}, 100)
	if err != nil || total != 0 || len(hits) != 0 {
		t.Errorf("pdf: %v total %d, %v", hits, total, err)
	}
}

func TestQueryEscapes(t *testing.T) {
	q, err := drivesearch.Query(search.Conditions{Keywords: []string{`quinn's \ paper`, "x' or trashed = true or 'a"},
		Filters: ai.Filters{ModifiedAfter: "2024-01-01", ModifiedBefore: "2025-01-01", FileType: ai.FileTypePDF}})
	if err != nil {
		t.Fatal(err)
	}
	s := q.String()
	for _, want := range []string{`quinn\'s \\ paper`, `x\' or trashed = true or \'a`, "modifiedTime >= '2024-01-01T00:00:00", "modifiedTime < '2025-01-01T00:00:00", "mimeType = 'application/pdf'", "trashed = false"} {
		if !strings.Contains(s, want) {
			t.Errorf("query %q lacks %q", s, want)
		}
	}
	if _, err := driveemu.ParseQuery(s); err != nil {
		t.Errorf("the emulator rejects %q: %v", s, err)
	}
}

// The whole loop over Drive: a broad query asks, the answer narrows.
func TestLoopOverDrive(t *testing.T) {
	ctx := context.Background()
	f := newDriveFixture(t)
	l := &search.Loop{Keywords: f.searcher, Index: f.store, AI: offline.New(), Asker: search.Deferred{}}
	out, err := l.Run(ctx, search.NewState("budget", "en", time.Now(), 5))
	if err != nil {
		t.Fatal(err)
	}
	if out.Pending == nil || out.State.Rounds[0].Branch != search.BranchClarify {
		t.Fatalf("broad query: %+v", out.State.Rounds)
	}
	out, err = l.Resume(ctx, out.State, search.Answer{Choice: -1, Text: "launch"})
	if err != nil {
		t.Fatal(err)
	}
	if out.State.End != search.EndResults || len(out.Results) != 1 || out.Results[0].File.ID != f.ids["alpha"] {
		t.Fatalf("after the answer: %+v %+v", out.State.Rounds, out.Results)
	}
	if !slices.Contains(out.State.Cond.Required, "launch") {
		t.Errorf("conditions %+v", out.State.Cond)
	}
}
