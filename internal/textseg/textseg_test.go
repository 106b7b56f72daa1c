package textseg

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestSentences(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"abbreviation and initials", "He arrived on Jan. 5 with J. R. Smith. Then he left!", []string{"He arrived on Jan. 5 with J. R. Smith.", "Then he left!"}},
		{"a PDF line break keeps the year", "The game was delivered on January 23,\n2017. It sold well.", []string{"The game was delivered on January 23, 2017.", "It sold well."}},
		{"long wrapped lines are one sentence", "The committee met in the old town hall and discussed the\nbudget of the coming year in great detail.", []string{"The committee met in the old town hall and discussed the budget of the coming year in great detail."}},
		{"a heading stays its own line", "Introduction\nThe system works.", []string{"Introduction", "The system works."}},
		{"list items stay apart", "Items:\n- one\n- two\n1. three", []string{"Items:", "- one", "- two", "1. three"}},
		{"decimals and U.S.", "Pi is 3.14 and the U.S. Army knew it. Yes.", []string{"Pi is 3.14 and the U.S. Army knew it.", "Yes."}},
		{"lower case after a period", "It weighs approx. ten kg. e.g. this one.", []string{"It weighs approx. ten kg. e.g. this one."}},
		{"quotes close a sentence", `He said "stop." She stopped.`, []string{`He said "stop."`, "She stopped."}},
		{"paragraphs", "First one\n\nSecond one", []string{"First one", "Second one"}},
		{"Japanese", "東京は日本の首都である。人口は多い！「本当？」と聞いた。", []string{"東京は日本の首都である。", "人口は多い！", "「本当？」と聞いた。"}},
		{"a Japanese PDF line joins without a space", "東京は日本の首都であり、人口が非常に多い都市と\nして知られている。次の文。", []string{"東京は日本の首都であり、人口が非常に多い都市として知られている。", "次の文。"}},
		{"ideographic spaces set Japanese lines apart", "青い照明です（ひかりはたもち）\u3000\u3000これらは心象スケッチです", []string{"青い照明です（ひかりはたもち）", "これらは心象スケッチです"}},
		{"a hyphen at a line end", "It is an inter-\nnational treaty.", []string{"It is an inter-national treaty."}},
		{"white space runs", "  a   b\t c.  ", []string{"a b c."}},
		{"empty", " \n ", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sentences(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("Sentences(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// checkWindows asserts the properties every Spans result has: pieces of
// at most size runes, in order, covering the text, overlapping by at most
// overlap, trimmed, and (when words is set) cut only at word boundaries.
func checkWindows(t *testing.T, text string, size, overlap int, words bool) []string {
	t.Helper()
	r := []rune(text)
	spans := Spans(r, size, overlap)
	covered := 0 // runes of text covered so far
	var pieces []string
	for k, w := range spans {
		p := string(r[w.Start:w.End])
		pieces = append(pieces, p)
		if w.End-w.Start == 0 || w.End-w.Start > size {
			t.Fatalf("piece %d has %d runes (size %d): %q", k, w.End-w.Start, size, p)
		}
		if strings.TrimSpace(p) != p {
			t.Errorf("piece %d is not trimmed: %q", k, p)
		}
		if k > 0 {
			if w.Start <= spans[k-1].Start {
				t.Fatalf("piece %d does not move forward", k)
			}
			if covered-w.Start > overlap {
				t.Errorf("piece %d overlaps by %d > %d", k, covered-w.Start, overlap)
			}
		}
		if gap := strings.TrimSpace(string(r[covered:max(covered, w.Start)])); gap != "" {
			t.Fatalf("text lost before piece %d: %q", k, gap)
		}
		if words {
			if w.Start > 0 && unicode.IsLetter(r[w.Start-1]) && unicode.IsLetter(r[w.Start]) {
				t.Errorf("piece %d starts inside a word: …%q|%q", k, string(r[max(0, w.Start-10):w.Start]), string(r[w.Start:w.Start+10]))
			}
			if w.End < len(r) && unicode.IsLetter(r[w.End-1]) && unicode.IsLetter(r[w.End]) {
				t.Errorf("piece %d ends inside a word: %q|%q", k, string(r[max(0, w.End-10):w.End]), string(r[w.End:min(len(r), w.End+10)]))
			}
		}
		covered = max(covered, w.End)
	}
	if rest := strings.TrimSpace(string(r[covered:])); rest != "" {
		t.Fatalf("text lost at the end: %q", rest)
	}
	if got := Windows(text, size, overlap); !slices.Equal(got, pieces) {
		t.Errorf("Windows and Spans differ")
	}
	return pieces
}

func TestWindowsEnglish(t *testing.T) {
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "Sentence number %d tells about the Normans and their conquest of England in %d. ", i, 1000+i)
		if i%7 == 6 {
			b.WriteString("\n\n")
		}
	}
	text := b.String()
	pieces := checkWindows(t, text, 1000, 200, true)
	if len(pieces) < 5 {
		t.Fatalf("%d pieces", len(pieces))
	}
	for k, p := range pieces {
		if !strings.HasPrefix(p, "Sentence number") {
			t.Errorf("piece %d does not start a sentence: %q", k, p[:30])
		}
		if !strings.HasSuffix(p, ".") {
			t.Errorf("piece %d does not end a sentence: %q", k, p[len(p)-30:])
		}
	}
}

func TestWindowsLongSentenceCutsAtWords(t *testing.T) {
	text := strings.Repeat("alpha beta gamma delta ", 200) // one sentence of 4,600 runes
	pieces := checkWindows(t, text, 1000, 200, true)
	for k, p := range pieces[:len(pieces)-1] {
		if n := len([]rune(p)); n < 500 {
			t.Errorf("piece %d is short: %d runes", k, n)
		}
	}
}

func TestWindowsJapanese(t *testing.T) {
	text := strings.Repeat("東京は日本の首都であり、多くの人が住んでいる。", 80)
	pieces := checkWindows(t, text, 1000, 200, false)
	for k, p := range pieces {
		if !strings.HasPrefix(p, "東京は") || !strings.HasSuffix(p, "。") {
			t.Errorf("piece %d is not whole sentences: %q…%q", k, string([]rune(p)[:5]), string([]rune(p)[len([]rune(p))-5:]))
		}
	}
}

func TestWindowsOneHugeWord(t *testing.T) {
	text := "start " + strings.Repeat("x", 2500) + " end"
	pieces := checkWindows(t, text, 1000, 200, false)
	if got := strings.Join(pieces, ""); !strings.Contains(got, "end") {
		t.Errorf("lost the end: %d pieces", len(pieces))
	}
}

func TestWindowsShortAndEmpty(t *testing.T) {
	if got := Windows("  short text.  ", 1000, 200); !slices.Equal(got, []string{"short text."}) {
		t.Errorf("got %q", got)
	}
	if got := Windows(" \n\t ", 1000, 200); got != nil {
		t.Errorf("got %q", got)
	}
}

// FuzzWindows checks the Windows properties on any text.
func FuzzWindows(f *testing.F) {
	f.Add("Sentence one. Sentence two.\n\nA third, with a clause; and more.", 40, 10)
	f.Add("東京は日本の首都である。人口は多い。", 8, 3)
	f.Add(strings.Repeat("word ", 50), 17, 5)
	f.Fuzz(func(t *testing.T, text string, size, overlap int) {
		if size < 2 || size > 300 || overlap < 0 || overlap >= size || len(text) > 4000 {
			return
		}
		text = strings.ToValidUTF8(text, "")
		checkWindows(t, text, size, overlap, false)
	})
}
