package drive

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestQueryBuilder(t *testing.T) {
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	jst := time.FixedZone("JST", 9*3600)
	tests := []struct {
		name string
		q    Query
		want string
	}{
		{"empty", Query{}, ""},
		{"name", NameContains("report"), `name contains 'report'`},
		{"apostrophe", NameContains("quinn's paper"), `name contains 'quinn\'s paper'`},
		{"backslash", NameContains(`a\b`), `name contains 'a\\b'`},
		{"both", NameContains(`quinn's paper\essay`), `name contains 'quinn\'s paper\\essay'`},
		{"injection attempt", NameContains(`x' or name contains 'y`), `name contains 'x\' or name contains \'y'`},
		{"trailing backslash", NameContains(`x\`), `name contains 'x\\'`},
		{"japanese", NameContains("議事録"), `name contains '議事録'`},
		{"fulltext word", FullTextContains("roadmap"), `fullText contains 'roadmap'`},
		{"fulltext phrase", FullTextContains("two  words "), `fullText contains '"two words"'`},
		{"fulltext quotes dropped", FullTextContains(`say "hi"`), `fullText contains '"say hi"'`},
		{"fulltext only quotes", FullTextContains(` "" `), ``},
		{"fulltext apostrophe", FullTextContains("Quinn's"), `fullText contains 'Quinn\'s'`},
		{"in parents", InParents("a1"), `'a1' in parents`},
		{"in parents several", InParents("a1", "b'2"), `'a1' in parents or 'b\'2' in parents`},
		{"in parents none", InParents(), ``},
		{"not trashed", NotTrashed(), `trashed = false`},
		{"bool true", CompareBool(FieldStarred, OpEq, true), `starred = true`},
		{"modified after", ModifiedAfter(t0), `modifiedTime > '2026-03-04T05:06:07Z'`},
		{"modified after ms", ModifiedAfter(t0.Add(1500 * time.Microsecond)), `modifiedTime > '2026-03-04T05:06:07.001Z'`},
		{"time zone to UTC", ModifiedBefore(time.Date(2026, 3, 4, 9, 0, 0, 0, jst)), `modifiedTime < '2026-03-04T00:00:00Z'`},
		{"mime in", MimeTypeIn("application/pdf", "text/plain"), `mimeType = 'application/pdf' or mimeType = 'text/plain'`},
		{"is folder", IsFolder(), `mimeType = 'application/vnd.google-apps.folder'`},
		{"and of or", And(InParents("a", "b"), NotTrashed()), `('a' in parents or 'b' in parents) and trashed = false`},
		{"and drops empty", And(Query{}, NotTrashed(), InParents()), `trashed = false`},
		{"single compound kept whole", And(Query{}, Or(IsFolder(), NotTrashed())), `mimeType = 'application/vnd.google-apps.folder' or trashed = false`},
		{"not term", Not(IsFolder()), `not mimeType = 'application/vnd.google-apps.folder'`},
		{"not compound", Not(MimeTypeIn("a", "b")), `not (mimeType = 'a' or mimeType = 'b')`},
		{"not empty", Not(Query{}), ``},
		{"nested", Or(And(NameContains("a"), Not(NameContains("b"))), FullTextContains("c d")),
			`(name contains 'a' and (not name contains 'b')) or fullText contains '"c d"'`},
		{"crawl shape", And(InParents("f1", "f2"), NotTrashed(), Or(IsFolder(), ModifiedAfter(t0))),
			`('f1' in parents or 'f2' in parents) and trashed = false and (mimeType = 'application/vnd.google-apps.folder' or modifiedTime > '2026-03-04T05:06:07Z')`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.q.String(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if _, err := tokenize(tt.q.String()); err != nil {
				t.Errorf("output does not tokenize: %v", err)
			}
		})
	}
}

// token is one lexical token of Drive's query language.
type token struct {
	kind string // "str", "word", "op", "(", ")"
	text string // the unescaped value for "str"
}

// tokenize is an independent lexer of the query language, used to prove
// what the builder emits.
func tokenize(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			i++
		case c == '(' || c == ')':
			out = append(out, token{kind: string(c)})
			i++
		case c == '\'':
			var b strings.Builder
			i++
			closed := false
			for i < len(s) {
				switch s[i] {
				case '\\':
					if i+1 >= len(s) {
						return nil, fmt.Errorf("dangling escape at %d", i)
					}
					if s[i+1] != '\\' && s[i+1] != '\'' {
						return nil, fmt.Errorf("unknown escape \\%c at %d", s[i+1], i)
					}
					b.WriteByte(s[i+1])
					i += 2
					continue
				case '\'':
					closed = true
					i++
				default:
					b.WriteByte(s[i])
					i++
					continue
				}
				break
			}
			if !closed {
				return nil, fmt.Errorf("unterminated string")
			}
			out = append(out, token{kind: "str", text: b.String()})
		case strings.ContainsRune("=!<>", rune(c)):
			j := i + 1
			if j < len(s) && s[j] == '=' {
				j++
			}
			out = append(out, token{kind: "op", text: s[i:j]})
			i = j
		default:
			j := i
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
				j++
			}
			if j == i {
				return nil, fmt.Errorf("unexpected %q at %d", c, i)
			}
			out = append(out, token{kind: "word", text: s[i:j]})
			i = j
		}
	}
	return out, nil
}

// FuzzQueryQuoting proves that no value can break out of its quotes: every
// built query tokenizes to exactly the expected structure, and the string
// tokens carry the values unchanged.
func FuzzQueryQuoting(f *testing.F) {
	for _, s := range []string{"", "a", "'", `\`, `\'`, `'\`, `x' or name contains 'y`, `a\\'b`, "議事録's", "two words", `"q"`, "(", ") or (", "\x00", "\n"} {
		f.Add(s, "second")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			return // Go strings from user input are UTF-8 by the time they reach a query
		}
		q := And(InParents(a, b), NotTrashed(), Not(NameContains(a)), Or(MimeTypeIn(b), Compare(FieldName, OpEq, a)))
		toks, err := tokenize(q.String())
		if err != nil {
			t.Fatalf("%q: %v", q.String(), err)
		}
		want := []token{
			{kind: "("}, {"str", a}, {"word", "in"}, {"word", "parents"}, {"word", "or"}, {"str", b}, {"word", "in"}, {"word", "parents"}, {kind: ")"},
			{"word", "and"}, {"word", "trashed"}, {"op", "="}, {"word", "false"},
			{"word", "and"}, {kind: "("}, {"word", "not"}, {"word", "name"}, {"word", "contains"}, {"str", a}, {kind: ")"},
			{"word", "and"}, {kind: "("}, {"word", "mimeType"}, {"op", "="}, {"str", b}, {"word", "or"}, {"word", "name"}, {"op", "="}, {"str", a}, {kind: ")"},
		}
		if fmt.Sprint(toks) != fmt.Sprint(want) {
			t.Fatalf("%q\n got %v\nwant %v", q.String(), toks, want)
		}
		// A full-text term stays one string token whatever it holds.
		ft := FullTextContains(a)
		if ft.IsZero() {
			if len(strings.Fields(strings.ReplaceAll(a, `"`, " "))) > 0 {
				t.Fatalf("non-empty term %q gave an empty query", a)
			}
			return
		}
		toks, err = tokenize(ft.String())
		if err != nil || len(toks) != 3 || toks[0].text != "fullText" || toks[1].text != "contains" || toks[2].kind != "str" {
			t.Fatalf("%q: %v %v", ft.String(), toks, err)
		}
	})
}
