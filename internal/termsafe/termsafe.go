// Package termsafe makes text that gds did not write — file names, folder
// paths, titles and contents from a local folder, Google Drive or an
// upload — safe to print on a terminal. A name may hold ESC sequences that
// retitle the window, recolour or clear the screen, write to the clipboard
// (OSC 52) or forge a hyperlink, carriage returns that overwrite a line,
// bytes a terminal reads as 8-bit controls, and bidirectional overrides
// that show "txt.exe" as "exe.txt". String shows each of them as an escape
// (\e, \x07, \r, \n, \x9b, \u202e) and keeps every other character, so
// the name stays recognisable and no two different names look the same
// for those characters.
//
// It is for text surfaces only: --json, Alfred items and the HTTP API keep
// the true name (they are not terminals, and their readers need it).
package termsafe

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// String returns s with every control character shown as an escape: C0
// controls and DEL, C1 controls (U+0080–U+009F), bytes that are not UTF-8,
// and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069). For one-line text: names, paths, titles, messages.
func String(s string) string { return escape(s, false) }

// Text is String for text of several lines (a summary, an answer, a
// quoted passage): line feeds and tabs are kept, everything else String
// escapes is escaped.
func Text(s string) string { return escape(s, true) }

func escape(s string, lines bool) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f || lines && (c == '\n' || c == '\t') {
			i++
			continue
		}
		if c < 0x80 {
			break
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unsafeRune(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f, lines && (c == '\n' || c == '\t'):
			b.WriteByte(c)
			i++
		case c < 0x80:
			b.WriteString(controlEscape(c))
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				b.WriteString(`\x` + hex2(c))
			case unsafeRune(r):
				b.WriteString(`\u` + hex4(r))
			default:
				b.WriteString(s[i : i+n])
			}
			i += n
		}
	}
	return b.String()
}

// unsafeRune tells the non-ASCII characters a terminal acts on or that
// reorder what is shown.
func unsafeRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

func controlEscape(c byte) string {
	switch c {
	case 0x1b:
		return `\e`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	return `\x` + hex2(c)
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

func hex4(r rune) string {
	h := strconv.FormatInt(int64(r), 16)
	return strings.Repeat("0", max(0, 4-len(h))) + h
}
