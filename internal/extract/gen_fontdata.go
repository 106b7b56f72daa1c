//go:build ignore

// gen_fontdata writes the tables in fontdata/ that decode PDF fonts
// without a ToUnicode map:
//
//   - cid-<Ordering>.gz: the CID → Unicode table of each Adobe character
//     collection (Japan1, GB1, CNS1, Korea1, KR), from Adobe's
//     Adobe-<Ordering>-UCS2 CMaps (github.com/adobe-type-tools/cmap-resources,
//     BSD-3-Clause; Debian's poppler-data ships them in its cMap directory);
//   - agl.gz: the Adobe Glyph List (github.com/adobe-type-tools/agl-aglfn,
//     glyphlist.txt, BSD-3-Clause), glyph name → characters.
//
// Run it in this directory with poppler-data's cMap directory and the
// glyph list:
//
//	go run gen_fontdata.go CMAP_DIR path/to/glyphlist.txt
//
// A CID table is a gzip'd run-length form read by cidTable (pdfcid.go):
// runs of consecutive CIDs, each a uvarint n<<1|mapped and, for a mapped
// run, a zigzag varint: its first code point minus the code point after the
// previous mapped run's last. The CIDs of a mapped run map to consecutive
// code points. Where Adobe maps a CID to several characters, the first is
// kept; variation selectors are dropped.
//
// agl.gz is the list's "name;XXXX[ XXXX]" lines, comments dropped.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
)

var orderings = []string{"Japan1", "GB1", "CNS1", "Korea1", "KR"}

var hexRe = regexp.MustCompile(`<([0-9a-fA-F]+)>`)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run gen_fontdata.go CMAP_DIR glyphlist.txt")
		os.Exit(2)
	}
	if err := os.MkdirAll("fontdata", 0o755); err != nil {
		panic(err)
	}
	for _, o := range orderings {
		m := readUCS2(filepath.Join(os.Args[1], "Adobe-"+o, "Adobe-"+o+"-UCS2"))
		data := encodeRuns(m)
		name := filepath.Join("fontdata", "cid-"+o+".gz")
		writeGzip(name, data)
		fmt.Printf("%s: %d CIDs mapped, %d bytes of runs\n", name, len(m), len(data))
	}
	writeGzip(filepath.Join("fontdata", "agl.gz"), readAGL(os.Args[2]))
}

// decode returns the first character of a UTF-16BE hex string, skipping
// variation selectors; 0 if none.
func decode(h string) rune {
	var units []uint16
	for i := 0; i+4 <= len(h); i += 4 {
		v, _ := strconv.ParseUint(h[i:i+4], 16, 16)
		units = append(units, uint16(v))
	}
	for _, r := range utf16.Decode(units) {
		if (r >= 0xFE00 && r <= 0xFE0F) || (r >= 0xE0100 && r <= 0xE01EF) || r == 0xFFFD {
			continue
		}
		return r
	}
	return 0
}

// readUCS2 reads the bfchar and bfrange mappings of a CID → UCS2 CMap.
func readUCS2(path string) map[int]rune {
	f, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	m := map[int]rune{}
	mode := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasSuffix(line, "beginbfchar"):
			mode = "char"
			continue
		case strings.HasSuffix(line, "beginbfrange"):
			mode = "range"
			continue
		case strings.HasPrefix(line, "end"):
			mode = ""
			continue
		}
		hs := hexRe.FindAllStringSubmatch(line, -1)
		switch {
		case mode == "char" && len(hs) == 2:
			cid, _ := strconv.ParseUint(hs[0][1], 16, 32)
			if r := decode(hs[1][1]); r != 0 {
				m[int(cid)] = r
			}
		case mode == "range" && len(hs) == 3:
			lo, _ := strconv.ParseUint(hs[0][1], 16, 32)
			hi, _ := strconv.ParseUint(hs[1][1], 16, 32)
			r := decode(hs[2][1])
			for c := lo; c <= hi && r != 0; c++ {
				m[int(c)] = r + rune(c-lo)
			}
		}
	}
	if err := sc.Err(); err != nil {
		panic(err)
	}
	return m
}

// encodeRuns writes the table as runs (see the file comment).
func encodeRuns(m map[int]rune) []byte {
	maxCID := 0
	for c := range m {
		maxCID = max(maxCID, c)
	}
	var out []byte
	next := rune(0) // the code point after the previous mapped run
	for c := 0; c <= maxCID; {
		r, ok := m[c]
		n := 1
		if ok {
			for m[c+n] == r+rune(n) && c+n <= maxCID {
				n++
			}
			out = binary.AppendUvarint(out, uint64(n)<<1|1)
			out = binary.AppendVarint(out, int64(r-next))
			next = r + rune(n)
		} else {
			for _, ok := m[c+n]; !ok && c+n <= maxCID; _, ok = m[c+n] {
				n++
			}
			out = binary.AppendUvarint(out, uint64(n)<<1)
		}
		c += n
	}
	return out
}

// readAGL returns the glyph list's mapping lines, sorted.
func readAGL(path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") && strings.Count(l, ";") == 1 {
			lines = append(lines, l)
		}
	}
	sort.Strings(lines)
	fmt.Printf("agl: %d names\n", len(lines))
	return []byte(strings.Join(lines, "\n") + "\n")
}

func writeGzip(name string, data []byte) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		panic(err)
	}
	if _, err := zw.Write(data); err != nil {
		panic(err)
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		panic(err)
	}
}
