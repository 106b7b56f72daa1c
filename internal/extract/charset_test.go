package extract

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	xunicode "golang.org/x/text/encoding/unicode"
)

func encode(t *testing.T, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encode %q: %v", s, err)
	}
	return b
}

// TestDecodeLegacyCharsets: text without a BOM that is not UTF-8 is read
// in the legacy charset it reads best in; short files too, where general
// detectors guess wrong.
func TestDecodeLegacyCharsets(t *testing.T) {
	lemon, err := os.ReadFile(filepath.Join(realdocs, "janome-lemon-ja.txt"))
	if err != nil {
		t.Fatal(err)
	}
	prose := strings.ReplaceAll(string([]rune(string(lemon))[:400]), "\r\n", "\n")
	le := xunicode.UTF16(xunicode.LittleEndian, xunicode.IgnoreBOM)
	be := xunicode.UTF16(xunicode.BigEndian, xunicode.IgnoreBOM)
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"Latin-1 name", encode(t, charmap.ISO8859_1, "Rodríguez\n"), "Rodríguez\n"},
		{"Latin-1 line", encode(t, charmap.ISO8859_1, "José Rodríguez, café crème à Paris, Müller"), "José Rodríguez, café crème à Paris, Müller"},
		{"Latin-1 accented word alone", encode(t, charmap.ISO8859_1, "Año 2024: señor Núñez"), "Año 2024: señor Núñez"},
		{"CP1252 punctuation", encode(t, charmap.Windows1252, "He said “hello” – it’s €5"), "He said “hello” – it’s €5"},
		{"Shift_JIS title", encode(t, japanese.ShiftJIS, "会議資料\n"), "会議資料\n"},
		{"Shift_JIS prose", encode(t, japanese.ShiftJIS, prose), prose},
		{"Shift_JIS with ASCII", encode(t, japanese.ShiftJIS, "Project Alpha 議事録 2024年"), "Project Alpha 議事録 2024年"},
		{"EUC-JP title", encode(t, japanese.EUCJP, "会議資料の一覧\n"), "会議資料の一覧\n"},
		{"EUC-JP prose", encode(t, japanese.EUCJP, prose), prose},
		{"UTF-16LE without BOM", encode(t, le, "Hello world, a test.\n"), "Hello world, a test.\n"},
		{"UTF-16BE without BOM", encode(t, be, "Hello world, a test.\n"), "Hello world, a test.\n"},
		{"UTF-16LE Japanese without BOM", encode(t, le, prose), prose},
	}
	for _, tt := range tests {
		got, _, err := decodeText(tt.in, 1<<20)
		if err != nil || got != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, firstRunes(got, 60), err, firstRunes(tt.want, 60))
		}
	}
}

// TestDecodeBinaryWithNULs: NUL bytes that do not read as UTF-16 text are
// binary content.
func TestDecodeBinaryWithNULs(t *testing.T) {
	random := make([]byte, 4096)
	x := uint32(12345)
	for i := range random {
		x = x*1664525 + 1013904223
		random[i] = byte(x >> 24)
	}
	random[100] = 0
	for _, in := range [][]byte{[]byte("a\x00b"), []byte("text\x00\x00\x00\x00with NULs inside it"), random} {
		if _, _, err := decodeText(in, 1<<20); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%q...: %v, want ErrUnsupported", firstRunes(string(in), 10), err)
		}
	}
}

