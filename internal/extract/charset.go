package extract

import (
	"bytes"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	xunicode "golang.org/x/text/encoding/unicode"
)

// Charset detection for text that is not UTF-8 and declares nothing: a
// Japanese file (Shift_JIS / CP932, EUC-JP) or one in a legacy 8-bit code
// page of Western (Windows-1252 / Latin-1), Central European
// (Windows-1250, ISO-8859-2), Cyrillic (Windows-1251, KOI8-R, CP866) or
// Greek (Windows-1253, ISO-8859-7), Arabic (Windows-1256, ISO-8859-6),
// Hebrew (Windows-1255 / ISO-8859-8, CP862), Baltic (ISO-8859-13),
// Turkish (Windows-1254 / ISO-8859-9) text,
// Chinese (GB18030 / GBK, Big5), or DOS Western or Central European
// (CP850, CP852, Mazovia). General detectors were measured
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
//   - a hanzi read as Chinese is plausible as the character set's level
//     says it is common, less alone among ASCII characters, not at all
//     touching a Latin word; kana is rare in Chinese;
//   - an Arabic or Hebrew letter is plausible in a word of its script,
//     fully once a word of the text is typical of the language (the
//     article al-, a Hebrew final letter ending a word); a word that
//     breaks a rule of spelling (a Cyrillic or Greek word without a
//     vowel, a Greek word with two accents, a Hebrew final letter inside
//     a word) is not;
//   - a byte the encoding cannot decode, a C1 control or a private-use
//     character is implausible.
//
// The best average wins, less a small penalty for code pages rarely used
// today; a tie goes to the earlier candidate: CP932, the historic
// default, then Windows-1252.

// charsetSample bounds the bytes scored: enough for any real file to show
// its charset, cheap for a 50 MB one.
const charsetSample = 64 << 10

type candidate struct {
	name string
	enc  encoding.Encoding
	cjk  int // notCJK, japanese or chinese: how to score Han and kana
	// rare: a code page little used today, which must read clearly
	// better than the others to be taken (rarePenalty).
	rare bool
}

// rarePenalty is taken off the score of a rare code page: ISO-8859-13
// reads a Croatian table of single letters (Č č Ć ć Đ đ) about as well
// as ISO-8859-2 does.
const rarePenalty = 0.05

const (
	notCJK = iota
	japaneseText
	gbText   // simplified Chinese: GB2312, GBK, GB18030
	big5Text // traditional Chinese
)

var legacyCandidates = []candidate{
	{"Shift_JIS", japanese.ShiftJIS, japaneseText, false}, // CP932 in golang.org/x/text
	{"EUC-JP", japanese.EUCJP, japaneseText, false},
	{"windows-1252", charmap.Windows1252, notCJK, false},
	{"windows-1250", charmap.Windows1250, notCJK, false},
	{"ISO-8859-2", charmap.ISO8859_2, notCJK, false},
	// Hebrew before Cyrillic: its letters are Windows-1251's small
	// letters, and a tie goes to the earlier candidate; Cyrillic read as
	// Hebrew misspells (a final letter inside a word) or is invalid.
	{"windows-1255", charmap.Windows1255, notCJK, false}, // ISO-8859-8's letters too
	{"windows-1251", charmap.Windows1251, notCJK, false},
	{"KOI8-R", charmap.KOI8R, notCJK, false},
	{"IBM866", charmap.CodePage866, notCJK, false},
	{"windows-1253", charmap.Windows1253, notCJK, false},
	{"ISO-8859-7", charmap.ISO8859_7, notCJK, false},
	{"IBM850", charmap.CodePage850, notCJK, false},
	{"IBM852", charmap.CodePage852, notCJK, false},
	{"windows-1256", charmap.Windows1256, notCJK, false},
	{"ISO-8859-6", charmap.ISO8859_6, notCJK, true},
	{"IBM862", charmap.CodePage862, notCJK, true},
	{"ISO-8859-13", charmap.ISO8859_13, notCJK, true},
	{"windows-1254", charmap.Windows1254, notCJK, true}, // ISO-8859-9's letters too
	{"Mazovia", mazovia, notCJK, true},
	{"GB18030", simplifiedchinese.GB18030, gbText, false}, // GBK, GB2312
	{"Big5", traditionalchinese.Big5, big5Text, false},
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
		s := plausibility(string(out), c.cjk, alphabetsWritten(c.enc))
		if c.rare {
			s -= rarePenalty
		}
		if s > bestScore+1e-9 {
			best, bestScore = c, s
		}
	}
	return best.enc, best.name
}

