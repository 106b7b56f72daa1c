package extract

import (
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// codeRange is one codespace range of a CMap: codes of n bytes from lo to hi.
type codeRange struct {
	n      int
	lo, hi uint32
}

// pdfFont decodes the strings shown with one font into Unicode text and
// glyph advances.
type pdfFont struct {
	type0    bool
	vertical bool
	scale    float64 // glyph space → text space (0.001, or FontMatrix[0] for Type3)
	em       float64 // the font's em in text space per unit of font size: 1 but for odd Type 3 fonts (type3Em)
	flipped  bool    // a Type 3 FontMatrix that mirrors its glyphs (Ghostscript's [1 0 0 -1]): drawn with a mirroring text matrix, they stand upright

	space  []codeRange       // code lengths (Type0), from the CMap
	split  func(string) int  // length of the next code when space is empty
	toUni  map[uint32]string // ToUnicode
	simple *[256]rune        // simple-font base encoding with Differences
	multi  map[int]string    // simple-font codes whose glyph is several characters
	legacy encoding.Encoding // predefined CJK CMap: decode the bytes as this charset
	utf16  bool              // predefined Uni*-UCS2/UTF16 CMap
	cidUni []rune            // Identity CMap: an Adobe collection's CID → Unicode

	firstChar  int
	widths     []float64          // simple fonts
	zeroWidths bool               // widths has an advance: a 0 in it is a glyph without advance (a point, a mark)
	stdWidths  map[rune]float64   // a standard font without Widths
	stdFixed   float64            // Courier without Widths: 600
	cidW       map[uint32]float64 // CID fonts
	dw         float64
	dwSet      bool // dw is the font's MissingWidth (simple fonts), not a guess
}

// glyph is one decoded character code.
type glyph struct {
	text  string
	width float64 // advance in glyph space units (horizontal) or 1000 (vertical)
	space bool    // single-byte code 32: word spacing applies
	// measured: width is the font's own advance for the glyph (its
	// Widths, W or DW, or a standard font's metrics), not a guess
	measured bool
}

// newPDFFont reads a font dictionary. It never fails: unknown encodings
// decode as Latin-1 / nothing rather than stopping the page.
func newPDFFont(v pdf.Value, budget *pdfBudget) *pdfFont {
	f := &pdfFont{scale: 0.001, dw: 1000, em: 1}
	sub := v.Key("Subtype").Name()
	if sub == "Type3" {
		m := v.Key("FontMatrix")
		if m.Len() >= 1 && m.Index(0).Float64() != 0 {
			f.scale = m.Index(0).Float64()
		}
		if m.Len() >= 4 {
			f.flipped = m.Index(0).Float64()*m.Index(3).Float64()-m.Index(1).Float64()*m.Index(2).Float64() < 0
		}
	}
	if tu := v.Key("ToUnicode"); tu.Kind() == pdf.Stream {
		f.toUni, f.space = readToUnicode(tu, budget)
	}
	if sub == "Type0" {
		f.type0 = true
		f.initType0(v, budget)
		return f
	}
	f.simple, f.multi = simpleEncoding(v, budget)
	f.firstChar = int(v.Key("FirstChar").Int64())
	w := v.Key("Widths")
	for i := 0; i < w.Len() && i < 256; i++ {
		f.widths = append(f.widths, w.Index(i).Float64())
		f.zeroWidths = f.zeroWidths || f.widths[i] > 0
	}
	f.dw = v.Key("FontDescriptor").Key("MissingWidth").Float64()
	f.dwSet = f.dw > 0
	if f.dw == 0 {
		f.dw = 500 // an average Latin advance
	}
	if len(f.widths) == 0 {
		// The standard 14 fonts may come without widths: theirs are
		// known, and word spaces are judged from them.
		f.stdWidths, f.stdFixed = core14Metrics(v.Key("BaseFont").Name())
	}
	if sub == "Type3" {
		f.em = type3Em(f.widths, f.scale)
	}
	return f
}

// type3Em returns the em of a Type 3 font in text space per unit of font
// size. A Type 3 font's glyph space is its own: most map 1000 units, or
// the pixels of a TeX bitmap font, to the font size, and their glyphs
// advance a fraction of an em; one whose FontMatrix is 1 and glyphs 59
// units wide (Ghostscript's bitmap digits, set at 0.04 pt) advances 59
// font sizes a glyph, and every gap measured against the size would be a
// word space ("1 0" for 10). When the glyphs' median advance is not
// between 0.02 and 4 font sizes, the em is taken as twice that advance,
// the width of an average glyph as pdftotext guesses it; 1 otherwise.
func type3Em(widths []float64, scale float64) float64 {
	var adv []float64
	for _, w := range widths {
		if a := math.Abs(w * scale); a > 0 {
			adv = append(adv, a)
		}
	}
	if len(adv) == 0 {
		return 1
	}
	slices.Sort(adv)
	m := adv[len(adv)/2]
	if m >= 0.02 && m <= 4 {
		return 1
	}
	return 2 * m
}

// core14Metrics returns the advances by character of a standard font
// named base (Times, Helvetica and their Windows names, Courier's fixed
// 600), or nil.
func core14Metrics(base string) (map[rune]float64, float64) {
	if i := strings.IndexByte(base, '+'); i == 6 {
		base = base[i+1:] // a subset prefix
	}
	b := strings.ToLower(strings.NewReplacer(",", "-", " ", "").Replace(base))
	bold := strings.Contains(b, "bold")
	italic := strings.Contains(b, "italic") || strings.Contains(b, "oblique")
	switch {
	case strings.HasPrefix(b, "courier"):
		return nil, 600
	case strings.HasPrefix(b, "helvetica"), strings.HasPrefix(b, "arial"):
		if bold {
			return core14Tables()["Helvetica-Bold"], 0
		}
		return core14Tables()["Helvetica"], 0
	case strings.HasPrefix(b, "times"):
		switch {
		case bold && italic:
			return core14Tables()["Times-BoldItalic"], 0
		case bold:
			return core14Tables()["Times-Bold"], 0
		case italic:
			return core14Tables()["Times-Italic"], 0
		}
		return core14Tables()["Times-Roman"], 0
	}
	return nil, 0
}

// core14Tables decodes core14Widths on first use.
var core14Tables = sync.OnceValue(func() map[string]map[rune]float64 {
	out := map[string]map[rune]float64{}
	for font, w := range core14Widths {
		m := make(map[rune]float64, len(core14GlyphNames))
		for i, name := range core14GlyphNames {
			if 2*i+1 >= len(w) {
				break
			}
			adv := float64(int(w[2*i])<<8 | int(w[2*i+1]))
			if r := glyphRune(name, 0); r != 0 && adv > 0 {
				m[r] = adv
			}
		}
		out[font] = m
	}
	return out
})

func (f *pdfFont) initType0(v pdf.Value, budget *pdfBudget) {
	desc := v.Key("DescendantFonts").Index(0)
	csi := desc.Key("CIDSystemInfo")
	if d := desc.Key("DW"); d.Kind() == pdf.Integer || d.Kind() == pdf.Real {
		f.dw = d.Float64()
	}
	f.cidW = readCIDWidths(desc.Key("W"), budget)
	enc := v.Key("Encoding")
	name := enc.Name()
	if enc.Kind() == pdf.Stream {
		// An embedded CMap: take its name and writing mode; codes are CIDs
		// only for Identity-like maps, which is what producers embed.
		name = enc.Key("CMapName").Name()
		if enc.Key("WMode").Int64() == 1 {
			f.vertical = true
		}
		if _, sp := readToUnicode(enc, budget); len(sp) > 0 && len(f.space) == 0 {
			f.space = sp
		}
	}
	if strings.HasSuffix(name, "-V") || name == "V" {
		f.vertical = true
	}
	f.split = fixedSplit(2)
	switch {
	case strings.HasPrefix(name, "Identity"):
		f.cidUni = cidTable(csi.Key("Registry").RawString(), csi.Key("Ordering").RawString())
	case strings.Contains(name, "RKSJ"):
		f.legacy, f.split = japanese.ShiftJIS, leadSplit(func(b byte) bool { return b >= 0x81 && b <= 0x9f || b >= 0xe0 && b <= 0xfc })
	case strings.HasPrefix(name, "EUC-") || strings.Contains(name, "-EUC-"):
		f.legacy, f.split = japanese.EUCJP, eucSplit
	case name == "H" || name == "V" || strings.HasPrefix(name, "78-") && len(name) == 4:
		f.legacy = jisX0208{}
	case strings.HasPrefix(name, "Uni") && (strings.Contains(name, "UCS2") || strings.Contains(name, "UTF16")):
		f.utf16, f.split = true, utf16Split
	case strings.HasPrefix(name, "GBK") || strings.HasPrefix(name, "GB-EUC") || strings.HasPrefix(name, "GBpc-EUC"):
		f.legacy, f.split = simplifiedchinese.GBK, leadSplit(func(b byte) bool { return b >= 0x81 })
	case strings.HasPrefix(name, "B5") || strings.HasPrefix(name, "ETen") || strings.HasPrefix(name, "HKscs"):
		f.legacy, f.split = traditionalchinese.Big5, leadSplit(func(b byte) bool { return b >= 0x81 })
	case strings.HasPrefix(name, "KSC"):
		f.legacy, f.split = korean.EUCKR, leadSplit(func(b byte) bool { return b >= 0x81 })
	}
}

// jisX0208 decodes 2-byte JIS X 0208 row/cell codes (the predefined H and V
// CMaps) by shifting them into EUC-JP.
type jisX0208 struct{ encoding.Encoding }

func (jisX0208) decode(code string) string {
	b := []byte(code)
	for i := range b {
		b[i] |= 0x80
	}
	out, err := japanese.EUCJP.NewDecoder().Bytes(b)
	if err != nil {
		return ""
	}
	return string(out)
}

func fixedSplit(n int) func(string) int { return func(string) int { return n } }

func leadSplit(isLead func(byte) bool) func(string) int {
	return func(s string) int {
		if isLead(s[0]) {
			return 2
		}
		return 1
	}
}

func eucSplit(s string) int {
	switch {
	case s[0] == 0x8f:
		return 3
	case s[0] >= 0x8e:
		return 2
	}
	return 1
}

func utf16Split(s string) int {
	if len(s) >= 4 && s[0] >= 0xd8 && s[0] <= 0xdb {
		return 4
	}
	return 2
}

// nextCode returns the length of the character code at the start of s.
func (f *pdfFont) nextCode(s string) int {
	if !f.type0 {
		return 1
	}
	if f.split != nil && (f.legacy != nil || f.utf16) || len(f.space) == 0 {
		return min(f.split(s), len(s))
	}
	for n := 1; n <= 4 && n <= len(s); n++ {
		c := codeValue(s[:n])
		for _, r := range f.space {
			if r.n == n && c >= r.lo && c <= r.hi {
				return n
			}
		}
	}
	return min(2, len(s))
}

func codeValue(s string) uint32 {
	var c uint32
	for i := 0; i < len(s); i++ {
		c = c<<8 | uint32(s[i])
	}
	return c
}

// decode splits raw into character codes and returns one glyph per code.
func (f *pdfFont) decode(raw string, out []glyph) []glyph {
	for len(raw) > 0 {
		n := f.nextCode(raw)
		code := raw[:n]
		raw = raw[n:]
		c := codeValue(code)
		g := glyph{space: n == 1 && c == 32}
		if t, ok := f.toUni[c]; ok {
			g.text = t
		} else {
			g.text = f.fallback(code, c)
		}
		g.width, g.measured = f.advance(c)
		if !g.measured && f.listsZero(c) && setOnLetter(g.text) {
			g.width, g.measured = 0, true
		}
		out = append(out, g)
	}
	return out
}

func (f *pdfFont) fallback(code string, c uint32) string {
	switch {
	case f.simple != nil:
		if t, ok := f.multi[int(c&0xff)]; ok {
			return t
		}
		if r := f.simple[c&0xff]; r != 0 {
			return string(r)
		}
		return ""
	case f.cidUni != nil:
		if r := collectionRune(f.cidUni, c); r > 0 {
			return string(r)
		}
	case f.utf16:
		u := make([]uint16, 0, 2)
		for i := 0; i+1 < len(code); i += 2 {
			u = append(u, uint16(code[i])<<8|uint16(code[i+1]))
		}
		return string(utf16.Decode(u))
	case f.legacy != nil:
		if j, ok := f.legacy.(jisX0208); ok {
			return j.decode(code)
		}
		out, err := f.legacy.NewDecoder().String(code)
		if err == nil && !strings.ContainsRune(out, '\uFFFD') {
			return out
		}
	}
	return ""
}

// advance returns the glyph's advance in glyph space (1000 = 1 em for
// non-Type3 fonts), and whether it is the font's own rather than a guess.
func (f *pdfFont) advance(c uint32) (float64, bool) {
	if f.vertical {
		return 1000, true
	}
	if f.type0 {
		if f.legacy == nil && !f.utf16 { // Identity: code == CID
			if w, ok := f.cidW[c]; ok {
				return w, true
			}
		}
		return f.dw, true
	}
	i := int(c) - f.firstChar
	if i >= 0 && i < len(f.widths) && (f.widths[i] > 0 || f.widths[i] == 0 && f.zeroWidths) {
		return f.widths[i], true
	}
	if f.stdFixed > 0 {
		return f.stdFixed, true
	}
	if f.stdWidths != nil && f.simple != nil {
		if w, ok := f.stdWidths[f.simple[c&0xff]]; ok {
			return w, true
		}
	}
	return f.dw, f.dwSet
}

// listsZero reports whether the Widths of simple font f give code c an
// advance of 0. In a font whose Widths list no advance at all such a
// width is taken for a guess (producers list 0 for glyphs they did not
// measure), unless the glyph is one set on the letter before it
// (setOnLetter); where they list advances, advance takes it as it is.
func (f *pdfFont) listsZero(c uint32) bool {
	i := int(c) - f.firstChar
	return !f.type0 && i >= 0 && i < len(f.widths) && f.widths[i] == 0
}

// setOnLetter reports whether text is a glyph set on the letter before it
// rather than after it: a combining mark, or a Hangul vowel or final
// consonant jamo (old Hangul is set as an initial consonant with advance,
// then its vowel and final drawn over it without advance).
func setOnLetter(text string) bool {
	r, _ := utf8.DecodeRuneInString(text)
	return unicode.In(r, unicode.Mn, unicode.Me) || r >= 0x1160 && r <= 0x11ff || r >= 0xd7b0 && r <= 0xd7ff
}

// readCIDWidths reads a CIDFont's W array: [c [w1 w2 ...]] and [c1 c2 w].
func readCIDWidths(w pdf.Value, budget *pdfBudget) map[uint32]float64 {
	m := map[uint32]float64{}
	for i := 0; i < w.Len() && len(m) < 1<<16; {
		budget.charge(1)
		first := w.Index(i)
		if i+1 >= w.Len() {
			break
		}
		next := w.Index(i + 1)
		if next.Kind() == pdf.Array {
			c := uint32(first.Int64())
			budget.charge(int64(min(next.Len(), 1<<16)))
			for j := 0; j < next.Len() && j < 1<<16; j++ {
				m[c+uint32(j)] = next.Index(j).Float64()
			}
			i += 2
			continue
		}
		if i+2 >= w.Len() {
			break
		}
		lo, hi, width := first.Int64(), next.Int64(), w.Index(i+2).Float64()
		if hi >= lo {
			budget.charge(min(hi-lo+1, 1<<16))
		}
		for c := lo; c <= hi && c-lo < 1<<16; c++ {
			m[uint32(c)] = width
		}
		i += 3
	}
	return m
}

// maxCMapBytes caps the decoded size of a CMap stream, maxCMapCodes the
// codes its ranges map.
const (
	maxCMapBytes = 8 << 20
	maxCMapCodes = 1 << 20
)

// readToUnicode parses a CMap stream's codespace ranges and bfchar/bfrange
// mappings (a ToUnicode CMap, or the codespace of an embedded encoding CMap).
// Malformed entries are skipped. Its bytes and mappings are charged to the
// document's budget (a range maps up to 65,536 codes).
func readToUnicode(s pdf.Value, budget *pdfBudget) (map[uint32]string, []codeRange) {
	data, ok := readCMap(s, budget)
	if !ok {
		return map[uint32]string{}, nil
	}
	p := cmapParser{toks: cmapTokens(data), m: map[uint32]string{}, budget: budget}
	p.parse()
	return p.m, p.space
}

// readCMap reads a CMap stream, at most maxCMapBytes, charging its bytes
// to the budget; ok false when the stream cannot be read. Running out of
// budget or a cancelled document panics (the document's reader recovers).
func readCMap(s pdf.Value, budget *pdfBudget) (data []byte, ok bool) {
	budget.open()
	if err := safely(func() {
		rc := s.Reader()
		defer rc.Close()
		data, _ = io.ReadAll(io.LimitReader(budgetReader{rc, budget}, maxCMapBytes))
	}); err != nil {
		if errors.Is(err, errPDFBudget) || budget.ctx.Err() != nil {
			panic(err)
		}
		return nil, false
	}
	return data, true
}

// cmapParser reads the tokens of a CMap into its code → text mappings (m)
// and its codespace ranges; mapped counts the codes its ranges mapped.
type cmapParser struct {
	toks   []cmapToken
	m      map[uint32]string
	space  []codeRange
	mapped int
	budget *pdfBudget
}

// parse reads every codespacerange, bfchar and bfrange list, and stops
// once the ranges mapped more than maxCMapCodes codes.
func (p *cmapParser) parse() {
	for i := 0; i < len(p.toks); i++ {
		switch p.toks[i].kw {
		case "endcmap":
			// The map ends here: what follows in the stream is no part
			// of it (arabi's PDFs append a Latin map whose ranges would
			// turn every Arabic letter back into its code, "ﻧ\Aم" for
			// "ﻧﻈﺎم"); MuPDF stops here too.
			return
		case "begincodespacerange":
			i = p.codespaceRanges(i + 1)
		case "beginbfchar":
			i = p.bfChars(i + 1)
		case "beginbfrange":
			var full bool
			if i, full = p.bfRanges(i + 1); full {
				return
			}
			i-- // let the loop see the token that ended the list
		}
	}
}

// codespaceRanges reads the pairs of codes from toks[i] on and returns
// the index of the token that ended the list.
func (p *cmapParser) codespaceRanges(i int) int {
	for ; i+1 < len(p.toks) && p.toks[i].kw == "" && p.toks[i+1].kw == ""; i += 2 {
		lo, hi := p.toks[i].str, p.toks[i+1].str
		if len(lo) > 0 && len(lo) == len(hi) && len(lo) <= 4 {
			p.space = append(p.space, codeRange{len(lo), codeValue(lo), codeValue(hi)})
		}
	}
	return i
}

// bfChars reads the code → text pairs from toks[i] on and returns the
// index of the token that ended the list.
func (p *cmapParser) bfChars(i int) int {
	for ; i+1 < len(p.toks) && p.toks[i].kw == "" && p.toks[i+1].kw == ""; i += 2 {
		if src := p.toks[i].str; len(src) <= 4 {
			p.m[codeValue(src)] = utf16String(p.toks[i+1].str)
		}
	}
	return i
}

// bfRanges reads the ranges from toks[i] on — low code, high code, then
// the text of the low code (incremented along the range) or an array of
// texts — and returns the index of the token that ended the list; full:
// the CMap mapped more than maxCMapCodes codes and is cut there.
func (p *cmapParser) bfRanges(i int) (end int, full bool) {
	for ; i+2 < len(p.toks) && p.toks[i].kw == "" && p.toks[i+1].kw == ""; i += 3 {
		lo, hi, dst := p.toks[i].str, p.toks[i+1].str, p.toks[i+2]
		var arr []string
		if dst.kw == "[" {
			for i++; i+2 < len(p.toks) && p.toks[i+2].kw == ""; i++ {
				arr = append(arr, p.toks[i+2].str)
			}
			// toks[i+2] is now "]"
		} else if dst.kw != "" {
			break
		}
		if !p.bfRange(lo, hi, dst.str, arr) {
			return i, true
		}
	}
	return i, false
}

// bfRange maps the codes loS–hiS to the texts of arr in order or, without
// arr, to base with its last UTF-16 code unit incremented along the range.
// A range maps up to 65,536 codes: a CMap of many ranges is cut at
// maxCMapCodes (false), and what it maps is charged. Malformed ranges are
// skipped.
func (p *cmapParser) bfRange(loS, hiS, base string, arr []string) bool {
	if len(loS) > 4 || len(hiS) > 4 {
		return true
	}
	lo, hi := codeValue(loS), codeValue(hiS)
	if hi < lo || hi-lo > 1<<16 {
		return true
	}
	if p.mapped += int(hi-lo) + 1; p.mapped > maxCMapCodes {
		return false
	}
	p.budget.charge(int64(hi-lo) + 1)
	if arr != nil {
		for j := 0; j < len(arr) && lo+uint32(j) <= hi; j++ {
			p.m[lo+uint32(j)] = utf16String(arr[j])
		}
		return true
	}
	if len(base) < 2 {
		return true
	}
	for c := lo; c <= hi; c++ {
		b := []byte(base)
		// Increment the last UTF-16 code unit.
		u := (uint32(b[len(b)-2])<<8 | uint32(b[len(b)-1])) + (c - lo)
		b[len(b)-2], b[len(b)-1] = byte(u>>8), byte(u)
		p.m[c] = utf16String(string(b))
	}
	return true
}

// cmapToken is a string operand (kw == "") or a keyword / delimiter.
type cmapToken struct {
	kw  string
	str string
}

// cmapTokens splits a CMap program into hex and literal strings (decoded),
// array brackets and keywords; names, numbers and dictionaries come out as
// keywords, which the parser treats as list terminators.
func cmapTokens(data []byte) []cmapToken {
	var out []cmapToken
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '%':
			for i < len(data) && data[i] != '\n' && data[i] != '\r' {
				i++
			}
		case c == '<' && i+1 < len(data) && data[i+1] == '<', c == '>' && i+1 < len(data) && data[i+1] == '>':
			out = append(out, cmapToken{kw: string(data[i : i+2])})
			i += 2
		case c == '<':
			j := i + 1
			var h []byte
			for j < len(data) && data[j] != '>' {
				if v := unhex(data[j]); v >= 0 {
					h = append(h, byte(v))
				}
				j++
			}
			if len(h)%2 == 1 {
				h = append(h, 0)
			}
			b := make([]byte, len(h)/2)
			for k := range b {
				b[k] = h[2*k]<<4 | h[2*k+1]
			}
			out = append(out, cmapToken{str: string(b)})
			i = j + 1
		case c == '(':
			j, depth := i+1, 1
			var b []byte
			for ; j < len(data) && depth > 0; j++ {
				switch data[j] {
				case '\\':
					if j+1 < len(data) {
						j++
						b = append(b, data[j])
					}
					continue
				case '(':
					depth++
				case ')':
					depth--
					if depth == 0 {
						continue
					}
				}
				b = append(b, data[j])
			}
			out = append(out, cmapToken{str: string(b)})
			i = j
		case c == '[' || c == ']' || c == '{' || c == '}':
			out = append(out, cmapToken{kw: string(c)})
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0:
			i++
		default:
			j := i + 1
			for j < len(data) && !strings.ContainsRune(" \t\r\n\f\x00()<>[]{}/%", rune(data[j])) {
				j++
			}
			out = append(out, cmapToken{kw: string(data[i:j])})
			i = j
		}
	}
	return out
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func utf16String(s string) string {
	if len(s)%2 != 0 {
		return s
	}
	u := make([]uint16, 0, len(s)/2)
	for i := 0; i+1 < len(s); i += 2 {
		u = append(u, uint16(s[i])<<8|uint16(s[i+1]))
	}
	return string(utf16.Decode(u))
}

