package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/store"
)

// CountProgress prints a count at every tenth of the files and each
// problem file with its reason, never a line per indexed file.
func TestCountProgress(t *testing.T) {
	var b bytes.Buffer
	p := CountProgress(iostreams.IOStreams{Stderr: &b, Lang: i18n.En})
	p.Begin(25, true)
	for i := range 25 {
		s, detail := crawl.StatusNew, ""
		switch i {
		case 3:
			s, detail = crawl.StatusSkipped, "unsupported type"
		case 7:
			s, detail = crawl.StatusFailed, "extract: timeout"
		}
		p.File(crawl.Entry{Path: "docs", Name: fmt.Sprintf("f%02d.txt", i)}, s, detail)
	}
	out := b.String()
	for _, want := range []string{"skipped docs/f03.txt: unsupported type", "FAILED docs/f07.txt: extract: timeout", "Files: 2/25", "Files: 24/25", "Files: 25/25"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "f00.txt") || strings.Contains(out, "f10.txt") {
		t.Errorf("output names files that were indexed without problems:\n%s", out)
	}
	if n := strings.Count(out, "Files: "); n != 13 {
		t.Errorf("%d count lines, want 13 (every 2 files of 25, and the last):\n%s", n, out)
	}
}

// An index update reports its start, a count at every tenth of the files
// (batches in between print nothing) and its end, in the user's language;
// a pass resumed halfway counts from where it stopped.
func TestBackfillProgress(t *testing.T) {
	var b bytes.Buffer
	p := BackfillProgress(iostreams.IOStreams{Stderr: &b, Lang: i18n.En})
	for done := 0; done < 1000; done += 50 {
		p(store.Backfill{Done: done, Total: 1000})
	}
	p(store.Backfill{Done: 1000, Total: 1000})
	p(store.Backfill{Done: 1000, Total: 1000}) // a second end report prints nothing
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 11 || !strings.Contains(lines[0], "re-reading the search words of 1000 files") ||
		strings.TrimSpace(lines[1]) != "100/1000 files" || strings.TrimSpace(lines[9]) != "900/1000 files" ||
		!strings.HasPrefix(lines[10], "Index updated (1000 files, ") {
		t.Errorf("%d lines:\n%s", len(lines), b.String())
	}

	b.Reset()
	p = BackfillProgress(iostreams.IOStreams{Stderr: &b, Lang: i18n.Ja})
	p(store.Backfill{Done: 500, Total: 1000})
	p(store.Backfill{Done: 550, Total: 1000})
	p(store.Backfill{Done: 600, Total: 1000})
	p(store.Backfill{Done: 1000, Total: 1000})
	if out := b.String(); !strings.Contains(out, "1000 件のファイルの検索語を作り直します") || strings.Count(out, "\n") != 3 ||
		!strings.Contains(out, "600/1000 件") || strings.Contains(out, "550/1000") || !strings.Contains(out, "インデックスを更新しました") {
		t.Errorf("Japanese, resumed at 500:\n%s", out)
	}

	b.Reset()
	p = BackfillProgress(iostreams.IOStreams{Stderr: &b, Lang: i18n.En})
	p(store.Backfill{Done: 0, Total: 0}) // an empty index: nothing to say
	if b.Len() != 0 {
		t.Errorf("empty index: %q", b.String())
	}
}
