package extract

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
)

// This file is gds's own reader of PDF syntax (tokens and objects, ISO
// 32000 §7.2-7.3), used where the PDF library cannot be bounded: the
// cross-reference pre-pass (pdfxref.go) and the content-stream interpreter
// (pdftext.go). It reads a stream as it inflates, through its own buffer,
// never holding it whole; every loop consumes input, and nesting and token
// sizes are capped.

// tokKind is the kind of a PDF token.
type tokKind uint8

const (
	tEOF        tokKind = iota
	tNum                // integer or real
	tName               // /Name (without the slash)
	tStr                // (literal) or <hex> string, decoded
	tKeyword            // operator, true/false/null, R, obj, stream...
	tArrOpen            // [
	tArrClose           // ]
	tDictOpen           // <<
	tDictClose          // >>
	tBraceOpen          // { (PostScript functions; skipped)
	tBraceClose         // }
)

// token is one lexed token. For tNum, num holds the value and isInt says
// whether it was written as an integer.
type token struct {
	kind  tokKind
	isInt bool
	num   float64
	s     string // name, string bytes or keyword
}

// maxTokenBytes caps one token (a string, a name): the rest of a longer
// token is consumed and dropped.
const maxTokenBytes = 1 << 20

// lexer splits PDF syntax into tokens.
type lexer struct {
	src      io.Reader // nil when buf is the whole input
	buf      []byte
	pos, end int
	base     int64 // input offset of buf[0]
	err      error // first read error other than io.EOF
	tmp      []byte
}

// newLexer reads r through a 16 KiB buffer.
func newLexer(r io.Reader) *lexer { return &lexer{src: r, buf: make([]byte, 16<<10)} }

// newBytesLexer reads b in place.
func newBytesLexer(b []byte) *lexer { return &lexer{buf: b, end: len(b)} }

// offset is the number of bytes consumed.
func (l *lexer) offset() int64 { return l.base + int64(l.pos) }

// fill reads more input into an empty buffer; false at the end.
func (l *lexer) fill() bool {
	if l.src == nil || l.err != nil {
		return false
	}
	l.base += int64(l.end)
	l.pos, l.end = 0, 0
	for l.end == 0 {
		n, err := l.src.Read(l.buf)
		l.end = n
		if err != nil {
			if err != io.EOF {
				l.err = err
			}
			l.src = nil
			break
		}
	}
	return l.end > 0
}

func (l *lexer) readByte() (byte, bool) {
	if l.pos >= l.end && !l.fill() {
		return 0, false
	}
	c := l.buf[l.pos]
	l.pos++
	return c, true
}

// unread steps back over the byte readByte just returned.
func (l *lexer) unread() {
	if l.pos > 0 {
		l.pos--
	}
}

func isPDFSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

// regularChar reports a byte that is neither white space nor a delimiter.
var regularChar = func() (t [256]bool) {
	for c := range 256 {
		t[c] = !isPDFSpace(byte(c)) && !isPDFDelim(byte(c))
	}
	return t
}()

func isPDFDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// keywords interns the operators of content streams (no allocation for
// them).
var keywords = func() map[string]string {
	m := map[string]string{}
	for _, k := range strings.Fields("b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i " +
		"ID j J K k l m M MP n q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr Ts Tw Tz v w W W* y ' \" " +
		"true false null R obj endobj stream endstream xref trailer startxref n f") {
		m[k] = k
	}
	return m
}()

