package textwidth

import "testing"

func TestString(t *testing.T) {
	for s, want := range map[string]int{
		"":            0,
		"index":       5,
		"索引の状態":       10,
		"設定、認証":       10, // the ideographic comma is wide
		"ＡＢ":          4,  // fullwidth Latin
		"ｶﾀｶﾅ":        4,  // halfwidth katakana
		"e\u0301":     1,  // a combining accent takes no column
		"…○":          2,  // ambiguous width counts one, whatever the locale
		"Drive 接続 ok": 13,
	} {
		if got := String(s); got != want {
			t.Errorf("String(%q) = %d, want %d", s, got, want)
		}
	}
	if Rune('漢') != 2 || Rune('a') != 1 {
		t.Errorf("Rune: 漢 %d, a %d", Rune('漢'), Rune('a'))
	}
}

func TestPadRightAligns(t *testing.T) {
	for _, s := range []string{"索引", "ok", "設定ファイル"} {
		p := PadRight(s, 12)
		if String(p) != 12 {
			t.Errorf("PadRight(%q, 12) = %q, %d columns", s, p, String(p))
		}
	}
	if got := PadRight("設定ファイル", 4); got != "設定ファイル" {
		t.Errorf("PadRight of a wider string = %q, want it unchanged", got)
	}
}
