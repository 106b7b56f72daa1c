package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/draw"
	"image/jpeg"
	_ "image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/ai/openaitest/gdsmodel"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/estimate"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/ocr"
)

// scanFolder is a folder with a real scanned page as a PNG and as a
// scanned PDF (a JPEG page, no text), and a text file.
func scanFolder(t *testing.T) string {
	t.Helper()
	const scan = "../../testdata/scans/unstructured-fake-memo-p1.png"
	png, err := os.ReadFile(scan)
	if err != nil {
		t.Fatal(err)
	}
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		t.Fatal(err)
	}
	gray := image.NewGray(img.Bounds())
	draw.Draw(gray, gray.Bounds(), img, img.Bounds().Min, draw.Src)
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, gray, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"memo-photo.png":    png,
		"memo-scan.pdf":     ocr.ScanPDF(jb.Bytes(), gray.Bounds().Dx(), gray.Bounds().Dy(), 150),
		"shopping list.txt": []byte("Apples, bread and coffee for the office kitchen."),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type ocrResult struct {
	Name       string `json:"name"`
	NameOnly   bool   `json:"name_only"`
	SkipReason string `json:"skip_reason"`
	OCR        string `json:"ocr"`
}

func searchResults(t *testing.T, env []string, query string) []ocrResult {
	t.Helper()
	out, errOut, code := runGds(t, env, "search", "--json", query)
	if code != 0 {
		t.Fatalf("search %q: exit %d\n%s\n%s", query, code, out, errOut)
	}
	var doc struct {
		Results []ocrResult `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("search --json: %v\n%s", err, out)
	}
	return doc.Results
}

// A scanned PDF and a photo of a page are read by tesseract: a search for
// words only their images hold finds both, marked as OCR text; a full
// re-crawl of the unchanged files reads no image again (the OCR cache in
// the gds home). Tesseract runs for real behind a wrapper that counts its
// readings.
func TestOCRCrawlE2E(t *testing.T) {
	tesseract, err := exec.LookPath("tesseract")
	if _, perr := exec.LookPath("pdftoppm"); err != nil || perr != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tesseract or pdftoppm missing (scripts/test.sh installs them with scripts/ocr.sh)")
		}
		t.Skip("tesseract or pdftoppm missing; install them with `bash scripts/ocr.sh`")
	}
	dir := scanFolder(t)
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "calls")
	wrapper := "#!/bin/sh\nif [ \"$1\" = stdin ]; then echo read >> '" + log + "'; fi\nexec '" + tesseract + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "tesseract"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	calls := func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "read\n")
	}
	home := t.TempDir()
	env := gdsEnv(home, "DATABASE_URL=", "SUPABASE_DB_URL=")
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + bin + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}
	if out, errOut, code := runGds(t, env, "crawl", "--source", "local:"+dir); code != 0 || !strings.Contains(out, "3 new") {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errOut)
	}
	if n := calls(); n != 2 {
		t.Errorf("first crawl: %d OCR readings, want 2 (the photo, the scan's page)", n)
	}
	found := map[string]ocrResult{}
	for _, r := range searchResults(t, env, "bottles of water blankets") {
		found[r.Name] = r
	}
	for _, name := range []string{"memo-photo.png", "memo-scan.pdf"} {
		r, ok := found[name]
		if !ok || r.NameOnly || !strings.Contains(r.OCR, "tesseract") {
			t.Errorf("%s: %+v (found %v); want found by its scanned words, with ocr naming tesseract", name, r, ok)
		}
	}
	text, _, _ := runGds(t, env, "search", "bottles of water")
	if !strings.Contains(text, "text read by OCR (tesseract") {
		t.Errorf("terminal results do not say the text came from OCR:\n%s", text)
	}
	if out, errOut, code := runGds(t, env, "crawl", "--full", "--source", "local:"+dir); code != 0 || !strings.Contains(out, "3 unchanged") {
		t.Errorf("crawl --full: exit %d\n%s\n%s", code, out, errOut)
	}
	if n := calls(); n != 2 {
		t.Errorf("a full re-crawl of unchanged scans made %d OCR readings, want 0", n-2)
	}
}

// Without tesseract a scan is indexed by name only, and the reason says
// what to install, in the user's language.
func TestOCRMissingE2E(t *testing.T) {
	dir := scanFolder(t)
	home := t.TempDir()
	env := gdsEnv(home, "DATABASE_URL=", "SUPABASE_DB_URL=")
	for i, kv := range env {
		switch {
		case strings.HasPrefix(kv, "PATH="):
			env[i] = "PATH=" + t.TempDir() // no tesseract, no pdftoppm
		case strings.HasPrefix(kv, "LANG="):
			env[i] = "LANG=ja_JP.UTF-8"
		}
	}
	if out, errOut, code := runGds(t, env, "crawl", "--source", "local:"+dir); code != 0 {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errOut)
	}
	var photo *ocrResult
	for _, r := range searchResults(t, env, "memo photo") {
		if r.Name == "memo-photo.png" {
			photo = &r
		}
	}
	const want = "スキャン画像です。読み取るには tesseract をインストールするか、モデルを使ってください"
	if photo == nil || !photo.NameOnly || photo.SkipReason != want || photo.OCR != "" {
		t.Errorf("memo-photo.png = %+v; want name-only with the reason %q", photo, want)
	}
	// Tesseract installed: the next plain crawl reads the scans indexed
	// by name only (a full scan, as a reader appeared).
	if _, err := exec.LookPath("tesseract"); err != nil {
		return
	}
	env = gdsEnv(home, "DATABASE_URL=", "SUPABASE_DB_URL=")
	if out, errOut, code := runGds(t, env, "crawl", "--source", "local:"+dir); code != 0 || !strings.Contains(out, "2 updated") {
		t.Errorf("crawl with tesseract: exit %d\n%s\n%s; want the photo and the scan updated", code, out, errOut)
	}
	found := false
	for _, r := range searchResults(t, env, "bottles of water blankets") {
		found = found || r.Name == "memo-photo.png" && !r.NameOnly && r.OCR != ""
	}
	if !found {
		t.Error("after tesseract was installed, a plain crawl did not read the photo")
	}
}

// With the openai provider a scan is read by the model's vision input: one
// chat request per page image (a photo; a scanned PDF's page rendered by
// pdftoppm), answered by the emulator from a fixture keyed by the image's
// hash; results say the model read the text; a full re-crawl of the
// unchanged files sends no image again.
func TestOCRByTheModelE2E(t *testing.T) {
	t.Parallel() // own GDS_HOME and emulator, no t.Setenv
	pop, ok := ocr.FindPoppler(ocr.Limits{})
	if !ok {
		if os.Getenv("CI") != "" {
			t.Fatal("pdftoppm missing (scripts/test.sh installs it with scripts/ocr.sh)")
		}
		t.Skip("pdftoppm missing; install it with `bash scripts/ocr.sh`")
	}
	dir := scanFolder(t)
	png, err := os.ReadFile(filepath.Join(dir, "memo-photo.png"))
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := os.ReadFile(filepath.Join(dir, "memo-scan.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := pop.Render(context.Background(), pdf, ocr.DefaultMaxPages)
	if err != nil || len(pages) != 1 {
		t.Fatalf("render the scan: %d pages, %v", len(pages), err)
	}
	const photoText = "May 5, 2023\nTo Whom it May Concern:\nThere were 20,000 bottles of water delivered."
	const scanText = "To Whom it May Concern:\n10,000 blankets and 200 laptops were delivered."
	oai := openaitest.NewServer(t, append(gdsmodel.Options(), openaitest.WithAPIKey("sk-test"),
		openaitest.WithImageTexts(map[string]string{openaitest.ImageHash(png): photoText, openaitest.ImageHash(pages[0]): scanText}))...)
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOpenAI
	h.env[config.EnvOpenAIAPIKey] = "sk-test"
	h.env[config.EnvOpenAIBaseURL] = oai.URL
	imageCalls := func() (n int) {
		for _, r := range oai.Requests() {
			if len(r.Images) > 0 {
				n++
				if len(r.Images) != 1 || r.Status != http.StatusOK {
					t.Errorf("an image request with %d images answered %d; want one image, 200", len(r.Images), r.Status)
				}
			}
		}
		return n
	}
	// The estimate counts the two readings without a request, and keeps
	// nothing in the OCR cache: the crawl then reads both.
	vision := func() ai.Tally {
		t.Helper()
		if code := h.run("crawl", "--estimate", "--json", "--full", "--source", "local:"+dir); code != exitOK {
			t.Fatalf("crawl --estimate: exit %d\n%s", code, h.stderr.String())
		}
		var est estimate.Figures
		if err := json.Unmarshal(h.stdout.Bytes(), &est); err != nil {
			t.Fatal(err)
		}
		for _, l := range est.Lines {
			if l.Kind == ai.CallVision {
				return l.Tally
			}
		}
		return ai.Tally{}
	}
	est := vision()
	if len(oai.Requests()) != 0 || est.Calls != 2 {
		t.Errorf("the estimate sent %d requests and counted %+v; want none sent, 2 image readings", len(oai.Requests()), est)
	}
	if code := h.run("crawl", "--source", "local:"+dir); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s", code, h.stderr.String())
	}
	requestsOK(t, oai, "crawl")
	if n := imageCalls(); n != 2 {
		t.Errorf("crawl sent %d image requests, want 2 (the photo, the scan's one page)", n)
	}
	if b := billed(oai.Requests())[ai.CallVision]; b.InputTokens != est.InputTokens {
		t.Errorf("image readings: estimated %d input tokens, billed %d", est.InputTokens, b.InputTokens)
	}
	if again := vision(); again.Calls != 0 {
		t.Errorf("an estimate after the crawl counts %+v; the OCR cache holds both readings", again)
	}
	for q, want := range map[string]string{"bottles of water": "memo-photo.png", "blankets laptops": "memo-scan.pdf"} {
		if code := h.run("search", "--json", q); code != exitOK {
			t.Fatalf("search %q: exit %d\n%s", q, code, h.stderr.String())
		}
		var doc struct {
			Results []ocrResult `json:"results"`
		}
		if err := json.Unmarshal(h.stdout.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Results) == 0 || doc.Results[0].Name != want || doc.Results[0].OCR != "model gpt-4o-mini" {
			t.Errorf("search %q = %+v; want %s first, its text read by model gpt-4o-mini", q, doc.Results, want)
		}
	}
	oai.Reset()
	if code := h.run("crawl", "--full", "--source", "local:"+dir); code != exitOK {
		t.Fatalf("crawl --full: exit %d\n%s", code, h.stderr.String())
	}
	if n := imageCalls(); n != 0 {
		t.Errorf("a full re-crawl of unchanged scans sent %d image requests, want 0", n)
	}
}

// A photo of a page in Google Drive is downloaded and read by tesseract
// when it is installed (offline provider), and found by its words.
func TestOCRDriveE2E(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tesseract missing (scripts/test.sh installs it with scripts/ocr.sh)")
		}
		t.Skip("tesseract missing; install it with `bash scripts/ocr.sh`")
	}
	png, err := os.ReadFile(filepath.Join(scanFolder(t), "memo-photo.png"))
	if err != nil {
		t.Fatal(err)
	}
	e := driveemu.New()
	top := e.AddFolder("root", "Scans")
	e.AddBlob(top, "memo-photo.png", "image/png", png)
	e.AddBlob(top, "clip.mp4", "video/mp4", []byte("not read"))
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	h := newHarness(t)
	h.env[config.EnvDriveEndpoint] = srv.URL
	h.env[config.EnvDriveFolderIDs] = top
	h.env[config.EnvAIProvider] = config.ProviderOffline
	if code := h.run("crawl"); code != exitOK || !strings.Contains(h.stdout.String(), "1 new") {
		t.Fatalf("crawl: exit %d\n%s%s", code, h.stdout.String(), h.stderr.String())
	}
	if code := h.run("search", "--json", "bottles of water"); code != exitOK {
		t.Fatalf("search: exit %d\n%s", code, h.stderr.String())
	}
	var doc struct {
		Results []ocrResult `json:"results"`
	}
	if err := json.Unmarshal(h.stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Results) == 0 || doc.Results[0].Name != "memo-photo.png" || !strings.Contains(doc.Results[0].OCR, "tesseract") {
		t.Errorf("search = %+v; want the Drive photo, read by tesseract", doc.Results)
	}
}

// Models read neither TIFF nor BMP: a scan in either format is sent to the
// model as PNG (extract.ToPNG, bounded in pixels), one request each,
// answered by the emulator from the PNG's hash, and found by its words.
func TestOCRTIFFAndBMPByTheModelE2E(t *testing.T) {
	t.Parallel() // own GDS_HOME and emulator, no t.Setenv
	png, err := os.ReadFile("../../testdata/scans/unstructured-fake-memo-p1.png")
	if err != nil {
		t.Fatal(err)
	}
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		t.Fatal(err)
	}
	gray := image.NewGray(img.Bounds())
	draw.Draw(gray, gray.Bounds(), img, img.Bounds().Min, draw.Src)
	var tb, bb bytes.Buffer
	if err := tiff.Encode(&tb, gray, &tiff.Options{Compression: tiff.Deflate}); err != nil {
		t.Fatal(err)
	}
	if err := bmp.Encode(&bb, gray); err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"memo-scan.tiff": tb.Bytes(), "memo-scan.bmp": bb.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		sent, err := extract.ToPNG(data)
		if err != nil {
			t.Fatal(err)
		}
		texts[openaitest.ImageHash(sent)] = "Delivery note read from " + name + ": " + filepath.Ext(name)[1:] + "-parcels arrived."
	}
	oai := openaitest.NewServer(t, append(gdsmodel.Options(), openaitest.WithAPIKey("sk-test"), openaitest.WithImageTexts(texts))...)
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOpenAI
	h.env[config.EnvOpenAIAPIKey] = "sk-test"
	h.env[config.EnvOpenAIBaseURL] = oai.URL
	if code := h.run("crawl", "--source", "local:"+dir); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s", code, h.stderr.String())
	}
	requestsOK(t, oai, "crawl")
	n := 0
	for _, r := range oai.Requests() {
		n += len(r.Images)
	}
	if n != 2 {
		t.Errorf("crawl sent %d images, want 2 (the TIFF and the BMP, as PNG)", n)
	}
	for q, want := range map[string]string{"tiff-parcels": "memo-scan.tiff", "bmp-parcels": "memo-scan.bmp"} {
		if code := h.run("search", "--json", q); code != exitOK {
			t.Fatalf("search %q: exit %d\n%s", q, code, h.stderr.String())
		}
		var doc struct {
			Results []ocrResult `json:"results"`
		}
		if err := json.Unmarshal(h.stdout.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Results) == 0 || doc.Results[0].Name != want || doc.Results[0].OCR != "model gpt-4o-mini" || doc.Results[0].NameOnly {
			t.Errorf("search %q = %+v; want %s first, its text read by model gpt-4o-mini", q, doc.Results, want)
		}
	}
}