// plausibility scores decoded text: the mean, over its non-ASCII
// characters, of how plausible each is where it stands (1 plausible, 0
// neutral, negative implausible); text without non-ASCII characters
// scores 0. cjk says the text was decoded as Japanese or Chinese;
// written holds the alphabets (bit i for alphabets[i]) its code page
// writes.
func plausibility(s string, cjk int, written uint32) float64 {
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
	// Arabic and Hebrew letters score 1 when some word of the text is
	// typical of its language (below), else 0.75: without case, their
	// words cannot be told implausible by it, and Cyrillic in KOI8-R
	// reads as Arabic letters in ISO-8859-6 and Windows-1256.
	var rtl [2]float64
	var rtlSpelt [2]bool
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
		case cjk == japaneseText:
			sum += jaWeight(r, asciiLetter(i-1) && asciiLetter(i+1))
		case cjk == gbText || cjk == big5Text:
			sum += zhWeight(rs, i, asciiLetter(i-1) && asciiLetter(i+1), hanLevels(cjk))
		case unicode.Is(unicode.Mn, r):
			if i >= cur.end {
				cur = wordAt(rs, i)
			}
			sum += markWeight(i, cur)
		case unicode.IsLetter(r):
			if i >= cur.end {
				cur = wordAt(rs, i)
			}
			w, l := letterWeight(rs, i, cur)
			if l == nil {
				if (cur.script == arabic || cur.script == hebrew) && w > 0 {
					rtl[cur.script-arabic] += w
					rtlSpelt[cur.script-arabic] = rtlSpelt[cur.script-arabic] || cur.typical
					continue
				}
				sum += w
				continue
			}
			l.alphabets &= written
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
	for k := range rtl {
		if rtlSpelt[k] {
			sum += rtl[k]
		} else {
			sum += 0.75 * rtl[k]
		}
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
	case cjkSymbol(r), r >= 0x2010 && r <= 0x205f:
		return 0.8 // and general punctuation: … ― ‘ ’ “ ” ‥ †
	}
	return 0
}

// cjkSymbol: the symbols of the JIS and GB character sets that Japanese
// and Chinese documents use: ※, arrows, circled numbers, box drawing,
// shapes (■ ○ ★), Roman numerals, enclosed ideographs (㈱), units (㍉).
func cjkSymbol(r rune) bool {
	return r == '※' || r >= 0x2160 && r <= 0x21ff || r >= 0x2460 && r <= 0x26ff || r >= 0x3200 && r <= 0x33ff
}

// zhWeight scores rs[i] decoded as Chinese: like Japanese, but kana is
// rare (EUC-JP read as GBK keeps its kana) and a letter of another
// script comes of a misreading (GB18030's four-byte sequences decode
// to any character).
//
// A hanzi of the character set's first level (the common ones) scores
// as a kanji does, one of its second level less, any other (GBK's and
// Big5's extensions, which misreadings land in) little.
func zhWeight(rs []rune, i int, betweenASCIILetters bool, levels *[hanLevelsSize]uint8) float64 {
	r := rs[i]
	switch {
	case betweenASCIILetters:
		return -1
	case r >= 0x3000 && r <= 0x303f, r >= 0xff01 && r <= 0xff5e:
		return 1
	case r >= hanLevelsFirst && r < hanLevelsFirst+hanLevelsSize:
		w := 0.2
		switch levels[r-hanLevelsFirst] {
		case 1:
			w = 0.8
		case 2:
			w = 0.5
		}
		// A hanzi alone among ASCII characters is most often a Latin
		// letter and the byte after it read as one ("ñ\\" as Big5),
		// never when it touches a Latin word ("zawarto舵" for Polish
		// "zawartość" in ISO-8859-2).
		if !cjkNeighbour(rs, i-1) && !cjkNeighbour(rs, i+1) {
			if asciiLetterAt(rs, i-1) || asciiLetterAt(rs, i+1) {
				return -1
			}
			w /= 2
		}
		return w
	case unicode.Is(unicode.Han, r):
		return 0.2
	case r >= 0x3040 && r <= 0x30ff:
		return 0.2
	case cjkSymbol(r):
		return 0.8
	case unicode.IsLetter(r):
		return -1
	}
	return symbolWeight(rs, i)
}

func asciiLetterAt(rs []rune, j int) bool {
	return j >= 0 && j < len(rs) && rs[j] < utf8.RuneSelf && unicode.IsLetter(rs[j])
}

func cjkNeighbour(rs []rune, j int) bool {
	return j >= 0 && j < len(rs) && (unicode.Is(unicode.Han, rs[j]) || rs[j] >= 0x3000 && rs[j] <= 0x30ff || rs[j] >= 0xff01 && rs[j] <= 0xff5e)
}

