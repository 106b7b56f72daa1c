package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/i18n"
)

// CountProgress prints a count at every tenth of the files and each
// problem file with its reason, never a line per indexed file.
func TestCountProgress(t *testing.T) {
	var b bytes.Buffer
	p := CountProgress(&b, i18n.En)
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
