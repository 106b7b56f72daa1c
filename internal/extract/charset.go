package extract

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	xunicode "golang.org/x/text/encoding/unicode"
)

// Charset detection for text that is not UTF-8 and declares nothing: a
// legacy Western file (Latin-1 / Windows-1252) or a Japanese one
// (Shift_JIS / CP932, EUC-JP). General detectors (ICU's, ported as
// saintfish/chardet) were measured and guess wrong on short files: a
// one-line Latin-1 name as GB-18030, a Shift_JIS title as Windows-1253,
// the real CP932 CSV of testdata as Windows-1252. These three candidates
// are told apart instead by decoding a sample with each and scoring how
// plausible the characters are where they stand:
//
//   - a Latin letter with a diacritic is plausible inside a word that has
//     ASCII letters too (Rodríguez), typographic punctuation (“ ” – …)
//     next to spaces or letters;
//   - kana, CJK punctuation and full-width forms are plausible Japanese, a
//     kanji too unless it sits between two ASCII letters (Rodr刕uez is a
//     Latin-1 í read as a CP932 lead byte), half-width katakana only a
//     little (EUC-JP read as CP932 turns into runs of them);
//   - a byte the encoding cannot decode, a C1 control or a private-use
//     character is implausible.
//
// The best average wins; a tie goes to CP932, the historic default.

// charsetSample bounds the bytes scored: enough for any real file to show
// its charset, cheap for a 50 MB one.
const charsetSample = 64 << 10

type candidate struct {
	name string
	enc  encoding.Encoding
	ja   bool
}

var legacyCandidates = []candidate{
	{"Shift_JIS", japanese.ShiftJIS, true}, // CP932 in golang.org/x/text
	{"EUC-JP", japanese.EUCJP, true},
	{"windows-1252", charmap.Windows1252, false},
}

// detectLegacy returns the encoding of data (not valid UTF-8, no BOM) and
// its name.
func detectLegacy(data []byte) (encoding.Encoding, string) {
	sample := data[:min(len(data), charsetSample)]
	best, bestScore := legacyCandidates[0], -1e9
	for _, c := range legacyCandidates {
		out, err := c.enc.NewDecoder().Bytes(sample)
		if err != nil {
			continue
		}
		if s := plausibility(string(out), c.ja); s > bestScore+1e-9 {
			best, bestScore = c, s
		}
	}
	return best.enc, best.name
}

// plausibility scores decoded text: the mean, over its non-ASCII
// characters, of how plausible each is where it stands (1 plausible, 0
// neutral, negative implausible); text without non-ASCII characters
// scores 0. ja says the text was decoded as Japanese.
func plausibility(s string, ja bool) float64 {
	rs := []rune(s)
	sum, n := 0.0, 0
	asciiLetter := func(i int) bool {
		return i >= 0 && i < len(rs) && rs[i] < utf8.RuneSelf && unicode.IsLetter(rs[i])
	}
	for i, r := range rs {
		if r < utf8.RuneSelf {
			continue
		}
		n++
		switch {
		case r == utf8.RuneError, r >= 0x80 && r < 0xa0, unicode.Is(unicode.Co, r):
			sum -= 2
		case ja:
			sum += jaWeight(r, asciiLetter(i-1) && asciiLetter(i+1))
		default:
			sum += latinWeight(rs, i)
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func jaWeight(r rune, betweenASCIILetters bool) float64 {
	switch {
	case betweenASCIILetters:
		return -1
	case r >= 0x3040 && r <= 0x30ff, r >= 0x3000 && r <= 0x303f, r >= 0xff01 && r <= 0xff5e:
		return 1 // kana, CJK punctuation, full-width ASCII
	case unicode.Is(unicode.Han, r):
		return 0.8
	case r >= 0xff61 && r <= 0xff9f:
		return 0.2 // half-width katakana
	}
	return 0
}

// latinWeight scores rs[i], a non-ASCII character of text decoded as
// Windows-1252.
func latinWeight(rs []rune, i int) float64 {
	r := rs[i]
	if unicode.IsLetter(r) {
		// Plausible when its word has an ASCII letter.
		for j := i - 1; j >= 0 && unicode.IsLetter(rs[j]); j-- {
			if rs[j] < utf8.RuneSelf {
				return 1
			}
		}
		for j := i + 1; j < len(rs) && unicode.IsLetter(rs[j]); j++ {
			if rs[j] < utf8.RuneSelf {
				return 1
			}
		}
		return 0.1
	}
	switch r {
	case '‘', '’', '“', '”', '–', '—', '…', '\u00a0', '«', '»', '°', '©', '®', '€', '£', '§', '·', '•', '¿', '¡', '±', '×', '½', '¼', '¾', '²', '³', 'µ':
		// Plausible beside a space, a letter or a digit.
		for _, j := range []int{i - 1, i + 1} {
			if j < 0 || j >= len(rs) || unicode.IsSpace(rs[j]) || (rs[j] < utf8.RuneSelf && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || unicode.IsPunct(rs[j]))) {
				return 0.8
			}
		}
	}
	return 0
}

// detectUTF16 tells whether data (with NUL bytes, no BOM) is UTF-16 text
// and in which byte order: its decoding must be nearly all text of the
// scripts gds users write (ASCII, Latin-1, kana, kanji, CJK punctuation,
// full-width forms) with line ends and tabs as the only controls, which
// random binary data is not (a third of random code units are kanji).
func detectUTF16(data []byte) (bigEndian, ok bool) {
	if len(data) < 16 {
		return false, false // too short to tell from binary
	}
	sample := data[:min(len(data), charsetSample)&^1]
	for _, be := range []bool{false, true} {
		order := xunicode.LittleEndian
		if be {
			order = xunicode.BigEndian
		}
		out, err := xunicode.UTF16(order, xunicode.IgnoreBOM).NewDecoder().Bytes(sample)
		if err != nil {
			continue
		}
		good, n := 0, 0
		for _, r := range string(out) {
			n++
			switch {
			case r == '\n' || r == '\r' || r == '\t', r >= 0x20 && r < 0x7f, r >= 0xa0 && r <= 0x17f,
				r >= 0x2000 && r <= 0x206f, r >= 0x3000 && r <= 0x30ff, r >= 0xff01 && r <= 0xff9f,
				unicode.Is(unicode.Han, r):
				good++
			}
		}
		if n > 0 && float64(good) >= 0.98*float64(n) {
			return be, true
		}
	}
	return false, false
}