// next returns the next token (tEOF at the end of input or after a read
// error, kept in l.err).
func (l *lexer) next() token {
	for {
		// White space, fast.
		for l.pos < l.end && isPDFSpace(l.buf[l.pos]) {
			l.pos++
		}
		c, ok := l.readByte()
		if !ok {
			return token{kind: tEOF}
		}
		switch {
		case isPDFSpace(c):
			continue
		case c == '%':
			for ok && c != '\n' && c != '\r' {
				c, ok = l.readByte()
			}
			continue
		case c == '/':
			return token{kind: tName, s: string(l.name())}
		case c == '(':
			return token{kind: tStr, s: l.literal()}
		case c == '<':
			if d, ok := l.readByte(); ok && d == '<' {
				return token{kind: tDictOpen}
			} else if ok {
				l.unread()
			}
			return token{kind: tStr, s: l.hex()}
		case c == '>':
			if d, ok := l.readByte(); ok && d == '>' {
				return token{kind: tDictClose}
			} else if ok {
				l.unread()
			}
			continue // a stray '>': skipped
		case c == '[':
			return token{kind: tArrOpen}
		case c == ']':
			return token{kind: tArrClose}
		case c == '{':
			return token{kind: tBraceOpen}
		case c == '}':
			return token{kind: tBraceClose}
		case c == ')':
			continue // a stray ')': skipped
		}
		l.unread()
		b := l.regular()
		if num, isInt, ok := parsePDFNumber(b); ok {
			return token{kind: tNum, num: num, isInt: isInt}
		}
		if k, ok := keywords[string(b)]; ok {
			return token{kind: tKeyword, s: k}
		}
		return token{kind: tKeyword, s: string(b)}
	}
}

// regular reads a run of regular characters. The result is valid until
// the next read.
func (l *lexer) regular() []byte {
	start := l.pos
	for l.pos < l.end && regularChar[l.buf[l.pos]] {
		l.pos++
	}
	if l.pos < l.end || l.src == nil {
		return l.buf[start:l.pos] // the run ends in the buffer
	}
	b := append(l.tmp[:0], l.buf[start:l.pos]...)
	for {
		c, ok := l.readByte()
		if !ok {
			break
		}
		if !regularChar[c] {
			l.unread()
			break
		}
		if len(b) < maxTokenBytes {
			b = append(b, c)
		}
	}
	l.tmp = b
	return b
}

// name reads a name after its '/', decoding #xx escapes.
func (l *lexer) name() []byte {
	b := l.regular()
	if bytes.IndexByte(b, '#') < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '#' && i+2 < len(b) && unhex(b[i+1]) >= 0 && unhex(b[i+2]) >= 0 {
			out = append(out, byte(unhex(b[i+1])<<4|unhex(b[i+2])))
			i += 2
			continue
		}
		out = append(out, b[i])
	}
	return out
}

// literal reads a (string) after its '(' (§7.3.4.2).
func (l *lexer) literal() string {
	b := l.tmp[:0]
	put := func(c byte) {
		if len(b) < maxTokenBytes {
			b = append(b, c)
		}
	}
	depth := 1
	for {
		c, ok := l.readByte()
		if !ok {
			break
		}
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				l.tmp = b
				return string(b)
			}
		case '\r':
			if d, ok := l.readByte(); ok && d != '\n' {
				l.unread()
			}
			c = '\n'
		case '\\':
			e, ok := l.readByte()
			if !ok {
				continue
			}
			switch e {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if d, ok := l.readByte(); ok && d != '\n' {
					l.unread()
				}
				continue
			case '\n':
				continue
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for i := 0; i < 2; i++ {
						d, ok := l.readByte()
						if !ok {
							break
						}
						if d < '0' || d > '7' {
							l.unread()
							break
						}
						v = v*8 + int(d-'0')
					}
					c = byte(v)
				} else {
					c = e
				}
			}
		}
		put(c)
	}
	l.tmp = b
	return string(b)
}

// hex reads a <hex string> after its '<'.
func (l *lexer) hex() string {
	b := l.tmp[:0]
	hi := -1
	for {
		c, ok := l.readByte()
		if !ok || c == '>' {
			break
		}
		v := unhex(c)
		if v < 0 {
			continue
		}
		if hi < 0 {
			hi = v
			continue
		}
		if len(b) < maxTokenBytes {
			b = append(b, byte(hi<<4|v))
		}
		hi = -1
	}
	if hi >= 0 && len(b) < maxTokenBytes {
		b = append(b, byte(hi<<4))
	}
	l.tmp = b
	return string(b)
}

