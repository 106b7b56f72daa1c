package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
)

func TestListingProgress(t *testing.T) {
	var w bytes.Buffer
	progress, done := ListingProgress(&w, i18n.En)
	done()
	if w.Len() != 0 {
		t.Fatalf("done without progress wrote %q", w.String())
	}
	progress("drive@work", 500)
	progress("drive@work", 1000)
	done()
	out := w.String()
	if !strings.Contains(out, "drive@work: 1000") || !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("progress %q: want the latest count, then the line cleared", out)
	}
}

func TestCoverageRules(t *testing.T) {
	for _, tt := range []struct {
		ocr  bool
		mime string
		want bool
	}{
		{false, "application/pdf", true}, {false, "text/markdown", true},
		{false, "application/vnd.google-apps.document", true}, {false, "video/mp4", false},
		{false, "image/png", false}, {true, "image/png", true}, {true, "application/zip", false},
	} {
		if got := CoverageRules(tt.ocr).ReadsType(tt.mime); got != tt.want {
			t.Errorf("ocr %v, %s: %v, want %v", tt.ocr, tt.mime, got, tt.want)
		}
	}
}
