package extract

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// DOCX list numbers. Word does not store the "1.", "2.1." or "a)" of a
// numbered paragraph: the paragraph names a list (w:numPr: w:numId and the
// level w:ilvl, directly or through its style) and the reader counts.
// numbering.xml defines the lists: w:abstractNum holds up to nine levels
// (w:lvl: w:start, w:numFmt, w:lvlText like "%1.%2.", w:lvlRestart,
// w:isLgl), and w:num instances point at one, optionally with
// w:lvlOverride (w:startOverride, or a whole w:lvl).
//
// Counting: the instances of one abstract list share its counters (a list
// split by other paragraphs goes on, also under another numId, as Word
// and LibreOffice count); the first use of an instance with a start
// override restarts the levels it overrides. Using a level counts it up
// and restarts the deeper levels (those whose w:lvlRestart allows it).
// Bullets are written as "•", which the sentence splitter (textseg) reads
// as a list item; every label is followed by a space.
//
// This file is the pure part: the definitions and the counter state; the
// parts are read by docxnumparse.go.

// listLevels is the number of levels of a Word list.
const listLevels = 9

// Bounds on what a numbering or styles part may define: a hostile part
// cannot make the tables grow with its size.
const (
	maxListDefs    = 1 << 14 // abstract lists, instances, styles, each
	maxLvlTextLen  = 64      // runes of a level's text kept
	maxStyleChain  = 16      // w:basedOn steps followed
	maxListLinks   = 4       // w:numStyleLink steps followed
	maxListCounter = 1 << 30 // a start value above is taken as this
)

// listLevel is one w:lvl.
type listLevel struct {
	defined bool
	start   int
	format  string // w:numFmt: decimal, lowerLetter, bullet, none, ...
	width   int    // zero-padded width of a "custom" format (001, 002, ...)
	text    string // w:lvlText
	restart int    // w:lvlRestart: -1 default (any shallower level), 0 never, n after levels 1..n
	legal   bool   // w:isLgl: the levels it shows are decimal
	pStyle  string // the paragraph style tied to this level
}

// abstractList is one w:abstractNum.
type abstractList struct {
	levels       [listLevels]listLevel
	numStyleLink string // its levels are those of this numbering style's list
}

// listInstance is one w:num.
type listInstance struct {
	abstractID string
	override   [listLevels]listLevel // a whole w:lvl in w:lvlOverride
	startOver  [listLevels]int       // w:startOverride, -1 none
}

// styleNumbering is what a paragraph or numbering style says of lists.
type styleNumbering struct {
	basedOn       string
	numID         string
	ilvl          int
	hasNum, hasLv bool
}

// listDefs are the lists and styles of one document.
type listDefs struct {
	abstract     map[string]*abstractList
	nums         map[string]*listInstance
	styles       map[string]styleNumbering
	defaultStyle string // the default paragraph style
}

// listCounters is the counter state of one abstract list, which its
// instances share.
type listCounters struct {
	count [listLevels]int
	used  [listLevels]bool
	// restartAt is the start of a level restarted by an instance's start
	// override (until it is used), -1 none.
	restartAt [listLevels]int
}

func newListCounters() *listCounters {
	c := &listCounters{}
	for i := range c.restartAt {
		c.restartAt[i] = -1
	}
	return c
}

// restart makes level lvl start again at start when next used.
func (c *listCounters) restart(lvl, start int) {
	c.used[lvl], c.restartAt[lvl] = false, start
}

// advance counts level lvl up (or starts it) and restarts the deeper
// levels that restart after it (levels: the instance's definitions).
func (c *listCounters) advance(lvl int, levels *[listLevels]listLevel) {
	if c.used[lvl] {
		c.count[lvl] = min(c.count[lvl]+1, maxListCounter)
	} else {
		c.count[lvl] = c.value(lvl, levels)
		c.used[lvl], c.restartAt[lvl] = true, -1
	}
	for d := lvl + 1; d < listLevels; d++ {
		r := levels[d].restart
		if r < 0 || lvl < r {
			c.used[d] = false
		}
	}
}

// value is the current number of level lvl: its start when unused.
func (c *listCounters) value(lvl int, levels *[listLevels]listLevel) int {
	switch {
	case c.used[lvl]:
		return c.count[lvl]
	case c.restartAt[lvl] >= 0:
		return c.restartAt[lvl]
	}
	return levels[lvl].start
}

// label renders level lvl's text with the current counters: "%n" is the
// number of level n (1-based) in that level's format, or in decimal when
// lvl is a legal (w:isLgl) level.
func (c *listCounters) label(lvl int, levels *[listLevels]listLevel) string {
	l := levels[lvl]
	switch l.format {
	case "bullet":
		if l.text == "" {
			return ""
		}
		return "•"
	case "none":
		if !strings.Contains(l.text, "%") {
			return strings.TrimSpace(l.text)
		}
	}
	var b strings.Builder
	for i := 0; i < len(l.text); i++ {
		ch := l.text[i]
		if ch == '%' && i+1 < len(l.text) && l.text[i+1] >= '1' && l.text[i+1] <= '9' {
			n := int(l.text[i+1] - '1')
			i++
			ref := levels[n]
			f := ref.format
			if l.legal && n < lvl {
				f = "decimal"
			}
			b.WriteString(formatListNumber(f, ref.width, c.value(n, levels)))
			continue
		}
		b.WriteByte(ch)
	}
	return strings.TrimSpace(b.String())
}

