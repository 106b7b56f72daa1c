// Package extract turns file contents into plain text for indexing. Each
// format has its own extractor (text/CSV, Markdown, HTML, PDF, DOCX, XLSX,
// PPTX, and the text/CSV exports of Google Docs, Slides and Sheets);
// binaries (images, archives, audio, video, ...) are refused with
// ErrUnsupported so the crawler skips them with a reason.
//
// Limits: the input is read up to a byte limit (ErrTooLarge beyond it), zip
// parts of Office files are decompressed up to a budget (ErrMalformed for a
// zip bomb), no format builds more than MaxTextBytes of text (Doc.Truncated),
// PDFs are read within work limits (pdfguard.go; ErrTooComplex when nothing
// could be read within them), panics inside parsers become errors, and the
// context's deadline is honoured: Extract returns ctx.Err() when it passes,
// and the parser stops soon after. The hostile corpus of internal/hostile is
// what these limits are tested against (hostile_test.go).
package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/transform"
)

// ErrUnsupported means the file type is not indexed (images, archives,
// other binaries). The wrapping error names the type.
var ErrUnsupported = errors.New("file type is not indexed")

// ErrTooLarge means the file exceeds the size limit.
var ErrTooLarge = errors.New("file is larger than the extraction limit")

// ErrMalformed means the file claims a format it does not follow (truncated,
// damaged, not what its type says, or a zip bomb). The wrapping error says
// what is wrong, e.g. "truncated PDF: no cross-reference table or trailer".
var ErrMalformed = errors.New("malformed file")

// ErrTooComplex means the file could not be read within the limits on
// time, memory or work that keep a hostile file from hanging or crashing
// gds (a PDF whose cross-references loop, a spreadsheet that expands to
// gigabytes of text, a parser killed for using too much memory). It
// matches ErrMalformed too, so every caller that indexes a malformed file
// by name only, or refuses an upload with 422, does the same here; the
// wrapping error names the limit that was reached.
var ErrTooComplex = fmt.Errorf("%w: too complex to read safely", ErrMalformed)

// TooComplex is a limit that reading a file went past (time, memory,
// output), given as reason: it matches ErrTooComplex, and
// context.DeadlineExceeded when deadline is set (the wall-time limit), so
// a crawl treats it as it treats a slow parse: a file already indexed
// with text keeps it.
func TooComplex(reason string, deadline bool) error {
	return &tooComplexError{reason: reason, deadline: deadline}
}

type tooComplexError struct {
	reason   string
	deadline bool
}

func (e *tooComplexError) Error() string { return ErrTooComplex.Error() + ": " + e.reason }
func (e *tooComplexError) Unwrap() []error {
	if e.deadline {
		return []error{ErrTooComplex, context.DeadlineExceeded}
	}
	return []error{ErrTooComplex}
}

// ErrRead means the input could not be read to its end (a stalled or
// broken download, an I/O error): the file itself may be fine, so the
// crawler tries it again rather than skipping it for good.
var ErrRead = errors.New("read")

// DefaultMaxBytes is the default size limit for one file.
const DefaultMaxBytes = 50 << 20

// MaxTextBytes caps the text extracted from one file (UTF-8 bytes). Text
// beyond it is dropped and Doc.Truncated is set: a file that expands to
// more (a spreadsheet repeating one long string in every cell, a document
// with a 60 MB part) is indexed by its first MaxTextBytes, never held whole
// in memory. 4 MiB is about 2,000 pages of English prose.
const MaxTextBytes = 4 << 20

// Version identifies what the extractors output. Bump it in the change
// that makes any extractor's text differ for some file (a decoding fixed,
// words no longer run together, a format read that was refused), and in
// the change that bumps the chunking rules (crawl.ChunkVersion): every
// index records the version that read each file, and the next crawl reads
// again the files an older version read, even though they have not changed
// (their summaries and embeddings are made again only when the text
// differs). A bump costs every user one read of every file (a download from
// Drive), so one bump per landing that changes text is enough.
const Version = 6

// MIME types of Google-native files. The Drive source hands their exports
// over with these types: Docs and Slides as text/plain content, Sheets as
// text/csv content.
const (
	MimeGoogleDoc    = "application/vnd.google-apps.document"
	MimeGoogleSlides = "application/vnd.google-apps.presentation"
	MimeGoogleSheet  = "application/vnd.google-apps.spreadsheet"
)

