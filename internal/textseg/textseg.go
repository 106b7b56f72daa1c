// Package textseg finds where text may be cut: between paragraphs,
// sentences, lines, clauses and words, in English and Japanese. The
// crawl's chunker cuts its chunks there (never inside a word), and the
// offline provider reads sentences with it, joining the lines of a
// sentence a PDF broke ("delivered on January 23,\n2017." is one sentence).
// Pure: rules on characters, no dictionary.
package textseg

import (
	"strings"
	"unicode"
)

// Level is how strong a cut before a character is. A cut is always
// before the first character of a token, never inside a word.
type Level int8

// Levels, weakest first.
const (
	None      Level = iota // inside a word: never cut
	Char                   // between two CJK characters (words are not marked there)
	Word                   // between words (white space, or a script change)
	Clause                 // after a comma, semicolon or colon (、，；： too)
	Line                   // a line break that ends a line of its own (heading, list item)
	Sentence               // after . ! ? 。！？ that end a sentence
	Paragraph              // a blank line
)

// Levels returns, for every rune index i of r (0 ≤ i ≤ len(r)), the level
// of a cut before r[i]; the cut at len(r) is Paragraph. A cut is only
// ever placed before a character that is not white space, so a text cut
// at such an index and trimmed loses no character. A line break inside
// a sentence (PDF line wrapping: the line does not end a sentence and the
// next one continues it) is a Word cut, not a Line one.
func Levels(r []rune) []Level {
	lv := make([]Level, len(r)+1)
	lv[len(r)] = Paragraph
	prev := -1 // index of the previous non-space rune
	for i := 0; i < len(r); i++ {
		if unicode.IsSpace(r[i]) {
			continue
		}
		if prev < 0 {
			lv[i] = Paragraph // the text's first token
			prev = i
			continue
		}
		lv[i] = cutBefore(r, prev, i)
		prev = i
	}
	return lv
}

// cutBefore is the level of a cut before r[i], r[prev] being the previous
// non-space rune.
func cutBefore(r []rune, prev, i int) Level {
	gap := r[prev+1 : i]
	breaks := 0
	for _, c := range gap {
		if c == '\n' || c == '\u2029' {
			breaks++
		}
	}
	if breaks >= 2 || strings.ContainsRune(string(gap), '\u2029') {
		return Paragraph
	}
	if breaks == 0 && strings.ContainsRune(string(gap), '\u3000') && isCJK(r[prev]) {
		// An ideographic space inside Japanese text sets lines or
		// paragraphs apart (a poem, an indent).
		return Line
	}
	if len(gap) == 0 && isCloser(r[i]) {
		return None // a closing quote or bracket stays with what it closes
	}
	if endsSentence(r, prev, i, len(gap) > 0) {
		return Sentence
	}
	if breaks == 1 {
		if continues(r, prev, i) {
			return Word
		}
		return Line
	}
	p := r[prev]
	if len(gap) == 0 {
		switch {
		case isCJKClause(p):
			return Clause
		case isCJK(p) && isCJK(r[i]):
			return Char
		case isCJK(p) != isCJK(r[i]) && unicode.IsLetter(p) && unicode.IsLetter(r[i]):
			return Word // a script change: 東京Tower
		case isCJKOpen(r[i]) || isCJKClose(p):
			return Char
		}
		return None
	}
	if strings.ContainsRune(",;:", p) {
		return Clause
	}
	return Word
}

// endsSentence reports whether a sentence ends before r[i]: the previous
// token ends in 。！？ (closing brackets after it allowed), or in . ! ?
// followed by space and a character that starts a sentence, the word
// before the period not being a common abbreviation.
func endsSentence(r []rune, prev, i int, spaced bool) bool {
	j := prev
	for j >= 0 && isCloser(r[j]) {
		j--
	}
	if j < 0 {
		return false
	}
	switch r[j] {
	case '。', '！', '？', '．':
		// 「本当？」と聞いた: a quoted question inside a sentence.
		return !(j < prev && unicode.Is(unicode.Hiragana, r[i]))
	case '!', '?':
		return spaced && startsSentence(r[i])
	case '.':
		if !spaced || !startsSentence(r[i]) {
			return false
		}
		return !abbreviation(r, j)
	}
	return false
}

// startsSentence reports whether c can begin a sentence.
func startsSentence(c rune) bool {
	return unicode.IsUpper(c) || unicode.IsDigit(c) || isCJK(c) || strings.ContainsRune("\"'“‘([「『（【*-•", c)
}