// The level of each hanzi of U+3400..U+9FFF in GB2312 and Big5: 1 for
// the first (GB2312 rows 16-55, Big5 A440-C67E: the common characters),
// 2 for the second, 0 for none; made once by decoding those ranges.
const (
	hanLevelsFirst = 0x3400
	hanLevelsSize  = 0xa000 - hanLevelsFirst
)

var (
	gbLevels, big5Levels [hanLevelsSize]uint8
	hanLevelsOnce        sync.Once
)

func hanLevels(cjk int) *[hanLevelsSize]uint8 {
	hanLevelsOnce.Do(func() {
		fill := func(levels *[hanLevelsSize]uint8, enc encoding.Encoding, lead1, lead2 [2]byte, trails [][2]byte, level1End [2]byte) {
			dec := enc.NewDecoder()
			for lead := lead1[0]; lead <= lead2[1]; lead++ {
				for _, tr := range trails {
					for trail := int(tr[0]); trail <= int(tr[1]); trail++ {
						out, err := dec.Bytes([]byte{lead, byte(trail)})
						r, _ := utf8.DecodeRune(out)
						if err != nil || r < hanLevelsFirst || r >= hanLevelsFirst+hanLevelsSize {
							continue
						}
						level := uint8(2)
						if lead < level1End[0] || lead == level1End[0] && byte(trail) <= level1End[1] {
							level = 1
						}
						if levels[r-hanLevelsFirst] == 0 {
							levels[r-hanLevelsFirst] = level
						}
					}
				}
			}
		}
		fill(&gbLevels, simplifiedchinese.GBK, [2]byte{0xb0}, [2]byte{0, 0xf7}, [][2]byte{{0xa1, 0xfe}}, [2]byte{0xd7, 0xfe})
		fill(&big5Levels, traditionalchinese.Big5, [2]byte{0xa4}, [2]byte{0, 0xf9}, [][2]byte{{0x40, 0x7e}, {0xa1, 0xfe}}, [2]byte{0xc6, 0x7e})
	})
	if cjk == big5Text {
		return &big5Levels
	}
	return &gbLevels
}

// markWeight scores rs[i], a combining mark, by its word w: Arabic
// harakat and Hebrew points follow a letter of their word; any other
// (a Latin-1 letter read as Windows-1255 or -1256) is a misreading.
func markWeight(i int, w word) float64 {
	if i > w.start && !w.hasASCII && (w.script == arabic || w.script == hebrew) {
		return 1
	}
	return -1
}

// word is a run of letters and combining marks, rs[start:end], and what
// its letters say.
type word struct {
	start, end int
	script     int // of its non-ASCII letters; mixedScripts if they differ
	hasASCII   bool
	// caseMixed: capitals and small letters after the first letter, or
	// a capital after a small first letter.
	caseMixed bool
	alphabets uint32
	// misspelt: no language of its script writes it so (below).
	misspelt bool
	// typical: an Arabic word with the article (al-), a Hebrew word
	// ending in a final letter.
	typical bool
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) }

const mixedScripts = -1

// wordAt returns the word holding the letter rs[i]. Each word is read
// once (plausibility keeps it while it scores the word's letters), so
// a sample that is one long word costs linear time.
func wordAt(rs []rune, i int) word {
	a, b := i, i+1
	for a > 0 && isWordRune(rs[a-1]) {
		a--
	}
	for b < len(rs) && isWordRune(rs[b]) {
		b++
	}
	w := word{start: a, end: b, script: noScript}
	upper, lower := false, false
	for j, r := range rs[a:b] {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if r < utf8.RuneSelf {
			w.hasASCII = true
		} else if s := letterScript(r); w.script == noScript {
			w.script = s
		} else if s != w.script {
			w.script = mixedScripts
		}
		if j > 0 {
			upper = upper || unicode.IsUpper(r)
			lower = lower || unicode.IsLower(r)
		}
	}
	if w.script == noScript {
		w.script = otherLetterScript
	}
	w.caseMixed = upper && (lower || unicode.IsLower(rs[a]))
	switch w.script {
	case latin:
		w.alphabets = alphabetsOf(rs[a:b])
	case cyrillic, greek, hebrew:
		w.misspelt = misspelt(rs[a:b], w.script, lower)
		w.typical = w.script == hebrew && !w.misspelt && b-a >= 2 && strings.ContainsRune("ךםןףץ", rs[b-1])
	case arabic:
		s := string(rs[a:b])
		for _, article := range []string{"ال", "وال", "بال", "فال", "كال", "لل"} {
			w.typical = w.typical || strings.HasPrefix(s, article) && b-a > len([]rune(article))
		}
	}
	return w
}