// TestHTMLCharset: a page declaring its charset is read in it; one that
// declares none (or the Windows-1252 default) is detected.
func TestHTMLCharset(t *testing.T) {
	le := xunicode.UTF16(xunicode.LittleEndian, xunicode.IgnoreBOM)
	be := xunicode.UTF16(xunicode.BigEndian, xunicode.IgnoreBOM)
	page := func(meta, body string) string {
		return "<html><head>" + meta + "<title>t</title></head><body><p>" + body + "</p></body></html>"
	}
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"Latin-1, nothing declared", encode(t, charmap.ISO8859_1, page("", "Rodríguez")), "Rodríguez"},
		{"Shift_JIS, nothing declared", encode(t, japanese.ShiftJIS, page("", "会議資料の一覧です")), "会議資料の一覧です"},
		{"EUC-JP, nothing declared", encode(t, japanese.EUCJP, page("", "会議資料の一覧です")), "会議資料の一覧です"},
		{"Shift_JIS declared", encode(t, japanese.ShiftJIS, page(`<meta charset="shift_jis">`, "議事録")), "議事録"},
		{"Latin-1 declared", encode(t, charmap.ISO8859_1, page(`<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">`, "Müller")), "Müller"},
		// graphviz-doc's examples/demo/entities.html (W3C's HTML 4 entity
		// list): its only 8-bit characters are ÷ and ©.
		{"Latin-1 declared, symbols alone", encode(t, charmap.ISO8859_1, page(`<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">`,
			"form than &amp;#247; for obtaining the division sign (÷).</p><pre>&lt;!-- Portions © International Organization for Standardization 1986\n"+
				"&lt;!-- Portions © International Organization for Standardization 1986:\n")), "the division sign (÷)"},
		{"UTF-8 after 1024 ASCII bytes", []byte(page("<!--"+strings.Repeat("x", 1100)+"-->", "日本語")), "日本語"},
		{"UTF-16LE, no BOM, nothing declared", encode(t, le, page("", "会議資料の一覧です Müller")), "会議資料の一覧です Müller"},
		{"UTF-16BE, no BOM, nothing declared", encode(t, be, page("", "会議資料の一覧です")), "会議資料の一覧です"},
		{"UTF-16LE with BOM", encode(t, xunicode.UTF16(xunicode.LittleEndian, xunicode.UseBOM), page("", "Rodríguez 日本語")), "Rodríguez 日本語"},
	}
	for _, tt := range tests {
		doc, err := Extract(context.Background(), "text/html", strings.NewReader(string(tt.in)), 0)
		if err != nil || !strings.Contains(doc.Text(), tt.want) {
			t.Errorf("%s: %q, %v; want it to hold %q", tt.name, doc.Text(), err, tt.want)
		}
	}
}

