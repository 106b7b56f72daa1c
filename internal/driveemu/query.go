package driveemu

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Query is a parsed files.list q expression.
type Query struct {
	root node
	// HasFullText reports whether a fullText term occurs (orderBy is then
	// rejected, as Drive does).
	HasFullText bool
}

// QueryError is a malformed q string; the handler answers 400 invalidQuery.
type QueryError struct {
	Pos int
	Msg string
}

func (e *QueryError) Error() string { return fmt.Sprintf("invalid query at %d: %s", e.Pos, e.Msg) }

// node is one node of the q expression tree.
type node interface {
	eval(c *evalCtx, f *File) bool
}

type evalCtx struct {
	e *Emulator
}

type andNode struct{ l, r node }
type orNode struct{ l, r node }
type notNode struct{ x node }

func (n andNode) eval(c *evalCtx, f *File) bool { return n.l.eval(c, f) && n.r.eval(c, f) }
func (n orNode) eval(c *evalCtx, f *File) bool  { return n.l.eval(c, f) || n.r.eval(c, f) }
func (n notNode) eval(c *evalCtx, f *File) bool { return !n.x.eval(c, f) }

// termNode is `field op value`, or `value in field` (op "in").
type termNode struct {
	field string
	op    string
	str   string
	b     bool
	t     time.Time
	kv    [2]string // for has {key=... and value=...}
	toks  fullTextQuery
}

// Escape quotes s for use inside a single-quoted q value: `\` becomes `\\`
// and `'` becomes `\'`, as the Drive reference prescribes.
func Escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s)
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tString
	tOp
	tLParen
	tRParen
	tLBrace
	tRBrace
)

type token struct {
	kind tokKind
	val  string
	pos  int
}

func lex(q string) ([]token, error) {
	var out []token
	i := 0
	for i < len(q) {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(':
			out = append(out, token{tLParen, "(", i})
			i++
		case c == ')':
			out = append(out, token{tRParen, ")", i})
			i++
		case c == '{':
			out = append(out, token{tLBrace, "{", i})
			i++
		case c == '}':
			out = append(out, token{tRBrace, "}", i})
			i++
		case c == '\'':
			start := i
			i++
			var sb strings.Builder
			closed := false
			for i < len(q) {
				if q[i] == '\\' {
					if i+1 >= len(q) || (q[i+1] != '\\' && q[i+1] != '\'') {
						return nil, &QueryError{i, "invalid escape in string"}
					}
					sb.WriteByte(q[i+1])
					i += 2
					continue
				}
				if q[i] == '\'' {
					closed = true
					i++
					break
				}
				sb.WriteByte(q[i])
				i++
			}
			if !closed {
				return nil, &QueryError{start, "unterminated string"}
			}
			if !utf8.ValidString(sb.String()) {
				return nil, &QueryError{start, "string is not valid UTF-8"}
			}
			out = append(out, token{tString, sb.String(), start})
		case c == '=':
			out = append(out, token{tOp, "=", i})
			i++
		case c == '!' && i+1 < len(q) && q[i+1] == '=':
			out = append(out, token{tOp, "!=", i})
			i += 2
		case c == '<' || c == '>':
			if i+1 < len(q) && q[i+1] == '=' {
				out = append(out, token{tOp, string(c) + "=", i})
				i += 2
			} else {
				out = append(out, token{tOp, string(c), i})
				i++
			}
		case isIdentByte(c):
			start := i
			for i < len(q) && isIdentByte(q[i]) {
				i++
			}
			out = append(out, token{tIdent, q[start:i], start})
		default:
			return nil, &QueryError{i, fmt.Sprintf("unexpected character %q", c)}
		}
	}
	return append(out, token{tEOF, "", len(q)}), nil
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

type parser struct {
	toks []token
	i    int
	ft   bool
}

// ParseQuery parses a files.list q string. An empty string matches every file.
func ParseQuery(q string) (*Query, error) {
	toks, err := lex(q)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	if p.peek().kind == tEOF {
		return &Query{root: nil}, nil
	}
	n, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, &QueryError{t.pos, fmt.Sprintf("unexpected %q", t.val)}
	}
	return &Query{root: n, HasFullText: p.ft}, nil
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) isKeyword(word string) bool {
	t := p.peek()
	return t.kind == tIdent && strings.EqualFold(t.val, word)
}

func (p *parser) parseOr() (node, error) {
	l, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	for p.isKeyword("or") {
		p.next()
		r, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		l = orNode{l, r}
	}
	return l, nil
}

