package offline

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
)

func hit(id, mime, modified, path string, kws ...string) ai.HitInfo {
	return ai.HitInfo{ID: id, Name: id, MimeType: mime, Modified: modified, Path: path, Keywords: kws}
}

const (
	mimePDF    = "application/pdf"
	mimeSlides = "application/vnd.google-apps.presentation"
	mimeSheet  = "application/vnd.google-apps.spreadsheet"
)

func TestClarifyAsksAboutMostDiscriminatingFacet(t *testing.T) {
	ctx := context.Background()
	p := New()
	var mixedTypes, oneType []ai.HitInfo
	for i := range 12 {
		mime := []string{mimePDF, mimeSlides, mimeSheet}[i%3]
		// Types split three ways; every file is from 2026 and in one folder.
		mixedTypes = append(mixedTypes, hit(fmt.Sprint("t", i), mime, "2026-0"+fmt.Sprint(1+i%2)+"-10", "/Work", "議事録"))
		// All PDFs, spread over years 2023, 2024, 2025 evenly.
		oneType = append(oneType, hit(fmt.Sprint("y", i), mimePDF, fmt.Sprintf("%d-05-01", 2023+i%3), "/Work"))
	}

	q, err := ai.Clarify(ctx, p, ai.ClarifyInput{Query: "議事録", Keywords: []string{"議事録"}, Total: 150, Hits: mixedTypes, Lang: "ja"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(q.Question, "150件") || !strings.Contains(q.Question, "種類") {
		t.Errorf("question %q", q.Question)
	}
	if len(q.Choices) != 3 {
		t.Fatalf("choices %+v", q.Choices)
	}
	seen := map[string]bool{}
	for _, c := range q.Choices {
		if c.Keyword != "" || c.Filters.ModifiedAfter != "" || c.Filters.FileType == "" || seen[c.Filters.FileType] {
			t.Errorf("choice %+v does not set exactly one new file type", c)
		}
		seen[c.Filters.FileType] = true
		if !strings.HasSuffix(c.Label, "(4)") {
			t.Errorf("label %q lacks the count", c.Label)
		}
	}

	q, err = ai.Clarify(ctx, p, ai.ClarifyInput{Query: "report", Total: 300, Hits: oneType, Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(q.Question, "300 files") || len(q.Choices) != 3 {
		t.Fatalf("question %+v", q)
	}
	for _, c := range q.Choices {
		y := strings.Fields(c.Label)[0]
		if c.Filters.ModifiedAfter != y+"-01-01" || c.Filters.FileType != "" || c.Keyword != "" {
			t.Errorf("choice %+v", c)
		}
	}

	// With the type already filtered and one year, keywords of the hits decide.
	var kwHits []ai.HitInfo
	for i := range 10 {
		kwHits = append(kwHits, hit(fmt.Sprint("k", i), mimePDF, "2026-05-01", "", "Report", []string{"Alpha", "Beta"}[i%2]))
	}
	q, err = ai.Clarify(ctx, p, ai.ClarifyInput{Query: "report", Keywords: []string{"report"}, Filters: ai.Filters{FileType: ai.FileTypePDF},
		Total: 120, Hits: kwHits, Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	var kws []string
	for _, c := range q.Choices {
		kws = append(kws, c.Keyword)
	}
	if !slices.Equal(kws, []string{"Alpha", "Beta"}) {
		t.Errorf("keyword choices %q (question %q)", kws, q.Question)
	}

	// Nothing to split on: a free-text question.
	same := []ai.HitInfo{hit("s1", mimePDF, "2026-05-01", ""), hit("s2", mimePDF, "2026-05-02", "")}
	q, err = ai.Clarify(ctx, p, ai.ClarifyInput{Total: 101, Hits: same, Lang: "en"})
	if err != nil || len(q.Choices) != 0 || q.Question == "" {
		t.Errorf("free-text question: %+v, %v", q, err)
	}
}

func TestRefineReadsAnswers(t *testing.T) {
	ctx := context.Background()
	p := New()
	cases := []struct {
		answer, keyword string
		want            ai.Filters
	}{
		{"PDF (34)", "", ai.Filters{FileType: ai.FileTypePDF}},
		{"2025年 (12)", "", ai.Filters{ModifiedAfter: "2025-01-01", ModifiedBefore: "2026-01-01"}},
		{"2026-10 (3)", "", ai.Filters{ModifiedAfter: "2026-10-01", ModifiedBefore: "2026-11-01"}},
		{"先週のスライドです", "", ai.Filters{ModifiedAfter: "2026-11-09", ModifiedBefore: "2026-11-16", FileType: ai.FileTypePresentation}},
		{"プロジェクトアルファの件", "プロジェクトアルファ", ai.Filters{}},
		{"議事録、Alphaの", "Alpha", ai.Filters{}}, // 議事録 is already a keyword
		{"the Phoenix one from last year", "Phoenix", ai.Filters{ModifiedAfter: "2025-01-01", ModifiedBefore: "2026-01-01"}},
	}
	for _, c := range cases {
		got, err := ai.Refine(ctx, p, ai.RefineInput{Query: "議事録", Keywords: []string{"議事録"}, Answer: c.answer, Now: testNow})
		if err != nil {
			t.Fatal(err)
		}
		if got.AddKeyword != c.keyword || got.Filters != c.want {
			t.Errorf("%q: got %+v, want keyword %q filters %+v", c.answer, got, c.keyword, c.want)
		}
	}
}

func TestRelax(t *testing.T) {
	period := ai.Filters{ModifiedAfter: "2026-10-01", ModifiedBefore: "2026-11-01", FileType: ai.FileTypePDF}
	cases := []struct {
		in   ai.RelaxInput
		want ai.Relaxation
	}{
		{ai.RelaxInput{Keywords: []string{"a", "b", "c"}, Filters: period}, ai.Relaxation{Keywords: []string{"a", "b"}, Filters: period}},
		{ai.RelaxInput{Keywords: []string{"a"}, Filters: period}, ai.Relaxation{Keywords: []string{"a"}, Filters: ai.Filters{FileType: ai.FileTypePDF}}},
		{ai.RelaxInput{Keywords: []string{"a"}, Filters: ai.Filters{FileType: ai.FileTypePDF}}, ai.Relaxation{Keywords: []string{"a"}}},
		{ai.RelaxInput{Keywords: []string{"a"}}, ai.Relaxation{Keywords: []string{"a"}}},
	}
	for _, c := range cases {
		got, err := ai.Relax(context.Background(), New(), c.in)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Keywords, c.want.Keywords) || got.Filters != c.want.Filters {
			t.Errorf("relax %+v = %+v, want %+v", c.in, got, c.want)
		}
	}
}

// When the hits differ only by folder, the question asks for the folder
// and each choice is a folder filter at the level where their paths part.
func TestClarifyOffersFolderFilters(t *testing.T) {
	hitsIn := func(paths ...string) []ai.HitInfo {
		var hits []ai.HitInfo
		for i := range 40 {
			hits = append(hits, ai.HitInfo{ID: fmt.Sprint(i), Name: fmt.Sprintf("report %d.pdf", i), MimeType: "application/pdf",
				Modified: "2026-05-01", Path: paths[i%len(paths)], Summary: "quarterly report"})
		}
		return hits
	}
	tests := []struct {
		paths []string
		want  []string // folder filters offered
	}{
		{[]string{"Sales/Tokyo", "Sales/Osaka", "Legal"}, []string{"Sales", "Legal"}},
		{[]string{"Sales/Tokyo/2025", "Sales/Osaka", "Sales/Tokyo/2026", "Sales"}, []string{"Sales/Tokyo", "Sales/Osaka"}},
	}
	for _, tt := range tests {
		q := clarify(ai.ClarifyInput{Query: "report", Keywords: []string{"report"}, Total: 400, Hits: hitsIn(tt.paths...), Lang: "ja"})
		var got []string
		for _, c := range q.Choices {
			if c.Keyword != "" || c.Filters.Folder == "" {
				t.Errorf("%v: choice %+v is not a folder filter", tt.paths, c)
			}
			got = append(got, c.Filters.Folder)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%v: folders offered %q, want %q", tt.paths, got, tt.want)
		}
		if !strings.Contains(q.Question, "フォルダ") {
			t.Errorf("%v: question %q does not ask for the folder", tt.paths, q.Question)
		}
	}
}

func TestRelaxDropsTheFolderLast(t *testing.T) {
	in := ai.RelaxInput{Keywords: []string{"report"}, Filters: ai.Filters{FileType: ai.FileTypePDF, Folder: "Sales"}}
	r := relax(in)
	if r.Filters.FileType != "" || r.Filters.Folder != "Sales" {
		t.Fatalf("first relaxation %+v, want the file type dropped and the folder kept", r.Filters)
	}
	in.Filters = r.Filters
	if r = relax(in); !r.Filters.IsZero() {
		t.Errorf("second relaxation %+v, want the folder dropped", r.Filters)
	}
}