// abbrevs are words whose period does not end a sentence, lower case.
var abbrevs = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "jr": true, "sr": true,
	"vs": true, "etc": true, "e.g": true, "i.e": true, "inc": true, "ltd": true, "co": true, "corp": true,
	"no": true, "vol": true, "pp": true, "fig": true, "ed": true, "eds": true, "al": true, "approx": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true, "sep": true,
	"sept": true, "oct": true, "nov": true, "dec": true, "gen": true, "col": true, "lt": true, "capt": true,
	"gov": true, "sen": true, "rep": true, "rev": true, "mt": true, "ft": true, "u.s": true, "u.k": true,
	"a.d": true, "b.c": true, "ca": true, "cf": true, "op": true, "cit": true,
}

// abbreviation reports whether the period at r[dot] ends an abbreviation
// or an initial ("J. Smith", "U.S.").
func abbreviation(r []rune, dot int) bool {
	k := dot
	for k > 0 && !unicode.IsSpace(r[k-1]) && !strings.ContainsRune("([\"'“‘", r[k-1]) {
		k--
	}
	w := strings.ToLower(string(r[k:dot]))
	if abbrevs[w] {
		return true
	}
	letters := 0
	for _, c := range w {
		if unicode.IsLetter(c) {
			letters++
		}
	}
	if letters == 1 && len([]rune(w)) == 1 && unicode.IsUpper(r[k]) {
		return true // an initial
	}
	return strings.Count(w, ".") >= 1 && letters <= 4 && !strings.ContainsAny(w, "0123456789") && len([]rune(w)) <= 6 // e.g. "a.m", "ph.d"
}

// continues reports whether the line break between r[prev] and r[i] is
// inside a sentence: the line does not end one and the next line carries
// on (it starts in lower case or with a digit, or the line ends with a
// comma, hyphen or connective, or is a long line of running text).
func continues(r []rune, prev, i int) bool {
	p, n := r[prev], r[i]
	if isTerminal(p) || p == ':' || isListStart(r, i) {
		return false
	}
	if isCJK(p) {
		// Japanese running text: a long line cut before its 。.
		return isCJK(n) && lineLen(r, prev) >= 15 && !isCJKClose(p)
	}
	if unicode.IsLower(n) || unicode.IsDigit(n) || strings.ContainsRune(",;-–(&", p) {
		return true
	}
	return (unicode.IsLower(p) || unicode.IsDigit(p)) && lineLen(r, prev) >= 40
}

// isListStart reports a bullet or numbered item at r[i].
func isListStart(r []rune, i int) bool {
	switch r[i] {
	case '-', '*', '•', '・', '●', '■', '◆', '○', '□', '>', '#', '|':
		return true
	}
	j := i
	for j < len(r) && unicode.IsDigit(r[j]) {
		j++
	}
	return j > i && j < len(r) && j-i <= 3 && (r[j] == '.' || r[j] == ')')
}

// lineLen is the length of the line that ends at r[end].
func lineLen(r []rune, end int) int {
	n := 0
	for k := end; k >= 0 && r[k] != '\n'; k-- {
		n++
	}
	return n
}

func isTerminal(c rune) bool { return strings.ContainsRune(".!?。！？．", c) }
func isCloser(c rune) bool   { return strings.ContainsRune("\"'”’)]」』）】", c) }
func isCJKClause(c rune) bool {
	return strings.ContainsRune("、，；：", c)
}
func isCJKOpen(c rune) bool  { return strings.ContainsRune("「『（【〈《", c) }
func isCJKClose(c rune) bool { return strings.ContainsRune("」』）】〉》", c) }

// isCJK reports a Han, kana or CJK punctuation character.
func isCJK(c rune) bool {
	return unicode.Is(unicode.Han, c) || unicode.Is(unicode.Hiragana, c) || unicode.Is(unicode.Katakana, c) ||
		c == 'ー' || c == '々' || (c >= 0x3000 && c <= 0x303f) || (c >= 0xff00 && c <= 0xff60)
}

// Sentences splits text into its sentences, each on one line: a cut at
// every Sentence, Line or Paragraph level; the line breaks inside a
// sentence are joined (with a space, or with nothing between Japanese
// characters or after a hyphen) and runs of white space become one
// space.
func Sentences(text string) []string {
	r := []rune(text)
	lv := Levels(r)
	var out []string
	start := -1
	for i := 0; i <= len(r); i++ {
		if i < len(r) && lv[i] < Line {
			continue
		}
		if start >= 0 {
			if s := Join(r[start:i]); s != "" {
				out = append(out, s)
			}
		}
		start = i
	}
	return out
}

