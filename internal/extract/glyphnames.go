package extract

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// glyphNames maps the Adobe Glyph List names that text fonts use in
// /Differences and that are not derivable by rule (see glyphRune). Built on
// first use (only PDF extraction needs it).
var glyphNames = sync.OnceValue(func() map[string]rune {
	return map[string]rune{
		"space": ' ', "exclam": '!', "quotedbl": '"', "numbersign": '#', "dollar": '$', "percent": '%',
		"ampersand": '&', "quotesingle": '\'', "quoteright": '\u2019', "parenleft": '(', "parenright": ')',
		"asterisk": '*', "plus": '+', "comma": ',', "hyphen": '-', "period": '.', "slash": '/',
		"zero": '0', "one": '1', "two": '2', "three": '3', "four": '4', "five": '5', "six": '6',
		"seven": '7', "eight": '8', "nine": '9', "colon": ':', "semicolon": ';', "less": '<',
		"equal": '=', "greater": '>', "question": '?', "at": '@', "bracketleft": '[', "backslash": '\\',
		"bracketright": ']', "asciicircum": '^', "underscore": '_', "grave": '`', "quoteleft": '\u2018',
		"braceleft": '{', "bar": '|', "braceright": '}', "asciitilde": '~', "exclamdown": '¡',
		"cent": '¢', "sterling": '£', "yen": '¥', "florin": 'ƒ', "section": '§', "currency": '¤',
		"quotedblleft": '\u201c', "quotedblright": '\u201d', "quotedblbase": '\u201e', "quotesinglbase": '\u201a',
		"guillemotleft": '«', "guillemotright": '»', "guilsinglleft": '‹', "guilsinglright": '›',
		"endash": '–', "emdash": '—', "dagger": '†', "daggerdbl": '‡', "periodcentered": '·',
		"paragraph": '¶', "bullet": '•', "ellipsis": '…', "perthousand": '‰', "questiondown": '¿',
		"fi": 'ﬁ', "fl": 'ﬂ', "ff": 'ﬀ', "ffi": 'ﬃ', "ffl": 'ﬄ', "minus": '−', "multiply": '×',
		"divide": '÷', "degree": '°', "copyright": '©', "registered": '®', "trademark": '™',
		"plusminus": '±', "mu": 'µ', "AE": 'Æ', "ae": 'æ', "OE": 'Œ', "oe": 'œ', "Oslash": 'Ø',
		"oslash": 'ø', "germandbls": 'ß', "dotlessi": 'ı', "Lslash": 'Ł', "lslash": 'ł', "Eth": 'Ð',
		"eth": 'ð', "dcroat": 'đ', "Dcroat": 'Đ', "Thorn": 'Þ', "thorn": 'þ', "ordfeminine": 'ª', "ordmasculine": 'º',
		"onehalf": '½', "onequarter": '¼', "threequarters": '¾', "nbspace": '\u00a0', "logicalnot": '¬',
		"brokenbar": '¦', "dieresis": '¨', "macron": '¯', "acute": '´', "cedilla": '¸', "circumflex": 'ˆ',
		"tilde": '˜', "fraction": '⁄', "arrowright": '→', "arrowleft": '←', "infinity": '∞',
		"lessequal": '≤', "greaterequal": '≥', "notequal": '≠', "summation": '∑', "product": '∏',
		"radical": '√', "integral": '∫', "partialdiff": '∂',
		// Greek (math fonts and the Symbol font name their letters so)
		"Alpha": 'Α', "Beta": 'Β', "Gamma": 'Γ', "Delta": 'Δ', "Epsilon": 'Ε', "Zeta": 'Ζ', "Eta": 'Η',
		"Theta": 'Θ', "Iota": 'Ι', "Kappa": 'Κ', "Lambda": 'Λ', "Mu": 'Μ', "Nu": 'Ν', "Xi": 'Ξ',
		"Omicron": 'Ο', "Pi": 'Π', "Rho": 'Ρ', "Sigma": 'Σ', "Tau": 'Τ', "Upsilon": 'Υ', "Phi": 'Φ',
		"Chi": 'Χ', "Psi": 'Ψ', "Omega": 'Ω', "Upsilon1": 'ϒ',
		"alpha": 'α', "beta": 'β', "gamma": 'γ', "delta": 'δ', "epsilon": 'ε', "zeta": 'ζ', "eta": 'η',
		"theta": 'θ', "iota": 'ι', "kappa": 'κ', "lambda": 'λ', "nu": 'ν', "xi": 'ξ', "omicron": 'ο',
		"pi": 'π', "rho": 'ρ', "sigma": 'σ', "sigma1": 'ς', "tau": 'τ', "upsilon": 'υ', "phi": 'φ',
		"chi": 'χ', "psi": 'ψ', "omega": 'ω', "theta1": 'ϑ', "phi1": 'ϕ', "omega1": 'ϖ',
		"epsilon1": 'ϵ', "rho1": 'ϱ',
		// Hebrew (Adobe Glyph List names)
		"alef": 'א', "bet": 'ב', "gimel": 'ג', "dalet": 'ד', "he": 'ה', "vav": 'ו', "zayin": 'ז',
		"het": 'ח', "tet": 'ט', "yod": 'י', "finalkaf": 'ך', "kaf": 'כ', "lamed": 'ל', "finalmem": 'ם',
		"mem": 'מ', "finalnun": 'ן', "nun": 'נ', "samekh": 'ס', "ayin": 'ע', "finalpe": 'ף', "pe": 'פ',
		"finaltsadi": 'ץ', "tsadi": 'צ', "qof": 'ק', "resh": 'ר', "shin": 'ש', "tav": 'ת',
	}
})

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

