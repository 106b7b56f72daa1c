package driveemu

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestParseQueryRejectsMalformed(t *testing.T) {
	for _, q := range []string{
		"name",
		"name contains",
		"name contains 'x",
		"name contains 'a\\b'", // only \' and \\ are escapes
		"name ~ 'x'",
		"name > 'x'",     // name has no ordering operators
		"fullText = 'x'", // fullText only supports contains
		"modifiedTime > 'yesterday'",
		"trashed = 'false'", // booleans are bare
		"trashed = maybe",
		"'x' in name", // in only for parents/owners/...
		"'x' parents",
		"(name = 'x'",
		"name = 'x')",
		"name = 'x' and",
		"name = 'x' or or name = 'y'",
		"not",
		"colour = 'red'",
		"name = 'x' name = 'y'",
		"properties has { key='a' value='b' }",
		"fullText contains '\"open phrase'",
		"name = \"double\"",
	} {
		_, err := ParseQuery(q)
		var qe *QueryError
		if !errors.As(err, &qe) {
			t.Errorf("ParseQuery(%q) = %v, want a *QueryError", q, err)
		}
	}
}

func TestParseQueryAcceptsDriveExamples(t *testing.T) {
	valid := []string{
		"",
		"name = 'hello'",
		"name contains 'hello' and not name contains 'goodbye'",
		"fullText contains '\"hello world\"'",
		"mimeType = 'application/vnd.google-apps.folder'",
		"modifiedTime > '2012-06-04T12:00:00'",
		"modifiedTime > '2012-06-04T12:00:00-08:00'",
		"modifiedTime >= '2026-01-01T00:00:00.123Z' and createdTime < '2027-01-01T00:00:00Z'",
		"'root' in parents and trashed = false",
		"starred = true and trashed != true",
		"properties has { key='department' and value='finance' }",
		"appProperties has { key='additionalID' and value='8e8aceg2af2ge72e78' }",
		"('a' in parents or 'b' in parents) and (mimeType != 'application/vnd.google-apps.folder') and trashed = false",
		"name contains 'quinn\\'s paper\\\\essay'",
		"'me' in owners",
		"not not trashed = true",
		"name = 'x' AND trashed = false OR starred = true",
	}
	for _, q := range valid {
		if _, err := ParseQuery(q); err != nil {
			t.Errorf("ParseQuery(%q): %v", q, err)
		}
	}
}

func TestPrecedenceAndOverOr(t *testing.T) {
	e := New()
	a := e.AddFile(File{Name: "a", Starred: true})
	e.AddFile(File{Name: "b", Trashed: true})
	c := e.AddFile(File{Name: "c", Starred: true, Trashed: true})
	// or binds looser than and: (name='a') or (starred and trashed)
	got := evalIDs(t, e, "name = 'a' or starred = true and trashed = true")
	if fmt.Sprint(got) != fmt.Sprint([]string{a, c}) {
		t.Fatalf("got %v, want [%s %s]", got, a, c)
	}
	// not binds tighter than and
	got = evalIDs(t, e, "not trashed = true and starred = true")
	if fmt.Sprint(got) != fmt.Sprint([]string{a}) {
		t.Fatalf("got %v, want [%s]", got, a)
	}
}