// Join returns r with its white space runs made one space, except that a
// line break between two Japanese characters or after a hyphen that ends
// a line is dropped. The ends are trimmed.
func Join(r []rune) string {
	var b strings.Builder
	b.Grow(len(r))
	var last rune // last rune written
	pendingSpace, pendingBreak := false, false
	for _, c := range r {
		if unicode.IsSpace(c) {
			pendingSpace = true
			if c == '\n' {
				pendingBreak = true
			}
			continue
		}
		if pendingSpace && last != 0 {
			drop := pendingBreak && (isCJK(last) && isCJK(c) || last == '-' && unicode.IsLower(c))
			if !drop {
				b.WriteByte(' ')
			}
		}
		pendingSpace, pendingBreak = false, false
		b.WriteRune(c)
		last = c
	}
	return b.String()
}

// Windows cuts text into pieces of at most size runes, each overlapping
// the previous one by about overlap runes (at most maxOverlap), cut only
// at boundaries:
//
//   - a piece ends at its last sentence, line or paragraph end past a
//     quarter of size; else at its last clause end past half of size;
//     else at its last word end past half of size; else at its last
//     word (or, in Japanese, character) boundary; a piece is cut inside a
//     word only when it is one word of more than size runes;
//   - the next piece starts at the first sentence start among the last
//     overlap runes of the previous piece; else at the last sentence
//     start among the maxOverlap runes before its end, when the piece
//     from there reaches past the previous one (a long sentence at the
//     overlap does not make the next piece begin inside it); else at the
//     first word start among the last overlap runes (no overlap when the
//     previous piece has no boundary there).
//
// Pieces are trimmed of white space; empty text has none. Every
// character of text is in a piece. size must exceed maxOverlap, and
// maxOverlap be at least overlap.
func Windows(text string, size, overlap, maxOverlap int) []string {
	r := []rune(text)
	var out []string
	for _, w := range Spans(r, size, overlap, maxOverlap) {
		out = append(out, string(r[w.Start:w.End]))
	}
	return out
}

// Span is a piece of a text: runes [Start, End).
type Span struct{ Start, End int }

// Spans is Windows on runes: the pieces as spans of r, trimmed of white
// space.
func Spans(r []rune, size, overlap, maxOverlap int) []Span {
	lv := Levels(r)
	var out []Span
	add := func(start, end int) {
		for start < end && unicode.IsSpace(r[start]) {
			start++
		}
		for end > start && unicode.IsSpace(r[end-1]) {
			end--
		}
		if end > start {
			out = append(out, Span{start, end})
		}
	}
	start := 0
	for start < len(r) && unicode.IsSpace(r[start]) {
		start++
	}
	for start < len(r) {
		if len(r)-start <= size {
			add(start, len(r))
			break
		}
		end := windowEnd(lv, start, size)
		add(start, end)
		// The next piece starts after this piece's first non-space rune:
		// a start that lands on white space must not let the next piece,
		// once trimmed, begin where this one did.
		first := start
		for first < end && unicode.IsSpace(r[first]) {
			first++
		}
		start = windowStart(lv, first, end, size, overlap, maxOverlap)
	}
	return out
}

// windowEnd picks where the piece starting at start ends (see Windows).
func windowEnd(lv []Level, start, size int) int {
	limit := start + size
	tiers := []struct {
		min  Level
		from int
	}{{Line, start + size/4}, {Clause, start + size/2}, {Word, start + size/2}, {Char, start + 1}}
	for _, t := range tiers {
		for i := limit; i > t.from; i-- {
			if lv[i] >= t.min {
				return i
			}
		}
	}
	return limit
}

// windowStart picks where the piece after [start, end) starts (see
// Windows): a sentence start among the last overlap runes, after start;
// else the last one among the last maxOverlap runes whose piece ends past
// end; else a word start among the last overlap runes.
func windowStart(lv []Level, start, end, size, overlap, maxOverlap int) int {
	from := max(end-overlap, start+1)
	for i := from; i < end; i++ {
		if lv[i] >= Line {
			return i
		}
	}
	for i := from - 1; i >= max(end-maxOverlap, start+1); i-- {
		if lv[i] >= Line && (i+size >= len(lv)-1 || windowEnd(lv, i, size) > end) {
			return i
		}
	}
	for _, min := range []Level{Word, Char} {
		for i := from; i < end; i++ {
			if lv[i] >= min {
				return i
			}
		}
	}
	return end
}
