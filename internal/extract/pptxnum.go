package extract

import (
	"encoding/xml"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PowerPoint auto-numbers. PowerPoint does not store the "1.", "a)" or
// "IV." of a numbered paragraph: the paragraph's properties (a:pPr), or
// its text body's list style for its level (a:lstStyle/a:lvlNpPr), hold
// a:buAutoNum with a scheme (ST_TextAutonumberScheme) and a start
// (startAt, 1 by default), and the reader counts.
//
// Counting, as PowerPoint shows it and LibreOffice counts it
// (Outliner::ImplGetNumbering): within one text body (a shape, a table
// cell, a chart title), a numbered paragraph continues the sequence of
// the paragraphs before it at its level (a:pPr lvl, 0–8) that have the
// same scheme and start. Paragraphs at deeper levels do not interrupt
// it; a paragraph at a shallower level ends the deeper sequences; a
// paragraph at the same level with another scheme, or none, ends it. An
// empty paragraph shows no number and counts for nothing. Numbers from
// the slide layout or master (inherited placeholder list styles) are not
// followed.
//
// Superscripts and subscripts (a run whose a:rPr raises or lowers its
// baseline: a footnote mark, an exponent) are parted by a space from the
// letters or digits they touch, as the PDF reader parts a script from
// its base: "claim 1", not "claim1" (which no search for "claim" finds).

// pptxLevels is the number of paragraph levels of DrawingML text.
const pptxLevels = 9

// maxAutoNumStart is the largest startAt (ST_TextBulletStartAtNum).
const maxAutoNumStart = 32767

// autoNum is what a paragraph's properties say of its number: the
// scheme ("" for none: a bullet character or picture, or buNone) and the
// start.
type autoNum struct {
	scheme string
	start  int
}

// readAutoNum returns the numbering an a:pPr or a:lvlNpPr child sets,
// and whether it is one that sets it.
func readAutoNum(se xml.StartElement) (autoNum, bool) {
	switch se.Name.Local {
	case "buAutoNum":
		a := autoNum{scheme: "arabicPeriod", start: 1}
		if v, ok := attr(se, "type"); ok && v != "" {
			a.scheme = v
		}
		if v, ok := attr(se, "startAt"); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				a.start = min(max(n, 1), maxAutoNumStart)
			}
		}
		return a, true
	case "buNone", "buChar", "buBlip":
		return autoNum{}, true
	}
	return autoNum{}, false
}

// autoNumCounter is the sequence of one level: its numbering and the
// number of its last paragraph (0: no sequence).
type autoNumCounter struct {
	num   autoNum
	count int
}

// autoNumberer counts the numbered paragraphs of one text body.
type autoNumberer struct {
	levels [pptxLevels]autoNumCounter
}

// next counts a paragraph with text at level lvl numbered as a says and
// returns its label with the space after it ("2. ", "b) "), or "".
func (n *autoNumberer) next(lvl int, a autoNum) string {
	lvl = min(max(lvl, 0), pptxLevels-1)
	for d := lvl + 1; d < pptxLevels; d++ {
		n.levels[d] = autoNumCounter{}
	}
	c := &n.levels[lvl]
	if a.scheme == "" {
		*c = autoNumCounter{}
		return ""
	}
	if c.count > 0 && c.num == a {
		c.count = min(c.count+1, maxListCounter)
	} else {
		*c = autoNumCounter{num: a, count: a.start}
	}
	return autoNumLabel(a.scheme, c.count) + " "
}

