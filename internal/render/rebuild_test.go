package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/rebuild"
)

// The summary says what came back, what could not be read back of the
// uploads, and where the old index is kept; the JSON report has the same,
// with lists that are never null.
func TestRebuildResult(t *testing.T) {
	rep := &rebuild.Report{Index: "/h/index.db", Files: 9, SetAside: []string{"/h/index.db.damaged-X-wal", "/h/index.db.damaged-X"},
		Sources: []crawl.SourceResult{{Source: "local:/d", Started: true, Summary: crawl.Summary{New: 8}}},
		Uploads: rebuild.Uploads{Found: 2, Indexed: 1, Named: 1, Described: 0,
			Failed: []crawl.Problem{{Name: "scan.pdf", Path: "u2.pdf", Reason: "too complex to read safely"}}}}
	var b bytes.Buffer
	fail := errors.New("1 uploads could not be indexed again")
	if err := RebuildResult(&b, rep, fail, false, i18n.En); err != fail {
		t.Errorf("RebuildResult returned %v, want the rebuild's error", err)
	}
	for _, w := range []string{"Done: 8 new", "Uploads: 1 of 2 indexed again", "1 names, 0 titles and tag lists of 2 uploads",
		"scan.pdf (u2.pdf): too complex to read safely", "kept as /h/index.db.damaged-X (", "New index /h/index.db: 9 files"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("summary lacks %q:\n%s", w, b.String())
		}
	}
	b.Reset()
	rep.Uploads.Failed, rep.SetAside = nil, nil
	if err := RebuildResult(&b, rep, nil, true, i18n.En); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	up := doc["uploads"].(map[string]any)
	if doc["files"] != 9.0 || doc["set_aside"] == nil || up["failed"] == nil || up["ignored"] == nil || up["names_recovered"] != 1.0 {
		t.Errorf("JSON report %s", b.String())
	}
	b.Reset()
	if err := RebuildResult(&b, nil, fail, true, i18n.En); err != fail || !strings.Contains(b.String(), `"error"`) {
		t.Errorf("a rebuild with no report: %v\n%s", err, b.String())
	}
}
