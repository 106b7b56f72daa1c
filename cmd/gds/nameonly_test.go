package main

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file whose content cannot be extracted is found by name: crawl a
// folder with a real PNG and a text file, then `gds search --json "team
// photo"` finds the PNG marked name-only with its skip reason; the terminal
// marks it too. A second crawl (--full) reports it unchanged, not skipped.
func TestNameOnlySearchE2E(t *testing.T) {
	dir := t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for x := range 8 {
		img.Set(x, x, color.RGBA{G: 180, A: 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "team-photo-2024.png"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "budget.txt"), []byte("Budget plan for the next quarter: travel and equipment."), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	// GDS_OCR=off: the image stays unread whether tesseract is installed
	// or not (ocr_test.go reads images).
	env := gdsEnv(home, "DATABASE_URL=", "SUPABASE_DB_URL=", "GDS_OCR=off")
	if out, errOut, code := runGds(t, env, "crawl", "--source", "local:"+dir); code != 0 {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errOut)
	}
	out, errOut, code := runGds(t, env, "search", "--json", "team photo")
	if code != 0 {
		t.Fatalf("search: exit %d\n%s\n%s", code, out, errOut)
	}
	var doc struct {
		End     string `json:"end"`
		Results []struct {
			Name       string `json:"name"`
			MimeType   string `json:"mime_type"`
			Summary    string `json:"summary"`
			NameOnly   bool   `json:"name_only"`
			SkipReason string `json:"skip_reason"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("search --json: %v\n%s", err, out)
	}
	if doc.End != "results" || len(doc.Results) == 0 {
		t.Fatalf("search --json \"team photo\" = %s; want the PNG", out)
	}
	r := doc.Results[0]
	if r.Name != "team-photo-2024.png" || !r.NameOnly || r.MimeType != "image/png" || r.Summary != "" ||
		!strings.Contains(r.SkipReason, "image/png") {
		t.Errorf("first result = %+v; want the PNG, name-only, with its skip reason", r)
	}
	for _, x := range doc.Results[1:] {
		if x.NameOnly {
			t.Errorf("another name-only result %+v", x)
		}
	}
	text, _, code := runGds(t, env, "search", "team photo")
	if code != 0 || !strings.Contains(text, "team-photo-2024.png") || !strings.Contains(text, "[name only]") {
		t.Errorf("terminal search (exit %d):\n%s\nwant the PNG with the [name only] marker", code, text)
	}
	out, errOut, code = runGds(t, env, "crawl", "--full", "--source", "local:"+dir)
	if code != 0 || !strings.Contains(out, "0 new, 0 updated, 2 unchanged, 0 skipped, 0 failed") {
		t.Errorf("crawl --full (exit %d) reported the unchanged PNG again:\n%s\n%s", code, out, errOut)
	}
}
