package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
)

// "last sync" is the crawl's commit time, not the newest file's date.
func TestIndexStatusLastSyncIsCrawlTime(t *testing.T) {
	crawled := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	newest := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	st := store.Stats{Backend: "sqlite", Sync: store.SyncState{ModifiedAt: newest, UpdatedAt: crawled}}
	doc := NewIndexStatusDoc(st)
	if doc.LastSync == nil || !doc.LastSync.Equal(crawled) {
		t.Errorf("last_sync = %v, want %v", doc.LastSync, crawled)
	}
	if doc.NewestFile == nil || !doc.NewestFile.Equal(newest) {
		t.Errorf("newest_file = %v, want %v", doc.NewestFile, newest)
	}
	var buf bytes.Buffer
	IndexStatus(&buf, st, i18n.En)
	if !strings.Contains(buf.String(), "2026-11-24T08:00:00Z") || strings.Contains(buf.String(), "2001-") {
		t.Errorf("status table:\n%s", buf.String())
	}
	if doc := NewIndexStatusDoc(store.Stats{}); doc.LastSync != nil || doc.NewestFile != nil {
		t.Errorf("never synced: %+v", doc)
	}
}