// simpleEncoding builds the code → rune table of a simple font from its
// base encoding and Differences; multi holds the codes whose glyph names
// several characters (a ligature such as f_f_i or lam_alef, by name).
func simpleEncoding(v pdf.Value, budget *pdfBudget) (t *[256]rune, multi map[int]string) {
	t = new([256]rune)
	// name gives code the character(s) of a glyph name; an unknown name
	// keeps what the code had. A name both an Arabic and a Hebrew letter
	// may have (kaffinal) is read in the script of the font's other
	// letters once all are read (hebrewFont).
	var twoScripts map[int]string
	name := func(code int, glyph string) {
		s := glyphText(glyph)
		delete(twoScripts, code)
		if s != "" && hebrewName(glyph) != "" && arabicName(glyph) != "" {
			if twoScripts == nil {
				twoScripts = map[int]string{}
			}
			twoScripts[code] = glyph
		}
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case s == "":
			return
		case n == len(s):
			delete(multi, code)
		default:
			if multi == nil {
				multi = map[int]string{}
			}
			multi[code] = s
		}
		t[code] = r
	}
	enc := v.Key("Encoding")
	base := enc.Name()
	if enc.Kind() == pdf.Dict {
		base = enc.Key("BaseEncoding").Name()
	}
	var cm *charmap.Charmap
	switch base {
	case "MacRomanEncoding":
		cm = charmap.Macintosh
	case "WinAnsiEncoding":
		cm = charmap.Windows1252
	}
	for i := range t {
		switch {
		case cm != nil:
			t[i] = cm.DecodeByte(byte(i))
		case i >= 0x20 && i < 0x7f:
			t[i] = rune(i)
		case i >= 0xa0:
			t[i] = rune(i) // Latin-1 for unknown high codes
		}
	}
	if cm == nil {
		t[0x27], t[0x60] = '\u2019', '\u2018' // StandardEncoding quotes
	}
	plain := *t // the base table, before the font program's own encoding
	if base == "" {
		// No base encoding: the font's own. The Symbol font's is known;
		// an embedded Type 1 font states its own in its program (math
		// fonts such as PazoMath put Greek capitals at Latin codes).
		if strings.HasSuffix(v.Key("BaseFont").Name(), "Symbol") {
			for i, r := range symbolGreek {
				t['A'+i] = r
			}
		}
		desc := v.Key("FontDescriptor")
		for code, glyph := range type1Encoding(desc.Key("FontFile"), budget) {
			name(code, glyph)
		}
		if ff := desc.Key("FontFile3"); ff.Key("Subtype").Name() == "Type1C" {
			for code, glyph := range cffEncoding(readFontProgram(ff, budget, maxCFFBytes)) {
				name(code, glyph)
			}
		}
	}
	if d := enc.Key("Differences"); d.Kind() == pdf.Array {
		code := 0
		n := min(d.Len(), 4096) // 256 codes never need more
		budget.charge(int64(n))
		for i := 0; i < n; i++ {
			x := d.Index(i)
			switch x.Kind() {
			case pdf.Integer:
				code = int(x.Int64())
			case pdf.Name:
				if code >= 0 && code < 256 {
					if glyphText(x.Name()) == "" {
						// A glyph the font program's encoding does not
						// put there (cjhebrew's endofword over its
						// alef): the code is read as in the base table.
						t[code] = plain[code]
						delete(multi, code)
						delete(twoScripts, code)
					}
					name(code, x.Name())
				}
				code++
			}
		}
	}
	if len(twoScripts) > 0 && hebrewFont(t) {
		for code, glyph := range twoScripts {
			r, _ := utf8.DecodeRuneInString(hebrewName(glyph))
			t[code] = r
		}
	}
	return t, multi
}

