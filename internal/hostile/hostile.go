// Package hostile builds a corpus of hostile files: documents made to hang,
// crash or exhaust a parser (cross-reference loops, recursive forms,
// compression bombs, amplification, deep nesting, broken encodings). Every
// file is generated deterministically at run time, so the repository holds
// no large binaries; the biggest compress to a few MB and stream out.
//
// The corpus is what gds's extraction limits are tested against
// (internal/extract's tests, the end-to-end tests through crawl and upload,
// and the "hostile input" table of docs/RELIABILITY.md). WriteDir and the
// command internal/hostile/cmd/hostile-corpus write it to a folder.
package hostile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unicode/utf16"
)

// File is one hostile file.
type File struct {
	// Name is the file name; its extension selects the extractor (.pdf,
	// .docx, .xlsx, .pptx, .html, .txt).
	Name string
	// Probe says in one sentence what the file does to a parser.
	Probe string
	// Size is the file's exact size in bytes.
	Size int64
	// Write writes the file's bytes; it may be called any number of times
	// and always writes the same bytes.
	Write func(w io.Writer) error
}

// Options size the corpus. Zero values take the defaults.
type Options struct {
	// HugeLineBytes is the size of text-huge-line.txt, one line with no
	// line break (default 500 MB: beyond any size limit, so that reading
	// it whole is the failure).
	HugeLineBytes int64
	// LongLineBytes is the size of text-long-line.txt, one line just
	// under the default 50 MiB size limit (default 49 MiB).
	LongLineBytes int64
	// BombBytes is what each compression bomb inflates to (default 2 GiB
	// for the PDF streams, half of it for zip entries).
	BombBytes int64
	// PartBytes is the size of the huge OOXML parts (default 60,000,000,
	// just under gds's 64 MiB part limit).
	PartBytes int64
	// SharedStringCells is how many cells repeat the 100 KB shared string
	// (default 20,000: 2 GB of text).
	SharedStringCells int64
	// HTMLBytes is the size of html-many-elements.html (default 48 MiB).
	HTMLBytes int64
}

func (o Options) withDefaults() Options {
	def := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.HugeLineBytes, 500_000_000)
	def(&o.LongLineBytes, 49<<20)
	def(&o.BombBytes, 2<<30)
	def(&o.PartBytes, 60_000_000)
	def(&o.SharedStringCells, 20000)
	def(&o.HTMLBytes, 48<<20)
	return o
}

// fixed is a File held in memory.
func fixed(name, probe string, data []byte) File {
	return File{Name: name, Probe: probe, Size: int64(len(data)), Write: func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}}
}

// streamed is a File written from r without holding it in memory.
func streamed(name, probe string, c content) File {
	return File{Name: name, Probe: probe, Size: c.size(), Write: c.writeRaw}
}

// spec is a corpus file not built yet: its bytes are made by data, or
// streamed from stream.
type spec struct {
	name, probe string
	data        func() []byte
	stream      content
}

func (s spec) build() File {
	if s.data != nil {
		return fixed(s.name, s.probe, s.data())
	}
	return streamed(s.name, s.probe, s.stream)
}

