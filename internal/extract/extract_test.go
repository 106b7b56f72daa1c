package extract

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"
)

const (
	realdocs = "../../testdata/realdocs"
	baddocs  = "../../testdata/bad"
)

// testTimeout is the per-file limit the tests give Extract; generous for
// -race on a slow machine, and far below what a hang would take.
const testTimeout = 20 * time.Second

type manifestRow struct {
	file, format, lang, phrase1, phrase2 string
}

func readManifest(t testing.TB) []manifestRow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(realdocs, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []manifestRow
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 {
			continue
		}
		if len(f) < 11 {
			t.Fatalf("MANIFEST line %d has %d fields", i+1, len(f))
		}
		rows = append(rows, manifestRow{file: f[0], format: f[1], lang: f[2], phrase1: f[9], phrase2: f[10]})
	}
	return rows
}

func extractFile(t testing.TB, path string) (Doc, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	return Extract(ctx, MimeTypeByName(path), f, 0)
}

var spaces = regexp.MustCompile(`\s+`)

// normalize applies NFC and collapses white space, the comparison the
// MANIFEST phrases were checked with.
func normalize(s string) string {
	return spaces.ReplaceAllString(norm.NFC.String(s), " ")
}

// TestRealdocsPhrases: every corpus file yields text containing both of its
// MANIFEST phrases. The vertical Japanese PDF (pdfminer-jo-haru-to-shura)
// passes as is: its columns come out in content-stream order, which is the
// reading order, and column breaks between Japanese characters are joined.
func TestRealdocsPhrases(t *testing.T) {
	rows := readManifest(t)
	if len(rows) != 23 {
		t.Fatalf("MANIFEST lists %d files, want 23", len(rows))
	}
	for _, r := range rows {
		t.Run(r.file, func(t *testing.T) {
			doc, err := extractFile(t, filepath.Join(realdocs, r.file))
			if err != nil {
				t.Fatalf("extract: %v", err)
			}
			text := normalize(doc.Text())
			for _, p := range []string{r.phrase1, r.phrase2} {
				if !strings.Contains(text, normalize(p)) {
					t.Errorf("text lacks %q; starts %q", p, firstRunes(text, 300))
				}
			}
			if strings.ContainsRune(doc.Text(), '\r') {
				t.Error("CR left in text")
			}
		})
	}
}

func firstRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}

func TestPageNumbers(t *testing.T) {
	tests := []struct {
		file   string
		pages  int
		phrase string
		onPage int
	}{
		{"markitdown-repair-estimate-3p.pdf", 3, "ZAVA AUTO REPAIR", 1},
		{"pdfminer-federal-register-page.pdf", 1, "Federal Aviation Administration", 1},
		{"markitdown-autogen.pptx", 6, "2cdda5c8-e50e-4db4-b5f0-9722a649f455", 0},
		{"unstructured-sample-presentation.pptx", 4, "This is the first content slide", 2},
	}
	for _, tt := range tests {
		doc, err := extractFile(t, filepath.Join(realdocs, tt.file))
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if len(doc.Pages) != tt.pages {
			t.Errorf("%s: %d pages, want %d", tt.file, len(doc.Pages), tt.pages)
		}
		found := 0
		for i, p := range doc.Pages {
			if p.Number != i+1 {
				t.Errorf("%s: page %d numbered %d", tt.file, i+1, p.Number)
			}
			if found == 0 && strings.Contains(normalize(p.Text), tt.phrase) {
				found = p.Number
			}
		}
		if found == 0 || tt.onPage != 0 && found != tt.onPage {
			t.Errorf("%s: %q first on page %d, want %d", tt.file, tt.phrase, found, tt.onPage)
		}
	}
}

