//go:build ignore

// gen_aj1 writes aj1.bin: the Adobe-Japan1 CID → Unicode table (3 bytes per
// CID, big-endian code point, 0 = unmapped) used to
// decode Japanese CID fonts that carry no ToUnicode map. Input is Adobe's
// Adobe-Japan1-UCS2 CMap (BSD-3-Clause; Debian package poppler-data ships it
// as cMap/Adobe-Japan1/Adobe-Japan1-UCS2). Given an output name, it writes
// the table of another collection (gb1.bin, cns1.bin, korea1.bin from
// Adobe-GB1-UCS2, Adobe-CNS1-UCS2, Adobe-Korea1-UCS2):
//
//	go run gen_aj1.go /path/to/Adobe-Japan1-UCS2
//	go run gen_aj1.go /path/to/Adobe-GB1-UCS2 gb1.bin
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
)

var (
	hexRe  = regexp.MustCompile(`<([0-9a-fA-F]+)>`)
	header []string
)

func decode(h string) rune {
	var units []uint16
	for i := 0; i+4 <= len(h); i += 4 {
		v, _ := strconv.ParseUint(h[i:i+4], 16, 16)
		units = append(units, uint16(v))
	}
	for _, r := range utf16.Decode(units) {
		// Keep the base character; drop variation selectors.
		if (r >= 0xFE00 && r <= 0xFE0F) || (r >= 0xE0100 && r <= 0xE01EF) {
			continue
		}
		return r
	}
	return 0
}

func main() {
	f, err := os.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	defer f.Close()
	m := map[int]rune{}
	mode := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "%%Copyright:") {
			header = append(header, strings.TrimSpace(strings.TrimPrefix(line, "%%Copyright:")))
			continue
		}
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
			if r := decode(hs[1][1]); r != 0 && r != 0xFFFD {
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
	cids := make([]int, 0, len(m))
	for c := range m {
		cids = append(cids, c)
	}
	sort.Ints(cids)

	max := cids[len(cids)-1]
	out := make([]byte, 3*(max+1))
	for c, r := range m {
		out[3*c], out[3*c+1], out[3*c+2] = byte(r>>16), byte(r>>8), byte(r)
	}
	name := "aj1.bin"
	if len(os.Args) > 2 {
		name = os.Args[2]
	}
	if err := os.WriteFile(name, out, 0o644); err != nil {
		panic(err)
	}
	fmt.Printf("%d CIDs, %s %d bytes\n", len(cids), name, len(out))
	for _, h := range header {
		if h != "" && !strings.HasPrefix(h, "---") {
			fmt.Println(h)
		}
	}
}
