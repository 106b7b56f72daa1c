package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/crawl"
)

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"The ﬁrst Word, again.", []string{"the", "first", "word", "again"}},
		{"会議資料です", []string{"会議", "議資", "資料", "料で", "です"}},
		{"Go言語 1.2", []string{"go", "言語", "1", "2"}},
		{"一", []string{"一"}},
	}
	for _, tt := range tests {
		if got := words(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRecallPrecision(t *testing.T) {
	r, p := recallPrecision(words("a b c d"), words("a b x"))
	if r != 0.5 || p != 2.0/3 {
		t.Errorf("recall %v precision %v, want 0.5 0.667", r, p)
	}
	if r, p := recallPrecision(nil, nil); r != 1 || p != 1 {
		t.Errorf("empty: %v %v", r, p)
	}
}

func TestOnlyIn(t *testing.T) {
	ref := words("L AT E X and L AT E X, a TeX logo")
	got := words("LaTeX and LaTeX, a TeX logo")
	if r, g := onlyIn(ref, got, 3), onlyIn(got, ref, 3); !slices.Equal(r, []string{"at×2", "e×2", "l×2"}) || !slices.Equal(g, []string{"latex×2"}) {
		t.Errorf("reference only %q, gds only %q", r, g)
	}
	if d := onlyIn(got, got, 3); len(d) != 0 {
		t.Errorf("same text: %q", d)
	}
}

func TestJoinedWords(t *testing.T) {
	ref := "Demonstration of backgrounds by Denis Girou, June 2002"
	tests := []struct {
		got        string
		wantJoined int
	}{
		{ref, 0},
		{"Demonstrationofbackgrounds byDenis Girou, June 2002", 3},
		{"Demonstration of back-grounds by Denis Girou June 2002", 0}, // a hyphen is not a lost space
	}
	for _, tt := range tests {
		j, b := joinedWords(ref, tt.got)
		if j != tt.wantJoined || b != 5 {
			t.Errorf("%q: joined %d of %d, want %d of 5", tt.got, j, b, tt.wantJoined)
		}
	}
}

func TestCutOffAndRTL(t *testing.T) {
	page := ""
	for i := range 60 {
		page += string(rune('a'+i%26)) + string(rune('a'+i/26)) + " "
	}
	if !cutOff(page, page[:len(page)/2]) {
		t.Error("half a page is cut off")
	}
	// As long as the reference page but other words at its end: read
	// otherwise, not cut.
	if cutOff(page, page[:len(page)/2]+strings.Repeat("zz ", 40)) {
		t.Error("a page as long as the reference's is not cut off")
	}
	if cutOff(page, page) || cutOff("too short", "") {
		t.Error("a whole page, or a short one, is not cut off")
	}
	if rev := reversedRTL("שלום מרחשון", "םולש מרחשון"); !slices.Equal(rev, []string{"שלום"}) {
		t.Errorf("reversed RTL words %q, want [שלום]", rev)
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3, 6, 7, 8, 9, 10}
	if q := quantile(xs, 0.5); q != 5 {
		t.Errorf("median %v", q)
	}
	if q := quantile(xs, 0.1); q != 1 {
		t.Errorf("p10 %v", q)
	}
}

func TestDropOverlap(t *testing.T) {
	if got := dropOverlap("one two three", "two three four"); got != " four" {
		t.Errorf("%q", got)
	}
	// An overlap longer than ChunkOverlap (a chunk that begins at a
	// sentence start further back) goes too.
	var b strings.Builder
	for i := range 80 {
		b.WriteString("w" + strings.Repeat("x", i%7) + " ")
	}
	prev := b.String()
	long := prev[len(prev)-300:]
	if got := dropOverlap(prev, long+"tail"); got != "tail" {
		t.Errorf("a 300-character overlap: %q", got)
	}
	// A text repeating itself loses no more than the overlap.
	rep := strings.Repeat("Dit is een test. ", 100)
	if got := dropOverlap(rep, rep); len([]rune(rep))-len([]rune(got)) > crawl.ChunkMaxOverlap {
		t.Errorf("dropped %d characters", len(rep)-len(got))
	}
}

// A word that begins with a combining mark after white space continues
// the word before it, on every side: pdftotext's Arabic الر ّ is الرّ.
func TestWordsCombiningMark(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"الر ّ حمن", []string{"الر\u0651", "حمن"}},
		{"الرّ حمن", []string{"الر\u0651", "حمن"}},
		{"ab \u0903cd", []string{"ab\u0903cd"}},        // Mc too
		{"ab, \u0301cd", []string{"ab", "\u0301cd"}},   // not across punctuation
		{"漢字 \u0301x", []string{"漢字", "\u0301x"}},      // nor onto CJK bigrams
		{"เป็ น", []string{"เป\u0e47", "น"}},           // a letter after a space stays a word
		{"\u0301lone", []string{"\u0301lone"}},         // nothing before it
		{"x \u0301 \u0301", []string{"x\u0301\u0301"}}, // marks keep joining
		{"a\u0651 b", []string{"a\u0651", "b"}},        // unchanged without a space
		{"one  \t\n \u064b", []string{"one\u064b"}},    // any white space
	}
	for _, tt := range tests {
		if got := words(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// White space between two Han or kana characters is no word boundary;
// between Hangul words, and between CJK and Latin, it is.
func TestWordsCJKSpaces(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"可 以", []string{"可以"}},
		{"会議資\n料です", []string{"会議", "議資", "資料", "料で", "です"}},
		{"会 議 資 料", []string{"会議", "議資", "資料"}},
		{"한국 어", []string{"한국", "어"}},
		{"日本 abc", []string{"日本", "abc"}},
		{"abc 日本", []string{"abc", "日本"}},
		{"日本 한국", []string{"日本", "한국"}},
		{"日本, 語", []string{"日本", "語"}},
		{"日 \t 本", []string{"日本"}},
		{"日 1", []string{"日", "1"}},
		{"日 ́x", []string{"日", "\u0301x"}},
	}
	for _, tt := range tests {
		if got := words(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestReversedByForm(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"מרחשון שלום", 0},                   // logical order: the final forms end the words
		{"ןושחרמ םולש", 2},                   // visual order: they begin them
		{"العربية إلى", 0},                   // ta marbuta, alef maksura at the end
		{"ةيبرعلا ىلإ", 2},                   // ... and at the start
		{"ﺔﻴﺑﺮﻌﻟا", 1},                       // presentation forms fold (NFKC) to the same letters
		{"ן ם ة", 0},                         // a lone letter (a letter's name, a chart) is no word
		{"Mem ם and final nun ן", 0},         // Latin text around lone letters
		{"ﻻ لا ال", 0},                       // lam-alef either way round: no end-only letter
		{"םולש world ةيبرع hello ןושחרמ", 3}, // mixed scripts
	}
	for _, tt := range tests {
		if got, sample := reversedByForm(tt.text, 1); got != tt.want || len(sample) != min(got, 1) {
			t.Errorf("reversedByForm(%q) = %d %q, want %d", tt.text, got, sample, tt.want)
		}
	}
}

func TestDeclaresCharset(t *testing.T) {
	for page, want := range map[string]bool{
		`<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">`: true,
		`<META CHARSET="windows-1252">`:                                            true,
		`<p>the charset is not named here</p>`:                                     false,
		`<meta charset=utf-8>`:                                                     true,
		`<?xml version="1.0" encoding="ISO-8859-1"?><html>`:                        true,
		`<html><body>R\xfcckkehr</body></html>`:                                    false,
	} {
		if got := declaresCharset([]byte(page)); got != want {
			t.Errorf("declaresCharset(%q) = %v, want %v", page, got, want)
		}
	}
}

func TestFoldRTL(t *testing.T) {
	got := foldRTL(words("שלום םולש ةيبرع عربية hello olleh"))
	if got[0] != got[1] || got[2] != got[3] || got[4] == got[5] {
		t.Errorf("foldRTL = %q: each Hebrew and Arabic word one way round, Latin as it is", got)
	}
	if r, p := recallPrecision(foldRTL(words("فقرة عربية")), foldRTL(words("ةرقف ةيبرع"))); r != 1 || p != 1 {
		t.Errorf("recall %v precision %v of a reversed line, want 1 and 1 (reversal is counted apart)", r, p)
	}
}

func TestWordsBidiControls(t *testing.T) {
	// pdftotext: "‫حاشية‬ 1‫ن‬" with RLE … PDF around each right-to-left run.
	got := words("\u202bحاشية\u202c 1\u202bن\u202c a\u200fb")
	want := []string{"حاشية", "1ن", "ab"}
	if !slices.Equal(got, want) {
		t.Errorf("words = %q, want %q", got, want)
	}
}