func TestSheetsAndTables(t *testing.T) {
	doc, err := extractFile(t, filepath.Join(realdocs, "markitdown-test.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Pages) != 2 {
		t.Fatalf("%d sheets, want 2", len(doc.Pages))
	}
	// Sheet 1 holds the 6ff4173b marker, sheet 2 the affc7dad one (MANIFEST).
	if !strings.Contains(doc.Pages[0].Text, "6ff4173b-42a5-4784-9b19-f49caff4d93d") || !strings.Contains(doc.Pages[1].Text, "affc7dad-52dc-4b98-9b5d-51e65d8a8ad0") {
		t.Errorf("markers on the wrong sheets:\n%s\n---\n%s", firstRunes(doc.Pages[0].Text, 200), firstRunes(doc.Pages[1].Text, 200))
	}
	if !strings.HasPrefix(doc.Pages[0].Text, "Sheet1\nAlpha\tBeta\tGamma\tDelta\n") {
		t.Errorf("sheet 1 rows not tab-separated: %q", firstRunes(doc.Pages[0].Text, 60))
	}

	doc, err = extractFile(t, filepath.Join(realdocs, "unstructured-docx-tables.docx"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text(), "Header Col 1\tHeader Col 2") {
		t.Errorf("DOCX table cells not on one tab-separated row: %q", firstRunes(doc.Text(), 120))
	}
}

func TestBadFilesFailCleanly(t *testing.T) {
	want := map[string]struct {
		sentinel error
		reason   string
	}{
		"truncated.pdf":     {ErrMalformed, "truncated PDF: no cross-reference table"},
		"zero-bytes.pdf":    {ErrMalformed, "empty file"},
		"png-disguised.pdf": {ErrUnsupported, "image/png"},
		"truncated.docx":    {ErrMalformed, "not a zip file"},
	}
	entries, err := os.ReadDir(baddocs)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, e := range entries {
		name := e.Name()
		if name == "README.md" || strings.HasPrefix(name, ".") {
			continue
		}
		seen++
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: no expectation for this bad file", name)
			continue
		}
		doc, err := extractFile(t, filepath.Join(baddocs, name))
		switch {
		case err == nil:
			t.Errorf("%s: no error, text %q", name, firstRunes(doc.Text(), 80))
		case errors.Is(err, context.DeadlineExceeded):
			t.Errorf("%s: hit the time limit: %v", name, err)
		case !errors.Is(err, w.sentinel) || !strings.Contains(err.Error(), w.reason):
			t.Errorf("%s: error %q, want %v mentioning %q", name, err, w.sentinel, w.reason)
		}
	}
	if seen != len(want) {
		t.Errorf("saw %d bad files, want %d", seen, len(want))
	}
}

func TestGoogleNativeExports(t *testing.T) {
	ctx := context.Background()
	doc, err := Extract(ctx, MimeGoogleDoc, strings.NewReader("\ufeff議事録\r\nRoadmap review"), 0)
	if err != nil || doc.Text() != "議事録\nRoadmap review" {
		t.Errorf("Docs export: %q, %v", doc.Text(), err)
	}
	doc, err = Extract(ctx, MimeGoogleSlides, strings.NewReader("Slide title\n\nBullet"), 0)
	if err != nil || !strings.Contains(doc.Text(), "Bullet") {
		t.Errorf("Slides export: %q, %v", doc.Text(), err)
	}
	doc, err = Extract(ctx, MimeGoogleSheet, strings.NewReader("name,qty\n佐藤,3\n"), 0)
	if err != nil || !strings.Contains(doc.Text(), "佐藤,3") {
		t.Errorf("Sheets export: %q, %v", doc.Text(), err)
	}
	// Other Google-native types (forms, drawings) have no text export.
	if _, err := Extract(ctx, "application/vnd.google-apps.form", strings.NewReader("x"), 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("form: %v", err)
	}
}

func TestContentSniffing(t *testing.T) {
	ctx := context.Background()
	png, err := os.ReadFile(filepath.Join(baddocs, "png-disguised.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, mt := range []string{"text/plain", "text/markdown", "text/html", MimeDOCX, "application/pdf"} {
		if _, err := Extract(ctx, mt, bytes.NewReader(png), 0); !errors.Is(err, ErrUnsupported) {
			t.Errorf("PNG declared %s: %v", mt, err)
		}
	}
	zipped := makeZip(t, map[string]string{"a.txt": "hello"})
	if _, err := Extract(ctx, "application/pdf", bytes.NewReader(zipped), 0); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "zip") {
		t.Errorf("zip declared PDF: %v", err)
	}
	if _, err := Extract(ctx, "text/plain", strings.NewReader("\x1f\x8b\x08\x00rest"), 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("gzip declared text: %v", err)
	}
	// An unnamed PDF is recognised by its content.
	pdfData, err := os.ReadFile(filepath.Join(realdocs, "unstructured-fake-memo.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Extract(ctx, "application/octet-stream", bytes.NewReader(pdfData), 0)
	if err != nil || !strings.Contains(doc.Text(), "To Whom it May Concern") {
		t.Errorf("octet-stream PDF: %v", err)
	}
	for _, mt := range []string{"image/png", "application/zip", "video/mp4", "application/octet-stream"} {
		if _, err := Extract(ctx, mt, strings.NewReader("plain words"), 0); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v", mt, err)
		}
	}
}

func TestTextDecoding(t *testing.T) {
	ctx := context.Background()
	cp932 := []byte{0x8d, 0xb2, 0x93, 0xa1, 0x2c, 0xfb, 0xfc, 0x8b, 0xb4} // 佐藤,髙橋 (髙 is a CP932 extension)
	doc, err := Extract(ctx, "text/csv", bytes.NewReader(cp932), 0)
	if err != nil || doc.Text() != "佐藤,髙橋" {
		t.Errorf("CP932: %q, %v", doc.Text(), err)
	}
	doc, err = Extract(ctx, "text/plain", strings.NewReader("\xef\xbb\xbfBOM\r\nline"), 0)
	if err != nil || doc.Text() != "BOM\nline" {
		t.Errorf("UTF-8 BOM: %q, %v", doc.Text(), err)
	}
	if _, err := Extract(ctx, "text/plain", strings.NewReader("0123456789"), 5); !errors.Is(err, ErrTooLarge) {
		t.Errorf("too large: %v", err)
	}
	if _, err := Extract(ctx, "text/plain", strings.NewReader("a\x00b"), 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("NUL bytes: %v", err)
	}
}

func TestMarkdownDropsMarkupNoise(t *testing.T) {
	in := "# Title\n\n[![Build](https://ci.example/badge.svg)](https://ci.example/job)\n" +
		"See [the guide](https://example.com/guide \"Guide\") and ![diagram](img/d.png).\n" +
		"<img src=\"logo.png\" width=\"10\"> <!-- hidden -->\n[ref]: https://example.com/ref\n" +
		"```html\n<b>kept code</b>\n```\n"
	got := markdownText(in)
	for _, want := range []string{"# Title", "Build", "See the guide and diagram.", "<b>kept code</b>"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	for _, bad := range []string{"https://", "badge.svg", "img/d.png", "logo.png", "hidden", "[ref]"} {
		if strings.Contains(got, bad) {
			t.Errorf("keeps %q:\n%s", bad, got)
		}
	}
}

func TestHTMLVisibleTextOnly(t *testing.T) {
	in := `<!DOCTYPE html><html><head><title>The Title</title><style>.x{color:red}</style>
<script>var secret = "script text";</script></head><body><!-- a comment -->
<nav><a href="/a">Home</a><a href="/b">Blog</a></nav><p>Hello <b>world</b></p>
<table><tr><td>c1</td><td>c2</td></tr></table><noscript>enable js</noscript></body></html>`
	doc, err := Extract(context.Background(), "text/html", strings.NewReader(in), 0)
	if err != nil {
		t.Fatal(err)
	}
	got := doc.Text()
	if !strings.HasPrefix(got, "The Title\n") {
		t.Errorf("title not first: %q", got)
	}
	for _, want := range []string{"Hello world", "Home Blog", "c1\tc2"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q: %q", want, got)
		}
	}
	for _, bad := range []string{"color:red", "script text", "a comment", "enable js"} {
		if strings.Contains(got, bad) {
			t.Errorf("keeps %q: %q", bad, got)
		}
	}
}

func makeZip(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestZipBombRefused(t *testing.T) {
	// A DOCX whose document.xml inflates past the part limit (lowered to
	// 1 MiB here to keep the test fast; the mechanism is the same at 64 MiB).
	old := maxPartBytes
	maxPartBytes = 1 << 20
	t.Cleanup(func() { maxPartBytes = old })
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("word/document.xml")
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for i := 0; i < 3; i++ {
		if _, err := w.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = Extract(context.Background(), MimeDOCX, bytes.NewReader(buf.Bytes()), 0)
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "zip bomb") {
		t.Errorf("zip bomb (%d bytes compressed): %v", buf.Len(), err)
	}
}

func TestMinimalOOXML(t *testing.T) {
	docx := makeZip(t, map[string]string{
		"word/document.xml": `<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>Body </w:t></w:r><w:r><w:t>text</w:t></w:r></w:p>` +
			`<w:p><w:r><w:delText>deleted</w:delText><w:instrText>TOC \o</w:instrText><w:t>after</w:t></w:r></w:p></w:body></w:document>`,
		"word/_rels/document.xml.rels": `<Relationships><Relationship Id="r1" Target="header1.xml"/></Relationships>`,
		"word/header1.xml":             `<w:hdr xmlns:w="w"><w:p><w:r><w:t>Header line</w:t></w:r></w:p></w:hdr>`,
	})
	doc, err := Extract(context.Background(), MimeDOCX, bytes.NewReader(docx), 0)
	if err != nil || doc.Text() != "Body text\nafter\n\nHeader line" {
		t.Errorf("docx: %q, %v", doc.Text(), err)
	}
	if _, err := Extract(context.Background(), MimePPTX, bytes.NewReader(docx), 0); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "presentation.xml") {
		t.Errorf("docx as pptx: %v", err)
	}
}

func TestDeadlineAndPanic(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := guarded(ctx, formatPDF, func(context.Context) (Doc, error) {
			<-release // a parser that hangs
			return Doc{}, nil
		})
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("hung parser: %v", err)
	}
	close(release)

	_, err := guarded(context.Background(), formatPDF, func(context.Context) (Doc, error) {
		var m map[string]int
		m["x"] = 1 //nolint:staticcheck // the panic is the test
		return Doc{}, nil
	})
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "PDF parser failed") {
		t.Errorf("panic: %v", err)
	}

	// An expired context stops Extract before parsing.
	expired, cancel2 := context.WithTimeout(context.Background(), -time.Second)
	defer cancel2()
	if _, err := extractFile(t, filepath.Join(realdocs, "pdftools-hello.pdf")); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(realdocs, "pdftools-hello.pdf"))
	if _, err := Extract(expired, "application/pdf", bytes.NewReader(data), 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("expired ctx: %v", err)
	}
}