// hebrewFont reports whether an encoding has more Hebrew letters and
// points than Arabic ones.
func hebrewFont(t *[256]rune) bool {
	n := 0
	for _, r := range t {
		switch {
		case unicode.Is(unicode.Hebrew, r):
			n++
		case unicode.Is(unicode.Arabic, r):
			n--
		}
	}
	return n > 0
}

// symbolGreek are the letters of the Symbol font's encoding at codes
// 'A' to 'z' (0 where it has no letter).
var symbolGreek = [...]rune{
	'Α', 'Β', 'Χ', 'Δ', 'Ε', 'Φ', 'Γ', 'Η', 'Ι', 'ϑ', 'Κ', 'Λ', 'Μ', 'Ν', 'Ο', 'Π', 'Θ', 'Ρ', 'Σ', 'Τ', 'Υ', 'ς', 'Ω', 'Ξ', 'Ψ', 'Ζ',
	'[', '∴', ']', '⊥', '_', '\uf8e5',
	'α', 'β', 'χ', 'δ', 'ε', 'φ', 'γ', 'η', 'ι', 'ϕ', 'κ', 'λ', 'μ', 'ν', 'ο', 'π', 'θ', 'ρ', 'σ', 'τ', 'υ', 'ϖ', 'ω', 'ξ', 'ψ', 'ζ',
}

