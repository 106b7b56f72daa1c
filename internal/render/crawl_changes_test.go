package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/i18n"
)

// The summary of an incremental crawl names the moved files and why the
// changes feed was not used, in English and Japanese.
func TestCrawlSummaryMovedAndNotice(t *testing.T) {
	sum := crawl.Summary{New: 1, Moved: 2, Removed: 3, Reextracted: 4, Notice: "the folder “Q3” was created, moved or renamed"}
	for lang, want := range map[string][]string{
		i18n.En: {"Moved or renamed: 2 files", "Note: the folder “Q3”", "Removed 3 files", "newer text extraction: 4 unchanged files"},
		i18n.Ja: {"移動・名前変更: 2 件", "お知らせ: the folder", "3 件をインデックスから削除", "新しいテキスト抽出で読み直し: 変更のないファイル 4 件"},
	} {
		var b bytes.Buffer
		CrawlSummary(&b, sum, false, lang)
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s summary lacks %q:\n%s", lang, w, b.String())
			}
		}
	}
	var b bytes.Buffer
	CrawlSummary(&b, crawl.Summary{New: 1}, false, i18n.En)
	if strings.Contains(b.String(), "Moved") || strings.Contains(b.String(), "Note:") || strings.Contains(b.String(), "extraction") {
		t.Errorf("a crawl with no move, no notice and nothing read again mentions them:\n%s", b.String())
	}
}
