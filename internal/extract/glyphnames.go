package extract

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"
)

// glyphNames are the glyph names fonts use that the Adobe Glyph List
// (aglNames) has not, or maps other than the text means: TeX's names
// (epsilon1, rho1, lscript, Rfractur), the Greek capitals Delta and Omega
// (the list's increment and ohm signs), angle brackets as CJK ones,
// Hebrew marks and their other spellings (cjhebrew's qibuts, patah
// furtivum), and Arabic vowel marks spelled with an h (arabi's fonts).
var glyphNames = map[string]rune{
	"Delta": 'Δ', "Omega": 'Ω', "epsilon1": 'ϵ', "rho1": 'ϱ', "lscript": 'ℓ', "prime": '′',
	"Ifractur": 'ℑ', "Rfractur": 'ℜ', "angleleft": '〈', "angleright": '〉',
	"shinshindotdagesh": '\ufb2c', "sofpasuq": '\u05c3',
	"fathah": '\u064e', "dammah": '\u064f', "kasrah": '\u0650', "shaddah": '\u0651',
	"qibuts": '\u05bb', "patahfurtivum": '\u05b7',
}

// accentMarks are the combining marks of accented glyph names ("eacute").
var accentMarks = []struct {
	suffix string
	mark   rune
}{
	{"acute", '\u0301'}, {"grave", '\u0300'}, {"circumflex", '\u0302'}, {"dieresis", '\u0308'},
	{"tilde", '\u0303'}, {"ring", '\u030a'}, {"cedilla", '\u0327'}, {"caron", '\u030c'},
	{"macron", '\u0304'}, {"breve", '\u0306'}, {"ogonek", '\u0328'}, {"dotaccent", '\u0307'},
	{"hungarumlaut", '\u030b'}, {"horn", '\u031b'}, {"dotbelow", '\u0323'}, {"hookabove", '\u0309'},
}

// glyphRune returns the character of a glyph name: single letters, the
// names of the Adobe Glyph List, uniXXXX / uXXXX[XX] names and accented
// letters; def otherwise (and for a name of several characters).
func glyphRune(name string, def rune) rune {
	if s := glyphText(name); s != "" {
		if r, n := utf8.DecodeRuneInString(s); n == len(s) {
			return r
		}
	}
	return def
}

// glyphText returns the characters a glyph name stands for, as the Adobe
// Glyph List specification reads names: a suffix after a period is
// dropped ("a.sc", "uni06CC.fina"), components joined by underscores are
// read one by one ("f_f_i", "afii57444_afii57415" lam-alef), each an AGL
// name, uniXXXX[XXXX…] or uXXXX[XX]; "" when a component is unknown.
func glyphText(name string) string {
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	if !strings.Contains(name, "_") {
		return glyphComponent(name)
	}
	var b strings.Builder
	for part := range strings.SplitSeq(name, "_") {
		s := glyphComponent(part)
		if s == "" || b.Len()+len(s) > 64 {
			return ""
		}
		b.WriteString(s)
	}
	return b.String()
}

// glyphComponent reads one component of a glyph name.
func glyphComponent(name string) string {
	switch {
	case name == "":
		return ""
	case len(name) == 1:
		return string(rune(name[0]))
	}
	if r, ok := glyphNames[name]; ok {
		return string(r)
	}
	if s, ok := aglNames()[name]; ok {
		return s
	}
	if s := arabicName(name); s != "" {
		return s
	}
	if s := hebrewName(name); s != "" {
		return s
	}
	if hex, ok := strings.CutPrefix(name, "uni"); ok && len(hex) >= 4 && len(hex)%4 == 0 && len(hex) <= 64 {
		var b strings.Builder
		for i := 0; i < len(hex); i += 4 {
			v, err := strconv.ParseUint(hex[i:i+4], 16, 32)
			if err != nil || v >= 0xd800 && v <= 0xdfff {
				return ""
			}
			b.WriteRune(rune(v))
		}
		return b.String()
	}
	if name[0] == 'u' && len(name) >= 5 && len(name) <= 7 {
		if v, err := strconv.ParseUint(name[1:], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
			return string(rune(v))
		}
	}
	return accentedName(name, 0)
}

