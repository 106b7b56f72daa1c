package extract

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestPDFCollectionCIDFonts: as TestPDFCIDCollections, for Adobe-KR; CIDs
// of Adobe-Identity or of another registry's collection mean nothing
// without a ToUnicode map and stay unread.
func TestPDFCollectionCIDFonts(t *testing.T) {
	tests := []struct {
		registry, ordering string
		cids               []uint16
		want               string
	}{
		{"Adobe", "KR", []uint16{0x0b13, 34}, "한A"},
		{"Adobe", "Identity", []uint16{0x0956}, ""},
		{"Other", "GB1", []uint16{0x0956}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.registry+"-"+tt.ordering, func(t *testing.T) {
			font := "<< /Type /Font /Subtype /Type0 /BaseFont /WNIQHC+FandolSong-Regular-Identity-H /Encoding /Identity-H /DescendantFonts [7 0 R] >>"
			cid := fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType0 /BaseFont /WNIQHC+FandolSong-Regular "+
				"/CIDSystemInfo << /Registry (%s) /Ordering (%s) /Supplement 5 >> /DW 1000 >>", tt.registry, tt.ordering)
			var hex strings.Builder
			for _, c := range tt.cids {
				fmt.Fprintf(&hex, "%04X", c)
			}
			content := "BT /F1 10 Tf 50 50 Td (x) Tj /F2 10 Tf 10 0 Td <" + hex.String() + "> Tj ET"
			_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R >>", font, cid))
			if want := strings.TrimSpace("x " + tt.want); text != want {
				t.Errorf("%q, want %q", text, want)
			}
		})
	}
}

// TestPDFGlyphNamesWithoutToUnicode: a simple font without a ToUnicode
// map is read through the glyph names of its /Differences or, without a
// PDF encoding, of the encoding in its Type 1 program — Adobe Glyph List
// names (afii10103 і, afii57xxx Arabic), uniXXXX and uXXXXX, suffixed
// variants and ligatures of several characters — before any Latin-1 guess
// (rules60.pdf of ukrhyph had ö for і, arabi's fontchart õ ø for Arabic).
// An unknown name keeps the code's character.
func TestPDFGlyphNamesWithoutToUnicode(t *testing.T) {
	program := "%!PS-AdobeFont-1.0: LiteraturnayaISOC\n/FontName /CCAAAA+LiteraturnayaISOC def\n/Encoding 256 array\n" +
		"0 1 255 {1 index exch /.notdef put} for\ndup 246 /afii10103 put\ndup 191 /afii10104 put\ndup 186 /afii10101 put\n" +
		"dup 239 /afii10081 put\ndup 240 /afii10082 put\nreadonly def\ncurrentdict end\ncurrentfile eexec\n\x8f\x02binary"
	builtin := "<< /Type /Font /Subtype /Type1 /BaseFont /CCAAAA+LiteraturnayaISOC /FontDescriptor 7 0 R >>"
	desc := "<< /Type /FontDescriptor /FontName /CCAAAA+LiteraturnayaISOC /Flags 4 /FontFile 8 0 R >>"
	ff := streamObj(fmt.Sprintf("/Length1 %d /Length2 7 /Length3 0", strings.Index(program, "\x8f")), program)
	custom := "<< /Type /Font /Subtype /Type1 /BaseFont /XDZMPS+Nazli /Encoding << /Differences [65 /afii57416.init " +
		"/afii57444_afii57415.isol /uni06CC.fina /uni00410042 /u1D400 /f_f_i /afii10103 /notaname_afii10103 /.notdef] >> >>"
	content := "BT /F2 10 Tf 50 90 Td (\\357\\360\\366\\277\\272) Tj ET BT /F3 10 Tf 50 70 Td (DEFGHI) Tj ET " +
		"BT /F3 10 Tf 50 50 Td (A) Tj ET BT /F3 10 Tf 50 30 Td (C) Tj ET"
	_, text := extractPDFText(t, onePage(t, content, "/Font << /F1 5 0 R /F2 6 0 R /F3 9 0 R >>", builtin, desc, ff, custom))
	want := "пріїє\nAB𝐀ffiіHI\nب\nی"
	if text != want {
		t.Errorf("%q, want %q", text, want)
	}
}

func TestGlyphText(t *testing.T) {
	tests := map[string]string{
		"afii10103": "і", "afii57416.init": "ب", "afii57444_afii57415": "لا", "uni06CC.fina": "ی",
		"uni00410042": "AB", "u1D400": "𝐀", "f_f_i": "ffi", "Delta": "Δ", "dalethatafpatah": "\u05d3\u05b2",
		"uniD800": "", "uni004": "", "x_notaname": "", ".notdef": "", "": "", "eacute.sc": "é",
		"\xe9": "é", strings.Repeat("a_", 100) + "a": "",
	}
	for name, want := range tests {
		if got := glyphText(name); got != want {
			t.Errorf("glyphText(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestDecodeCIDRunsDamaged: the run-length tables are decoded with
// bounds: damaged data gives a shorter table, never a panic or a table
// past the collection limit.
func TestDecodeCIDRunsDamaged(t *testing.T) {
	good := gunzipFontData("fontdata/cid-GB1.gz")
	if n := len(decodeCIDRuns(good)); n < 30000 || n > maxCollectionCIDs {
		t.Fatalf("GB1: %d CIDs", n)
	}
	for _, c := range []struct {
		data []byte
		max  int
	}{
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 0}, // overlong uvarint
		{[]byte{0x03}, 0},                                               // a mapped run without its code point
		{[]byte{0x03, 0x80, 0x80, 0x80, 0x02}, 0},                       // a code point past Unicode
		{[]byte{0x03, 0x01}, 0},                                         // a code point before 0
		{[]byte{0xfe, 0xff, 0x7f, 0xfe, 0xff, 0x7f}, maxCollectionCIDs}, // runs past the limit
	} {
		if n := len(decodeCIDRuns(c.data)); n > c.max {
			t.Errorf("% x: %d CIDs", c.data, n)
		}
	}
	for i := range 200 {
		_ = decodeCIDRuns(good[:i])
	}
}

// FuzzGlyphText: any glyph name a font may hold reads as valid text of
// bounded length, without a panic.
func FuzzGlyphText(f *testing.F) {
	for _, s := range []string{"afii57444_afii57415.isol", "uni00410042", "u1F600", "f_f_i", "eacute", "_", "uni", "a.b_c", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		s := glyphText(name)
		if !utf8.ValidString(s) || len(s) > 64+utf8.UTFMax {
			t.Errorf("glyphText(%q) = %q", name, s)
		}
	})
}

// FuzzDecodeCIDRuns: damaged run-length data gives a table within the
// collection limit of valid code points, without a panic.
func FuzzDecodeCIDRuns(f *testing.F) {
	f.Add(gunzipFontData("fontdata/cid-KR.gz")[:64])
	f.Add([]byte{0x03, 0x80, 0x80, 0x80, 0x02})
	f.Fuzz(func(t *testing.T, data []byte) {
		table := decodeCIDRuns(data)
		if len(table) > maxCollectionCIDs {
			t.Fatalf("%d CIDs", len(table))
		}
		for _, r := range table {
			if r < 0 || r > unicode.MaxRune {
				t.Fatalf("code point %x", r)
			}
		}
	})
}