func TestAdobeCollectionTables(t *testing.T) {
	for _, c := range []struct {
		ordering string
		cid      uint32
		want     rune
	}{
		{"Japan1", 1, ' '}, {"Japan1", 34, 'A'}, {"Japan1", 843, 'あ'}, {"Japan1", 1125, '亜'},
		{"GB1", 1, ' '}, {"GB1", 0x0956, '可'}, {"GB1", 34, 'A'},
		{"CNS1", 34, 'A'}, {"CNS1", 0x0295, '中'},
		{"Korea1", 1, ' '}, {"Korea1", 34, 'A'}, {"KR", 0x0b13, '한'},
		{"Japan1", 1 << 20, 0}, {"GB1", 1 << 31, 0},
	} {
		if got := collectionRune(cidTable("Adobe", c.ordering), c.cid); got != c.want {
			t.Errorf("%s CID %d: %q, want %q", c.ordering, c.cid, got, c.want)
		}
	}
	for _, o := range [][2]string{{"Adobe", "Identity"}, {"Adobe", "Japan2"}, {"Foo", "GB1"}} {
		if cidTable(o[0], o[1]) != nil {
			t.Errorf("%s-%s has a table", o[0], o[1])
		}
	}
}

func TestRebuildXref(t *testing.T) {
	// A PDF whose xref is gone and whose stream /Length lies (like
	// pdfminer's simple3) still reads after repair.
	body := "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" +
		"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
		"3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>\nendobj\n" +
		"4 0 obj\n<< /Length 5 >>\nstream\nBT /F1 12 Tf 72 700 Td (Repaired text) Tj ET\nendstream\nendobj\n" +
		"5 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n%%EOF\n"
	doc, err := Extract(context.Background(), "application/pdf", strings.NewReader(body), 0)
	if err != nil || doc.Text() != "Repaired text" {
		t.Errorf("repair: %q, %v", doc.Text(), err)
	}
}

