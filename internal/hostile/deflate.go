package hostile

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"io"
)

// piece is n copies of b.
type piece struct {
	b []byte
	n int64
}

// content is a sequence of pieces: the uncompressed content of every
// large file of the corpus, described rather than held.
type content []piece

// once is content of a single piece written once.
func once(s string) piece { return piece{[]byte(s), 1} }

// times is s repeated n times.
func times(s string, n int64) piece { return piece{[]byte(s), n} }

func (c content) size() int64 {
	var n int64
	for _, p := range c {
		n += p.n * int64(len(p.b))
	}
	return n
}

// chunkCopies is how many copies of b make one chunk of about 256 KiB
// (far more than DEFLATE's 32 KiB window): a whole number, so that every
// chunk starts at the same phase of b.
func (p piece) chunkCopies() int64 {
	if len(p.b) == 0 {
		return 1
	}
	return max(1, (256<<10)/int64(len(p.b)))
}

// writeRaw writes c uncompressed, a chunk at a time.
func (c content) writeRaw(w io.Writer) error {
	for _, p := range c {
		k := p.chunkCopies()
		chunk := bytes.Repeat(p.b, int(min(k, p.n)))
		n := p.n
		for ; n >= k; n -= k {
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		if _, err := w.Write(chunk[:n*int64(len(p.b))]); err != nil {
			return err
		}
	}
	return nil
}

// deflate returns c as a raw DEFLATE stream (RFC 1951) without compressing
// every byte: once the compressor emits the same bytes for two chunks of a
// piece in a row (its window then holds nothing but copies of the piece,
// at the same phase), those bytes stand for every further chunk. Inflating
// the result yields exactly c; a 2 GiB piece takes milliseconds.
func (c content) deflate() []byte {
	var out bytes.Buffer
	fw, _ := flate.NewWriter(&out, flate.BestCompression) // the level is valid
	for _, p := range c {
		k := p.chunkCopies()
		n := p.n
		if n >= 2*k {
			chunk := bytes.Repeat(p.b, int(k))
			var prev []byte
			for n >= k {
				start := out.Len()
				_, _ = fw.Write(chunk) // into memory: never fails
				fw.Flush()             // byte-aligned: chunks can be repeated verbatim
				n -= k
				cur := out.Bytes()[start:]
				if bytes.Equal(cur, prev) {
					for ; n >= k; n -= k {
						out.Write(cur)
					}
					break
				}
				prev = append(prev[:0], cur...)
			}
		}
		_, _ = fw.Write(bytes.Repeat(p.b, int(n)))
	}
	fw.Close()
	return out.Bytes()
}

// zlib returns c as a zlib stream (RFC 1950), what a PDF FlateDecode
// stream holds, with its Adler-32 checksum.
func (c content) zlib() []byte {
	var out bytes.Buffer
	out.Write([]byte{0x78, 0xda})
	out.Write(c.deflate())
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], c.adler32())
	out.Write(sum[:])
	return out.Bytes()
}

// adler32 of c, repeated pieces combined by doubling (no pass over them).
func (c content) adler32() uint32 {
	sum := uint32(1) // Adler-32 of the empty string
	for _, p := range c {
		rep := uint32(1)
		a, aLen := adler32.Checksum(p.b), int64(len(p.b))
		for n := p.n; n > 0; n >>= 1 {
			if n&1 == 1 {
				rep = adlerCombine(rep, a, aLen)
			}
			a, aLen = adlerCombine(a, a, aLen), 2*aLen
		}
		sum = adlerCombine(sum, rep, p.n*int64(len(p.b)))
	}
	return sum
}

// adlerCombine returns the Adler-32 of A+B from adler(A), adler(B) and
// len(B), as zlib's adler32_combine does.
func adlerCombine(a1, a2 uint32, len2 int64) uint32 {
	const base = 65521
	rem := uint64(len2 % base)
	s1 := uint64(a1 & 0xffff)
	s2 := rem * s1 % base
	s1 += uint64(a2&0xffff) + base - 1
	s2 += uint64(a1>>16) + uint64(a2>>16) + base - rem
	if s1 >= base {
		s1 -= base
	}
	if s1 >= base {
		s1 -= base
	}
	if s2 >= base<<1 {
		s2 -= base << 1
	}
	if s2 >= base {
		s2 -= base
	}
	return uint32(s1 | s2<<16)
}

// crc32 of c (IEEE, as zip stores it), one pass over its chunks.
func (c content) crc32() uint32 {
	h := crc32.NewIEEE()
	_ = c.writeRaw(h) // a hash never fails
	return h.Sum32()
}
