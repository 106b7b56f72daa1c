package envfile

import (
	"bytes"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joho/godotenv"
)

// envCases are .env texts in every form the grammar has, well and badly
// formed; TestParseMatchesGodotenv and FuzzParse hold Parse to godotenv
// v1.5.1 on them.
var envCases = []string{
	"", "\n\n", "A=1", "A=1\n", "A=1\r\nB=2\r\n", "A = 1 \n", "  A=1", "export A=1", "export  A=1\nexport B=2",
	"exportA=1", "export", "export ", "export\n", "A: 1\nB:2", "A=1 # comment", "A=1#not", "A=1 #a #b",
	"# comment\nA=1", "#c1\n#c2\n\n  # c3\nA=1\n#end", "A='single $B'", `A="double\nline\\x"`, "A=\"x\ny\"\nB=2",
	"A='x\ny'", `A="a\"b"`, `A="a\\"`, `A="x" B="y"`, `A="x"junk`, "A=\"x\" # c\nB=1", "A=1\nB=$A\nC=${A}x\nD=\\$A",
	`A=1` + "\n" + `B="$A ${A} \$A $(A) $a"`, "A=\"\"", "A=''", "A=", "A=\nB=2", "A=\"\"\"", `A="'"`, `A='"'`,
	"KEY.WITH.DOTS=1", "A B=1", "Äö=1", "キー=1", "A\x85B=1", "A\xa0=1", "A=\x00\x01", "A=caf\xe9", "A=\"caf\xe9\"",
	"A=1\rB=2", "A=1\r", "A=\"unterminated", "A='unterminated\nB=2", "bad line", "bad-key=1", "A=1\nbad\nB=2",
	"A=1\n-B=2", "\x00", "\xff\xfe", "A=1\n\u3000B=2", "A=1\n\u3000", "lastline", "A=1\nlastline", "=1", ":x",
	"A=${B}\nB=1", "A=$", "A=${}", "A=$$", "A=\\", "A=\"\\\"", "A='\\'", "A=\t\tv\t\t", "A=v\t#c",
}

func TestParseMatchesGodotenv(t *testing.T) {
	for _, in := range envCases {
		compareWithGodotenv(t, []byte(in))
	}
}

func FuzzParse(f *testing.F) {
	for _, in := range envCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareWithGodotenv(t, data)
	})
}

// compareWithGodotenv checks that Parse and godotenv agree on data: the
// same values, or both fail.
func compareWithGodotenv(t *testing.T, data []byte) {
	t.Helper()
	got, err := Parse(data)
	var pe *ParseError
	if err != nil && !errors.As(err, &pe) {
		t.Fatalf("%q: error %v is not a *ParseError", data, err)
	}
	if pe != nil && pe.Problem == Expansion {
		return // godotenv has no limit
	}
	want, werr := godotenv.UnmarshalBytes(data)
	switch {
	case (err == nil) != (werr == nil):
		t.Errorf("%q: Parse err %v, godotenv err %v", data, err, werr)
	case err == nil && !maps.Equal(got, want):
		t.Errorf("%q: Parse %q, godotenv %q", data, got, want)
	}
	if pe != nil && (pe.Line < 1 || pe.Line > 1+bytes.Count(data, []byte("\n"))) {
		t.Errorf("%q: line %d out of the file", data, pe.Line)
	}
}

func TestParseErrorLine(t *testing.T) {
	cases := []struct {
		in      string
		line    int
		problem Problem
		char    string
	}{
		{"bad line\n", 1, NoAssign, ""},
		{"A=1\n\n# c\nbad\nB=2\n", 4, NoAssign, ""},
		{"A=1\r\nB=2\r\nC-D=3\r\n", 3, BadChar, `"-"`},
		{"A=1\nキー=1\n", 2, BadChar, `"キ"`},
		{"A=1\n\x9d\x01=2\n", 2, BadChar, `"\x9d"`},
		{"A=1\nB=\"x\ny\"\nC=\"open\nD=2\n", 4, Unterminated, `"\""`},
		{"A='one\ntwo'\nB='x", 3, Unterminated, `"'"`},
		{"A=\"x\"junk\n", 1, NoAssign, ""},
		{"A=1\nexport   ", 2, NoName, ""},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%q: err %v, want a *ParseError", c.in, err)
			continue
		}
		if pe.Line != c.line || pe.Problem != c.problem || pe.Char != c.char {
			t.Errorf("%q: line %d problem %d char %s, want line %d problem %d char %s", c.in, pe.Line, pe.Problem, pe.Char, c.line, c.problem, c.char)
		}
	}
}

