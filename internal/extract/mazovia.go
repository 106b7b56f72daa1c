package extract

import (
	"errors"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/transform"
)

// mazovia is the Polish DOS code page of the 1980s and 90s (Mazovia,
// CP 667 / 790): CP437 with the Polish letters in place of some of its
// accented letters and symbols. golang.org/x/text and iconv lack it;
// Polish TeX files of that time use it (gustlib's readme.biblotex:
// "u\xa7ytkownika" is "użytkownika").
var mazovia encoding.Encoding = newTable8(charmap.CodePage437, map[byte]rune{
	0x86: 'ą', 0x8d: 'ć', 0x8f: 'Ą', 0x90: 'Ę', 0x91: 'ę', 0x92: 'ł', 0x95: 'Ć', 0x98: 'Ś',
	0x9c: 'Ł', 0x9e: 'ś', 0xa0: 'Ź', 0xa1: 'Ż', 0xa3: 'Ó', 0xa4: 'ń', 0xa5: 'Ń', 0xa6: 'ź',
	0xa7: 'ż',
})

var errNotInTable = errors.New("character not in the code page")

// table8 is a single-byte encoding given by its 256 characters, built on
// first use (every gds command pays for what its package's init
// allocates; cmd/gdsbench TestGDSInitStaysSmall).
type table8 struct {
	base  *charmap.Charmap
	patch map[byte]rune
	once  sync.Once
	dec   [256]rune
	enc   map[rune]byte
}

// newTable8 returns base with the bytes of patch decoding to other
// characters.
func newTable8(base *charmap.Charmap, patch map[byte]rune) *table8 {
	return &table8{base: base, patch: patch}
}

// tables builds t's tables once and returns t.
func (t *table8) tables() *table8 {
	t.once.Do(func() {
		t.enc = make(map[rune]byte, 256)
		for b := range 256 {
			r := t.base.DecodeByte(byte(b))
			if p, ok := t.patch[byte(b)]; ok {
				r = p
			}
			t.dec[b] = r
			t.enc[r] = byte(b)
		}
	})
	return t
}

func (t *table8) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: table8Decoder{t.tables()}}
}

func (t *table8) NewEncoder() *encoding.Encoder {
	return &encoding.Encoder{Transformer: table8Encoder{t.tables()}}
}

type table8Decoder struct{ t *table8 }

func (d table8Decoder) Reset() {}

func (d table8Decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		r := d.t.dec[src[nSrc]]
		if nDst+utf8.RuneLen(r) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
		nSrc++
	}
	return nDst, nSrc, nil
}

type table8Encoder struct{ t *table8 }

func (e table8Encoder) Reset() {}

func (e table8Encoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		r, size := utf8.DecodeRune(src[nSrc:])
		if r == utf8.RuneError && size == 1 && !atEOF && !utf8.FullRune(src[nSrc:]) {
			return nDst, nSrc, transform.ErrShortSrc
		}
		b, ok := e.t.enc[r]
		if !ok {
			return nDst, nSrc, errNotInTable
		}
		if nDst >= len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		dst[nDst] = b
		nDst++
		nSrc += size
	}
	return nDst, nSrc, nil
}