func specs(opts Options) []spec {
	o := opts.withDefaults()
	zipBomb := max(o.BombBytes/2, 1)
	return []spec{
		{"pdf-xref-prev-self.pdf", "cross-reference table whose trailer /Prev points to itself", pdfXrefPrevSelf, nil},
		{"pdf-xref-prev-cycle.pdf", "two cross-reference tables whose /Prev entries point at each other", pdfXrefPrevCycle, nil},
		{"pdf-xrefstream-prev-self.pdf", "cross-reference stream whose /Prev points to itself", pdfXrefStreamPrevSelf, nil},
		{"pdf-xref-huge-subsection.pdf", "cross-reference subsection starting at object 4,000,000,000 (a 128 GB table)", pdfXrefHugeSubsection, nil},
		{"pdf-xrefstream-huge-size.pdf", "cross-reference stream declaring /Size 2^40", pdfXrefStreamHugeSize, nil},
		{"pdf-form-recursive.pdf", "Form XObject that draws itself 30 times (30^8 calls at 8 levels)", pdfFormRecursive, nil},
		{"pdf-form-fanout.pdf", "8 distinct Form XObjects, each drawing the next 30 times (30^7 calls, no cycle)", pdfFormFanout, nil},
		{"pdf-page-tree-cycle.pdf", "page tree node listing itself twice in /Kids", pdfPageTreeCycle, nil},
		{"pdf-page-tree-dag.pdf", "page tree of 60 levels, each listing the next twice (2^60 paths, no page)", pdfPageTreeDAG, nil},
		{"pdf-deep-nesting-content.pdf", "content stream with arrays nested 1,000,000 deep", pdfDeepContent, nil},
		{"pdf-deep-nesting-object.pdf", "page dictionary with arrays nested 100,000 deep", pdfDeepObject, nil},
		{"pdf-flate-bomb.pdf", fmt.Sprintf("content stream inflating to %s of operands", human(o.BombBytes)), func() []byte { return pdfFlateBomb(o.BombBytes, false) }, nil},
		{"pdf-flate-bomb-operators.pdf", fmt.Sprintf("content stream inflating to %s of drawing operators", human(o.BombBytes)), func() []byte { return pdfFlateBomb(o.BombBytes, true) }, nil},
		{"pdf-objstm-bomb.pdf", fmt.Sprintf("object stream holding the catalog after %s of padding", human(o.BombBytes)), func() []byte { return pdfObjStmBomb(o.BombBytes) }, nil},
		{"pdf-objstm-extends-cycle.pdf", "object stream without the objects it should hold, whose /Extends is itself", pdfObjStmExtendsCycle, nil},
		{"pdf-objstm-self.pdf", "object stream listed as stored inside itself (unbounded recursion)", pdfObjStmSelf, nil},
		{"pdf-shared-content.pdf", "10,000 pages sharing one 1 MB content stream", func() []byte { return pdfSharedContent(10000) }, nil},
		{"pdf-contents-array.pdf", "page /Contents listing one stream 200,000 times", func() []byte { return pdfContentsArray(200000) }, nil},
		{"pdf-shared-resources.pdf", "5,000 pages inheriting one 1 MB resource dictionary (parsed again at every lookup)", func() []byte { return pdfSharedResources(5000) }, nil},
		{"pdf-rebuild-quadratic.pdf", "100,000 catalogs with unterminated streams and no usable cross-reference table", func() []byte { return pdfRebuildQuadratic(100000) }, nil},
		{"pdf-cmap-bfrange.pdf", "ToUnicode CMap of 100,000 ranges of 65,536 codes each", func() []byte { return pdfCMapRanges(100000) }, nil},
		{"xlsx-shared-string-amplification.xlsx", fmt.Sprintf("one 100 KB shared string in %d cells (%s of text)", o.SharedStringCells, human(o.SharedStringCells*102400)), func() []byte { return xlsxSharedStringAmplification(o.SharedStringCells) }, nil},
		{"xlsx-many-shared-strings.xlsx", fmt.Sprintf("shared string table of %s in 17-byte entries", human(o.PartBytes)), func() []byte { return xlsxManySharedStrings(o.PartBytes) }, nil},
		{"xlsx-billion-laughs.xlsx", "XML entity expansion (billion laughs) in the shared strings", xlsxBillionLaughs, nil},
		{"docx-huge-part.docx", fmt.Sprintf("word/document.xml of %s (under the 64 MiB part limit)", human(o.PartBytes)), func() []byte { return docxHugePart(o.PartBytes) }, nil},
		{"pptx-huge-part.pptx", fmt.Sprintf("one slide of %s", human(o.PartBytes)), func() []byte { return pptxHugePart(o.PartBytes) }, nil},
		{"docx-zip-bomb-declared.docx", fmt.Sprintf("zip entry inflating to %s, declared", human(zipBomb)), func() []byte { return docxZipBomb(zipBomb, false) }, nil},
		{"docx-zip-bomb-lying.docx", fmt.Sprintf("zip entry inflating to %s, declared as 100 bytes", human(zipBomb)), func() []byte { return docxZipBomb(zipBomb, true) }, nil},
		{"docx-repeated-part.docx", "200,000 relationships to one header part", func() []byte { return docxRepeatedPart(200000) }, nil},
		{"docx-billion-laughs.docx", "XML entity expansion (billion laughs) in word/document.xml", docxBillionLaughs, nil},
		{"docx-deep-nesting.docx", "text inside 100,000 nested XML elements", docxDeepNesting, nil},
		{"html-deep-nesting.html", "200,000 nested <div> elements", nil, htmlDeep(200000)},
		{"html-many-elements.html", fmt.Sprintf("%s of <p> elements (a parse tree 50× the input)", human(o.HTMLBytes)), nil, content{once("<!DOCTYPE html><title>many</title>"), times("<p>x", o.HTMLBytes/4)}},
		{"text-huge-line.txt", fmt.Sprintf("one line of %s", human(o.HugeLineBytes)), nil, content{times("0123456789", o.HugeLineBytes/10)}},
		{"text-long-line.txt", fmt.Sprintf("one line of %s, under the 50 MiB size limit", human(o.LongLineBytes)), nil, content{times("abcdefghi ", o.LongLineBytes/10)}},
		{"text-utf16le-invalid.txt", "UTF-16LE with BOM, lone surrogates and an odd final byte", func() []byte { return utf16Invalid(false) }, nil},
		{"text-utf16be-invalid.txt", "UTF-16BE with BOM, lone surrogates and an odd final byte", func() []byte { return utf16Invalid(true) }, nil},
	}
}