// A parse error names the line and the character, never a value: not the
// line's own, not a later line's.
func TestParseErrorHoldsNoValue(t *testing.T) {
	const secret = "sk-SECRET-value-123456"
	for _, in := range []string{
		"BAD-KEY=" + secret + "\nOPENAI_API_KEY=" + secret + "\n",
		"A=\"" + secret + "\nB=" + secret,
		"OPENAI_API_KEY=" + secret + "\nbad line " + secret + "\n",
	} {
		_, err := Parse([]byte(in))
		if err == nil || strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%q: err %v", in, err)
		}
	}
}

// Expansion cannot grow the values past MaxExpanded: each line doubling
// the last would reach gigabytes in 30 lines.
func TestParseBoundsExpansion(t *testing.T) {
	var b strings.Builder
	b.WriteString("A0=" + strings.Repeat("x", 1000) + "\n")
	for i := 1; i <= 40; i++ {
		b.WriteString("A" + itoa(i) + "=\"${A" + itoa(i-1) + "}${A" + itoa(i-1) + "}\"\n")
	}
	_, err := Parse([]byte(b.String()))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Problem != Expansion {
		t.Fatalf("err %v, want an Expansion error", err)
	}
	// 1000 × 2^12 > 4 MiB: line 13 (A12) is the first over.
	if pe.Line != 13 {
		t.Errorf("line %d, want 13", pe.Line)
	}
	// Many references to one large value on one line.
	big := "A=" + strings.Repeat("y", 100_000) + "\nB=\"" + strings.Repeat("$A", 100) + "\"\n"
	if _, err := Parse([]byte(big)); !errors.As(err, &pe) || pe.Problem != Expansion || pe.Line != 2 {
		t.Errorf("one-line amplification: %v", err)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestReadLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// At the limit: read.
	atLimit := append([]byte("A=1\n#"), bytes.Repeat([]byte("x"), MaxSize-6)...)
	atLimit = append(atLimit, '\n')
	if vals, err := Read(write("at", atLimit)); err != nil || vals["A"] != "1" {
		t.Errorf("a file of exactly MaxSize: %v %v", vals, err)
	}
	// One byte over, and no whole line in the first MaxSize bytes: the size.
	over := append(bytes.Repeat([]byte("\x9d"), MaxSize), '\n')
	if _, err := Read(write("over", over)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a file over MaxSize: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if _, err := Read(dir); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory: %v", err)
	}
}

// A file over MaxSize fails at its first bad line when it has one in its
// first MaxSize bytes, like a small file, and for its size otherwise.
func TestReadOverLimitNamesLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var pe *ParseError
	// 3 MB of binary: its first line.
	bin := bytes.Repeat([]byte("\x9d\x01\xfe\n"), 3<<20/4)
	if _, err := Read(write("bin", bin)); !errors.As(err, &pe) || pe.Line != 1 || pe.Problem != BadChar {
		t.Errorf("3 MB binary: %v", err)
	}
	// Good settings, then a bad line within the first MiB.
	bad := append([]byte(strings.Repeat("A=1\n", 1000)+"oops\n"), bytes.Repeat([]byte("#\n"), MaxSize)...)
	if _, err := Read(write("bad", bad)); !errors.As(err, &pe) || pe.Line != 1001 || pe.Problem != NoAssign {
		t.Errorf("bad line 1001: %v", err)
	}
	// A quote open across the limit is no evidence: the size is the error.
	open := append([]byte("A=\""), bytes.Repeat([]byte("x\n"), MaxSize)...)
	open = append(open, []byte("\"\n")...)
	if _, err := Read(write("open", open)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a long quoted value: %v", err)
	}
}
