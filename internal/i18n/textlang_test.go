package i18n

import "testing"

func TestOfText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"When did Levi's Stadium open?", En},
		{"How many people live in Warsaw?", En},
		{"梅雨明けの別名は？", Ja},
		{"ノルマン人はどこの出身ですか？", Ja},
		{"東京タワーの高さ", Ja},
		// mixed: the grammar decides
		{"Google Driveの使い方は？", Ja},
		{"gdsで PDF を検索する方法", Ja},
		{"What is 梅雨?", En},
		{"What does the word 梅雨 mean in Japanese?", En},
		{"Who wrote 源氏物語?", ""},
		{"What does おはよう mean?", ""},
		{"会議 notes", ""},
		// short
		{"Tokyo", ""},
		{"東京", ""},
		{"Tokyo Tower", En},
		{"東京タワー", Ja},
		{"ｶﾀｶﾅ", Ja},
		{"ＡＢＣ ＤＥＦ", En},
		// nothing to weigh
		{"", ""},
		{"2024-05-01 ???", ""},
		{"서울은 어디에 있나요?", ""},
	} {
		if got := OfText(c.in); got != c.want {
			t.Errorf("OfText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestForText(t *testing.T) {
	for _, c := range []struct{ in, fallback, want string }{
		{"梅雨明けの別名は？", En, Ja},
		{"How many people live in Warsaw?", Ja, En},
		{"Who wrote 源氏物語?", "ja_JP.UTF-8", Ja},
		{"Who wrote 源氏物語?", "en_US.UTF-8", En},
		{"Tokyo", Ja, Ja},
		{"東京", "", En},
		{"東京", "JA", Ja},
	} {
		if got := ForText(c.in, c.fallback); got != c.want {
			t.Errorf("ForText(%q, %q) = %q, want %q", c.in, c.fallback, got, c.want)
		}
	}
}