// parsePDFNumber parses an integer or real as PDF writes them (no
// exponent; "+", "-" and a leading or trailing "." allowed).
func parsePDFNumber(s []byte) (float64, bool, bool) {
	if len(s) == 0 || len(s) > 64 {
		return 0, false, false
	}
	i, neg := 0, false
	if s[0] == '+' || s[0] == '-' {
		neg, i = s[0] == '-', 1
	}
	var mant uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
			if mant < 1<<59 {
				mant = mant*10 + uint64(c-'0')
				if dot {
					frac++
				}
			} else if !dot {
				return 0, false, false // beyond what an integer here may be
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false, false
		}
	}
	if digits == 0 {
		return 0, false, false
	}
	v := float64(mant)
	if frac > 0 {
		v /= math.Pow10(frac)
	}
	if neg {
		v = -v
	}
	return v, !dot, true
}

// pdfObj is a parsed PDF object: a number, name, string, keyword (true,
// false, null...), array, dictionary or indirect reference.
type pdfObj struct {
	kind  objKind
	num   float64
	isInt bool
	s     string
	arr   []pdfObj
	dict  map[string]pdfObj
	ref   objRef
}

type objKind uint8

const (
	oNull objKind = iota
	oNum
	oName
	oStr
	oKeyword
	oArray
	oDict
	oRef
)

// objRef is an indirect reference: object number and generation.
type objRef struct {
	id  uint32
	gen uint16
}

// int returns o as an integer (ok false when it is not one).
func (o pdfObj) int() (int64, bool) {
	if o.kind != oNum || !o.isInt {
		return 0, false
	}
	return int64(o.num), true
}

var errPDFSyntax = errors.New("PDF syntax")

// maxObjDepth bounds the nesting of arrays and dictionaries the object
// parser builds; deeper input is an error.
const maxObjDepth = 64

// parser reads objects, recognising "N G R" references with a token of
// lookahead.
type parser struct {
	lx      *lexer
	pending []token
}

func (p *parser) token() token {
	if n := len(p.pending); n > 0 {
		t := p.pending[n-1]
		p.pending = p.pending[:n-1]
		return t
	}
	return p.lx.next()
}

func (p *parser) push(t token) { p.pending = append(p.pending, t) }

// object parses one object, maxItems bounding the elements of each array
// and dictionary.
func (p *parser) object(depth int) (pdfObj, error) {
	t := p.token()
	switch t.kind {
	case tEOF:
		return pdfObj{}, io.ErrUnexpectedEOF
	case tNum:
		if t.isInt && t.num >= 0 {
			t2 := p.token()
			if t2.kind == tNum && t2.isInt && t2.num >= 0 && t2.num <= 65535 {
				t3 := p.token()
				if t3.kind == tKeyword && t3.s == "R" && t.num <= 1<<32-1 {
					return pdfObj{kind: oRef, ref: objRef{uint32(t.num), uint16(t2.num)}}, nil
				}
				p.push(t3)
			}
			p.push(t2)
		}
		return pdfObj{kind: oNum, num: t.num, isInt: t.isInt}, nil
	case tName:
		return pdfObj{kind: oName, s: t.s}, nil
	case tStr:
		return pdfObj{kind: oStr, s: t.s}, nil
	case tKeyword:
		if t.s == "null" {
			return pdfObj{}, nil
		}
		return pdfObj{kind: oKeyword, s: t.s}, nil
	case tArrOpen:
		if depth >= maxObjDepth {
			return pdfObj{}, errPDFSyntax
		}
		var arr []pdfObj
		for {
			t := p.token()
			if t.kind == tArrClose {
				return pdfObj{kind: oArray, arr: arr}, nil
			}
			if t.kind == tEOF {
				return pdfObj{}, io.ErrUnexpectedEOF
			}
			p.push(t)
			v, err := p.object(depth + 1)
			if err != nil {
				return pdfObj{}, err
			}
			arr = append(arr, v)
		}
	case tDictOpen:
		if depth >= maxObjDepth {
			return pdfObj{}, errPDFSyntax
		}
		d := map[string]pdfObj{}
		for {
			t := p.token()
			if t.kind == tDictClose {
				return pdfObj{kind: oDict, dict: d}, nil
			}
			if t.kind != tName {
				return pdfObj{}, errPDFSyntax
			}
			v, err := p.object(depth + 1)
			if err != nil {
				return pdfObj{}, err
			}
			d[t.s] = v
		}
	}
	return pdfObj{}, errPDFSyntax
}
