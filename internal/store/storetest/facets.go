package storetest

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
)

// testKeywordFacets checks that KeywordFacets counts every match of a
// keyword query (not only the ranked page) by folder, MIME type and UTC
// month, with the filter applied, in the filter-only case too, and agrees
// with KeywordSearch's Total.
func testKeywordFacets(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	// 15 reports: Sales 7 (PDF), Engineering 5 (text), HR 3 (text); one
	// file without the word.
	mk := func(id, path, mime, text string, mod time.Time) {
		f := file(id, id, text)
		f.Path, f.MimeType, f.ModifiedAt = path, mime, mod
		upsert(t, ctx, s, f)
	}
	for i := range 7 {
		mk(fmt.Sprintf("s%d", i), "Sales", "application/pdf", "quarterly report", t0.AddDate(0, i%2, 0))
	}
	for i := range 5 {
		mk(fmt.Sprintf("e%d", i), "Engineering/Backend", "text/plain", "report", t0)
	}
	for i := range 3 {
		mk(fmt.Sprintf("h%d", i), "HR", "text/plain", "hiring report", t0)
	}
	mk("x", "Sales", "application/pdf", "invoice", t0)
	// A time on the last evening of a month in UTC+9 is still the month before in UTC.
	mk("late", "HR", "text/plain", "report", time.Date(2024, 3, 1, 8, 0, 0, 0, jst))

	key := func(c store.FacetCount) string { return c.Path + "|" + c.MimeType + "|" + c.Month }
	facets := func(q store.KeywordQuery) map[string]int {
		t.Helper()
		cs, err := s.KeywordFacets(ctx, q)
		if err != nil {
			t.Fatalf("KeywordFacets(%+v): %v", q, err)
		}
		out := map[string]int{}
		for _, c := range cs {
			out[key(c)] += c.N
		}
		return out
	}
	sum := func(m map[string]int) int {
		n := 0
		for _, v := range m {
			n += v
		}
		return n
	}
	q := all("report")
	q.Limit = 3 // ignored
	got := facets(q)
	want := map[string]int{
		"Sales|application/pdf|2024-03": 4, "Sales|application/pdf|2024-04": 3,
		"Engineering/Backend|text/plain|2024-03": 5, "HR|text/plain|2024-03": 3, "HR|text/plain|2024-02": 1,
	}
	if fmt.Sprint(sortedMap(got)) != fmt.Sprint(sortedMap(want)) {
		t.Errorf("KeywordFacets(report) = %v, want %v", sortedMap(got), sortedMap(want))
	}
	if total := keyword(t, ctx, s, all("report")).Total; sum(got) != total {
		t.Errorf("facets count %d files, KeywordSearch Total %d", sum(got), total)
	}
	q = all("report")
	q.Filter.MimeTypes = []string{"text/plain"}
	if got := facets(q); sum(got) != 9 || got["Sales|application/pdf|2024-03"] != 0 {
		t.Errorf("KeywordFacets(report, text/plain) = %v, want the 9 text files", sortedMap(got))
	}
	fo := store.KeywordQuery{Filter: store.Filter{Folder: "Sales"}}
	if got := facets(fo); sum(got) != 8 {
		t.Errorf("KeywordFacets(filter only, Sales) = %v, want the 8 Sales files", sortedMap(got))
	}
	if got := facets(store.KeywordQuery{}); len(got) != 0 {
		t.Errorf("KeywordFacets(no term, no filter) = %v, want none", got)
	}
	if got := facets(all("nothingmatches")); len(got) != 0 {
		t.Errorf("KeywordFacets(no match) = %v, want none", got)
	}
}

func sortedMap(m map[string]int) []string {
	var out []string
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(out)
	return out
}