// arabicName reads an Arabic glyph named after its character's Unicode
// name, as Monotype's Traditional Arabic and arabi's fonts name theirs:
// the name in lower case without spaces or hyphens, "ARABIC LETTER",
// "ARABIC LIGATURE" or "ARABIC" and "FORM" left out ("behinitial" is
// ARABIC LETTER BEH INITIAL FORM, "lamwithalefisolated" ARABIC LIGATURE
// LAM WITH ALEF ISOLATED FORM, "arabicindicdigitone" ARABIC-INDIC DIGIT
// ONE, "fatha" ARABIC FATHA; a second WITH may go: "lamwithalefhamzaabovefinal").
// "" when no Arabic character is so named.
func arabicName(name string) string {
	if r, ok := arabicNames()[name]; ok {
		return string(r)
	}
	// The list's "arabic" qualifier put first ("arabickaffinal", as
	// arabi's fonts tell the Arabic kaf from the Hebrew final kaf).
	if rest, ok := strings.CutPrefix(name, "arabic"); ok {
		if r, ok := arabicNames()[rest]; ok {
			return string(r)
		}
	}
	return ""
}

// arabicNames maps the names arabicName reads to their characters.
var arabicNames = sync.OnceValue(func() map[string]rune {
	m := map[string]rune{}
	squash := strings.NewReplacer(" ", "", "-", "")
	for _, block := range [][2]rune{{0x0600, 0x06ff}, {0x0750, 0x077f}, {0x08a0, 0x08ff}, {0xfb50, 0xfdff}, {0xfe70, 0xfefe}} {
		for r := block[0]; r <= block[1]; r++ {
			full := runenames.Name(r)
			if full == "" || strings.HasPrefix(full, "<") {
				continue
			}
			short := strings.TrimSuffix(full, " FORM")
			for _, prefix := range []string{"ARABIC LETTER ", "ARABIC LIGATURE ", "ARABIC "} {
				if rest, ok := strings.CutPrefix(short, prefix); ok {
					short = rest
					break
				}
			}
			// "lamwithalefhamzaabovefinal": LAM WITH ALEF WITH HAMZA
			// ABOVE FINAL FORM named with one WITH
			once := short
			if i := strings.Index(short, " WITH "); i >= 0 {
				once = short[:i+6] + strings.ReplaceAll(short[i+6:], "WITH ", "")
			}
			for _, n := range []string{full, short, once} {
				k := strings.ToLower(squash.Replace(n))
				if _, taken := m[k]; !taken {
					m[k] = r
				}
			}
		}
	}
	return m
})

// hebrewName reads a Hebrew glyph name the Adobe Glyph List spells
// otherwise, as cjhebrew's fonts name theirs: without the list's
// "hebrew" qualifier ("maqaf", the list's maqafhebrew), a final form
// named after its letter ("memfinal", "kaffinalsheva": the list's
// finalmem, finalkafsheva), or a positional variant of a point numbered
// after it ("qamats2", "hiriq3" are qamats, hiriq). "" when none of these
// is a name of the list.
func hebrewName(name string) string {
	agl := aglNames()
	if s, ok := agl[name+"hebrew"]; ok {
		return s
	}
	if i := strings.Index(name, "final"); i > 0 {
		if s, ok := agl["final"+name[:i]+name[i+len("final"):]]; ok {
			return s
		}
	}
	base := strings.TrimRight(name, "0123456789")
	if len(base) < 3 || base == name {
		return ""
	}
	if r, ok := glyphNames[base]; ok {
		return string(r)
	}
	return agl[base]
}

// accentedName composes a letter with accents named after it, one or
// two of them as Vietnamese needs ("eacute" é, "ecircumflexacute" ế,
// "ohorndotbelow" ợ), or returns "".
func accentedName(name string, depth int) string {
	if len(name) == 1 {
		return string(rune(name[0]))
	}
	if depth == 2 {
		return ""
	}
	for _, a := range accentMarks {
		if base, ok := strings.CutSuffix(name, a.suffix); ok && base != "" {
			if b := accentedName(base, depth+1); b != "" {
				return norm.NFC.String(b + string(a.mark))
			}
		}
	}
	return ""
}
