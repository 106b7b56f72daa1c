package extract

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	xunicode "golang.org/x/text/encoding/unicode"
)

// Charset detection for text that is not UTF-8 and declares nothing: a
// Japanese file (Shift_JIS / CP932, EUC-JP) or one in a legacy 8-bit code
// page of Western (Windows-1252 / Latin-1), Central European
// (Windows-1250, ISO-8859-2), Cyrillic (Windows-1251, KOI8-R, CP866) or
// Greek (Windows-1253, ISO-8859-7) text, or DOS Western or Central
// European (CP850, CP852). General detectors were measured
// and guess wrong: ICU's (saintfish/chardet) on short files (a one-line
// Latin-1 name as GB-18030, a Shift_JIS title as Windows-1253), Python
// chardet's Go port (wlynxg/chardet) on Central European files (Polish
// ISO-8859-2 as Latin-1) and on EUC-JP (as GB2312). The candidates are
// told apart instead by decoding a sample with each and scoring how
// plausible the characters are where they stand:
//
//   - a letter is plausible in a word of its own script, in a plausible
//     case pattern (Cyrillic read as the wrong Cyrillic code page comes out
//     in capitals, or a capital inside a small-letter word); a Latin letter
//     with a diacritic in a word some European alphabet spells (Czech read
//     as Windows-1252 gives "pøíliš", which none does), a Cyrillic or Greek
//     one in a word of two letters or more without ASCII letters
//     (Rodrнguez is a Latin-1 í read as Windows-1251);
//   - typographic punctuation (“ ” – …) is plausible next to spaces or
//     letters, any other symbol between two letters is not (Polish "³" for
//     "ł" in Windows-1250 read as Windows-1252);
//   - kana, CJK punctuation and full-width forms are plausible Japanese, a
//     kanji too unless it sits between two ASCII letters (Rodr刕uez is a
//     Latin-1 í read as a CP932 lead byte), half-width katakana only a
//     little (EUC-JP read as CP932 turns into runs of them);
//   - a byte the encoding cannot decode, a C1 control or a private-use
//     character is implausible.
//
// The best average wins; a tie goes to the earlier candidate: CP932, the
// historic default, then Windows-1252.

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
	{"windows-1250", charmap.Windows1250, false},
	{"ISO-8859-2", charmap.ISO8859_2, false},
	{"windows-1251", charmap.Windows1251, false},
	{"KOI8-R", charmap.KOI8R, false},
	{"IBM866", charmap.CodePage866, false},
	{"windows-1253", charmap.Windows1253, false},
	{"ISO-8859-7", charmap.ISO8859_7, false},
	{"IBM850", charmap.CodePage850, false},
	{"IBM852", charmap.CodePage852, false},
}

// detectLegacy returns the encoding of data (not valid UTF-8, no BOM) and
// its name.
func detectLegacy(data []byte) (encoding.Encoding, string) {
	sample := data[:min(len(data), charsetSample)]
	// A multi-byte character cut by the sample's end is not the
	// encoding's fault: end the sample at the last line break.
	if len(sample) < len(data) {
		if i := bytes.LastIndexByte(sample, '\n'); i > 0 {
			sample = sample[:i+1]
		}
	}
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
	// Latin letters are scored at the end, by the alphabet that spells
	// most of them: Croatian read as Windows-1252 spells "š" words in
	// Finnish and "Filipoviæ" in French, read right all in Croatian.
	var latins []latinLetter
	perAlphabet := make([]int, len(alphabets))
	var cur word // the word of the letter last scored
	for i, r := range rs {
		if r < utf8.RuneSelf {
			continue
		}
		n++
		switch {
		case r == utf8.RuneError, r >= 0x80 && r < 0xa0, unicode.Is(unicode.Co, r):
			// Worse than any misreading: when unsure, the reading that
			// gives valid text wins.
			sum -= 5
		case ja:
			sum += jaWeight(r, asciiLetter(i-1) && asciiLetter(i+1))
		case unicode.IsLetter(r):
			if i >= cur.end {
				cur = wordAt(rs, i)
			}
			w, l := letterWeight(rs, i, cur)
			if l == nil {
				sum += w
				continue
			}
			latins = append(latins, *l)
			for a := range alphabets {
				if l.alphabets&(1<<a) != 0 {
					perAlphabet[a]++
				}
			}
		default:
			sum += symbolWeight(rs, i)
		}
	}
	if n == 0 {
		return 0
	}
	best := 0
	for a := range perAlphabet {
		if perAlphabet[a] > perAlphabet[best] {
			best = a
		}
	}
	for _, l := range latins {
		w := 0.3
		switch {
		case l.alphabets&(1<<best) != 0:
			w = 1
		case l.alphabets != 0:
			w = 0.6
		}
		if strings.ContainsRune(rareLatin, unicode.ToLower(l.r)) {
			w *= 0.8
		}
		sum += w * l.factor
	}
	return sum / float64(n)
}