// misspelt tells whether a word of Cyrillic, Greek or Hebrew letters
// breaks a rule of spelling that a misreading of another code page
// breaks often: a small-letter Cyrillic or Greek word of three letters
// or more without a vowel (Hebrew read as Windows-1251), a Greek word
// with two accents (German "äöüß" read as Windows-1253 is "δφόί": the
// monotonic orthography accents one syllable), a Hebrew final letter
// inside a word (Cyrillic read as Windows-1255).
func misspelt(w []rune, script int, lower bool) bool {
	switch script {
	case cyrillic, greek:
		vowels, accents, n := 0, 0, 0
		for _, r := range w {
			if unicode.Is(unicode.Mn, r) {
				continue
			}
			n++
			l := unicode.ToLower(r)
			if strings.ContainsRune("аеёиоуыэюяіїєўαεηιουωάέήίόύώϊϋΐΰ", l) {
				vowels++
			}
			if strings.ContainsRune("άέήίόύώΐΰ", l) {
				accents++
			}
		}
		return accents > 1 || vowels == 0 && n >= 3 && lower
	case hebrew:
		last := len(w) - 1
		for last > 0 && unicode.Is(unicode.Mn, w[last]) {
			last--
		}
		for j, r := range w[:last] {
			if strings.ContainsRune("ךםןףץ", r) && !unicode.Is(unicode.Mn, w[j+1]) {
				return true
			}
		}
	}
	return false
}

// letterWeight scores rs[i], a non-ASCII letter of text decoded with a
// single-byte code page, by its word w; a Latin letter in a plausible
// word is returned to be scored by alphabet instead.
func letterWeight(rs []rune, i int, w word) (float64, *latinLetter) {
	if w.script == mixedScripts || w.misspelt {
		return -1, nil // scripts mixed in a word, or a misspelling
	}
	if w.caseMixed {
		// "żQué" for "¿Qué", "ΚΉί" for EUC-JP 以降, "фЎ" for
		// Windows-1252 "äö" read as CP866.
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
	case cyrillic, greek, arabic, hebrew:
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
	arabic
	hebrew
	noScript = -2 // a word of marks alone, while it is read
)

func letterScript(r rune) int {
	switch {
	case unicode.Is(unicode.Latin, r):
		return latin
	case unicode.Is(unicode.Cyrillic, r):
		return cyrillic
	case unicode.Is(unicode.Greek, r):
		return greek
	case unicode.Is(unicode.Arabic, r):
		return arabic
	case unicode.Is(unicode.Hebrew, r):
		return hebrew
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
	"âçğıîöşûü",         // Turkish
	"ąčęėįšųūž",         // Lithuanian
	"āčēģīķļņšūž",       // Latvian
}

// balticAlphabets are the alphabets above, Turkish and the Baltic ones,
// that a code page must write whole to read them: Lithuanian "ą…č" is a
// Polish ą and a Czech č, and Windows-1250 reads ISO-8859-2's "š" as
// "ą".
var balticAlphabets = []int{len(alphabets) - 3, len(alphabets) - 2, len(alphabets) - 1}

// alphabetsWritten returns the alphabets (bit i for alphabets[i]) that
// enc reads, all but the Baltic ones it cannot write whole.
func alphabetsWritten(enc encoding.Encoding) uint32 {
	mask := uint32(1)<<len(alphabets) - 1
	for _, a := range balticAlphabets {
		letters := alphabets[a] + strings.ToUpper(alphabets[a])
		if _, err := enc.NewEncoder().String(letters); err != nil {
			mask &^= 1 << a
		}
	}
	return mask
}

// rareLatin holds letters of the alphabets above that are rare in their
// languages' text and common in a misreading of another code page's: ì
// and æ are Czech ě and Croatian ć read as Windows-1252, ŕ and ĺ Western
// à and å read as Windows-1250.
const rareLatin = "ìòæðþïŕĺňďťņķļģ"

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
	letter := func(j int) bool { return j >= 0 && j < len(rs) && isWordRune(rs[j]) }
	switch rs[i] {
	case '÷':
		// A division sign stands between numbers or in brackets
		// ("the division sign (÷)"), not beside a backslash or a letter
		// as CP850's ÷ for Windows-1252's ö does in a letter table.
		w := 0.8
		for _, j := range []int{i - 1, i + 1} {
			switch {
			case letter(j):
				return -1
			case j >= 0 && j < len(rs) && !unicode.IsSpace(rs[j]) && !unicode.IsDigit(rs[j]) && !strings.ContainsRune("()[]", rs[j]):
				w = 0
			}
		}
		return w
	case '‘', '’', '“', '”', '–', '—', '…', '\u00a0', '«', '»', '°', '©', '®', '€', '£', '§', '·', '•', '¿', '¡', '±', '×', '½', '¼', '¾', '²', '³', 'µ', '„', '‚', '№', '،', '؛', '؟', '₪':
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
