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