// Office Open XML MIME types.
const (
	MimeDOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	MimeXLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	MimePPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
)

// Page is the text of one page; Number is 1-based, or 0 when the format has
// no pages.
type Page struct {
	Number int
	Text   string
}

// Doc is the extracted text of a file.
type Doc struct {
	Pages []Page
	// Truncated is set when the text reached MaxTextBytes and the rest
	// of the file was not read.
	Truncated bool
	// OCR names the engine that read the text from the file's images
	// (package ocr); "" when the text was extracted from the file itself.
	OCR string
}

// Text returns all pages joined by blank lines.
func (d Doc) Text() string {
	parts := make([]string, 0, len(d.Pages))
	for _, p := range d.Pages {
		if t := strings.TrimSpace(p.Text); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n\n")
}

// mimeByExt maps file extensions to the MIME types gds understands. The
// table is fixed so results do not depend on the host's MIME database.
var mimeByExt = map[string]string{
	".txt": "text/plain", ".text": "text/plain", ".md": "text/markdown", ".markdown": "text/markdown",
	".csv": "text/csv", ".tsv": "text/tab-separated-values", ".html": "text/html", ".htm": "text/html",
	".xhtml": "application/xhtml+xml",
	".pdf":   "application/pdf",
	".docx":  MimeDOCX,
	".xlsx":  MimeXLSX,
	".pptx":  MimePPTX,
	".png":   "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".zip": "application/zip",
}

// MimeTypeByName returns the MIME type for a file name, or
// "application/octet-stream".
func MimeTypeByName(name string) string {
	if mt, ok := mimeByExt[strings.ToLower(path.Ext(name))]; ok {
		return mt
	}
	return "application/octet-stream"
}

// format is an extractor chosen for a MIME type.
type format int

const (
	formatNone format = iota
	formatText
	formatMarkdown
	formatHTML
	formatPDF
	formatDOCX
	formatXLSX
	formatPPTX
)

func (f format) String() string {
	return [...]string{"none", "text", "Markdown", "HTML", "PDF", "DOCX", "XLSX", "PPTX"}[f]
}

// formatOf maps a MIME type (parameters ignored) to its extractor.
func formatOf(mimeType string) format {
	mt, _, _ := strings.Cut(strings.ToLower(mimeType), ";")
	switch strings.TrimSpace(mt) {
	case "text/plain", "text/csv", "text/tab-separated-values", MimeGoogleDoc, MimeGoogleSlides, MimeGoogleSheet:
		return formatText
	case "text/markdown", "text/x-markdown":
		return formatMarkdown
	case "text/html", "application/xhtml+xml":
		return formatHTML
	case "application/pdf":
		return formatPDF
	case MimeDOCX:
		return formatDOCX
	case MimeXLSX:
		return formatXLSX
	case MimePPTX:
		return formatPPTX
	}
	return formatNone
}

// Extract reads r (at most maxBytes; <= 0 means DefaultMaxBytes) and returns
// its text according to mimeType, after checking that the content is not
// something else (a PNG named .pdf is refused as an image). Errors wrap
// ErrUnsupported, ErrTooLarge, ErrMalformed or the context's error.
//
// When ctx is done before the parser finishes, Extract returns ctx.Err() at
// once; the parser's goroutine runs on until it notices the cancellation
// (every extractor checks it within a few thousand tokens, and the PDF
// library's reads fail once it is done), and its result is then dropped.
func Extract(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (Doc, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	f := formatOf(mimeType)
	if f == formatNone && mimeType != "application/octet-stream" && mimeType != "" {
		return Doc{}, fmt.Errorf("%w: %s", ErrUnsupported, mimeType)
	}
	data, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return Doc{}, fmt.Errorf("%w: %w", ErrRead, err)
	}
	if int64(len(data)) > maxBytes {
		return Doc{}, fmt.Errorf("%w (%d bytes)", ErrTooLarge, maxBytes)
	}
	if err := ctx.Err(); err != nil {
		return Doc{}, err
	}
	f, err = checkContent(f, mimeType, data)
	if err != nil {
		return Doc{}, err
	}
	return guarded(ctx, f, func(ctx context.Context) (Doc, error) {
		doc, err := extractBytes(ctx, f, data, maxBytes)
		return foldLigatures(capDoc(doc)), err
	})
}

func extractBytes(ctx context.Context, f format, data []byte, maxBytes int64) (Doc, error) {
	switch f {
	case formatText:
		text, truncated, err := decodeText(data, textLimit)
		if err != nil {
			return Doc{}, err
		}
		return Doc{Pages: []Page{{Text: text}}, Truncated: truncated}, nil
	case formatMarkdown:
		// The first textLimit bytes of the source: markup only shrinks.
		text, truncated, err := decodeText(data, textLimit)
		if err != nil {
			return Doc{}, err
		}
		return Doc{Pages: []Page{{Text: markdownText(text)}}, Truncated: truncated}, nil
	case formatHTML:
		return extractHTML(ctx, data)
	case formatPDF:
		return extractPDF(ctx, data)
	case formatDOCX, formatXLSX, formatPPTX:
		return extractOOXML(ctx, f, data, maxBytes)
	}
	return Doc{}, fmt.Errorf("%w: unknown format", ErrUnsupported)
}

// ligatures are the presentation forms of Latin ligatures (U+FB00–FB06,
// and Ĳ ĳ), folded as NFKC folds them: a PDF set in a font with
// ligatures stores "ﬁnd" for find, which quotes and answers would show and
// exact matching would miss. No folding makes text longer in UTF-8.
var ligatures = strings.NewReplacer(
	"\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl", "\ufb05", "st", "\ufb06", "st",
	"\u0132", "IJ", "\u0133", "ij",
)

func isLigature(r rune) bool {
	return (r >= 0xfb00 && r <= 0xfb06) || r == 0x132 || r == 0x133
}

// foldLigatures folds the ligatures of every page (ligatures).
func foldLigatures(d Doc) Doc {
	for i, p := range d.Pages {
		if strings.ContainsFunc(p.Text, isLigature) {
			d.Pages[i].Text = ligatures.Replace(p.Text)
		}
	}
	return d
}

// guarded runs fn in a goroutine, turns its panics into errors and returns
// early with ctx.Err() when ctx is done first.
func guarded(ctx context.Context, f format, fn func(context.Context) (Doc, error)) (Doc, error) {
	type result struct {
		doc Doc
		err error
	}
	ch := make(chan result, 1) // buffered: a late parser never blocks
	go func() {
		var res result
		if err := safely(func() { res.doc, res.err = fn(ctx) }); err != nil {
			res.err = fmt.Errorf("%w: %s parser failed: %v", ErrMalformed, f, err)
		}
		ch <- res
	}()
	select {
	case res := <-ch:
		if res.err != nil && ctx.Err() != nil {
			return Doc{}, fmt.Errorf("extract %s: %w", f, ctx.Err())
		}
		return res.doc, res.err
	case <-ctx.Done():
		return Doc{}, fmt.Errorf("extract %s: %w", f, ctx.Err())
	}
}

// safely calls fn and returns its panic, if any, as an error.
func safely(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	fn()
	return nil
}

// magic lists signatures of binaries that are never indexed, beyond what
// net/http's sniffer knows.
var magic = []struct {
	prefix, kind string
}{
	{"7z\xbc\xaf\x27\x1c", "7-Zip archive"},
	{"Rar!\x1a\x07", "RAR archive"},
	{"\x1f\x8b", "gzip archive"},
	{"BZh", "bzip2 archive"},
	{"\xfd7zXZ\x00", "xz archive"},
	{"\x28\xb5\x2f\xfd", "zstd archive"},
	{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "legacy Office (OLE) document"},
	{"\x7fELF", "executable"},
	{"MZ", "executable"},
	{"\xcf\xfa\xed\xfe", "executable"},
	{"SQLite format 3\x00", "SQLite database"},
	{"\x00\x00\x00\x0cjP  ", "JPEG 2000 image"},
	{"II*\x00", "TIFF image"},
	{"MM\x00*", "TIFF image"},
}

// checkContent looks at the first bytes and refuses content that is not
// what mimeType claims: images, audio, video, fonts, archives and
// executables are never indexed whatever their name. An unknown type whose
// content is a PDF is read as a PDF.
func checkContent(f format, mimeType string, data []byte) (format, error) {
	if len(data) == 0 {
		if f == formatText || f == formatMarkdown || f == formatHTML {
			return f, nil
		}
		return f, fmt.Errorf("%w: empty file", ErrMalformed)
	}
	head := data[:min(len(data), 512)]
	kind := ""
	for _, m := range magic {
		if bytes.HasPrefix(head, []byte(m.prefix)) {
			kind = m.kind
			break
		}
	}
	detected := http.DetectContentType(head)
	isZip := strings.HasPrefix(detected, "application/zip") || bytes.HasPrefix(head, []byte("PK\x03\x04"))
	if kind == "" {
		switch {
		case strings.HasPrefix(detected, "image/"), strings.HasPrefix(detected, "audio/"),
			strings.HasPrefix(detected, "video/"), strings.HasPrefix(detected, "font/"),
			detected == "application/ogg", detected == "application/wasm",
			detected == "application/vnd.ms-fontobject", detected == "application/x-rar-compressed",
			detected == "application/x-gzip":
			kind = detected
		case isZip && f != formatDOCX && f != formatXLSX && f != formatPPTX:
			kind = "zip archive"
		}
	}
	if kind != "" {
		return f, fmt.Errorf("%w: content is %s (declared %s)", ErrUnsupported, kind, mimeType)
	}
	isPDF := bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-"))
	switch {
	case f == formatNone && isPDF:
		return formatPDF, nil
	case f == formatNone:
		return f, fmt.Errorf("%w: %s", ErrUnsupported, mimeType)
	case f == formatPDF && !isPDF:
		return f, fmt.Errorf("%w: not a PDF: no %%PDF header (content looks like %s)", ErrMalformed, detected)
	case (f == formatDOCX || f == formatXLSX || f == formatPPTX) && !isZip:
		return f, fmt.Errorf("%w: %s is not a zip file (content looks like %s)", ErrMalformed, f, detected)
	}
	return f, nil
}

// decodeText decodes text to UTF-8, at most limit bytes of it (truncated
// reports a cut): UTF-16 when it starts with a byte order mark, or when
// it has NUL bytes and reads as UTF-16 text (invalid code units become
// U+FFFD), else UTF-8 (with or without BOM), else, when the bytes are not
// valid UTF-8, the legacy charset they read best in (CP932, EUC-JP or
// Windows-1252: detectLegacy). Line ends are normalised. Other content
// with NUL characters is binary.
func decodeText(data []byte, limit int) (text string, truncated bool, err error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		text, truncated = decodeUTF16(data[2:], false, limit)
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		text, truncated = decodeUTF16(data[2:], true, limit)
	default:
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		if bytes.IndexByte(data, 0) >= 0 {
			be, ok := detectUTF16(data)
			if !ok {
				return "", false, fmt.Errorf("%w: binary content", ErrUnsupported)
			}
			text, truncated = decodeUTF16(data, be, limit)
			break
		}
		if utf8.Valid(data) {
			if len(data) > limit {
				n := limit
				for n > 0 && !utf8.RuneStart(data[n]) {
					n--
				}
				data, truncated = data[:n], true
			}
			text = string(data)
		} else {
			enc, name := detectLegacy(data)
			r := transform.NewReader(bytes.NewReader(data), enc.NewDecoder())
			out, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
			text, truncated = string(out), len(out) > limit
			if truncated {
				text = (&textBudget{left: limit}).fit(text)
			}
			if err != nil || !utf8.ValidString(text) {
				return "", false, fmt.Errorf("%w: text is neither UTF-8 nor %s", ErrMalformed, name)
			}
		}
	}
	if strings.ContainsRune(text, 0) {
		return "", false, fmt.Errorf("%w: binary content", ErrUnsupported)
	}
	return strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"), truncated, nil
}

// decodeUTF16 decodes UTF-16 (big or little endian, without its BOM) up
// to limit bytes of UTF-8: unpaired surrogates and an odd final byte
// become U+FFFD.
func decodeUTF16(data []byte, bigEndian bool, limit int) (string, bool) {
	unit := func(i int) rune {
		if bigEndian {
			return rune(data[i])<<8 | rune(data[i+1])
		}
		return rune(data[i+1])<<8 | rune(data[i])
	}
	out := make([]byte, 0, min(limit, len(data)*3/2+3))
	for i := 0; i < len(data); {
		r := utf8.RuneError
		switch {
		case i+1 >= len(data):
			i++ // an odd final byte
		case utf16.IsSurrogate(unit(i)):
			if i+3 < len(data) {
				if d := utf16.DecodeRune(unit(i), unit(i+2)); d != utf8.RuneError {
					r = d
					i += 2
				}
			}
			i += 2
		default:
			r = unit(i)
			i += 2
		}
		if len(out)+utf8.RuneLen(r) > limit {
			return string(out), true
		}
		out = utf8.AppendRune(out, r)
	}
	return string(out), false
}
