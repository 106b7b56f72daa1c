package extract

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// cffIndex encodes a CFF INDEX with 1-byte offsets.
func cffIndex(items ...[]byte) []byte {
	if len(items) == 0 {
		return []byte{0, 0}
	}
	out := binary.BigEndian.AppendUint16(nil, uint16(len(items)))
	out = append(out, 1)
	off := 1
	out = append(out, byte(off))
	for _, it := range items {
		off += len(it)
		out = append(out, byte(off))
	}
	for _, it := range items {
		out = append(out, it...)
	}
	return out
}

// minimalCFF builds a CFF font with glyphs a (standard string 66),
// ecircumflexacute and Gamma (custom strings) and the given encoding
// bytes (format byte first); charset format 0.
func minimalCFF(encoding []byte) []byte {
	dictInt := func(v int) []byte { return binary.BigEndian.AppendUint32([]byte{29}, uint32(v)) }
	header := []byte{1, 0, 4, 1}
	name := cffIndex([]byte("F"))
	strs := cffIndex([]byte("ecircumflexacute"), []byte("Gamma"))
	gsubrs := cffIndex()
	charset := []byte{0, 0, 66, 1, 0x87, 1, 0x88} // format 0: SIDs 66, 391, 392
	charStrings := cffIndex([]byte{14}, []byte{14}, []byte{14}, []byte{14})
	// The Top DICT has a fixed size (three 5-byte operands and their
	// operators), so the offsets after it are known before it is built.
	topLen := 3 * 6
	start := len(header) + len(name) + len(cffIndex(make([]byte, topLen))) + len(strs) + len(gsubrs)
	top := append(dictInt(start), 15)
	top = append(append(top, dictInt(start+len(charset))...), 16)
	top = append(append(top, dictInt(start+len(charset)+len(encoding))...), 17)
	out := append(append(append(append([]byte{}, header...), name...), cffIndex(top)...), strs...)
	out = append(append(append(append(out, gsubrs...), charset...), encoding...), charStrings...)
	return out
}

func TestCFFEncoding(t *testing.T) {
	tests := []struct {
		name string
		enc  []byte
		want map[int]string
	}{
		{"format 0", []byte{0, 3, 'a', 0xd5, 'G'}, map[int]string{'a': "a", 0xd5: "ecircumflexacute", 'G': "Gamma"}},
		{"format 1", []byte{1, 1, 0x60, 2}, map[int]string{0x60: "a", 0x61: "ecircumflexacute", 0x62: "Gamma"}},
		{"supplement", []byte{0x80, 1, 'a', 1, 'A', 0, 66}, map[int]string{'a': "a", 'A': "a"}},
	}
	for _, tt := range tests {
		got := cffEncoding(minimalCFF(tt.enc))
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	// Damaged programs yield nothing, without a panic.
	font := minimalCFF([]byte{0, 3, 'a', 0xd5, 'G'})
	for n := range len(font) {
		_ = cffEncoding(font[:n])
		bad := append([]byte{}, font...)
		bad[n] ^= 0xff
		_ = cffEncoding(bad)
	}
}

// TestPDFCFFBuiltinEncoding: a Type 1C font with its own encoding and no
// ToUnicode (Vietnamese T5 fonts) is read through its glyph names.
func TestPDFCFFBuiltinEncoding(t *testing.T) {
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+vnrmn1000 /FontDescriptor 7 0 R >>"
	desc := "<< /Type /FontDescriptor /FontName /ABCDEF+vnrmn1000 /Flags 4 /FontFile3 8 0 R >>"
	prog := streamObj("/Subtype /Type1C", string(minimalCFF([]byte{0, 3, 'a', 0xd5, 'G'})))
	_, text := extractPDFText(t, onePage(t, "BT /F2 12 Tf 50 50 Td (a\\325G) Tj ET", "/Font << /F1 5 0 R /F2 6 0 R >>", font, desc, prog))
	if text != "aếΓ" {
		t.Errorf("%q, want aếΓ", text)
	}
}
