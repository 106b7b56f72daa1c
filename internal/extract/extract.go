// Package extract turns file contents into plain text for indexing. Each
// format has its own extractor; binaries (images, archives, ...) are refused
// with ErrUnsupported so the crawler skips them with a reason.
package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/transform"
)

// ErrUnsupported means the file type is not indexed (images, archives,
// other binaries). The wrapping error names the type.
var ErrUnsupported = errors.New("file type is not indexed")

// ErrTooLarge means the file exceeds the size limit.
var ErrTooLarge = errors.New("file is larger than the extraction limit")

// DefaultMaxBytes is the default size limit for one file.
const DefaultMaxBytes = 50 << 20

// Page is the text of one page; Number is 1-based, or 0 when the format has
// no pages.
type Page struct {
	Number int
	Text   string
}

// Doc is the extracted text of a file.
type Doc struct {
	Pages []Page
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
	".pdf":  "application/pdf",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".png":  "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
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

// Extract reads r (at most maxBytes; <= 0 means DefaultMaxBytes) and returns
// its text according to mimeType.
func Extract(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (Doc, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	switch mimeType {
	case "text/plain", "text/markdown", "text/csv", "text/tab-separated-values":
	default:
		return Doc{}, fmt.Errorf("%w: %s", ErrUnsupported, mimeType)
	}
	data, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return Doc{}, fmt.Errorf("read: %w", err)
	}
	if int64(len(data)) > maxBytes {
		return Doc{}, fmt.Errorf("%w (%d bytes)", ErrTooLarge, maxBytes)
	}
	if err := ctx.Err(); err != nil {
		return Doc{}, err
	}
	text, err := DecodeText(data)
	if err != nil {
		return Doc{}, err
	}
	return Doc{Pages: []Page{{Text: text}}}, nil
}

// DecodeText decodes UTF-8 (with or without BOM) or, when the bytes are not
// valid UTF-8, CP932 (Windows Shift_JIS), and normalises line ends.
func DecodeText(data []byte) (string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var s string
	if utf8.Valid(data) {
		s = string(data)
	} else {
		out, _, err := transform.Bytes(japanese.ShiftJIS.NewDecoder(), data)
		if err != nil || !utf8.Valid(out) {
			return "", fmt.Errorf("text is neither UTF-8 nor Shift_JIS/CP932")
		}
		s = string(out)
	}
	if strings.ContainsRune(s, 0) {
		return "", fmt.Errorf("%w: binary content", ErrUnsupported)
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"), nil
}