// TestDecodeLegacyCodePages: real short texts (lines of TeX Live
// documentation, see testdata/README.md) encoded in the 8-bit code page
// their language was written in are read back in it — including the
// confusable pairs: Cyrillic Windows-1251 against CP932 (the Bulgarian
// README that was read as kanji), Latin-1 against Windows-1250 and
// ISO-8859-2, the Cyrillic code pages against each other.
func TestDecodeLegacyCodePages(t *testing.T) {
	const (
		bg = "За изработване на глосарий:\n1. Във файла pst-eucl-docBG.tex се коментира реда\n"
		ru = "\\institution{Название организации}\n\\topic{Тема диссертации}\n"
		el = "Άνδρα μοι έννεπε, Μούσα, πολύτροπον, ός μάλα πολλά\n"
		cs = "Informace o balíku cspsfont\n5. 1. 1996    Zdeněk Wagner\n"
		pl = "Pakiet MPATTERN służy do definiowania i używania wypełnień wzorkowych\n"
		hr = "Riješi još nešto\nRezultati ispita su sljedeći radni dan u 13:00 sati.\n"
		de = "% haesslich sind, könnten sie in schmalen Spalten den Blocksatz\n"
		fr = "\\begin{frame}{Nom du conférencier}{À propos du conférencier suivant}\n"
		ar = "\\arabordinal#1{\"\n\\ifcase#1\\or الأول \\or الثاني \n"
		he = " ינואר\\or  פברואר\\or     מרץ\\or    אפריל\\or     מאי\\or   יוני\\or\n" +
			"  יולי\\or  אוגוסט\\or  ספטמבר\\or  אוקטובר\\or  נובמבר\\or  דצמבר\\fi }%\n"
		zh    = "话说宝玉来至院外，就有跟贾政的几个小厮上来拦腰抱住， 都说：“今儿亏我们， 老爷才喜欢，老太太打发人出来问了几遍\n"
		zhTW  = "    <勞侖衣普桑，認至將指點效則機，最你更枝。想極整月正\n"
		lt    = "\\showhyphens{Aš einu į mišką kirsti žalių malkų, ant pečių nešdamasis standartinio normaliojo skirstinio funkciją}\n"
		tr    = "Bu doküman Tobias Oetiker'in \"The not so short introduction to LaTeX2e\" adli eserinin Ingilizceden değişikliklerle çevirisidir (Mayis 2006, 4.20 sürümü).\n\nTelif haklari kamuya açiktir.\n"
		plDOS = "Od strony użytkownika makra te emulują działanie makr LaTeX-owych.\n" +
			"Dalszych informacji należy szukać w dokumentacji -> plik texidxbs.zip\n"
	)
	tests := []struct {
		name string
		enc  encoding.Encoding
		text string
	}{
		{"Bulgarian Windows-1251", charmap.Windows1251, bg},
		{"Bulgarian Windows-1251, one word", charmap.Windows1251, "глосарий\n"},
		// One word filling the whole sample: read once, not once a letter.
		{"Windows-1251, one 64 KiB word", charmap.Windows1251, strings.Repeat("глосарий", charsetSample/8)},
		{"Russian Windows-1251", charmap.Windows1251, ru},
		{"Russian KOI8-R", charmap.KOI8R, ru},
		{"Russian CP866", charmap.CodePage866, ru},
		{"Bulgarian KOI8-R", charmap.KOI8R, bg},
		{"Greek Windows-1253", charmap.Windows1253, el},
		{"Czech Windows-1250", charmap.Windows1250, cs},
		{"Czech ISO-8859-2", charmap.ISO8859_2, cs},
		{"Polish Windows-1250", charmap.Windows1250, pl},
		{"Polish ISO-8859-2", charmap.ISO8859_2, pl},
		{"Polish CP852", charmap.CodePage852, pl},
		{"Croatian Windows-1250", charmap.Windows1250, hr},
		{"Croatian Windows-1250, one ć", charmap.Windows1250, "Rezultati ispita su sljedeći radni dan u 13:00 sati.\n"},
		{"German Latin-1", charmap.ISO8859_1, de},
		{"German CP850", charmap.CodePage850, de},
		{"French Windows-1252", charmap.Windows1252, fr},
		{"French Latin-1, short", charmap.ISO8859_1, "Université de Quelque Part\n"},
		{"Arabic Windows-1256", charmap.Windows1256, ar},
		{"Arabic Windows-1256, one line", charmap.Windows1256, "\\psboxfill{\\blue\\AR{\\tr نظام العربي}}\n"},
		{"Arabic ISO-8859-6", charmap.ISO8859_6, ar},
		{"French beside Arabic, Windows-1256", charmap.Windows1256, "%% 1 Octobre 1999 pour le dodécaèdre %%\n" + ar},
		{"Hebrew CP862", charmap.CodePage862, he},
		{"Hebrew Windows-1255", charmap.Windows1255, he},
		{"Chinese GBK", simplifiedchinese.GBK, zh},
		{"Chinese Big5", traditionalchinese.Big5, zhTW},
		{"Lithuanian ISO-8859-13", charmap.ISO8859_13, lt},
		{"Turkish ISO-8859-9", charmap.ISO8859_9, tr},
		{"Polish Mazovia", mazovia, plDOS},
		{"Polish Mazovia, one line", mazovia, "polujemy na kota\\index{kot}. Z~kolei żółw\\index{żółw} to strasznie powolne\n"},
		{"German letters alone, Windows-1252", charmap.Windows1252, "set label 'Times-Roman: {/Times-Roman abcdefghABCDEFGH äöüß}' at graph 0.05,0.6 left\n" +
			"set label 'URWPalladioL-Roma: {/URWPalladioL-Roma abcdefghABCDEFGH äöüß}' at graph 0.05,0.5 left\n" +
			"set xlabel '{/URWPalladioL-Ital x} / °'\n"},
		{"German letters alone, three times", charmap.Windows1252, "set label 'Times-Roman: {/Times-Roman abcdefghABCDEFGH äöüß}' at graph 0.05,0.6 left\n" +
			"set label 'URWPalladioL-Roma: {/URWPalladioL-Roma abcdefghABCDEFGH äöüß}' at graph 0.05,0.5 left\n" +
			"set label 'URWPalladioL-Ital: {/URWPalladioL-Ital abcdefghABCDEFGH äöüß}' at graph 0.05,0.4 left\n" +
			"set xlabel '{/URWPalladioL-Ital x} / °'\n"},
		{"Japanese CP932 beside them", japanese.ShiftJIS, "- pxjodel 使用版\n"},
		{"Japanese EUC-JP beside them", japanese.EUCJP, "- dvipdfmx Version 20200315 以降\n"},
	}
	for _, tt := range tests {
		got, _, err := decodeText(encode(t, tt.enc, tt.text), 1<<20)
		if err != nil || got != tt.text {
			t.Errorf("%s: %q, %v; want %q", tt.name, firstRunes(got, 60), err, firstRunes(tt.text, 60))
		}
	}
}

// TestDecodeLegacyPrefersValidText: bytes no candidate reads as clean
// text are read in one that gives no replacement characters and no
// control characters besides line ends and tabs.
func TestDecodeLegacyPrefersValidText(t *testing.T) {
	for _, in := range [][]byte{
		{'a', 0x81, 'b', 0x8d, 'c', 0x90, '\n'}, // undefined in Windows-1252, C1 in Latin-1
		{0x98, 0x9d, ' ', 0xff, 0xfe, '\n'},
		{'x', 0xa0, 0xa0, 0xad, 'y'},
	} {
		got, _, err := decodeText(in, 1<<20)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		for _, r := range got {
			if r == utf8.RuneError || (unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r') {
				t.Errorf("%q read as %q: holds %U", in, got, r)
			}
		}
	}
}
