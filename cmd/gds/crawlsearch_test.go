package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The quick-start path in-process: crawl the sample corpus with the offline
// provider into the embedded store, then search it.
func TestCrawlThenSearchSample(t *testing.T) {
	t.Parallel() // own GDS_HOME, no t.Setenv
	h := newHarness(t)
	h.env["GDS_AI_PROVIDER"] = "offline"
	sample, err := filepath.Abs("../../testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	if code := h.run("search", "anything"); code != exitError || !strings.Contains(h.stderr.String(), "gds crawl") {
		t.Fatalf("search before crawl: exit %d, stderr %q", code, h.stderr.String())
	}
	if code := h.run("crawl", "--source", "local:"+sample); code != exitOK {
		t.Fatalf("crawl: exit %d, stderr %q", code, h.stderr.String())
	}
	if !strings.Contains(h.stdout.String(), "78 new") || !strings.Contains(h.stderr.String(), "Full scan") {
		t.Errorf("crawl output: %q / %q", h.stdout.String(), h.stderr.String())
	}
	if code := h.run("crawl", "--source", "local:"+sample); code != exitOK || !strings.Contains(h.stderr.String(), "Incremental crawl: 0 files") {
		t.Errorf("second crawl: exit %d, %q", code, h.stderr.String())
	}
	if code := h.run("search", "--verbose", "Nikola", "Tesla", "inventor"); code != exitOK {
		t.Fatalf("search: exit %d, stderr %q", code, h.stderr.String())
	}
	out := h.stdout.String()
	if !strings.Contains(out, "provider: offline") || !strings.Contains(out, " 1. Nikola_Tesla-") || !strings.Contains(out, "file://") {
		t.Errorf("search output:\n%s", out)
	}
	if code := h.run("crawl", "--source", "nowhere:x"); code != exitUsage {
		t.Errorf("bad --source: exit %d", code)
	}
	if code := h.run("search"); code != exitUsage {
		t.Errorf("empty query: exit %d", code)
	}
}
