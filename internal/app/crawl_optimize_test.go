package app

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
)

// ftsSegments counts the segments of the file full-text index of the
// SQLite index at path.
func ftsSegments(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(DISTINCT segid) FROM drive_file_fts_idx`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A crawl that changed files leaves the file full-text index in one
// segment when it had more than a few (each file is written in its own
// transaction, which adds a segment), so a keystroke seeks each term once.
func TestCrawlThatChangedFilesMergesTextIndex(t *testing.T) {
	root := t.TempDir()
	for i := range 11 {
		text := fmt.Sprintf("Report %d on the delivery of relief supplies, week %d.\n", i, i)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("report-%02d.txt", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := loadConfig(t, map[string]string{config.EnvAIProvider: config.ProviderOffline})
	d := New(Options{Config: cfg, IO: iostreams.IOStreams{Lang: i18n.En}})
	ctx := context.Background()
	if _, err := d.Crawl(ctx, CrawlRequest{Source: "local:" + root, Concurrency: 1}); err != nil {
		t.Fatalf("crawl: %v", err)
	}
	path := cfg.IndexPath()
	if n := ftsSegments(t, path); n != 1 {
		t.Errorf("%d segments after a crawl of 11 new files, want 1", n)
	}
	if err := os.WriteFile(filepath.Join(root, "report-03.txt"), []byte("Report 3, revised: relief supplies arrived.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Crawl(ctx, CrawlRequest{Source: "local:" + root, Concurrency: 1}); err != nil {
		t.Fatalf("second crawl: %v", err)
	}
	if n := ftsSegments(t, path); n != 2 {
		t.Errorf("%d segments after a crawl that updated a file, want 2 (a few are merged later)", n)
	}
}
