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
// maxOverlap, trimmed, and (when words is set) cut only at word boundaries.
func checkWindows(t *testing.T, text string, size, overlap, maxOverlap int, words bool) []string {
	t.Helper()
	r := []rune(text)
	spans := Spans(r, size, overlap, maxOverlap)
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
			if covered-w.Start > maxOverlap {
				t.Errorf("piece %d overlaps by %d > %d", k, covered-w.Start, maxOverlap)
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
	if got := Windows(text, size, overlap, maxOverlap); !slices.Equal(got, pieces) {
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
	pieces := checkWindows(t, text, 1000, 200, 350, true)
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
	pieces := checkWindows(t, text, 1000, 200, 350, true)
	for k, p := range pieces[:len(pieces)-1] {
		if n := len([]rune(p)); n < 500 {
			t.Errorf("piece %d is short: %d runes", k, n)
		}
	}
}

func TestWindowsJapanese(t *testing.T) {
	text := strings.Repeat("東京は日本の首都であり、多くの人が住んでいる。", 80)
	pieces := checkWindows(t, text, 1000, 200, 350, false)
	for k, p := range pieces {
		if !strings.HasPrefix(p, "東京は") || !strings.HasSuffix(p, "。") {
			t.Errorf("piece %d is not whole sentences: %q…%q", k, string([]rune(p)[:5]), string([]rune(p)[len([]rune(p))-5:]))
		}
	}
}

func TestWindowsOneHugeWord(t *testing.T) {
	text := "start " + strings.Repeat("x", 2500) + " end"
	pieces := checkWindows(t, text, 1000, 200, 350, false)
	if got := strings.Join(pieces, ""); !strings.Contains(got, "end") {
		t.Errorf("lost the end: %d pieces", len(pieces))
	}
}

func TestWindowsShortAndEmpty(t *testing.T) {
	if got := Windows("  short text.  ", 1000, 200, 350); !slices.Equal(got, []string{"short text."}) {
		t.Errorf("got %q", got)
	}
	if got := Windows(" \n\t ", 1000, 200, 350); got != nil {
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
		// a reach for sentence starts between overlap and size
		checkWindows(t, text, size, overlap, overlap+(size-1-overlap)/2, false)
	})
}

// The piece after a long sentence at the overlap begins at that
// sentence's start when it lies within maxOverlap runes of the previous
// piece's end (the old rule, maxOverlap = overlap, began inside it), and
// at a word start when it lies farther back or the piece from it would
// end where the previous one does.
func TestWindowsOverlapStartsASentence(t *testing.T) {
	en := []string{
		"The bridge over the estuary was designed by a team of engineers from three countries and opened to traffic in the spring of 1998, two years later than planned. ",
		"Its main span of 1,624 metres made it the longest suspension bridge in Europe for a decade. ",
		"The towers stand on caissons sunk into the clay of the riverbed, and each carries a saddle of cast steel on which the main cables rest. ",
		"Maintenance crews inspect the cables every summer, working from cradles that run along them on rails fixed to the deck. ",
	}
	// A sentence of 283 runes: longer than the overlap, within 350.
	long := "The only other crossing of the estuary built in the same decade was the railway tunnel to the east, which was bored under the riverbed by two machines working towards each other from either bank and which carried its first passenger trains in the autumn of 2001, after a long delay. "
	// A sentence of 414 runes: beyond the reach.
	longer := "Plans for a second road bridge upstream, which the regional government first published in 2005 together with a study of the expected traffic, of the effects of the works on the birds that winter on the mudflats, of the cost of the approach roads on both banks, of the tolls that would pay for it over thirty years and of the land that would have to be bought from farmers, were shelved after the financial crisis. "
	after := "Tolls on the bridge were abolished in 2019, after the loans that paid for it were repaid in full by the operating company. The bridge now carries about eighty thousand vehicles a day, more than twice the number its designers expected, and the authority that runs it has proposed widening the approach roads on both sides. "
	ja := []string{
		"東京湾アクアラインは、神奈川県川崎市と千葉県木更津市を結ぶ有料道路で、1997年に開通した。",
		"全長は約15キロメートルで、そのうち約10キロメートルが海底トンネル、約5キロメートルが橋である。",
		"トンネルと橋の接続部には海ほたるパーキングエリアという人工島があり、休日には多くの観光客が訪れる。",
		"建設には約30年の調査と約10年の工事が費やされ、総事業費は約1兆4千億円に上った。",
		"開通当初は通行料金が高く、交通量は予測を大きく下回ったが、料金の引き下げによって次第に利用が増えた。",
	}
	// A Japanese sentence of 226 runes.
	jaLong := "開通から二十年余りを経た現在では、平日の朝夕に通勤の車が集中して木更津方面から川崎方面へ向かう上り線で渋滞が起きることが多く、国と県と運営会社は、時間帯によって料金を変える制度の試行、海ほたるパーキングエリアの駐車場の拡張、トンネル内の車線の運用の見直し、渋滞の予測を事前に利用者へ知らせる情報提供の強化、さらには周辺の一般道路を含めた交通の流れ全体の分析などを組み合わせた対策を、地元の自治体や商工会議所や観光協会とも協議しながら段階的に進めている。"
	jaAfter := "アクアラインの開通により、房総半島の南部から東京都心までの所要時間は大幅に短縮された。木更津市では人口が増加し、大型の商業施設も開業した。一方で、東京への買い物客の流出を懸念する声もある。"
	for _, tc := range []struct {
		name   string
		text   string
		starts string // the second piece's start
	}{
		{"English: a long sentence within the reach", strings.Join(en, "") + en[3] + long + after, "The only other crossing"},
		{"English: a sentence beyond the reach, a word start", strings.Join(en, "") + longer + after, "" /* not a sentence start */},
		// From the long sentence's start the piece would end where the
		// previous one does (no sentence end in the 800 runes after it).
		{"English: a piece that would not reach past the previous one, a word start", strings.Join(en, "") + long + "Beyond the tunnel" + strings.Repeat(" lie the marshes, the dykes", 29) + " and the sea. " + after, ""},
		{"Japanese: a long sentence within the reach", strings.Join(slices.Repeat(ja, 3), "") + ja[0] + jaLong + jaAfter, "開通から二十年余り"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := []rune(tc.text)
			lv := Levels(r)
			old := Spans(r, 1000, 200, 200)
			if len(old) < 2 || lv[old[1].Start] >= Line {
				t.Fatalf("the old rule starts piece 2 at a sentence start: the case tests nothing (%d pieces)", len(old))
			}
			pieces := checkWindows(t, tc.text, 1000, 200, 350, tc.starts == "")
			spans := Spans(r, 1000, 200, 350)
			if tc.starts == "" {
				if lv[spans[1].Start] >= Line || spans[1] != old[1] {
					t.Errorf("piece 2 = %v, want the old rule's word start %v: %q", spans[1], old[1], pieces[1][:40])
				}
				return
			}
			if !strings.HasPrefix(pieces[1], tc.starts) {
				t.Errorf("piece 2 starts %q, want %q (piece 1 ends …%q)", string([]rune(pieces[1])[:20]), tc.starts, string([]rune(pieces[0])[len([]rune(pieces[0]))-20:]))
			}
			for k := 1; k < len(spans); k++ {
				if lv[spans[k].Start] < Line {
					t.Errorf("piece %d starts mid-sentence: %q", k+1, string(r[spans[k].Start:spans[k].Start+20]))
				}
			}
		})
	}
}