// autoNumLabel writes number n in an ST_TextAutonumberScheme: its
// digits or letters (formatted by the scheme's name up to its
// punctuation) and its punctuation (ParenBoth "(n)", ParenR "n)",
// Period "n.", Plain "n", Minus "n-"; DbPeriod a full-width period;
// Db before Plain, full-width digits).
// Unknown schemes are written as arabicPeriod; a number beyond a
// scheme's letters or signs is written in digits.
func autoNumLabel(scheme string, n int) string {
	base, punct := scheme, ""
	for _, p := range []string{"ParenBoth", "ParenR", "DbPeriod", "Period", "Plain", "1Minus", "2Minus", "Minus"} {
		if strings.HasSuffix(scheme, p) {
			base, punct = strings.TrimSuffix(scheme, p), p
			break
		}
	}
	digits := strconv.Itoa(n)
	var s string
	switch base {
	case "alphaLc", "alphaUc":
		s = letters(n)
		if base == "alphaUc" {
			s = strings.ToUpper(s)
		}
	case "romanLc":
		s = strings.ToLower(roman(n))
	case "romanUc":
		s = roman(n)
	case "arabic":
		switch punct {
		case "DbPeriod":
			s = fullWidth(digits)
		case "1Minus", "2Minus":
			s = arabicLetter(n, punct == "2Minus")
			punct = "Minus"
		default:
			s = digits
		}
	case "arabicDb":
		s = fullWidth(digits)
	case "circleNumDb", "circleNumWdWhite":
		if limit := map[string]int{"circleNumDb": 20, "circleNumWdWhite": 10}[base]; n >= 1 && n <= limit {
			s = string('①' + rune(n-1))
		}
	case "circleNumWdBlack":
		if n >= 1 && n <= 10 {
			s = string('❶' + rune(n-1))
		}
	case "ea1Chs", "ea1Cht", "ea1JpnChs", "ea1JpnKor":
		s = kanjiNumber("japaneseCounting", n)
	case "hebrew":
		s = hebrewNumber(n)
		punct = "Minus"
	case "thaiAlpha":
		s = nthRune(thaiLetters, n)
	case "thaiNum":
		s = shiftDigits(digits, '๐')
	case "hindiNum":
		s = shiftDigits(digits, '०')
	case "hindiAlpha", "hindiAlpha1":
		s = digits // PowerPoint's Devanagari letter sequences are not known here
	default:
		s, punct = digits, "Period"
	}
	if s == "" {
		s = digits
	}
	switch punct {
	case "ParenBoth":
		return "(" + s + ")"
	case "ParenR":
		return s + ")"
	case "Period":
		return s + "."
	case "DbPeriod":
		return s + "．"
	case "Minus":
		return s + "-"
	}
	return s
}

const (
	thaiLetters   = "กขคงจฉชซฌญฎฏฐฑฒณดตถทธนบปผฝพฟภมยรลวศษสหฬอฮ"
	arabicAlpha   = "أبتثجحخدذرزسشصضطظعغفقكلمنهوي"
	arabicAbjad   = "أبجدهوزحطيكلمنسعفصقرشتثخذضظغ"
	hebrewUnits   = "אבגדהוזחט"
	hebrewTens    = "יכלמנסעפצ"
	hebrewHundred = "קרשת"
)

// nthRune returns the nth (1-based) letter of seq, "" beyond it.
func nthRune(seq string, n int) string {
	for _, r := range seq {
		if n--; n == 0 {
			return string(r)
		}
	}
	return ""
}

// arabicLetter is n as an Arabic letter, in alphabetical (hijāʾī) or
// abjad order; "" beyond the 28 letters.
func arabicLetter(n int, abjad bool) string {
	if abjad {
		return nthRune(arabicAbjad, n)
	}
	return nthRune(arabicAlpha, n)
}

// hebrewNumber is n in Hebrew numerals (1–999; 15 and 16 as ט״ו and
// ט״ז are written טו, טז); "" outside.
func hebrewNumber(n int) string {
	if n < 1 || n > 999 {
		return ""
	}
	var b strings.Builder
	for h := n / 100; h > 0; h -= min(h, 4) {
		b.WriteString(nthRune(hebrewHundred, min(h, 4)))
	}
	switch rest := n % 100; rest {
	case 15, 16:
		b.WriteString("ט" + nthRune(hebrewUnits, rest-9))
	default:
		if t := rest / 10; t > 0 {
			b.WriteString(nthRune(hebrewTens, t))
		}
		if u := rest % 10; u > 0 {
			b.WriteString(nthRune(hebrewUnits, u))
		}
	}
	return b.String()
}