func (p *parser) parseAnd() (node, error) {
	l, err := p.parseNot()
	if err != nil {
		return nil, err
	}
	for p.isKeyword("and") {
		p.next()
		r, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		l = andNode{l, r}
	}
	return l, nil
}

func (p *parser) parseNot() (node, error) {
	if p.isKeyword("not") {
		p.next()
		x, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		return notNode{x}, nil
	}
	return p.parsePrimary()
}

func (p *parser) parsePrimary() (node, error) {
	t := p.peek()
	switch t.kind {
	case tLParen:
		p.next()
		n, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != tRParen {
			return nil, &QueryError{c.pos, "expected )"}
		}
		return n, nil
	case tString:
		// 'value' in field
		p.next()
		if !p.isKeyword("in") {
			return nil, &QueryError{p.peek().pos, "expected 'in' after a value"}
		}
		p.next()
		f := p.next()
		if f.kind != tIdent {
			return nil, &QueryError{f.pos, "expected a field after 'in'"}
		}
		switch f.val {
		case "parents", "owners", "writers", "readers":
			return termNode{field: f.val, op: "in", str: t.val}, nil
		}
		return nil, &QueryError{f.pos, fmt.Sprintf("field %q does not support 'in'", f.val)}
	case tIdent:
		return p.parseTerm()
	}
	return nil, &QueryError{t.pos, fmt.Sprintf("unexpected %q", t.val)}
}

// fieldOps lists the operators Drive accepts per query term.
var fieldOps = map[string]string{
	"name":                       "contains = !=",
	"fullText":                   "contains",
	"mimeType":                   "contains = !=",
	"modifiedTime":               "<= < = != > >=",
	"createdTime":                "<= < = != > >=",
	"viewedByMeTime":             "<= < = != > >=",
	"trashed":                    "= !=",
	"starred":                    "= !=",
	"sharedWithMe":               "= !=",
	"hidden":                     "= !=",
	"properties":                 "has",
	"appProperties":              "has",
	"shortcutDetails.targetId":   "= !=",
	"visibility":                 "= !=",
	"parents":                    "in",
	"owners":                     "in",
	"writers":                    "in",
	"readers":                    "in",
	"memberCount":                "<= < = != > >=",
	"organizerCount":             "<= < = != > >=",
	"description":                "contains = !=",
	"folderColorRgb":             "= !=",
	"modifiedByMeTime":           "<= < = != > >=",
	"sharedWithMeTime":           "<= < = != > >=",
	"labels":                     "has",
	"shortcutDetails.targetMime": "= !=",
}

var boolFields = map[string]bool{"trashed": true, "starred": true, "sharedWithMe": true, "hidden": true}
var timeFields = map[string]bool{"modifiedTime": true, "createdTime": true, "viewedByMeTime": true, "modifiedByMeTime": true, "sharedWithMeTime": true}

func (p *parser) parseTerm() (node, error) {
	ft := p.next()
	ops, ok := fieldOps[ft.val]
	if !ok {
		return nil, &QueryError{ft.pos, fmt.Sprintf("unknown field %q", ft.val)}
	}
	var op string
	switch t := p.next(); {
	case t.kind == tOp:
		op = t.val
	case t.kind == tIdent && (strings.EqualFold(t.val, "contains") || strings.EqualFold(t.val, "has")):
		op = strings.ToLower(t.val)
	default:
		return nil, &QueryError{t.pos, fmt.Sprintf("expected an operator after %q", ft.val)}
	}
	if !strings.Contains(" "+ops+" ", " "+op+" ") {
		return nil, &QueryError{ft.pos, fmt.Sprintf("operator %q is not supported for %q", op, ft.val)}
	}
	n := termNode{field: ft.val, op: op}
	if op == "has" {
		return p.parseHas(n)
	}
	v := p.next()
	switch {
	case boolFields[ft.val]:
		if v.kind != tIdent || (v.val != "true" && v.val != "false") {
			return nil, &QueryError{v.pos, fmt.Sprintf("%q needs true or false", ft.val)}
		}
		n.b = v.val == "true"
	case ft.val == "memberCount" || ft.val == "organizerCount":
		if v.kind != tIdent {
			return nil, &QueryError{v.pos, "expected a number"}
		}
		n.str = v.val
	default:
		if v.kind != tString {
			return nil, &QueryError{v.pos, fmt.Sprintf("%q needs a quoted value", ft.val)}
		}
		n.str = v.val
	}
	if timeFields[ft.val] {
		t, err := parseQueryTime(n.str)
		if err != nil {
			return nil, &QueryError{v.pos, err.Error()}
		}
		n.t = t
	}
	if ft.val == "fullText" {
		p.ft = true
		q, err := parseFullText(n.str)
		if err != nil {
			return nil, &QueryError{v.pos, err.Error()}
		}
		n.toks = q
	}
	return n, nil
}