// maxType1Header bounds the bytes of a Type 1 font program read for its
// encoding, which is in the clear-text part before the encrypted one.
const maxType1Header = 64 << 10

// maxCFFBytes bounds the bytes of a CFF font program read for its
// encoding (a subset font is a few kilobytes).
const maxCFFBytes = 2 << 20

// readFontProgram returns the first limit bytes of a font program
// stream, charged to the budget; nil when it is not a stream or cannot be
// read.
func readFontProgram(ff pdf.Value, budget *pdfBudget, limit int64) []byte {
	if ff.Kind() != pdf.Stream {
		return nil
	}
	var data []byte
	budget.open()
	if err := safely(func() {
		rc := ff.Reader()
		defer rc.Close()
		data, _ = io.ReadAll(io.LimitReader(budgetReader{rc, budget}, limit))
	}); err != nil {
		if errors.Is(err, errPDFBudget) || budget.ctx.Err() != nil {
			panic(err)
		}
		return nil
	}
	return data
}

// type1Encoding reads the built-in encoding of an embedded Type 1 font
// program (FontFile): the "dup CODE /name put" entries of its clear-text
// part. Nil when there is none or it is StandardEncoding.
func type1Encoding(ff pdf.Value, budget *pdfBudget) map[int]string {
	n := int64(maxType1Header)
	if l1 := ff.Key("Length1").Int64(); l1 > 0 && l1 < n {
		n = l1
	}
	data := readFontProgram(ff, budget, n)
	if i := strings.Index(string(data), "eexec"); i >= 0 {
		data = data[:i]
	}
	i := strings.Index(string(data), "/Encoding")
	if i < 0 || strings.HasPrefix(strings.TrimSpace(string(data[i+len("/Encoding"):])), "StandardEncoding") {
		return nil
	}
	out := map[int]string{}
	fields := strings.Fields(string(data[i:]))
	for j := 0; j+3 < len(fields); j++ {
		if fields[j] != "dup" || fields[j+3] != "put" || !strings.HasPrefix(fields[j+2], "/") {
			continue
		}
		if code, err := strconv.Atoi(fields[j+1]); err == nil && code >= 0 && code < 256 {
			out[code] = fields[j+2][1:]
		}
	}
	return out
}