// shiftDigits writes the ASCII digits of s with the digits of a script
// whose zero is zero.
func shiftDigits(s string, zero rune) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			r = zero + r - '0'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pptxParas follows the paragraphs of a DrawingML part as xmlText.write
// reads it: the list style of the text body being read, the paragraph
// open (its level and numbering) and the counters.
type pptxParas struct {
	counters autoNumberer
	list     [pptxLevels]autoNum // the body's a:lstStyle
	inList   bool                // in a:lstStyle
	listLvl  int                 // 1 + the level of the a:lvlNpPr being read, 0 none

	open, inPPr, texted bool
	depth, lvl          int
	num                 autoNum

	// script: the run being read is raised or lowered; lastScript and
	// lastWord: the text written last in the paragraph was, and ended
	// with a letter or digit.
	script, lastScript, lastWord bool
}

// start follows the start of element se at depth.
func (s *pptxParas) start(se xml.StartElement, depth int) {
	n := se.Name.Local
	switch {
	case n == "txBody" || n == "rich" || n == "bodyPr":
		// a new text body: shapes, table cells and chart titles each
		// count their own paragraphs
		s.counters, s.list, s.inList, s.listLvl = autoNumberer{}, [pptxLevels]autoNum{}, false, 0
	case n == "lstStyle":
		s.inList, s.listLvl = true, 0
	case s.inList && s.listLvl == 0:
		if l, ok := levelPPr(n); ok {
			s.listLvl = l + 1
		}
	case s.inList:
		if a, ok := readAutoNum(se); ok {
			s.list[s.listLvl-1] = a
		}
	case n == "p":
		s.open, s.inPPr, s.texted = true, false, false
		s.depth, s.lvl, s.num = depth, 0, s.list[0]
		s.script, s.lastScript, s.lastWord = false, false, false
	case !s.open:
	case n == "r" || n == "fld":
		s.script = false
	case n == "rPr":
		v, _ := attr(se, "baseline")
		b, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), "%"))
		s.script = err == nil && b != 0
	case n == "pPr" && depth == s.depth+1:
		s.inPPr = true
		if v, ok := attr(se, "lvl"); ok {
			if l, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && l >= 0 && l < pptxLevels {
				s.lvl = l
			}
		}
		s.num = s.list[s.lvl]
	case s.inPPr && depth == s.depth+2:
		if a, ok := readAutoNum(se); ok {
			s.num = a
		}
	}
}

// levelPPr reads the level of an a:lvlNpPr name (0-based).
func levelPPr(n string) (int, bool) {
	if len(n) == len("lvl1pPr") && strings.HasPrefix(n, "lvl") && strings.HasSuffix(n, "pPr") && n[3] >= '1' && n[3] <= '9' {
		return int(n[3] - '1'), true
	}
	return 0, false
}

// end follows the end of element n at depth.
func (s *pptxParas) end(n string, depth int) {
	switch {
	case n == "lstStyle":
		s.inList, s.listLvl = false, 0
	case s.inList:
		if _, ok := levelPPr(n); ok {
			s.listLvl = 0
		}
	case !s.open:
	case n == "pPr" && depth == s.depth+1:
		s.inPPr = false
	case n == "p" && depth == s.depth:
		s.open = false
	}
}

// before returns what to write before text of the open paragraph: its
// number with a space after it before its first text, a space between
// a script and the letters or digits it touches, else "".
func (s *pptxParas) before(text []byte) string {
	if !s.open || len(text) == 0 {
		return ""
	}
	first, _ := utf8.DecodeRune(text)
	last, _ := utf8.DecodeLastRune(text)
	out := ""
	switch {
	case !s.texted:
		s.texted, s.inPPr = true, false
		out = s.counters.next(s.lvl, s.num)
	case s.script != s.lastScript && s.lastWord && isLetterOrDigit(first):
		out = " "
	}
	s.lastScript, s.lastWord = s.script, isLetterOrDigit(last)
	return out
}

func isLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