func TestMimeTypeByName(t *testing.T) {
	for name, want := range map[string]string{
		"a.PDF": "application/pdf", "b.docx": MimeDOCX, "c.xlsx": MimeXLSX, "d.pptx": MimePPTX,
		"e.md": "text/markdown", "f.htm": "text/html", "g.bin": "application/octet-stream", "h": "application/octet-stream",
	} {
		if got := MimeTypeByName(name); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
}

func TestZipPartSizeLie(t *testing.T) {
	// The declared size says 10 bytes; the deflate stream inflates to
	// 3 MiB. The reader stops at the limit instead of trusting the header.
	old := maxPartBytes
	maxPartBytes = 1 << 20
	t.Cleanup(func() { maxPartBytes = old })
	var comp bytes.Buffer
	fw, err := flate.NewWriter(&comp, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(bytes.Repeat([]byte("a"), 3<<20)); err != nil {
		t.Fatal(err)
	}
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "word/document.xml", Method: zip.Deflate, CompressedSize64: uint64(comp.Len()), UncompressedSize64: 10})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(comp.Bytes())
	zw.Close()
	_, err = Extract(context.Background(), MimeDOCX, bytes.NewReader(buf.Bytes()), 0)
	if !errors.Is(err, ErrMalformed) {
		t.Errorf("lying zip header: %v", err)
	}
}