// Corpus returns the hostile files, in a fixed order. Building it takes
// well under a second; the streamed text files are made while written.
func Corpus(opts Options) []File {
	var files []File
	for _, s := range specs(opts) {
		files = append(files, s.build())
	}
	return files
}

// Get returns the corpus file called name, built alone.
func Get(name string, opts Options) (File, bool) {
	for _, s := range specs(opts) {
		if s.name == name {
			return s.build(), true
		}
	}
	return File{}, false
}

// WriteDir writes every corpus file into dir (created if needed) and
// returns the files it wrote.
func WriteDir(dir string, opts Options) ([]File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	files := Corpus(opts)
	for _, f := range files {
		if err := writeFile(filepath.Join(dir, f.Name), f); err != nil {
			return nil, err
		}
	}
	return files, nil
}

func writeFile(path string, f File) (err error) {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	return f.Write(out)
}

func htmlDeep(depth int64) content {
	return content{once("<!DOCTYPE html><title>deep</title><body>"), times("<div>", depth), once("deep text")}
}

// utf16Invalid is "Hello, 世界" + a lone high surrogate + "after" + a lone
// low surrogate + "end" in UTF-16 with a BOM, plus one stray byte.
func utf16Invalid(bigEndian bool) []byte {
	units := utf16.Encode([]rune("Hello, 世界 "))
	units = append(units, 0xd800)
	units = append(units, utf16.Encode([]rune(" after "))...)
	units = append(units, 0xdc00)
	units = append(units, utf16.Encode([]rune(" end\r\n"))...)
	out := []byte{0xff, 0xfe}
	if bigEndian {
		out = []byte{0xfe, 0xff}
	}
	for _, u := range units {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return append(out, 'x')
}

// human formats a byte count for a probe description.
func human(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1_000_000_000:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1_000_000:
		return fmt.Sprintf("%.0f MB", float64(n)/1e6)
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
