package search_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// 150 reports, 50 each in Sales, Engineering and HR,
// where every Sales report ranks below the others (long text, so a lower
// full-text score): the top 20 hold no Sales file, yet the clarifying
// question counts its folders over all 150 hits and offers Sales (50).
func TestClarifyCountsFacetsOverAllHits(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	mod := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	filler := strings.Repeat("Figures, tables and notes about customers and regions. ", 40)
	for i := range 150 {
		folder := []string{"Engineering", "HR", "Sales"}[i%3]
		text := fmt.Sprintf("Report number %d.", i)
		if folder == "Sales" {
			text += " " + filler
		}
		f := store.File{ID: fmt.Sprintf("f%03d", i), Name: fmt.Sprintf("r%03d.txt", i),
			Embedding: offline.Embedding(text), ModifiedAt: mod, MimeType: "text/plain",
			Path: folder, ContentHash: fmt.Sprint(i), Source: "local", Provider: "offline", IndexedAt: mod, Text: text}
		if err := st.UpsertFile(ctx, f, nil); err != nil {
			t.Fatal(err)
		}
	}
	// The premise: no Sales report among the top 20 keyword hits.
	res, err := st.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{"report"}, Match: store.MatchAny, Limit: 20})
	if err != nil || res.Total != 150 {
		t.Fatalf("KeywordSearch(report) = %d hits of %d, %v", len(res.Hits), res.Total, err)
	}
	files, err := st.GetFiles(ctx, hitIDsOf(res.Hits))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Path == "Sales" {
			t.Fatalf("premise broken: %s (Sales) is in the top 20", f.ID)
		}
	}

	l := &search.Loop{Keywords: search.StoreSearcher{Index: st}, Index: st, AI: offline.New(), Asker: search.Deferred{}}
	out, err := l.Run(ctx, search.NewState("report", "en", mod, 5))
	if err != nil {
		t.Fatal(err)
	}
	if out.Pending == nil {
		t.Fatalf("no question for 150 hits: end %q", out.State.End)
	}
	labels := map[string]string{}
	for _, c := range out.Pending.Choices {
		labels[c.Filters.Folder] = c.Label
	}
	for _, folder := range []string{"Sales", "Engineering", "HR"} {
		if labels[folder] != folder+" (50)" {
			t.Errorf("question %q: choice for %s = %q, want %q (choices %+v)", out.Pending.Question, folder,
				labels[folder], folder+" (50)", out.Pending.Choices)
		}
	}
}

func hitIDsOf(hits []store.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}
