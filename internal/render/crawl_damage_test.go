package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/i18n"
)

// The summary shows a checkpoint only when the crawl committed it, and
// names the files whose index records could not be read.
func TestCrawlSummaryCheckpointAndUnreadable(t *testing.T) {
	at := time.Date(2026, 11, 27, 10, 10, 59, 0, time.UTC)
	unreadable := []crawl.Problem{{Name: "note-1.txt", Path: "notes", Reason: "keywords: invalid character"}}
	for _, tc := range []struct {
		name   string
		sum    crawl.Summary
		dryRun bool
		want   []string
		not    []string
	}{
		{"committed", crawl.Summary{New: 1, Checkpoint: at, CheckpointSaved: true}, false, []string{"Sync checkpoint: 2026-11-27T10:10:59Z"}, nil},
		{"stopped before a commit", crawl.Summary{Checkpoint: at}, false, nil, []string{"checkpoint"}},
		{"unreadable", crawl.Summary{New: 1, Unreadable: unreadable}, false,
			[]string{"could not be read (damaged), removed and indexed again:", "  notes/note-1.txt: keywords: invalid character"}, nil},
		{"unreadable, dry run", crawl.Summary{Planned: 1, Unreadable: unreadable}, true,
			[]string{"which a crawl would remove and index again:", "notes/note-1.txt"}, nil},
	} {
		var b bytes.Buffer
		CrawlSummary(&b, tc.sum, tc.dryRun, i18n.En)
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: summary lacks %q:\n%s", tc.name, w, b.String())
			}
		}
		for _, w := range tc.not {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: summary has %q:\n%s", tc.name, w, b.String())
			}
		}
	}
}