// parseHas parses `{ key='k' and value='v' }` after `properties has`.
func (p *parser) parseHas(n termNode) (node, error) {
	if t := p.next(); t.kind != tLBrace {
		return nil, &QueryError{t.pos, "expected {"}
	}
	for i, want := range []string{"key", "value"} {
		if i == 1 {
			if !p.isKeyword("and") {
				return nil, &QueryError{p.peek().pos, "expected and"}
			}
			p.next()
		}
		k := p.next()
		if k.kind != tIdent || k.val != want {
			return nil, &QueryError{k.pos, "expected " + want}
		}
		if o := p.next(); o.kind != tOp || o.val != "=" {
			return nil, &QueryError{o.pos, "expected ="}
		}
		v := p.next()
		if v.kind != tString {
			return nil, &QueryError{v.pos, "expected a quoted value"}
		}
		n.kv[i] = v.val
	}
	if t := p.next(); t.kind != tRBrace {
		return nil, &QueryError{t.pos, "expected }"}
	}
	return n, nil
}

// parseQueryTime accepts RFC 3339 with or without a zone (UTC by default, as
// Drive documents) and with optional fractional seconds.
func parseQueryTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not an RFC 3339 date-time", s)
}

func (n termNode) eval(c *evalCtx, f *File) bool {
	switch n.field {
	case "name":
		return matchString(n.op, f.Name, n.str, nameContains)
	case "description":
		return matchString(n.op, f.Description, n.str, func(h, v string) bool {
			return strings.Contains(strings.ToLower(h), strings.ToLower(v))
		})
	case "mimeType":
		return matchString(n.op, f.MimeType, n.str, strings.Contains)
	case "fullText":
		return n.toks.match(c.e.searchTokens(f))
	case "modifiedTime", "modifiedByMeTime":
		return cmpTime(n.op, f.ModifiedTime, n.t)
	case "createdTime":
		return cmpTime(n.op, f.CreatedTime, n.t)
	case "viewedByMeTime", "sharedWithMeTime":
		return false // never viewed / shared in the emulator
	case "trashed":
		return (c.e.trashedLocked(f) == n.b) == (n.op == "=")
	case "starred":
		return (f.Starred == n.b) == (n.op == "=")
	case "sharedWithMe", "hidden":
		return !n.b == (n.op == "=")
	case "parents":
		return containsStr(f.Parents, c.e.resolveLocked(n.str))
	case "owners", "writers", "readers":
		// The user owns every My Drive item; Shared drive items have no owner.
		return (n.str == "me" || n.str == c.e.user.EmailAddress) && (n.field != "owners" || f.DriveID == "")
	case "properties":
		v, ok := f.Properties[n.kv[0]]
		return ok && v == n.kv[1]
	case "appProperties":
		v, ok := f.AppProperties[n.kv[0]]
		return ok && v == n.kv[1]
	case "shortcutDetails.targetId":
		return (f.ShortcutTargetID == n.str) == (n.op == "=")
	case "shortcutDetails.targetMime":
		t, ok := c.e.files[f.ShortcutTargetID]
		return (ok && t.MimeType == n.str) == (n.op == "=")
	}
	return false
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func matchString(op, have, want string, contains func(h, v string) bool) bool {
	switch op {
	case "=":
		return have == want
	case "!=":
		return have != want
	case "contains":
		return contains(have, want)
	}
	return false
}

func cmpTime(op string, have, want time.Time) bool {
	c := have.Compare(want)
	switch op {
	case "=":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return false
}

// nameContains is Drive's `name contains`: a case-insensitive prefix match
// that must start at the beginning of a word of the name ('Hello' matches
// "HelloWorld" and "Say Hello", 'World' matches neither "HelloWorld" nor
// "Helloworld"). A word starts where [Tokens] starts a token, so inside a
// kanji compound nothing starts a word.
func nameContains(name, value string) bool {
	if value == "" {
		return true
	}
	n := []rune(normalize(name))
	v := []rune(normalize(value))
	for i := range n {
		if i > 0 && runeClass(n[i]) != classNone && runeClass(n[i-1]) == runeClass(n[i]) {
			continue // inside a word
		}
		if len(n)-i >= len(v) && string(n[i:i+len(v)]) == string(v) {
			return true
		}
	}
	return false
}
