package envfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The .env grammar gds reads is godotenv v1.5.1's (the parser gds used
// before this one), so that every file it accepted keeps its meaning:
// "KEY=value" or "KEY: value", an optional "export ", # comments (whole
// lines, and after a space in an unquoted value), 'single-quoted' values
// taken literally, "double-quoted" values with \n, \r and backslash escapes,
// both quotes spanning lines, and $NAME / ${NAME} expanded from the
// settings above in the same file. TestParseMatchesGodotenv holds the two
// to the same results.
//
// It is written here rather than called because godotenv cannot say where
// a file fails: its errors carry no position, so finding the line meant
// parsing every prefix of the file again (quadratic: a 3 MB binary file ran
// for over ten minutes), and their text quotes the whole rest of the file,
// values (secrets) included. This parser makes one pass, reports the line
// and a reason that holds no value, and bounds its input and output.

// MaxSize is the largest .env file Read accepts (1 MiB): settings take a
// few kilobytes, so a larger file is not a .env file.
const MaxSize = 1 << 20

// MaxExpanded bounds the total size of the values after $NAME expansion
// (4 MiB), which could otherwise double at every line.
const MaxExpanded = 4 << 20

// ErrTooLarge is the error of Read for a file over MaxSize.
var ErrTooLarge = errors.New("larger than the .env size limit")

// ErrNotRegular is the error of Read for a path that is not a regular
// file (a directory, a FIFO, a device): reading it could block or never end.
var ErrNotRegular = errors.New("not a regular file")

// Problem says what is wrong with a line.
type Problem int

// The problems a parse can meet.
const (
	// NoAssign is a line without "=" or ":".
	NoAssign Problem = iota + 1
	// BadChar is a character a variable name cannot hold (ParseError.Char).
	BadChar
	// Unterminated is a quoted value whose quote (ParseError.Char) is never
	// closed.
	Unterminated
	// NoName is "export" with nothing after it.
	NoName
	// Expansion is $NAME references making the values larger than
	// MaxExpanded.
	Expansion
)

// ParseError is a .env file that does not parse. It never holds a value.
type ParseError struct {
	Line    int // 1-based
	Problem Problem
	Char    string // the offending character or quote, as Go quotes it ("-", "\x9d", '"')
}

func (e *ParseError) Error() string {
	switch e.Problem {
	case NoAssign:
		return fmt.Sprintf("line %d: not NAME=value (no \"=\")", e.Line)
	case BadChar:
		return fmt.Sprintf("line %d: %s cannot be part of a variable name", e.Line, e.Char)
	case Unterminated:
		return fmt.Sprintf("line %d: the value's opening %s is never closed", e.Line, e.Char)
	case NoName:
		return fmt.Sprintf("line %d: \"export\" with no variable after it", e.Line)
	case Expansion:
		return fmt.Sprintf("line %d: $NAME references expand the values past %d bytes", e.Line, MaxExpanded)
	}
	return fmt.Sprintf("line %d: cannot parse", e.Line)
}

// Read reads and parses the .env file at path. A missing file is an error
// matching fs.ErrNotExist, one that is not a regular file ErrNotRegular. A
// file over MaxSize is not read past MaxSize: a line in that part that
// does not parse is its *ParseError (a binary file fails at its first line,
// like a small one), else the error matches ErrTooLarge. Any other parse
// error is a *ParseError.
func Read(path string) (map[string]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Read one byte past the limit (the file may have grown since Stat).
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, tooLarge(path, data[:MaxSize])
	}
	return Parse(data)
}

// tooLarge is the error of a file over MaxSize whose first MaxSize bytes
// are head: the first line of head's whole lines that does not parse, or
// ErrTooLarge. A quote left open in head may close past it, so an
// unterminated value is not an error of its own.
func tooLarge(path string, head []byte) error {
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		_, err := Parse(head[:i+1])
		var pe *ParseError
		if errors.As(err, &pe) && pe.Problem != Unterminated {
			return err
		}
	}
	return &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
}

// Parse parses the text of a .env file in one pass (time linear in its
// size); see the grammar above. The error is a *ParseError.
func Parse(data []byte) (map[string]string, error) {
	p := parser{src: bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), out: map[string]string{}}
	if err := p.run(); err != nil {
		return nil, err
	}
	return p.out, nil
}

type parser struct {
	src      []byte
	pos      int // the next byte of src to read
	out      map[string]string
	expanded int  // total size of the values so far
	overflow bool // an expansion went past MaxExpanded
}

func (p *parser) fail(at int, problem Problem, char string) error {
	return &ParseError{Line: 1 + bytes.Count(p.src[:at], []byte("\n")), Problem: problem, Char: char}
}

func (p *parser) run() error {
	for {
		if !p.statementStart() {
			return nil
		}
		start := p.pos
		key, err := p.key()
		if err != nil {
			return err
		}
		value, err := p.value()
		if err != nil {
			return err
		}
		if p.expanded += len(value); p.overflow || p.expanded > MaxExpanded {
			return p.fail(start, Expansion, "")
		}
		p.out[key] = value
	}
}

