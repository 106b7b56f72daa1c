package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/render/alfred"
)

var lastYearHome e2eHome

// noLastYearIndex indexes two PDFs, one from this year and one from two
// years ago, and a text file from last year: "去年のPDF" (last year's PDFs)
// matches nothing as asked.
func noLastYearIndex(t *testing.T) (home string, lastYear int) {
	now := time.Now()
	home = frontendHome(t, &lastYearHome, "no-last-year", func() (string, error) {
		dir := filepath.Join(homesDir, "no-last-year-src")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		pdf, err := os.ReadFile("../../testdata/realdocs/markitdown-autogen-page.pdf")
		if err != nil {
			return "", err
		}
		notes, err := os.ReadFile("../../testdata/realdocs/janome-lemon-ja.txt")
		if err != nil {
			return "", err
		}
		for _, f := range []struct {
			name string
			body []byte
			mod  time.Time
		}{
			{"this-year.pdf", pdf, time.Date(now.Year(), 1, 1, 0, 0, 0, 0, time.UTC)},
			{"two-years-ago.pdf", pdf, time.Date(now.Year()-2, 6, 1, 0, 0, 0, 0, time.UTC)},
			{"last-year-notes.txt", notes, time.Date(now.Year()-1, 6, 1, 0, 0, 0, 0, time.UTC)},
		} {
			p := filepath.Join(dir, f.name)
			if err := os.WriteFile(p, f.body, 0o644); err != nil {
				return "", err
			}
			if err := os.Chtimes(p, f.mod, f.mod); err != nil {
				return "", err
			}
		}
		return dir, nil
	})
	return home, now.Year() - 1
}

// "去年のPDF" with no PDF from last year: the search shows the other
// years' PDFs and says so, in English and Japanese, on every front end.
func TestLoosenedPeriodE2E(t *testing.T) {
	home, y := noLastYearIndex(t)
	year := func(f string) string { return strings.ReplaceAll(f, "Y", strconv.Itoa(y)) }
	for _, tc := range []struct {
		lang, notice string
	}{
		{"C", year("No PDFs from Y; showing other years")},
		{"ja_JP.UTF-8", year("Y年のPDFはありません。ほかの年を表示しています")},
	} {
		env := gdsEnv(home, "LANG="+tc.lang)
		out, _, code := runGds(t, env, "search", "--json", "去年のPDF")
		doc := decodeDoc(t, out)
		if code != 0 || doc.End != "results" || len(doc.Results) != 2 {
			t.Fatalf("LANG=%s --json: code %d end %q results %+v", tc.lang, code, doc.End, doc.Results)
		}
		for _, r := range doc.Results {
			if !strings.HasSuffix(r.Name, ".pdf") {
				t.Errorf("LANG=%s: %s is not a PDF", tc.lang, r.Name)
			}
		}
		if len(doc.Loosened) != 1 {
			t.Fatalf("LANG=%s loosened %+v", tc.lang, doc.Loosened)
		}
		if l := doc.Loosened[0]; l.Kind != "period" || l.From != year("Y-01-01..")+strconv.Itoa(y+1)+"-01-01" || l.To != "" ||
			l.FileType != "pdf" || l.Message != tc.notice {
			t.Errorf("LANG=%s loosened %+v, want the period of Y dropped, %q", tc.lang, l, tc.notice)
		}

		out, _, code = runGds(t, env, "search", "去年のPDF")
		if lines := strings.Split(out, "\n"); code != 0 || lines[0] != tc.notice || !strings.Contains(out, "this-year.pdf") {
			t.Errorf("LANG=%s terminal: code %d\n%s", tc.lang, code, out)
		}

		for _, q := range []string{"去年のPDF", alfred.Marker + " 去年のPDF"} {
			out, _, code = runGds(t, env, "alfred", "filter", q)
			n := 0
			for _, it := range alfredItems(t, out) {
				if it.UID == "" {
					continue
				}
				n++
				if !strings.HasPrefix(it.Subtitle, tc.notice) {
					t.Errorf("LANG=%s alfred %q: subtitle %q without the notice", tc.lang, q, it.Subtitle)
				}
			}
			if code != 0 || n != 2 {
				t.Errorf("LANG=%s alfred %q: code %d, %d files:\n%s", tc.lang, q, code, n, out)
			}
		}
	}
	// Asked for what exists, nothing is loosened.
	out, _, _ := runGds(t, gdsEnv(home), "search", "--json", "今年のPDF")
	if doc := decodeDoc(t, out); len(doc.Loosened) != 0 || len(doc.Results) != 1 {
		t.Errorf("今年のPDF: loosened %+v, results %+v", doc.Loosened, doc.Results)
	}
}
