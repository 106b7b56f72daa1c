package i18n

import (
	"strings"
	"unicode"
)

// OfText returns the language a text is clearly written in, Ja or En, or
// "" when it is not clear. It weighs the text's letters by script, so
// that a Japanese sentence naming an English product and an English one
// quoting a Japanese term each count as their own language:
//
//   - a run of Latin letters (a word) weighs 1 for English;
//   - a hiragana weighs 1 for Japanese (particles and endings: the
//     grammar of a Japanese sentence);
//   - a kanji or katakana weighs ½ for Japanese (a word of them is
//     about two characters long).
//
// A language is clear when it weighs at least twice the other and at
// least 2 in all: "Google Driveの使い方は？" is Japanese (4 against 2),
// "What is 梅雨?" English (2 against 1), "Who wrote 源氏物語?" and a lone
// word ("Tokyo", "東京") are not clear. Digits, punctuation and other
// scripts weigh nothing. Pure.
func OfText(s string) string {
	var en, ja float64
	inWord := false
	for _, r := range s {
		latin := unicode.Is(unicode.Latin, r)
		switch {
		case latin:
			if !inWord {
				en++
			}
		case unicode.Is(unicode.Hiragana, r):
			ja++
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Katakana, r) || r == 'ー':
			ja += 0.5
		}
		inWord = latin
	}
	switch {
	case en+ja < 2:
		return ""
	case ja >= 2*en:
		return Ja
	case en >= 2*ja:
		return En
	}
	return ""
}

// ForText is the language to answer a text in: the language it is clearly
// written in (OfText), else the interface language fallback (Ja when it
// starts with "ja", else En).
func ForText(s, fallback string) string {
	if l := OfText(s); l != "" {
		return l
	}
	if strings.HasPrefix(strings.ToLower(fallback), Ja) {
		return Ja
	}
	return En
}