// latinLetter is a non-ASCII Latin letter to score: the alphabets that
// spell its word (a bit each) and a factor for its place in the word.
type latinLetter struct {
	r         rune
	alphabets uint32
	factor    float64
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

// word is a run of letters, rs[start:end], and what its letters say.
type word struct {
	start, end int
	script     int // of its non-ASCII letters; mixedScripts if they differ
	hasASCII   bool
	caseMixed  bool // capitals and small letters after the first letter
	alphabets  uint32
}

const mixedScripts = -1

// wordAt returns the word holding the letter rs[i]. Each word is read
// once (plausibility keeps it while it scores the word's letters), so
// a sample that is one long word costs linear time.
func wordAt(rs []rune, i int) word {
	a, b := i, i+1
	for a > 0 && unicode.IsLetter(rs[a-1]) {
		a--
	}
	for b < len(rs) && unicode.IsLetter(rs[b]) {
		b++
	}
	w := word{start: a, end: b, script: letterScript(rs[i])}
	upper, lower := false, false
	for j, r := range rs[a:b] {
		if r < utf8.RuneSelf {
			w.hasASCII = true
		} else if letterScript(r) != w.script {
			w.script = mixedScripts
		}
		if j > 0 {
			upper = upper || unicode.IsUpper(r)
			lower = lower || unicode.IsLower(r)
		}
	}
	w.caseMixed = upper && lower
	if w.script == latin {
		w.alphabets = alphabetsOf(rs[a:b])
	}
	return w
}

// letterWeight scores rs[i], a non-ASCII letter of text decoded with a
// single-byte code page, by its word w; a Latin letter in a plausible
// word is returned to be scored by alphabet instead.
func letterWeight(rs []rune, i int, w word) (float64, *latinLetter) {
	if w.script == mixedScripts {
		return -1, nil // scripts mixed in a word
	}
	if w.caseMixed {
		// "żQué" for "¿Qué", "ΚΉί" for EUC-JP 以降.
		return -1, nil
	}
	capital := 1.0
	if unicode.IsUpper(rs[i]) && i > w.start {
		capital = 0.5 // all-capital words are rare in prose
	}
	switch w.script {
	case latin:
		if !w.hasASCII {
			capital *= 0.5
		}
		return 0, &latinLetter{r: rs[i], alphabets: w.alphabets, factor: capital}
	case cyrillic, greek:
		if w.hasASCII {
			return -1, nil
		}
		if w.end-w.start < 2 {
			return 0.3, nil
		}
		return capital, nil
	}
	return 0, nil
}

const (
	otherLetterScript = iota
	latin
	cyrillic
	greek
)

func letterScript(r rune) int {
	switch {
	case unicode.Is(unicode.Latin, r):
		return latin
	case unicode.Is(unicode.Cyrillic, r):
		return cyrillic
	case unicode.Is(unicode.Greek, r):
		return greek
	}
	return otherLetterScript
}

// alphabets holds the letters beyond ASCII of the European languages
// written in Latin script with the code pages above (small letters).
var alphabets = []string{
	"äöüß",              // German
	"àâæçéèêëîïôœùûüÿ",  // French
	"áéíñóúü",           // Spanish
	"àáâãçéêíóôõú",      // Portuguese
	"àèéìíîòóù",         // Italian
	"àçèéíïòóúü",        // Catalan
	"éëïóöü",            // Dutch
	"æøåéóô",            // Danish, Norwegian
	"åäöé",              // Swedish
	"äöåšž",             // Finnish
	"áéíóúýþæöð",        // Icelandic
	"áčďéěíňóřšťúůýž",   // Czech
	"áäčďéíĺľňóôŕšťúýž", // Slovak
	"ąćęłńóśźż",         // Polish
	"áéíóöőúüű",         // Hungarian
	"čćđšž",             // Croatian, Slovenian, Bosnian
	"ăâîșşțţ",           // Romanian
	"äöõüšž",            // Estonian
}

// rareLatin holds letters of the alphabets above that are rare in their
// languages' text and common in a misreading of another code page's: ì
// and æ are Czech ě and Croatian ć read as Windows-1252, ŕ and ĺ Western
// à and å read as Windows-1250.
const rareLatin = "ìòæðþïŕĺňďť"

// alphabetsOf returns the alphabets above (bit i for alphabets[i]) that
// hold all the non-ASCII letters of word.
func alphabetsOf(word []rune) uint32 {
	var mask uint32
	for a, alpha := range alphabets {
		ok := true
		for _, r := range word {
			if r >= utf8.RuneSelf && !strings.ContainsRune(alpha, unicode.ToLower(r)) {
				ok = false
				break
			}
		}
		if ok {
			mask |= 1 << a
		}
	}
	return mask
}

// symbolWeight scores rs[i], a non-ASCII character that is not a letter.
func symbolWeight(rs []rune, i int) float64 {
	letter := func(j int) bool { return j >= 0 && j < len(rs) && unicode.IsLetter(rs[j]) }
	switch rs[i] {
	case '‘', '’', '“', '”', '–', '—', '…', '\u00a0', '«', '»', '°', '©', '®', '€', '£', '§', '·', '•', '¿', '¡', '±', '×', '½', '¼', '¾', '²', '³', 'µ', '„', '‚', '№':
		// Plausible beside a space, a letter or a digit, the closing
		// quotes ’ ” » also between letters (it’s).
		switch rs[i] {
		case '’', '”', '»', '·':
		default:
			if letter(i-1) && letter(i+1) {
				return -1
			}
		}
		for _, j := range []int{i - 1, i + 1} {
			if j < 0 || j >= len(rs) || unicode.IsSpace(rs[j]) || unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || unicode.IsPunct(rs[j]) {
				return 0.8
			}
		}
		return 0
	}
	if letter(i-1) || letter(i+1) {
		// A symbol stuck to a word: a letter of another code page
		// (Polish "wy³¹czony", EUC-JP 使用 as KOI8-R "╩хмя").
		return -1
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
