package extract

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// TestCharsetCorpus measures the charset detection on a folder of real
// files against uchardet: every file under $GDS_CHARSET_CORPUS (the
// unpacked packages of scripts/realcorpus.sh) that is text (no NUL, few
// controls, under 1 MiB), not UTF-8, is decoded as gds reads it (an HTML
// page by htmlEncoding, any other file by detectLegacy) and as uchardet
// names its charset; the two agree when the decoded texts are equal
// (Latin-1 and Windows-1252 agree on a file without C1 bytes). It logs
// each disagreement and the totals, and fails nothing: it is a
// measurement, skipped unless the variable is set.
//
//	GDS_CHARSET_CORPUS=/path/to/root go test ./internal/extract -run TestCharsetCorpus -v
func TestCharsetCorpus(t *testing.T) {
	root := os.Getenv("GDS_CHARSET_CORPUS")
	if root == "" {
		t.Skip("GDS_CHARSET_CORPUS not set")
	}
	if _, err := exec.LookPath("uchardet"); err != nil {
		t.Skip("uchardet not installed")
	}
	type result struct{ agree, all int }
	byKind := map[string]*result{}
	byUchardet := map[string]*result{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil || info.Size() >= 1<<20 {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !corpusText(data) {
			return nil
		}
		out, err := exec.Command("uchardet", p).Output()
		if err != nil {
			return err
		}
		uname := strings.ToUpper(strings.TrimSpace(string(out)))
		kind, declared := "text", ""
		var enc encoding.Encoding
		if b := strings.ToLower(d.Name()); strings.HasSuffix(b, ".html") || strings.HasSuffix(b, ".htm") {
			kind = "HTML"
			enc = htmlEncoding(data)
			if _, name, certain := charset.DetermineEncoding(data, "text/html"); certain || name != "windows-1252" {
				declared = " declared=" + name
			}
		} else {
			enc, _ = detectLegacy(data)
		}
		got := decodeAll(enc, data)
		want, known := "", false
		if ue := uchardetEncoding(uname); ue != nil {
			want, known = decodeAll(ue, data), true
		}
		for _, c := range []struct {
			m map[string]*result
			k string
		}{{byKind, kind}, {byUchardet, kind + " " + uname}} {
			if c.m[c.k] == nil {
				c.m[c.k] = &result{}
			}
			c.m[c.k].all++
			if known && got == want {
				c.m[c.k].agree++
			}
		}
		rel, _ := filepath.Rel(root, p)
		t.Logf("FILE %s %s uchardet=%s gds=%s%s agree=%v", kind, rel, uname, encName(enc), declared, known && got == want)
		if !known || got != want {
			t.Logf("DIFF %s uchardet=%s gds=%s %s\n  uchardet: %q\n  gds:      %q", kind, uname, encName(enc), rel,
				firstDiff(want, got), firstDiff(got, want))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range byUchardet {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("uchardet %-14s %d/%d agree", k, byUchardet[k].agree, byUchardet[k].all)
	}
	for k, r := range byKind {
		t.Logf("TOTAL %s: %d/%d agree with uchardet", k, r.agree, r.all)
	}
}

// corpusText tells whether data is text that is not UTF-8: no NUL, no
// PDF, ZIP or gzip signature, at most 1% control characters besides
// line ends, tabs, form feeds and escapes.
func corpusText(data []byte) bool {
	if utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 || bytes.HasPrefix(data, []byte("%PDF-")) ||
		bytes.HasPrefix(data, []byte("PK")) || bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		return false
	}
	ctrl := 0
	for _, c := range data {
		if c < 32 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 27 {
			ctrl++
		}
	}
	return ctrl*100 <= len(data)
}

// uchardetEncoding returns the encoding uchardet names, nil for one
// golang.org/x/text does not know.
func uchardetEncoding(name string) encoding.Encoding {
	switch name {
	case "MAC-CYRILLIC":
		return charmap.MacintoshCyrillic
	case "MAC-CENTRALEUROPE":
		return nil
	case "IBM852":
		return charmap.CodePage852
	case "IBM855":
		return charmap.CodePage855
	case "IBM866":
		return charmap.CodePage866
	case "IBM850":
		return charmap.CodePage850
	}
	if e, err := ianaindex.IANA.Encoding(name); err == nil && e != nil {
		return e
	}
	if e, err := htmlindex.Get(name); err == nil {
		return e
	}
	return nil
}

func decodeAll(e encoding.Encoding, data []byte) string {
	out, err := e.NewDecoder().Bytes(data)
	if err != nil {
		return "\ufffd" + err.Error()
	}
	return string(out)
}

func encName(e encoding.Encoding) string {
	if n, err := htmlindex.Name(e); err == nil {
		return n
	}
	for _, c := range legacyCandidates {
		if c.enc == e {
			return c.name
		}
	}
	if n, err := ianaindex.MIME.Name(e); err == nil {
		return n
	}
	return "?"
}

// firstDiff returns a, around where it first differs from b.
func firstDiff(a, b string) string {
	ra, rb := []rune(a), []rune(b)
	i := 0
	for i < len(ra) && i < len(rb) && ra[i] == rb[i] {
		i++
	}
	for i < len(ra) && i > 0 && ra[i] < utf8.RuneSelf {
		i++
	}
	return string(ra[max(0, i-30):min(len(ra), i+30)])
}

// TestCharsetCorpusEncoded measures the detection on real text encoded
// in each legacy charset: every UTF-8 text file of the documentation
// under $GDS_CHARSET_CORPUS (whole, its first 16 KiB, and up to 8 of its
// lines with non-ASCII letters) is encoded in each candidate charset
// that can encode it (Chinese ones only for text with Han and no kana,
// Arabic and Hebrew ones only for text with their letters) and must
// decode back unchanged. It logs the figures per charset; skipped
// unless the variable is set.
//
//	GDS_CHARSET_CORPUS=/path/to/root go test ./internal/extract -run TestCharsetCorpusEncoded -v
func TestCharsetCorpusEncoded(t *testing.T) {
	root := os.Getenv("GDS_CHARSET_CORPUS")
	if root == "" {
		t.Skip("GDS_CHARSET_CORPUS not set")
	}
	var texts []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !strings.Contains(p, "/usr/share/doc/") {
			return err
		}
		b := strings.ToLower(d.Name())
		if !strings.HasSuffix(b, ".txt") && !strings.HasSuffix(b, ".md") && !strings.HasSuffix(b, ".tex") && !strings.HasPrefix(b, "readme") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || len(data) > 200<<10 || !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
			return err
		}
		s := strings.ReplaceAll(string(data), "\r\n", "\n")
		if len(s) > 16<<10 {
			s = s[:strings.LastIndexByte(s[:16<<10], '\n')+1]
		}
		if !hasNonASCIILetter(s) {
			return nil
		}
		texts = append(texts, s)
		n := 0
		for _, line := range strings.Split(s, "\n") {
			if n < 8 && len(line) >= 10 && hasNonASCIILetter(line) {
				texts = append(texts, line+"\n")
				n++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	encs := []struct {
		name string
		enc  encoding.Encoding
		only func(string) bool
	}{
		{"Shift_JIS", japanese.ShiftJIS, hasScript(unicode.Hiragana)},
		{"EUC-JP", japanese.EUCJP, hasScript(unicode.Hiragana)},
		{"windows-1252", charmap.Windows1252, latinOnly},
		{"windows-1250", charmap.Windows1250, latinOnly},
		{"ISO-8859-2", charmap.ISO8859_2, latinOnly},
		{"windows-1251", charmap.Windows1251, hasScript(unicode.Cyrillic)},
		{"KOI8-R", charmap.KOI8R, hasScript(unicode.Cyrillic)},
		{"IBM866", charmap.CodePage866, hasScript(unicode.Cyrillic)},
		{"windows-1253", charmap.Windows1253, hasScript(unicode.Greek)},
		{"ISO-8859-7", charmap.ISO8859_7, hasScript(unicode.Greek)},
		{"IBM850", charmap.CodePage850, latinOnly},
		{"IBM852", charmap.CodePage852, latinOnly},
		{"ISO-8859-13", charmap.ISO8859_13, latinOnly},
		{"windows-1254", charmap.Windows1254, latinOnly},
		{"windows-1256", charmap.Windows1256, hasScript(unicode.Arabic)},
		{"ISO-8859-6", charmap.ISO8859_6, hasScript(unicode.Arabic)},
		{"windows-1255", charmap.Windows1255, hasScript(unicode.Hebrew)},
		{"IBM862", charmap.CodePage862, hasScript(unicode.Hebrew)},
		{"GB18030", simplifiedchinese.GB18030, chineseOnly},
		{"Big5", traditionalchinese.Big5, chineseOnly},
	}
	for _, e := range encs {
		right, all := 0, 0
		var wrong []string
		for _, s := range texts {
			if e.only != nil && !e.only(s) {
				continue
			}
			in, err := e.enc.NewEncoder().Bytes([]byte(s))
			if err != nil || utf8.Valid(in) {
				continue
			}
			all++
			enc, name := detectLegacy(in)
			if decodeAll(enc, in) == s {
				right++
			} else {
				if len(wrong) < 5 {
					wrong = append(wrong, name+": "+firstRunes(s, 50))
				}
				t.Logf("ENCWRONG %s as %s: %q", e.name, name, firstRunes(s, 80))
			}
		}
		t.Logf("ENCODED %-12s %d/%d %q", e.name, right, all, wrong)
	}
}

func hasNonASCIILetter(s string) bool {
	for _, r := range s {
		if r >= utf8.RuneSelf && unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

func hasScript(tab *unicode.RangeTable) func(string) bool {
	return func(s string) bool {
		for _, r := range s {
			if unicode.Is(tab, r) {
				return true
			}
		}
		return false
	}
}

// chineseOnly: Han, no kana, nothing beyond ASCII but CJK.
func chineseOnly(s string) bool {
	han := false
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
		case unicode.Is(unicode.Han, r):
			han = true
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			return false
		case r >= 0x3000 && r <= 0x303f, r >= 0xff01 && r <= 0xff5e, r == '·', r == '—', r == '“', r == '”', r == '…':
		default:
			return false
		}
	}
	return han
}

// latinOnly: non-ASCII Latin letters, no letter of another script.
func latinOnly(s string) bool {
	latin := false
	for _, r := range s {
		if r >= utf8.RuneSelf && unicode.IsLetter(r) {
			if !unicode.Is(unicode.Latin, r) {
				return false
			}
			latin = true
		}
	}
	return latin
}
