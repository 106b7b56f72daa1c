package termsafe

import (
	"testing"
	"unicode/utf8"
)

// safe: valid UTF-8 without C0, DEL, C1 or bidi controls.
func safe(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || unsafeRune(r) {
			return false
		}
	}
	return true
}

func TestString(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"report.pdf", "report.pdf"},
		{"議事録 第45回.docx", "議事録 第45回.docx"},
		{"naïve café — ✓ 😀", "naïve café — ✓ 😀"},
		{"evil\x1b]0;PWNED\x07\x1b[31mred.txt", `evil\e]0;PWNED\x07\e[31mred.txt`},
		{"a\rb\nc\td", `a\rb\nc\td`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"raw \x9b31m byte", `raw \x9b31m byte`},
		{"cut \xe3\x81", `cut \xe3\x81`},
		{"invoice\u202etxt.exe", `invoice\u202etxt.exe`},
		{"\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069", `\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069`},
		{"osc52 \x1b]52;c;ZXZpbA==\x07", `osc52 \e]52;c;ZXZpbA==\x07`},
		{`back\slash`, `back\slash`},
	}
	for _, c := range cases {
		got := String(c.in)
		if got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
		if !safe(got) {
			t.Errorf("String(%q) = %q keeps a control character", c.in, got)
		}
	}
}

func TestTextKeepsLines(t *testing.T) {
	in := "line one\n\tline two\x1b[2J\r\nend\u202e"
	want := "line one\n\tline two\\e[2J\\r\nend\\u202e"
	if got := Text(in); got != want {
		t.Errorf("Text(%q) = %q, want %q", in, got, want)
	}
}

func FuzzString(f *testing.F) {
	f.Add("evil\x1b]0;x\x07")
	f.Add("\xff\u202e\u009b")
	f.Fuzz(func(t *testing.T, s string) {
		if got := String(s); !safe(got) {
			t.Fatalf("String(%q) = %q keeps a control character", s, got)
		}
	})
}