// formatListNumber writes n in a w:numFmt; formats not known here are
// written in decimal, "none" as nothing.
func formatListNumber(format string, width, n int) string {
	switch format {
	case "none", "bullet":
		return ""
	case "decimalZero":
		if n >= 0 && n < 10 {
			return "0" + strconv.Itoa(n)
		}
	case "custom":
		s := strconv.Itoa(n)
		if pad := width - len(s); pad > 0 && n >= 0 {
			s = strings.Repeat("0", pad) + s
		}
		return s
	case "lowerLetter", "upperLetter":
		if s := letters(n); s != "" {
			if format == "upperLetter" {
				return strings.ToUpper(s)
			}
			return s
		}
	case "lowerRoman", "upperRoman":
		if s := roman(n); s != "" {
			if format == "lowerRoman" {
				return strings.ToLower(s)
			}
			return s
		}
	case "decimalFullWidth", "decimalFullWidth2":
		return fullWidth(strconv.Itoa(n))
	case "decimalEnclosedCircle", "decimalEnclosedCircleChinese":
		switch {
		case n >= 1 && n <= 20:
			return string(rune('①' + n - 1))
		case n >= 21 && n <= 35:
			return string(rune('㉑' + n - 21))
		case n >= 36 && n <= 50:
			return string(rune('㊱' + n - 36))
		}
	case "decimalEnclosedParen":
		if n >= 1 && n <= 20 {
			return string(rune('⑴' + n - 1))
		}
	case "decimalEnclosedFullstop":
		if n >= 1 && n <= 20 {
			return string(rune('⒈' + n - 1))
		}
	case "ordinal":
		return strconv.Itoa(n) + ordinalSuffix(n)
	case "aiueo", "aiueoFullWidth", "iroha", "irohaFullWidth":
		if s := kana(format, n); s != "" {
			return s
		}
	case "ideographDigital", "japaneseCounting", "chineseCounting", "chineseCountingThousand", "japaneseDigitalTenThousand":
		if s := kanjiNumber(format, n); s != "" {
			return s
		}
	}
	return strconv.Itoa(n)
}

// letters is Word's letter numbering: a … z, then aa … zz, aaa …; ""
// beyond ten letters.
func letters(n int) string {
	if n < 1 || n > 26*10 {
		return ""
	}
	return strings.Repeat(string(rune('a'+(n-1)%26)), (n-1)/26+1)
}

// roman is n in Roman numerals, "" outside 1–3999.
func roman(n int) string {
	if n < 1 || n > 3999 {
		return ""
	}
	var b strings.Builder
	for _, r := range []struct {
		v int
		s string
	}{{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}} {
		for n >= r.v {
			b.WriteString(r.s)
			n -= r.v
		}
	}
	return b.String()
}