func evalIDs(t *testing.T, e *Emulator, q string) []string {
	t.Helper()
	pq, err := ParseQuery(q)
	if err != nil {
		t.Fatalf("ParseQuery(%q): %v", q, err)
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	var out []string
	for _, id := range e.order {
		if pq.root == nil || pq.root.eval(&evalCtx{e: e}, e.files[id]) {
			out = append(out, id)
		}
	}
	return out
}

func TestTokens(t *testing.T) {
	cases := map[string][]string{
		"Hello, World!":        {"hello", "world"},
		"Ｑ３ Roadmap":           {"q3", "roadmap"},
		"東京都の天気":               {"東京都", "の", "天気"},
		"データ分析レポート2026":        {"データ", "分析", "レポート", "2026"},
		"quinn's paper\\essay": {"quinn", "s", "paper", "essay"},
		"hello_world e-mail":   {"hello", "world", "e", "mail"},
		"":                     nil,
		"  ... ":               nil,
		"café Über":            {"café", "über"},
	}
	for in, want := range cases {
		if got := Tokens(in); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Tokens(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFullTextSemantics(t *testing.T) {
	doc := newDocTokens("The Quarterly budget review for 東京都 and データ分析, held in Osaka.")
	cases := []struct {
		q    string
		want bool
	}{
		{"budget", true},
		{"BUDGET", true},
		{"budg", false},            // whole tokens only
		{"review budget", true},    // all words, any order
		{"budget missing", false},  // every word required
		{`"budget review"`, true},  // exact phrase
		{`"review budget"`, false}, // phrase order matters
		{`"quarterly budget" osaka`, true},
		{"東京都", true},
		{"東京", false}, // substring of a kanji run is not a token
		{"データ", true},
		{"分析", true},
		{"", false},
	}
	for _, c := range cases {
		q, err := parseFullText(c.q)
		if err != nil {
			t.Fatalf("parseFullText(%q): %v", c.q, err)
		}
		if got := q.match(doc); got != c.want {
			t.Errorf("fullText contains %q = %v, want %v", c.q, got, c.want)
		}
	}
}

func TestNameContainsIsWordPrefix(t *testing.T) {
	cases := []struct {
		name, v string
		want    bool
	}{
		{"HelloWorld", "Hello", true},
		{"HelloWorld", "World", false},
		{"Say Hello", "hello", true},
		{"Say Hello", "ello", false},
		{"Q3 roadmap.pdf", "road", true},
		{"Q3 roadmap.pdf", "q3 road", true},
		{"Q3 roadmap.pdf", "pdf", true},
		{"report(draft).txt", "(draft", true},
		{"2026年度 事業計画", "事業", true},
		{"2026年度 事業計画", "計画", false}, // inside a kanji run
		{"2026年度 事業計画", "年度", true},  // the script changes after the digits
		{"anything", "", true},
	}
	for _, c := range cases {
		if got := nameContains(c.name, c.v); got != c.want {
			t.Errorf("nameContains(%q, %q) = %v, want %v", c.name, c.v, got, c.want)
		}
	}
}

func TestTimeTermsCompareAtMilliseconds(t *testing.T) {
	e := New()
	ts := time.Date(2026, 3, 1, 12, 0, 0, 500_400_000, time.UTC) // .5004 s, kept as .500
	id := e.AddFile(File{Name: "x", ModifiedTime: ts})
	if got := evalIDs(t, e, "modifiedTime > '2026-03-01T12:00:00.500Z'"); len(got) != 0 {
		t.Errorf("> the same millisecond matched %v", got)
	}
	if got := evalIDs(t, e, "modifiedTime = '2026-03-01T12:00:00.500Z'"); fmt.Sprint(got) != fmt.Sprint([]string{id}) {
		t.Errorf("= the stored millisecond: %v", got)
	}
	if got := evalIDs(t, e, "modifiedTime > '2026-03-01T21:00:00+09:00'"); len(got) != 1 {
		t.Errorf("zone offsets: %v", got)
	}
	if got := evalIDs(t, e, "modifiedTime < '2026-03-01T12:00:00'"); len(got) != 0 {
		t.Errorf("no zone means UTC: %v", got)
	}
}

func TestEscapeRoundTrips(t *testing.T) {
	for _, s := range []string{"", "plain", "quinn's paper\\essay", `\'`, `''\\`, "日本語 'x'", "a\\"} {
		assertRoundTrip(t, s)
	}
}

func assertRoundTrip(t *testing.T, s string) {
	t.Helper()
	q, err := ParseQuery("name = '" + Escape(s) + "'")
	if err != nil {
		t.Fatalf("escaped %q does not parse: %v", s, err)
	}
	if got := q.root.(termNode).str; got != s {
		t.Fatalf("round trip of %q gave %q", s, got)
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"name contains 'x' and trashed = false",
		"('a' in parents or 'b' in parents) and not mimeType = 'x'",
		"fullText contains '\"a b\" c'",
		"modifiedTime > '2026-01-01T00:00:00Z'",
		"properties has { key='k' and value='v' }",
		"name = 'quinn\\'s'",
		"((((", "'", "\\", "東京 'x'",
	} {
		f.Add(s)
	}
	e := DefaultFixture().Emu
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuery(s) // must not panic
		if err == nil && q.root != nil {
			e.mu.RLock()
			for _, id := range e.order {
				q.root.eval(&evalCtx{e: e}, e.files[id])
			}
			e.mu.RUnlock()
		}
		if utf8.ValidString(s) {
			assertRoundTrip(t, s)
			// A user value inside fullText must parse too (quotes inside
			// are phrase marks and may be unbalanced: that is a QueryError,
			// never a panic).
			_, _ = ParseQuery("fullText contains '" + Escape(s) + "' and trashed = false")
		}
		if err == nil && strings.TrimSpace(s) != "" && q.root == nil {
			t.Fatalf("non-empty query %q parsed to nothing", s)
		}
	})
}
