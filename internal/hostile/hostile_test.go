package hostile

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/zlib"
	"crypto/sha256"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// testOpts keeps the streamed files small; the bombs and parts keep their
// real sizes (they are compressed).
var testOpts = Options{HugeLineBytes: 1 << 20, LongLineBytes: 1 << 20, HTMLBytes: 1 << 20}

func TestContentRoundTrip(t *testing.T) {
	for _, r := range []content{
		{once("head")},
		{times("0 ", 3)},
		{once("<a>"), times("xyz", 1<<20+7), once("</a>")},
		{times(" ", 3<<20), once("tail"), times("]", 2<<20+1)},
		{},
	} {
		var raw bytes.Buffer
		if err := r.writeRaw(&raw); err != nil {
			t.Fatal(err)
		}
		if int64(raw.Len()) != r.size() {
			t.Errorf("size %d, wrote %d", r.size(), raw.Len())
		}
		got, err := io.ReadAll(flate.NewReader(bytes.NewReader(r.deflate())))
		if err != nil || !bytes.Equal(got, raw.Bytes()) {
			t.Errorf("deflate round trip of %d bytes: %d bytes, %v", raw.Len(), len(got), err)
		}
		zr, err := zlib.NewReader(bytes.NewReader(r.zlib()))
		if err != nil {
			t.Fatal(err)
		}
		got, err = io.ReadAll(zr) // checks the Adler-32
		if err != nil || !bytes.Equal(got, raw.Bytes()) {
			t.Errorf("zlib round trip of %d bytes: %d bytes, %v", raw.Len(), len(got), err)
		}
		if r.crc32() != crc32.ChecksumIEEE(raw.Bytes()) {
			t.Errorf("crc32 of %d bytes differs", raw.Len())
		}
	}
}

// TestBombIsSmallAndExact: a bomb compresses about 1000:1 and inflates to
// exactly what it claims (counted, not held).
func TestBombIsSmallAndExact(t *testing.T) {
	r := content{once("BT"), times("0 ", 16<<20)}
	z := r.zlib()
	if int64(len(z)) > r.size()/500 {
		t.Errorf("%d-byte bomb is %d bytes compressed", r.size(), len(z))
	}
	zr, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, zr)
	if err != nil || n != r.size() {
		t.Errorf("inflated %d bytes (want %d), %v", n, r.size(), err)
	}
}

var (
	startxrefRe = regexp.MustCompile(`^startxref\s+(\d+)\s+%%EOF\s*$`)
	xrefRowRe   = regexp.MustCompile(`(\d{10}) (\d{5}) n\r\n`)
	objRe       = regexp.MustCompile(`^\d+ 0 obj`)
)

// TestCorpus checks each file: a known extension, its declared size, and
// a structure that really is what the probe says (offsets that point
// where they should, zip entries that open).
func TestCorpus(t *testing.T) {
	files := Corpus(testOpts)
	seen := map[string]bool{}
	for _, f := range files {
		t.Run(f.Name, func(t *testing.T) {
			if seen[f.Name] {
				t.Fatal("duplicate name")
			}
			seen[f.Name] = true
			ext := filepath.Ext(f.Name)
			if !slices.Contains(strings.Fields(".pdf .docx .xlsx .pptx .html .txt"), ext) || f.Probe == "" {
				t.Fatalf("extension %q, probe %q", ext, f.Probe)
			}
			data := bytesOf(t, f)
			if int64(len(data)) != f.Size {
				t.Errorf("Size %d, wrote %d", f.Size, len(data))
			}
			switch ext {
			case ".pdf":
				if !strings.Contains(f.Name, "rebuild") { // its startxref points at the header on purpose
					checkPDF(t, data)
				}
			case ".docx", ".xlsx", ".pptx":
				checkZip(t, f.Name, data)
			}
		})
	}
}

// TestDeterministic: two builds write the same bytes (small sizes: the
// code paths are the same).
func TestDeterministic(t *testing.T) {
	o := Options{HugeLineBytes: 1000, LongLineBytes: 1000, BombBytes: 1 << 20, PartBytes: 1 << 20, SharedStringCells: 10, HTMLBytes: 1000}
	a, b := Corpus(o), Corpus(o)
	for i := range a {
		if sha256.Sum256(bytesOf(t, a[i])) != sha256.Sum256(bytesOf(t, b[i])) {
			t.Errorf("%s: two builds differ", a[i].Name)
		}
	}
}

func bytesOf(t *testing.T, f File) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkPDF: startxref points at a cross-reference section, and every
// in-use row of a classic table at its object.
func checkPDF(t *testing.T, data []byte) {
	m := startxrefRe.FindSubmatch(data[max(0, bytes.LastIndex(data, []byte("startxref"))):])
	if m == nil {
		t.Fatal("no startxref at the end")
	}
	x, _ := strconv.Atoi(string(m[1]))
	at := data[x:]
	if !bytes.HasPrefix(at, []byte("xref")) && !objRe.Match(at) {
		t.Fatalf("startxref %d points at %q", x, at[:min(len(at), 20)])
	}
	table := data[max(0, bytes.Index(data, []byte("\nxref\n"))):] // the streams come before
	for _, row := range xrefRowRe.FindAllSubmatch(table, -1) {
		off, _ := strconv.Atoi(string(row[1]))
		if off == 9 {
			continue // the huge-subsection row points nowhere on purpose
		}
		if !objRe.Match(data[off:]) {
			t.Errorf("xref row %s points at %q", row[1], data[off:off+10])
		}
	}
}

// checkZip opens every entry and reads the start of it: XML, or for the
// lying bomb the error archive/zip gives past the declared size.
// (TestContentRoundTrip checks the CRC-32s.)
func checkZip(t *testing.T, name string, data []byte) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	lying := strings.Contains(name, "lying")
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		head, err := io.ReadAll(io.LimitReader(rc, 1<<20))
		rc.Close()
		switch {
		case lying && errors.Is(err, zip.ErrFormat):
			// archive/zip stops at the declared size
		case err != nil || !bytes.HasPrefix(head, []byte("<?xml")):
			t.Errorf("%s: %q: %v", zf.Name, head[:min(len(head), 20)], err)
		}
	}
}

func TestWriteDir(t *testing.T) {
	dir := t.TempDir()
	files, err := WriteDir(dir, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		fi, err := os.Stat(filepath.Join(dir, f.Name))
		if err != nil || fi.Size() != f.Size {
			t.Errorf("%s: %v, %d bytes (want %d)", f.Name, err, fi.Size(), f.Size)
		}
	}
}
