package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// segKind is the script of a segment.
type segKind int

const (
	segLatin segKind = iota // Latin letters and digits (with inner - . _ ')
	segCJK                  // kanji, katakana and digits, plus listed okurigana words
)

// segment is one run of content characters of a query or a text.
type segment struct {
	text  string
	kind  segKind
	start int  // byte offset in the segmented string
	next  rune // the rune right after the segment (0 at the end)
	first bool // first segment of the string
}

type RuneClass int

const (
	ClassSep RuneClass = iota
	ClassHiragana
	ClassKatakana
	ClassKanji
	ClassLatin
	ClassDigit
)

func ClassOf(r rune) RuneClass {
	switch {
	case r == 'ー' || r == 'ヶ' || r == 'ヵ' || r == '・' || unicode.Is(unicode.Katakana, r):
		return ClassKatakana
	case unicode.Is(unicode.Hiragana, r):
		return ClassHiragana
	case unicode.Is(unicode.Han, r) || r == '々' || r == '〆':
		return ClassKanji
	case r < 0x250 && unicode.IsLetter(r):
		return ClassLatin
	case unicode.IsDigit(r):
		return ClassDigit
	}
	return ClassSep
}

// okurigana lists common nouns written with hiragana inside; the segmenter
// keeps them whole instead of splitting at their hiragana.
var okurigana = []string{
	"打ち合わせ", "打合わせ", "問い合わせ", "問合わせ", "見積もり", "見積り", "申し込み", "申込み", "取り組み",
	"振り返り", "引き継ぎ", "売り上げ", "売上げ", "お知らせ", "お問い合わせ", "まとめ", "手続き", "受け入れ",
	"立ち上げ", "割り当て", "組み込み", "切り替え", "払い戻し", "取り扱い", "貸し出し", "借り入れ", "締め切り",
	"見直し", "話し合い", "届け出", "支払い", "読み込み", "書き込み", "申し送り", "取り決め", "落とし込み",
	"ひな形", "ひな型", "たたき台", "お客様", "お客さま", "振込み", "引き落とし", "申し送り",
}

// segmentText splits s into content segments: maximal runs of kanji,
// katakana and digits (CJK) or of Latin letters and digits, split at
// hiragana, spaces, punctuation and script changes between Latin and CJK.
// Digits join the run they touch. Words listed in okurigana stay whole.
func segmentText(s string) []segment {
	keep := make([]bool, len(s)) // bytes inside an okurigana word
	for _, w := range okurigana {
		for off := 0; ; {
			i := strings.Index(s[off:], w)
			if i < 0 {
				break
			}
			for k := off + i; k < off+i+len(w); k++ {
				keep[k] = true
			}
			off += i + len(w)
		}
	}
	var rs []segRune
	for off, r := range s {
		c := ClassOf(r)
		if keep[off] {
			c = ClassKanji
		}
		rs = append(rs, segRune{r, off, c})
	}
	var segs []segment
	flush := func(i, j int, kind segKind) {
		if i >= j {
			return
		}
		text := s[rs[i].off:endOff(s, rs, j)]
		if kind == segLatin {
			text = strings.Trim(text, "-._'")
			if strings.HasSuffix(strings.ToLower(text), "'s") {
				text = text[:len(text)-2]
			}
		} else {
			text = strings.Trim(text, "・")
		}
		if text == "" {
			return
		}
		var next rune
		if j < len(rs) {
			next = rs[j].r
		}
		segs = append(segs, segment{text: text, kind: kind, start: rs[i].off, next: next, first: len(segs) == 0})
	}
	for i := 0; i < len(rs); {
		c := rs[i].c
		switch {
		case c == ClassLatin || c == ClassDigit:
			j := i
			hasLetter := false
			for j < len(rs) {
				cj := rs[j].c
				if cj == ClassLatin {
					hasLetter = true
				} else if cj != ClassDigit && !(isInnerLatin(rs[j].r) && j+1 < len(rs) && (rs[j+1].c == ClassLatin || rs[j+1].c == ClassDigit)) {
					break
				}
				j++
			}
			// Digits followed directly by CJK join the CJK run (第3期, 3号機).
			if !hasLetter && j < len(rs) && (rs[j].c == ClassKanji || rs[j].c == ClassKatakana) {
				k := j
				for k < len(rs) && (rs[k].c == ClassKanji || rs[k].c == ClassKatakana || rs[k].c == ClassDigit) {
					k++
				}
				flush(i, k, segCJK)
				i = k
				continue
			}
			flush(i, j, segLatin)
			i = j
		case c == ClassKanji || c == ClassKatakana:
			j := i
			for j < len(rs) && (rs[j].c == ClassKanji || rs[j].c == ClassKatakana || rs[j].c == ClassDigit) {
				j++
			}
			flush(i, j, segCJK)
			i = j
		default:
			i++
		}
	}
	return segs
}

type segRune struct {
	r   rune
	off int
	c   RuneClass
}

func endOff(s string, rs []segRune, j int) int {
	if j < len(rs) {
		return rs[j].off
	}
	return len(s)
}

func isInnerLatin(r rune) bool { return r == '-' || r == '.' || r == '_' || r == '\'' || r == '’' }

func IsAllClass(s string, cls RuneClass) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if ClassOf(r) != cls {
			return false
		}
	}
	return true
}

func RuneLen(s string) int { return utf8.RuneCountInString(s) }

// particles are hiragana that, right after a one-kanji segment, mark it as
// a noun (株の, 表を) rather than a verb stem (探して, 見せて).
const particles = "のはがをにでとへやもか"

// Word is one content segment of a text (see segmentText).
type Word struct {
	Text  string
	Latin bool // Latin letters and digits; otherwise kanji, katakana and digits
}

// Words splits s into its content segments, in order.
func Words(s string) []Word {
	segs := segmentText(s)
	out := make([]Word, len(segs))
	for i, sg := range segs {
		out[i] = Word{Text: sg.text, Latin: sg.kind == segLatin}
	}
	return out
}
