package ocr

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gds-cli/gds/internal/extract"
)

func TestTidy(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"わ た く し と い ふ 現 象 は\n", "わたくしといふ現象は"},
		{"Hello  world \n\n\n\nnext\f", "Hello  world\n\nnext"},
		{"東京 Tokyo 大阪", "東京 Tokyo 大阪"},
		{"第 1 章 は じ め に", "第 1 章はじめに"},
		{"「 見 積 」 ー 覧", "「見積」ー覧"},
		{"\f\f", ""},
	} {
		if got := Tidy(c.in); got != c.want {
			t.Errorf("Tidy(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPickLangs(t *testing.T) {
	for _, c := range []struct{ list, want string }{
		{"List of available languages in \"/usr/share/tessdata/\" (3):\neng\njpn\nosd\n", "jpn+eng"},
		{"List of available languages (2):\neng\nosd\n", "eng"},
		{"List of available languages (1):\njpn\n", "jpn"},
		{"List of available languages (1):\nosd\n", ""},
		{"List of available languages (1):\njpn_vert\n", ""},
		{"List of available languages (4):\neng\njpn\njpn_vert\nosd\n", "jpn+jpn_vert+eng"},
		{"List of available languages (2):\neng\njpn_vert\n", "jpn_vert+eng"},
	} {
		if got := pickLangs(c.list); got != c.want {
			t.Errorf("pickLangs(%q) = %q, want %q", c.list, got, c.want)
		}
	}
}

func TestSniff(t *testing.T) {
	png, err := os.ReadFile(memoPNG)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		want kind
	}{
		{"png", png, kindImage},
		{"jpeg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), kindImage},
		{"tiff le", []byte("II*\x00\x08\x00\x00\x00"), kindImage},
		{"tiff be", []byte("MM\x00*\x00\x00\x00\x08"), kindImage},
		{"webp", []byte("RIFF\x24\x00\x00\x00WEBPVP8 "), kindImage},
		{"gif", []byte("GIF89a\x01\x00"), kindImage},
		{"pdf", []byte("%PDF-1.4\n%\xe2\xe3\n1 0 obj"), kindPDF},
		{"text", []byte("plain words"), kindNone},
		{"zip", []byte("PK\x03\x04rest"), kindNone},
		{"heic", []byte("\x00\x00\x00\x18ftypheic\x00\x00"), kindNone},
	} {
		if got := sniff(c.data); got != c.want {
			t.Errorf("%s: sniff = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestJudge(t *testing.T) {
	l := Limits{}.withDefaults()
	for _, c := range []struct {
		name      string
		e         ending
		tooComp   bool
		deadline  bool
		malformed bool
	}{
		{"clean", ending{}, false, false, false},
		{"wall", ending{killedAtWall: true, signal: syscall.SIGKILL}, true, true, true},
		{"output", ending{overOutput: true, signal: syscall.SIGKILL}, true, false, true},
		{"cpu", ending{signal: syscall.SIGXCPU, exitCode: -1}, true, false, true},
		{"killed by the system", ending{signal: syscall.SIGKILL, exitCode: -1}, true, false, true},
		{"abort (bad_alloc)", ending{signal: syscall.SIGABRT, exitCode: -1}, true, false, true},
		{"unreadable image", ending{exitCode: 1, stderr: "Error in pixReadMem: Unknown format: no pix returned\n"}, false, false, true},
	} {
		err := judge("tesseract", c.e, l)
		if (err == nil) != (c.name == "clean") {
			t.Errorf("%s: judge = %v", c.name, err)
			continue
		}
		if err == nil {
			continue
		}
		if got := errors.Is(err, extract.ErrTooComplex); got != c.tooComp {
			t.Errorf("%s: %v matches ErrTooComplex = %v, want %v", c.name, err, got, c.tooComp)
		}
		if got := errors.Is(err, context.DeadlineExceeded); got != c.deadline {
			t.Errorf("%s: %v matches DeadlineExceeded = %v, want %v", c.name, err, got, c.deadline)
		}
		if got := errors.Is(err, extract.ErrMalformed); got != c.malformed {
			t.Errorf("%s: %v matches ErrMalformed = %v, want %v", c.name, err, got, c.malformed)
		}
	}
	if err := judge("tesseract", ending{exitCode: 1, stderr: "\nError in pixReadMem: Unknown format\n"}, l); !strings.Contains(err.Error(), "pixReadMem") {
		t.Errorf("the tool's complaint is not named: %v", err)
	}
}

// A tool over a limit is stopped and the breach named: output, wall time
// and processor time (the child process is real; its limits are the
// kernel's and the parent's).
func TestRunLimits(t *testing.T) {
	ctx := context.Background()
	_, err := run(ctx, Limits{Output: 1 << 10}, "yes", nil, nil, "")
	if !errors.Is(err, extract.ErrTooComplex) || !strings.Contains(err.Error(), "wrote more than 1024 bytes") {
		t.Errorf("yes with a 1 KiB output limit: %v", err)
	}
	_, err = run(ctx, Limits{Wall: 300e6}, "sleep", []string{"30"}, nil, "")
	if !errors.Is(err, extract.ErrTooComplex) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("sleep 30 with a 300 ms wall limit: %v", err)
	}
	_, err = run(ctx, Limits{CPU: 1e9, Wall: 60e9}, "sh", []string{"-c", "while :; do :; done"}, nil, "")
	if !errors.Is(err, extract.ErrTooComplex) || !strings.Contains(err.Error(), "processor") {
		t.Errorf("a busy loop with a 1 s processor limit: %v", err)
	}
	out, err := run(ctx, Limits{}, "cat", nil, []byte("from stdin"), "")
	if err != nil || string(out) != "from stdin" {
		t.Errorf("cat = %q, %v", out, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := run(cctx, Limits{}, "sleep", []string{"30"}, nil, ""); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
}

// childEnv passes nothing of the user's but what the tools need.
func TestChildEnv(t *testing.T) {
	env := map[string]string{"PATH": "/bin", "OPENAI_API_KEY": "sk-secret", "TESSDATA_PREFIX": "/td", "GOOGLE_OAUTH_CLIENT_SECRET": "x"}
	got := strings.Join(childEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }), " ")
	if strings.Contains(got, "secret") || strings.Contains(got, "OPENAI") || !strings.Contains(got, "TESSDATA_PREFIX=/td") || !strings.Contains(got, "OMP_THREAD_LIMIT=1") {
		t.Errorf("childEnv = %s", got)
	}
}

// fakeReader reads "text of <image>" and counts its calls.
type fakeReader struct{ calls int }

func (f *fakeReader) ID() string { return "fake 1" }
func (f *fakeReader) Read(_ context.Context, img []byte) (string, error) {
	f.calls++
	return fmt.Sprintf("text of %s", img[len(img)-3:]), nil
}

type fakeRender struct{ pages int }

func (f fakeRender) Render(_ context.Context, _ []byte, maxPages int) ([][]byte, error) {
	var out [][]byte
	for i := range min(f.pages, maxPages) {
		out = append(out, fmt.Appendf(nil, "page-image-p%02d", i+1))
	}
	return out, nil
}

// fakeNext is the extractor behind OCR: a PDF has text unless it says
// "scanned" (then n empty pages); other types are refused or read as text.
type fakeNext struct{ calls int }

func (f *fakeNext) Extract(_ context.Context, mimeType string, r io.Reader, _ int64) (extract.Doc, error) {
	f.calls++
	data, _ := io.ReadAll(r)
	switch {
	case bytes.Contains(data, []byte("scanned")):
		return extract.Doc{Pages: []extract.Page{{Number: 1}, {Number: 2}, {Number: 3}}}, nil
	case strings.HasPrefix(mimeType, "image/"):
		return extract.Doc{}, fmt.Errorf("%w: %s", extract.ErrUnsupported, mimeType)
	}
	return extract.Doc{Pages: []extract.Page{{Text: string(data)}}}, nil
}

type mapCache map[string]extract.Doc

func (m mapCache) Get(k string) (extract.Doc, bool)  { d, ok := m[k]; return d, ok }
func (m mapCache) Put(k string, d extract.Doc) error { m[k] = d; return nil }

func TestExtractor(t *testing.T) {
	ctx := context.Background()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDRpng")
	scan := []byte("%PDF-1.4\nscanned pdf")
	textPDF := []byte("%PDF-1.4\nwords")
	for _, c := range []struct {
		name      string
		mime      string
		data      []byte
		maxPages  int
		wantText  string
		wantCalls int
		wantOCR   bool
		wantTrunc bool
	}{
		{"png", "image/png", png, 0, "text of png", 1, true, false},
		{"png named octet-stream", "application/octet-stream", png, 0, "text of png", 1, true, false},
		{"scanned pdf", "application/pdf", scan, 0, "text of p01\n\ntext of p02\n\ntext of p03", 3, true, false},
		{"scanned pdf past max pages", "application/pdf", scan, 2, "text of p01\n\ntext of p02", 2, true, true},
		{"pdf with text", "application/pdf", textPDF, 0, "%PDF-1.4\nwords", 0, false, false},
		{"text", "text/plain", []byte("plain"), 0, "plain", 0, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &fakeReader{}
			x := &Extractor{Next: &fakeNext{}, Reader: r, Render: fakeRender{pages: 3}, Cache: mapCache{}, MaxPages: c.maxPages}
			doc, err := x.Extract(ctx, c.mime, bytes.NewReader(c.data), 0)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text() != c.wantText || r.calls != c.wantCalls || int(x.Calls()) != c.wantCalls ||
				(doc.OCR != "") != c.wantOCR || doc.Truncated != c.wantTrunc {
				t.Errorf("text %q, %d calls (%d counted), OCR %q, truncated %v; want %q, %d, OCR %v, truncated %v",
					doc.Text(), r.calls, x.Calls(), doc.OCR, doc.Truncated, c.wantText, c.wantCalls, c.wantOCR, c.wantTrunc)
			}
			if c.wantOCR && c.mime == "application/pdf" && doc.Pages[0].Number != 1 {
				t.Errorf("pages %+v: want numbered from 1", doc.Pages)
			}
			// The same content again: from the cache, no call.
			if _, err := x.Extract(ctx, c.mime, bytes.NewReader(c.data), 0); err != nil || r.calls != c.wantCalls {
				t.Errorf("again: %d calls, %v; want still %d", r.calls, err, c.wantCalls)
			}
		})
	}
}

// Without an engine a scan is refused as unsupported with the reason in
// the user's language; without a renderer a scanned PDF says so.
func TestExtractorWithoutEngine(t *testing.T) {
	ctx := context.Background()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDRpng")
	for _, c := range []struct {
		lang, want string
	}{
		{"en", "scanned; install tesseract or use a model to read it"},
		{"ja", "スキャン画像です。読み取るには tesseract をインストールするか、モデルを使ってください"},
	} {
		x := &Extractor{Next: &fakeNext{}, Lang: c.lang}
		_, err := x.Extract(ctx, "image/png", bytes.NewReader(png), 0)
		if !errors.Is(err, ErrScanned) || !errors.Is(err, extract.ErrUnsupported) || err.Error() != c.want {
			t.Errorf("%s: %v; want ErrScanned, ErrUnsupported, %q", c.lang, err, c.want)
		}
	}
	x := &Extractor{Next: &fakeNext{}, Reader: &fakeReader{}, Lang: "en"}
	_, err := x.Extract(ctx, "application/pdf", bytes.NewReader([]byte("%PDF-1.4\nscanned")), 0)
	if !errors.Is(err, ErrScanned) || !strings.Contains(err.Error(), "pdftoppm") {
		t.Errorf("scanned PDF without a renderer: %v", err)
	}
	// Over the size limit: refused before anything is read by OCR.
	_, err = x.Extract(ctx, "image/png", bytes.NewReader(png), 4)
	if !errors.Is(err, extract.ErrTooLarge) {
		t.Errorf("over the size limit: %v", err)
	}
}

func TestDirCache(t *testing.T) {
	c := DirCache{Dir: filepath.Join(t.TempDir(), DirName)}
	key := strings.Repeat("ab", 32) + "-0011"
	if _, ok := c.Get(key); ok {
		t.Fatal("hit in an empty cache")
	}
	doc := extract.Doc{Pages: []extract.Page{{Number: 1, Text: "見積書"}}, OCR: "tesseract 5 jpn+eng", Truncated: true}
	if err := c.Put(key, doc); err != nil {
		t.Fatal(err)
	}
	got, ok := c.Get(key)
	if !ok || got.Text() != "見積書" || got.OCR != doc.OCR || !got.Truncated || got.Pages[0].Number != 1 {
		t.Errorf("Get = %+v, %v", got, ok)
	}
	if err := os.WriteFile(c.path(key), []byte("{garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(key); ok {
		t.Error("a damaged entry is a hit")
	}
}

type fakeModel struct {
	text  string
	err   error
	mimes []string
}

func (f *fakeModel) ChatModel() string { return "gpt-test" }
func (f *fakeModel) ReadImage(_ context.Context, _ []byte, mimeType string) (string, error) {
	f.mimes = append(f.mimes, mimeType)
	return f.text, f.err
}

// The model reads PNG, JPEG, GIF and WebP (named by their type), refuses
// TIFF as unsupported, and its failures are failures to read (tried again
// by the next crawl), not the image's fault.
func TestModelReader(t *testing.T) {
	ctx := context.Background()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDRpng")
	m := &fakeModel{text: "わ た く し\n"}
	r := Model{M: m}
	if got, err := r.Read(ctx, png); err != nil || got != "わたくし" || m.mimes[0] != "image/png" || r.ID() != "model gpt-test" {
		t.Errorf("Read = %q, %v (sent as %v, ID %q)", got, err, m.mimes, r.ID())
	}
	if _, err := r.Read(ctx, []byte("II*\x00\x08\x00\x00\x00")); !errors.Is(err, extract.ErrUnsupported) || len(m.mimes) != 1 {
		t.Errorf("TIFF: %v after %d calls; want unsupported without a call", err, len(m.mimes))
	}
	m.err = errors.New("429 quota")
	if _, err := r.Read(ctx, png); !errors.Is(err, extract.ErrRead) || errors.Is(err, extract.ErrMalformed) {
		t.Errorf("a failed call: %v; want ErrRead", err)
	}
}

// fakeConverter answers every image with png, or err, and counts calls.
type fakeConverter struct {
	png   []byte
	err   error
	calls int
}

func (f *fakeConverter) ToPNG(context.Context, []byte) ([]byte, error) {
	f.calls++
	return f.png, f.err
}

// With a converter, TIFF and BMP go to the model as PNG; one the converter
// refuses (too many pixels) is the image's fault, and no call is made.
func TestModelReaderConverts(t *testing.T) {
	ctx := context.Background()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDRpng")
	for _, img := range [][]byte{[]byte("II*\x00\x08\x00\x00\x00"), []byte("MM\x00*\x00\x00\x00\x08"), []byte("BM6\x00\x00\x00")} {
		m := &fakeModel{text: "memo"}
		conv := &fakeConverter{png: png}
		if got, err := (Model{M: m, Convert: conv}).Read(ctx, img); err != nil || got != "memo" || conv.calls != 1 || len(m.mimes) != 1 || m.mimes[0] != "image/png" {
			t.Errorf("%q: %q, %v (%d conversions, sent as %v); want the text, sent as one PNG", img[:4], got, err, conv.calls, m.mimes)
		}
	}
	m := &fakeModel{text: "memo"}
	conv := &fakeConverter{png: png}
	if _, err := (Model{M: m, Convert: conv}).Read(ctx, png); err != nil || conv.calls != 0 {
		t.Errorf("a PNG: %v, %d conversions; want none", err, conv.calls)
	}
	conv = &fakeConverter{err: extract.TooComplex("the image is 100000×100000 pixels", false)}
	if _, err := (Model{M: m, Convert: conv}).Read(ctx, []byte("BM6\x00\x00\x00")); !errors.Is(err, extract.ErrTooComplex) || len(m.mimes) != 1 {
		t.Errorf("a refused conversion: %v after %d calls; want too complex, no new call", err, len(m.mimes))
	}
}

// A file waits for its place (Sem) before any page is read, and gives up
// with the caller's context.
func TestExtractorWaitsForItsPlace(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDRpng")
	r := &fakeReader{}
	sem := make(chan struct{}, 1)
	sem <- struct{}{} // another file holds the only place
	x := &Extractor{Next: &fakeNext{}, Reader: r, Sem: sem}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := x.Extract(ctx, "image/png", bytes.NewReader(png), 0); !errors.Is(err, context.Canceled) || r.calls != 0 {
		t.Errorf("Extract while the place is taken: %v after %d calls; want the context's error, no call", err, r.calls)
	}
	<-sem
	if doc, err := x.Extract(context.Background(), "image/png", bytes.NewReader(png), 0); err != nil || doc.Text() != "text of png" || len(sem) != 0 {
		t.Errorf("Extract = %q, %v (%d places held after); want the text and the place given back", doc.Text(), err, len(sem))
	}
}

// flakyReader is fakeReader failing on the page image ending in failOn.
type flakyReader struct {
	*fakeReader
	failOn string
}

func (f flakyReader) Read(ctx context.Context, img []byte) (string, error) {
	if strings.HasSuffix(string(img), f.failOn) {
		return "", fmt.Errorf("%w: the model could not read the image", extract.ErrRead)
	}
	return f.fakeReader.Read(ctx, img)
}

// Each rendered page is cached by its image: a scan with a page added pays
// for that page only, and a reading interrupted on a page resumes there.
func TestExtractorCachesPages(t *testing.T) {
	ctx := context.Background()
	cache := mapCache{}
	r := &fakeReader{}
	extractScan := func(scan string, pages int, reader Reader) (extract.Doc, error) {
		x := &Extractor{Next: &fakeNext{}, Reader: reader, Render: fakeRender{pages: pages}, Cache: cache}
		return x.Extract(ctx, "application/pdf", strings.NewReader("%PDF-1.4\nscanned "+scan), 0)
	}
	steps := []struct {
		name      string
		scan      string
		pages     int
		failOn    string
		wantCalls int // the reader's calls so far
		wantErr   bool
		wantLast  string
	}{
		{"first reading", "v1", 3, "", 3, false, "text of p03"},
		{"the same scan", "v1", 3, "", 3, false, "text of p03"},
		{"a page added", "v2", 4, "", 4, false, "text of p04"},
		{"two more, interrupted on the second", "v3", 6, "p06", 5, true, ""},
		{"resumed", "v3", 6, "", 6, false, "text of p06"},
		{"resumed again", "v3", 6, "", 6, false, "text of p06"},
	}
	for _, s := range steps {
		var reader Reader = r
		if s.failOn != "" {
			reader = flakyReader{fakeReader: r, failOn: s.failOn}
		}
		doc, err := extractScan(s.scan, s.pages, reader)
		if (err != nil) != s.wantErr || r.calls != s.wantCalls {
			t.Fatalf("%s: %v after %d reader calls; want error %v, %d calls", s.name, err, r.calls, s.wantErr, s.wantCalls)
		}
		if err != nil {
			continue
		}
		if len(doc.Pages) != s.pages || doc.Pages[s.pages-1].Text != s.wantLast || doc.Pages[s.pages-1].Number != s.pages || doc.OCR != "fake 1" {
			t.Errorf("%s: pages %+v", s.name, doc.Pages)
		}
	}
}