// glyphRune returns the character of a glyph name: single letters, AGL
// names, uniXXXX / uXXXX[XX] names and accented letters; def otherwise.
func glyphRune(name string, def rune) rune {
	if i := strings.IndexByte(name, '.'); i > 0 { // "a.sc", "one.oldstyle"
		name = name[:i]
	}
	if len(name) == 1 {
		return rune(name[0])
	}
	if r, ok := glyphNames()[name]; ok {
		return r
	}
	if r, ok := moreGlyphNames()[name]; ok {
		return r
	}
	if r := cyrillicGlyph(name); r != 0 {
		return r
	}
	if r := afii57Glyph(name); r != 0 {
		return r
	}
	if strings.HasPrefix(name, "uni") && len(name) >= 7 {
		if v, err := strconv.ParseUint(name[3:7], 16, 32); err == nil {
			return rune(v)
		}
	}
	if name[0] == 'u' && len(name) >= 5 && len(name) <= 7 {
		if v, err := strconv.ParseUint(name[1:], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
			return rune(v)
		}
	}
	if s := accentedName(name, 0); s != "" {
		if r, n := utf8.DecodeRuneInString(s); n == len(s) {
			return r
		}
	}
	return def
}

// accentedName composes a letter with accents named after it, one or
// two of them as Vietnamese needs ("eacute" é, "ecircumflexacute" ế,
// "ohorndotbelow" ợ), or returns "".
func accentedName(name string, depth int) string {
	if len(name) == 1 {
		return name
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

// moreGlyphNames are further Adobe Glyph List names found in the fonts of
// real documents: accents TeX draws over letters (caron, ring), math
// symbols, Cyrillic (afii100xx, by rule in glyphRune) and Hebrew points.
// TeX's own names for its math symbols (angbracketleft) are not in the
// list; like pdftotext, gds then keeps the base encoding's character.
var moreGlyphNames = sync.OnceValue(func() map[string]rune {
	return map[string]rune{
		"angleleft": '〈', "angleright": '〉', "asteriskmath": '∗', "caron": 'ˇ', "ring": '˚', "dotaccent": '˙',
		"breve": '˘', "hungarumlaut": '˝', "ogonek": '˛', "Euro": '€', "onesuperior": '¹', "twosuperior": '²',
		"threesuperior": '³', "prime": '′', "element": '∈', "similar": '∼', "approxequal": '≈', "arrowdblright": '⇒',
		"arrowdblleft": '⇐', "arrowdblboth": '⇔', "arrowdblup": '⇑', "arrowdbldown": '⇓', "arrowup": '↑',
		"arrowdown": '↓', "arrowboth": '↔', "perpendicular": '⊥', "logicaland": '∧', "logicalor": '∨',
		"equivalence": '≡', "circlemultiply": '⊗', "circleplus": '⊕', "openbullet": '◦', "union": '∪',
		"intersection": '∩', "propersubset": '⊂', "propersuperset": '⊃', "reflexsubset": '⊆', "reflexsuperset": '⊇',
		"universal": '∀', "existential": '∃', "emptyset": '∅', "gradient": '∇', "aleph": 'ℵ', "weierstrass": '℘',
		"Rfractur": 'ℜ', "Ifractur": 'ℑ', "lscript": 'ℓ', "proportional": '∝', "minusplus": '∓', "heart": '♥',
		"club": '♣', "spade": '♠', "diamond": '♦', "lozenge": '◊', "therefore": '∴', "angle": '∠', "suchthat": '∋',
		"parallel": '∥', "longs": 'ſ', "ij": 'ĳ', "IJ": 'Ĳ', "eng": 'ŋ', "Eng": 'Ŋ', "scommaaccent": 'ș',
		"Scommaaccent": 'Ș', "sfthyphen": '\u00ad', "centigrade": '℃', "referencemark": '※',
		"betdagesh": '\ufb31', "pedagesh": '\ufb44', "vavdagesh": '\ufb35', "shinshindot": '\ufb2a',
		"shinsindot": '\ufb2b', "shinshindotdagesh": '\ufb2c', "vavholam": '\ufb4b', "patah": '\u05b7',
		"qamats": '\u05b8', "hiriq": '\u05b4', "holam": '\u05b9', "segol": '\u05b6', "sheva": '\u05b0',
		"tsere": '\u05b5', "qubuts": '\u05bb', "hatafpatah": '\u05b2', "hatafqamats": '\u05b3', "hatafsegol": '\u05b1',
		"sofpasuq": '\u05c3',
	}
})

// afii57Glyph reads the Adobe Glyph List's afii57xxx names of Arabic
// (afii57415 ا, afii57470 ه, Persian afii57506 پ) and Hebrew letters
// (afii57664 א to afii57690 ת), as ArabTeX's and Persian fonts name
// their glyphs; 0 for other names.
func afii57Glyph(name string) rune {
	n, ok := strings.CutPrefix(name, "afii57")
	if !ok || len(n) != 3 {
		return 0
	}
	v, err := strconv.Atoi(n)
	if err != nil {
		return 0
	}
	switch {
	case v >= 392 && v <= 401: // Arabic-Indic digits
		return rune(0x660 + v - 392)
	case v >= 409 && v <= 434: // hamza to ghain
		return rune(0x621 + v - 409)
	case v >= 440 && v <= 446: // tatweel to noon
		return rune(0x640 + v - 440)
	case v >= 448 && v <= 458: // waw to sukun
		return rune(0x648 + v - 448)
	case v >= 664 && v <= 690: // alef to tav
		return rune(0x5d0 + v - 664)
	}
	return map[int]rune{381: '٪', 388: '،', 403: '؛', 407: '؟', 470: 'ه', 505: 'ڤ', 506: 'پ', 507: 'چ', 508: 'ژ',
		509: 'گ', 511: 'ٹ', 512: 'ڈ', 513: 'ڑ', 514: 'ں', 519: 'ے', 534: 'ە'}[v]
}

// cyrillicGlyph reads the Adobe names of Cyrillic letters (afii10017 А
// to afii10097 я; Ukrainian, Belarusian, Serbian and Macedonian letters
// afii10050 to afii10062, afii10098 to afii10110, afii10145 and
// afii10193); 0 for other names.
func cyrillicGlyph(name string) rune {
	n, ok := strings.CutPrefix(name, "afii")
	if !ok {
		return 0
	}
	v, err := strconv.Atoi(n)
	if err != nil {
		return 0
	}
	switch {
	case v == 10023:
		return 'Ё'
	case v == 10071:
		return 'ё'
	case v >= 10017 && v <= 10022:
		return rune(0x410 + v - 10017)
	case v >= 10024 && v <= 10049:
		return rune(0x416 + v - 10024)
	case v >= 10065 && v <= 10070:
		return rune(0x430 + v - 10065)
	case v >= 10072 && v <= 10097:
		return rune(0x436 + v - 10072)
	case v >= 10051 && v <= 10061: // Ђ Ѓ Є Ѕ І Ї Ј Љ Њ Ћ Ќ
		return rune(0x402 + v - 10051)
	case v >= 10099 && v <= 10109: // ђ ѓ є ѕ і ї ј љ њ ћ ќ
		return rune(0x452 + v - 10099)
	}
	switch v {
	case 10050:
		return 'Ґ'
	case 10098:
		return 'ґ'
	case 10062:
		return 'Ў'
	case 10110:
		return 'ў'
	case 10145:
		return 'Џ'
	case 10193:
		return 'џ'
	}
	return 0
}