func fullWidth(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			r += '０' - '0'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func ordinalSuffix(n int) string {
	if n%100 >= 11 && n%100 <= 13 {
		return "th"
	}
	switch n % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

const (
	aiueoKana = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲン"
	irohaKana = "イロハニホヘトチリヌルヲワカヨタレソツネナラムウヰノオクヤマケフコエテアサキユメミシヱヒモセスン"
)

// kana is the aiueo or iroha numbering (katakana, repeating after the
// last; the half-width forms of Word are written full width).
func kana(format string, n int) string {
	seq := []rune(aiueoKana)
	if strings.HasPrefix(format, "iroha") {
		seq = []rune(irohaKana)
	}
	if n < 1 {
		return ""
	}
	return string(seq[(n-1)%len(seq)])
}

// kanjiNumber writes n in kanji: digit by digit (ideographDigital: 一〇)
// or counted (japaneseCounting: 十一); "" outside 1–99999.
func kanjiNumber(format string, n int) string {
	digits := []rune("〇一二三四五六七八九")
	if n < 0 || n > 99999 {
		return ""
	}
	if format == "ideographDigital" || format == "japaneseDigitalTenThousand" {
		var b strings.Builder
		for _, d := range strconv.Itoa(n) {
			b.WriteRune(digits[d-'0'])
		}
		return b.String()
	}
	if n == 0 {
		return "〇"
	}
	var b strings.Builder
	for _, u := range []struct {
		v int
		s string
	}{{10000, "万"}, {1000, "千"}, {100, "百"}, {10, "十"}} {
		if q := n / u.v; q > 0 {
			if q > 1 || u.v == 10000 {
				b.WriteRune(digits[q])
			}
			b.WriteString(u.s)
			n %= u.v
		}
	}
	if n > 0 {
		b.WriteRune(digits[n])
	}
	return b.String()
}

// listNumberer numbers the paragraphs of one document in order.
type listNumberer struct {
	defs      *listDefs
	counters  map[string]*listCounters // by abstract list ID
	instances map[string]*listUse      // by numID, made on first use
}

// listUse is a list instance as used: its levels (the abstract list's
// with the instance's overrides) and the counters it shares.
type listUse struct {
	levels   [listLevels]listLevel
	counters *listCounters
}

func newListNumberer(defs *listDefs) *listNumberer {
	return &listNumberer{defs: defs, counters: map[string]*listCounters{}, instances: map[string]*listUse{}}
}

// paraNumbering is what a paragraph's own properties say.
type paraNumbering struct {
	style         string
	numID         string
	ilvl          int
	hasNum, hasLv bool
}

// next counts the paragraph p and returns its label with the space after
// it ("2.1. ", "• "), or "" when it is not in a list.
func (n *listNumberer) next(p paraNumbering) string {
	if n == nil || n.defs == nil {
		return ""
	}
	numID, ilvl, fromStyle := n.resolve(p)
	if numID == "" || numID == "0" || ilvl < 0 || ilvl >= listLevels {
		return ""
	}
	u := n.use(numID)
	if u == nil {
		return ""
	}
	if fromStyle < 0 {
		// The level of a style's list, named by neither: the level tied
		// to the paragraph's style.
		ilvl = 0
		for i, l := range u.levels {
			if l.pStyle != "" && l.pStyle == n.styleOf(p) {
				ilvl = i
				break
			}
		}
	}
	if !u.levels[ilvl].defined {
		return ""
	}
	u.counters.advance(ilvl, &u.levels)
	if s := u.counters.label(ilvl, &u.levels); s != "" {
		// A space also where w:suff says nothing, as LibreOffice writes
		// it: "第1条" and its heading stay apart.
		return s + " "
	}
	return ""
}

func (n *listNumberer) styleOf(p paraNumbering) string {
	if p.style != "" {
		return p.style
	}
	return n.defs.defaultStyle
}

// resolve returns the paragraph's list and level: its own w:numPr over
// its style's (through w:basedOn). fromStyle is -1 when the level was
// named nowhere and the list came from the style.
func (n *listNumberer) resolve(p paraNumbering) (numID string, ilvl, fromStyle int) {
	numID, ilvl = p.numID, p.ilvl
	hasNum, hasLv := p.hasNum, p.hasLv
	style := n.styleOf(p)
	for i := 0; i < maxStyleChain && style != "" && !(hasNum && hasLv); i++ {
		s, ok := n.defs.styles[style]
		if !ok {
			break
		}
		if !hasNum && s.hasNum {
			numID, hasNum = s.numID, true
		}
		if !hasLv && s.hasLv {
			ilvl, hasLv = s.ilvl, true
		}
		style = s.basedOn
	}
	fromStyle = 0
	if !hasLv {
		if p.hasNum {
			ilvl = 0
		} else {
			fromStyle = -1
		}
	}
	return numID, ilvl, fromStyle
}

// use returns list instance numID as used; its first use restarts the
// levels it overrides the start of.
func (n *listNumberer) use(numID string) *listUse {
	if u, ok := n.instances[numID]; ok {
		return u
	}
	num, ok := n.defs.nums[numID]
	if !ok {
		return nil
	}
	absID, abs := n.abstractOf(num.abstractID)
	if abs == nil {
		return nil
	}
	c, ok := n.counters[absID]
	if !ok {
		c = newListCounters()
		n.counters[absID] = c
	}
	u := &listUse{levels: abs.levels, counters: c}
	for i := range u.levels {
		if num.override[i].defined {
			u.levels[i] = num.override[i]
		}
		if num.startOver[i] >= 0 {
			c.restart(i, num.startOver[i])
		}
	}
	n.instances[numID] = u
	return u
}

// abstractOf returns the abstract list id, following a numbering style
// link (w:numStyleLink) to the list that defines the levels.
func (n *listNumberer) abstractOf(id string) (string, *abstractList) {
	for range maxListLinks {
		abs, ok := n.defs.abstract[id]
		if !ok {
			return "", nil
		}
		if abs.numStyleLink == "" {
			return id, abs
		}
		s, ok := n.defs.styles[abs.numStyleLink]
		if !ok || !s.hasNum {
			return id, abs
		}
		num, ok := n.defs.nums[s.numID]
		if !ok {
			return id, abs
		}
		id = num.abstractID
	}
	return "", nil
}

// levelText keeps the first maxLvlTextLen runes of a level's text.
func levelText(s string) string {
	if utf8.RuneCountInString(s) <= maxLvlTextLen {
		return s
	}
	return string([]rune(s)[:maxLvlTextLen])
}
