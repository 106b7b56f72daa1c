package extract

import "encoding/binary"

// The built-in encoding of a CFF (Type 1C) font program: which glyph each
// character code draws, by glyph name. A font without a PDF encoding and
// without ToUnicode (Vietnamese T5 fonts, math fonts) is readable only
// through it. Every offset and count is checked against the data: a
// damaged program yields nothing, never a panic.

// cffReader reads big-endian values with bounds checks.
type cffReader struct {
	b   []byte
	bad bool
}

func (r *cffReader) u8(off int) int {
	if off < 0 || off >= len(r.b) {
		r.bad = true
		return 0
	}
	return int(r.b[off])
}

func (r *cffReader) u16(off int) int {
	if off < 0 || off+2 > len(r.b) {
		r.bad = true
		return 0
	}
	return int(binary.BigEndian.Uint16(r.b[off:]))
}

func (r *cffReader) offset(off, size int) int {
	v := 0
	for i := range size {
		v = v<<8 | r.u8(off+i)
	}
	return v
}

// index reads the INDEX at off: its items' byte ranges and where it ends.
func (r *cffReader) index(off int) (items [][2]int, end int) {
	count := r.u16(off)
	if r.bad || count == 0 {
		return nil, off + 2
	}
	size := r.u8(off + 2)
	if size < 1 || size > 4 || count > len(r.b) {
		r.bad = true
		return nil, len(r.b)
	}
	base := off + 3 + (count+1)*size - 1
	prev := r.offset(off+3, size)
	for i := 1; i <= count && !r.bad; i++ {
		next := r.offset(off+3+i*size, size)
		if next < prev || base+next > len(r.b) {
			r.bad = true
			break
		}
		items = append(items, [2]int{base + prev, base + next})
		prev = next
	}
	return items, base + prev
}

// topDict returns the operands of the charset (15), Encoding (16) and
// CharStrings (17) operators of a Top DICT, and whether it is a CID font.
func topDict(d []byte) (charset, enc, charStrings int, cid bool) {
	var operands []int
	for i := 0; i < len(d); {
		b := int(d[i])
		switch {
		case b <= 21:
			op := b
			i++
			if b == 12 && i < len(d) {
				op = 1200 + int(d[i])
				i++
			}
			last := 0
			if len(operands) > 0 {
				last = operands[len(operands)-1]
			}
			switch op {
			case 15:
				charset = last
			case 16:
				enc = last
			case 17:
				charStrings = last
			case 1230: // ROS
				cid = true
			}
			operands = operands[:0]
		case b == 28 && i+2 < len(d):
			operands = append(operands, int(int16(binary.BigEndian.Uint16(d[i+1:]))))
			i += 3
		case b == 29 && i+4 < len(d):
			operands = append(operands, int(int32(binary.BigEndian.Uint32(d[i+1:]))))
			i += 5
		case b == 30: // a real number: nibbles up to 0xf
			for i++; i < len(d); i++ {
				if d[i]&0x0f == 0x0f || d[i]>>4 == 0x0f {
					i++
					break
				}
			}
			operands = append(operands, 0)
		case b >= 32 && b <= 246:
			operands = append(operands, b-139)
			i++
		case b >= 247 && b <= 250 && i+1 < len(d):
			operands = append(operands, (b-247)*256+int(d[i+1])+108)
			i += 2
		case b >= 251 && b <= 254 && i+1 < len(d):
			operands = append(operands, -(b-251)*256-int(d[i+1])-108)
			i += 2
		default:
			return 0, 0, 0, false // reserved or truncated: not a usable DICT
		}
		if len(operands) > 48 {
			return 0, 0, 0, false
		}
	}
	return charset, enc, charStrings, cid
}

// cffEncoding returns the glyph names of the codes of a CFF font's own
// encoding, or nil when it has none of its own (the standard encoding, a
// CID font, damaged data).
func cffEncoding(data []byte) map[int]string {
	r := &cffReader{b: data}
	_, end := r.index(r.u8(2)) // Name INDEX after the header
	top, end := r.index(end)
	strs, _ := r.index(end)
	if r.bad || len(top) == 0 {
		return nil
	}
	charsetOff, encOff, csOff, cid := topDict(data[top[0][0]:top[0][1]])
	if cid || encOff <= 1 || csOff <= 0 {
		return nil // standard or expert encoding, or codes are CIDs
	}
	nGlyphs := r.u16(csOff)
	if r.bad || nGlyphs == 0 {
		return nil
	}
	name := func(sid int) string {
		switch {
		case sid < len(cffStandardStrings):
			return cffStandardStrings[sid]
		case sid-len(cffStandardStrings) < len(strs):
			s := strs[sid-len(cffStandardStrings)]
			return string(data[s[0]:s[1]])
		}
		return ""
	}
	// GID → SID
	sids := make([]int, nGlyphs)
	switch charsetOff {
	case 0: // ISOAdobe: SID = GID
		for g := range sids {
			sids[g] = g
		}
	case 1, 2: // expert charsets: no text glyph names worth reading
		return nil
	default:
		format, pos := r.u8(charsetOff), charsetOff+1
		for g := 1; g < nGlyphs && !r.bad; {
			switch format {
			case 0:
				sids[g] = r.u16(pos)
				pos += 2
				g++
			case 1, 2:
				first, left := r.u16(pos), 0
				if format == 1 {
					left, pos = r.u8(pos+2), pos+3
				} else {
					left, pos = r.u16(pos+2), pos+4
				}
				for k := 0; k <= left && g < nGlyphs; k++ {
					sids[g] = first + k
					g++
				}
			default:
				return nil
			}
		}
	}
	out := map[int]string{}
	format, pos := r.u8(encOff), encOff+1
	switch format & 0x7f {
	case 0:
		n := r.u8(pos)
		for g := 1; g <= n && g < nGlyphs; g++ {
			out[r.u8(pos+g)] = name(sids[g])
		}
		pos += 1 + n
	case 1:
		n, g := r.u8(pos), 1
		for k := range n {
			first, left := r.u8(pos+1+2*k), r.u8(pos+2+2*k)
			for c := first; c <= first+left && c < 256 && g < nGlyphs; c++ {
				out[c] = name(sids[g])
				g++
			}
		}
		pos += 1 + 2*n
	default:
		return nil
	}
	if format&0x80 != 0 { // supplements: more codes for named glyphs
		n := r.u8(pos)
		for k := range n {
			out[r.u8(pos+1+3*k)] = name(r.u16(pos + 2 + 3*k))
		}
	}
	if r.bad {
		return nil
	}
	for c, n := range out {
		if n == "" || n == ".notdef" {
			delete(out, c)
		}
	}
	return out
}