// statementStart skips white space and comment lines; false at the end.
func (p *parser) statementStart() bool {
	for {
		i := bytes.IndexFunc(p.src[p.pos:], func(r rune) bool { return !unicode.IsSpace(r) })
		if i < 0 {
			p.pos = len(p.src)
			return false
		}
		p.pos += i
		if p.src[p.pos] != '#' {
			return true
		}
		nl := bytes.IndexByte(p.src[p.pos:], '\n')
		if nl < 0 {
			p.pos = len(p.src)
			return false
		}
		p.pos += nl
	}
}

// key reads "[export ]NAME" up to and including "=" or ":", and the
// blanks after it.
func (p *parser) key() (string, error) {
	start := p.pos
	src := bytes.TrimLeftFunc(p.src[p.pos:], isBlank)
	if rest, ok := bytes.CutPrefix(src, []byte("export")); ok && bytes.IndexFunc(rest, isBlank) == 0 {
		src = bytes.TrimLeftFunc(rest, isBlank)
	}
	at := len(p.src) - len(src)
	if len(src) == 0 {
		return "", p.fail(start, NoName, "")
	}
	// godotenv's rule, byte by byte: blanks are skipped, a name is
	// letters, digits, "_" and "." (a byte read as a Latin-1 rune).
	key, offset := "", 0
	for i, c := range src {
		r := rune(c)
		switch {
		case isBlank(r), c == '_', c == '.', unicode.IsLetter(r), unicode.IsNumber(r):
			continue
		case c == '=' || c == ':':
			key, offset = string(src[:i]), i+1
		case c == '\n':
			return "", p.fail(at+i, NoAssign, "")
		default:
			return "", p.fail(at+i, BadChar, charAt(src, i))
		}
		break
	}
	// No "=" up to the end of the file: godotenv reads the rest as the
	// value of the empty name.
	key = strings.TrimRightFunc(key, unicode.IsSpace)
	rest := bytes.TrimLeftFunc(src[offset:], isBlank)
	p.pos = len(p.src) - len(rest)
	return key, nil
}

// charAt quotes the character holding src[i]: the whole UTF-8 character
// when src[i] is part of one ("キ", not "\x82"), else the byte.
func charAt(src []byte, i int) string {
	for s := i; s >= 0 && s > i-utf8.UTFMax; s-- {
		if utf8.RuneStart(src[s]) {
			if r, n := utf8.DecodeRune(src[s:]); r != utf8.RuneError && s+n > i {
				return strconv.Quote(string(r))
			}
			break
		}
	}
	return strconv.Quote(string(src[i : i+1]))
}

// value reads a value: quoted, or to the end of the line.
func (p *parser) value() (string, error) {
	src := p.src[p.pos:]
	if len(src) > 0 && (src[0] == '"' || src[0] == '\'') {
		q := src[0]
		for i := 1; i < len(src); i++ {
			if src[i] != q || src[i-1] == '\\' {
				continue
			}
			isQ := func(r rune) bool { return r == rune(q) }
			v := string(bytes.TrimLeftFunc(bytes.TrimRightFunc(src[:i], isQ), isQ))
			p.pos += i + 1
			if q == '"' {
				v = p.expand(unescape(v))
			}
			return v, nil
		}
		return "", p.fail(p.pos, Unterminated, strconv.Quote(string(q)))
	}
	end := bytes.IndexAny(src, "\n\r")
	if end < 0 {
		end = len(src)
	}
	p.pos += end
	line := []rune(string(src[:end])) // invalid UTF-8 becomes U+FFFD, as in godotenv
	// A comment starts at the last "#" that follows a blank.
	for i := len(line) - 1; i > 0; i-- {
		if line[i] == '#' && isBlank(line[i-1]) {
			line = line[:i]
			break
		}
	}
	return p.expand(strings.TrimFunc(string(line), isBlank)), nil
}

var (
	escapeRE   = regexp.MustCompile(`\\.`)
	unescapeRE = regexp.MustCompile(`\\([^$])`)
	expandRE   = regexp.MustCompile(`(\\)?(\$)(\()?\{?([A-Z0-9_]+)?\}?`)
)

// unescape turns \n and \r into line breaks and drops the backslash of any
// other escape but \$.
func unescape(s string) string {
	s = escapeRE.ReplaceAllStringFunc(s, func(m string) string {
		switch m {
		case `\n`:
			return "\n"
		case `\r`:
			return "\r"
		}
		return m
	})
	return unescapeRE.ReplaceAllString(s, "$1")
}

// expand replaces $NAME, ${NAME} (and, as godotenv does, $(NAME) but for
// its ")") with the value set above ("" when none); \$NAME stays literal,
// without the backslash.
func (p *parser) expand(s string) string {
	if strings.IndexByte(s, '$') < 0 {
		return s
	}
	grown := p.expanded + len(s)
	return expandRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := expandRE.FindStringSubmatch(m)
		switch {
		case sub == nil:
			return m
		case sub[1] == `\`:
			return m[1:]
		case sub[4] != "":
			v := p.out[sub[4]]
			if grown += len(v); grown > MaxExpanded {
				p.overflow = true // run fails the line
				return ""
			}
			return v
		}
		return m
	})
}

// isBlank is white space within a line (godotenv's isSpace): not "\n".
func isBlank(r rune) bool {
	switch r {
	case '\t', '\v', '\f', '\r', ' ', 0x85, 0xA0:
		return true
	}
	return false
}
