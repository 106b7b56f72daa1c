package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
)

// The terminal says every loosened condition before the results.
func TestSearchTextSaysWhatWasLoosened(t *testing.T) {
	out := outcomes()["loosened"]
	for lang, want := range map[string][]string{
		i18n.En: {"No PDFs from 2025; showing other years", "Nothing matched “roadmap”; searched without it"},
		i18n.Ja: {"2025年のPDFはありません。ほかの年を表示しています", "「roadmap」に合うファイルはありません。外して検索しました"},
	} {
		var plain, inter bytes.Buffer
		SearchText(&plain, out, false, false, lang)
		r := &Interactive{Out: &inter, Err: &bytes.Buffer{}, Lang: lang}
		r.Finish(out, 10)
		for name, got := range map[string]string{"SearchText": plain.String(), "Interactive": inter.String()} {
			lines := strings.Split(got, "\n")
			if len(lines) < 3 || lines[0] != want[0] || lines[1] != want[1] {
				t.Errorf("%s %s: first lines %q, want %q", name, lang, lines[:min(len(lines), 2)], want)
			}
			if !strings.Contains(got, "Q3 roadmap") {
				t.Errorf("%s %s: result missing:\n%s", name, lang, got)
			}
		}
	}
}
