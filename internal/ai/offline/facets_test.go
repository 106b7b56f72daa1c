package offline

import (
	"fmt"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
)

// With the index's counts over all the hits, the type, period and folder
// choices are counted over them, not over the top hits the input carries.
func TestClarifyUsesFacetCounts(t *testing.T) {
	var top []ai.HitInfo
	for i := range 20 {
		top = append(top, hit(fmt.Sprint(i), "text/plain", "2026-05-01", []string{"Engineering", "HR"}[i%2]))
	}
	tests := []struct {
		name   string
		facets []ai.FacetCount
		want   []string // choice labels
	}{
		{"no counts: the top hits", nil, []string{"Engineering (10)", "HR (10)"}},
		{"folders over all hits", []ai.FacetCount{
			{Path: "Engineering", MimeType: "text/plain", Month: "2026-05", N: 50},
			{Path: "HR", MimeType: "text/plain", Month: "2026-05", N: 50},
			{Path: "Sales", MimeType: "text/plain", Month: "2026-05", N: 50},
		}, []string{"Engineering (50)", "HR (50)", "Sales (50)"}},
		{"types over all hits", []ai.FacetCount{
			{Path: "Engineering", MimeType: "text/plain", Month: "2026-05", N: 60},
			{Path: "Engineering", MimeType: "application/pdf", Month: "2026-05", N: 90},
		}, []string{"PDF (90)", "Text (60)"}},
		{"months over all hits", []ai.FacetCount{
			{Path: "Engineering", MimeType: "text/plain", Month: "2026-04", N: 70},
			{Path: "Engineering", MimeType: "text/plain", Month: "2026-05", N: 80},
		}, []string{"2026-05 (80)", "2026-04 (70)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := clarify(ai.ClarifyInput{Query: "report", Keywords: []string{"report"}, Total: 150, Hits: top, Lang: "en", Facets: tc.facets})
			var got []string
			for _, c := range q.Choices {
				got = append(got, c.Label)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("choices %v, want %v (question %q)", got, tc.want, q.Question)
			}
		})
	}
}
