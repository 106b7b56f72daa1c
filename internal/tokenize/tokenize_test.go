package tokenize

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Q3 Roadmap", []string{"q3", "roadmap"}},
		{"議事録", []string{"議事", "事録"}},
		{"先月の議事録PDF", []string{"先月", "月の", "の議", "議事", "事録", "pdf"}},
		{"梅", []string{"梅"}},
		{"ＡＢＣ１２３", []string{"abc123"}}, // NFKC folds full-width forms
		{"don't-stop", []string{"don", "t", "stop"}},
		{"", nil},
		{"  ,.; ", nil},
	}
	for _, tt := range tests {
		if got := Tokens(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A term's tokens appear contiguously in the tokens of any text containing it.
func TestSubstringProperty(t *testing.T) {
	doc := "本年度の設計ドキュメントはプロジェクトアルファの共有フォルダにあります"
	for _, term := range []string{"設計", "設計ドキュメント", "プロジェクトアルファ", "共有フォルダ"} {
		if !strings.Contains(" "+Join(doc)+" ", " "+Join(term)+" ") {
			t.Errorf("tokens of %q not contiguous in document tokens", term)
		}
	}
}

func FuzzTokens(f *testing.F) {
	f.Add("先月の議事録PDF")
	f.Add("Q3 roadmap slides from 2024")
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range Tokens(s) {
			if tok == "" || strings.ContainsAny(tok, " \t\n") {
				t.Fatalf("bad token %q from %q", tok, s)
			}
		}
	})
}

func TestUnique(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"the cat and the hat", []string{"the", "cat", "and", "hat"}},
		{"議事録の議事", []string{"議事", "事録", "録の", "の議"}},
		{"The THE the", []string{"the"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Unique(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Unique(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Accents and widths fold, at index and query time alike
// (both go through Tokens), so each pair finds the other.
func TestFolding(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"Temür", "Temur"},
		{"Temu\u0308r", "temur"}, // decomposed input
		{"Café Crème", "cafe creme"},
		{"Ångström", "angstrom"},
		{"Straße", "strasse"},
		{"Søren Łódź", "soren lodz"},
		{"ｶﾀｶﾅ", "カタカナ"},
		{"ﾊﾟﾋﾟﾌﾟ", "パピプ"},
		{"ＡＢＣ１２３", "abc123"},
		{"Ｔｅｍüｒ", "temur"},
	} {
		if ta, tb := Tokens(c.a), Tokens(c.b); !reflect.DeepEqual(ta, tb) {
			t.Errorf("Tokens(%q) = %q, Tokens(%q) = %q; want equal", c.a, ta, c.b, tb)
		}
	}
	// Not folded: Japanese voiced marks, Cyrillic and Greek letters.
	for _, c := range []struct{ a, b string }{
		{"ガス", "カス"},
		{"パン", "ハン"},
		{"ёлка", "елка"},
		{"ά", "α"},
	} {
		if ta, tb := Tokens(c.a), Tokens(c.b); reflect.DeepEqual(ta, tb) {
			t.Errorf("Tokens(%q) = Tokens(%q) = %q; want them kept apart", c.a, c.b, ta)
		}
	}
}

func TestFolds(t *testing.T) {
	for s, want := range map[string]bool{"Temür": true, "ｶﾀｶﾅ": false, "ＡＢＣ": false, "plain": false, "議事録": false, "Straße": true} {
		if got := Folds(s); got != want {
			t.Errorf("Folds(%q) = %v, want %v", s, got, want)
		}
	}
}

// English words are stemmed (Porter2) at index and query time alike, so
// each form finds the others; numbers, codes with digits, stop words and
// other scripts are left as they are, and Japanese tokens are unchanged.
func TestStemming(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"running", "runs"},
		{"Cities", "city"},
		{"died", "dies"},
		{"Connected connections", "connect connecting"},
		{"Universités", "universites"}, // folded first, then stemmed
	} {
		if ta, tb := Tokens(c.a), Tokens(c.b); !reflect.DeepEqual(ta, tb) {
			t.Errorf("Tokens(%q) = %q, Tokens(%q) = %q; want equal", c.a, ta, c.b, tb)
		}
	}
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"was does has", []string{"was", "does", "has"}}, // stop words stay
		{"1990s q3 x86", []string{"1990s", "q3", "x86"}}, // digits: not words to stem
		{"ёлки", []string{"ёлки"}},                       // other scripts stay
		{"議事録を共有しました", []string{"議事", "事録", "録を", "を共", "共有", "有し", "しま", "まし", "した"}},
	} {
		if got := Tokens(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Tokens(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Since version 1 (before accent folding, stemming and edge characters).
func TestRetokenizes(t *testing.T) {
	for s, want := range map[string]bool{
		"Temür":          true,  // folded
		"the runs":       true,  // stemmed
		"cat sat on mat": false, // every word its own stem
		"議事録を共有しました":     false,
		"ｶﾀｶﾅ 2024 q3":   false,
		"議事録 meetings":   true,
		"の第45回衆議院":       true,  // edge characters
		"2011年3月11日":     false, // runs of one character only
	} {
		if got := RetokenizesSince(s, 1); got != want {
			t.Errorf("RetokenizesSince(%q, 1) = %v, want %v", s, got, want)
		}
	}
}

// Tokens are fixed points: the tokens of a token are the token itself, so
// tokens passed back as search terms match the stored ones (Porter2 alone
// stems "early" to "earli" and "earli" to "ear").
func TestTokensIdempotent(t *testing.T) {
	in := "Early emphasized offensive commissioner franchise conversion 議事録を共有 Temür q3"
	toks := Tokens(in)
	if again := Tokens(Join(in)); !reflect.DeepEqual(again, toks) {
		t.Errorf("Tokens(Join(%q)) = %q, want %q", in, again, toks)
	}
	for _, tok := range toks {
		if got := Tokens(tok); len(got) != 1 || got[0] != tok {
			t.Errorf("Tokens(%q) = %q, want [%q]", tok, got, tok)
		}
	}
}

// Runs splits normalized text into word and CJK runs with their positions:
// runs touch when nothing separates them.
func TestRuns(t *testing.T) {
	type run struct {
		text       string
		cjk        bool
		start, end int
	}
	for _, tc := range []struct {
		in   string
		want []run
	}{
		{"", nil},
		{"第45回 選挙", []run{{"第", true, 0, 1}, {"45", false, 1, 3}, {"回", true, 3, 4}, {"選挙", true, 5, 7}}},
		{"ｶﾀｶﾅ and Temür!", []run{{"カタカナ", true, 0, 4}, {"and", false, 5, 8}, {"temur", false, 9, 14}}},
		{"--", nil},
	} {
		var got []run
		for _, r := range Runs(tc.in) {
			got = append(got, run{string(r.Runes), r.CJK, r.Start, r.End})
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Runs(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// A text is re-tokenised only for the changes after the version its
// tokens were made with.
func TestRetokenizesSince(t *testing.T) {
	for _, c := range []struct {
		s    string
		want [4]bool // since 1, 2, 3, 4
	}{
		{"Temür", [4]bool{true, false, false, false}},
		{"the runs", [4]bool{true, true, false, false}},
		{"の第45回衆議院", [4]bool{true, true, true, false}},
		{"Temür runs の第45回", [4]bool{true, true, true, false}},
		{"Temür runs 第45回", [4]bool{true, true, false, false}}, // one-character runs: no edge
		{"cat sat on mat", [4]bool{}},
	} {
		for i, want := range c.want {
			if got := RetokenizesSince(c.s, i+1); got != want {
				t.Errorf("RetokenizesSince(%q, %d) = %v, want %v", c.s, i+1, got, want)
			}
		}
	}
}

func TestIndexTokens(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"第45回", "第 45 回"},
		{"の第45回衆議院", "の第 第 45 回 回衆 衆議 議院"},
		{"党員2名の推薦", "党員 員 2 名 名の の推 推薦"},
		{"SARSコロナ", "sar コ コロ ロナ"},
		{"日本語の文", "日本 本語 語の の文"},          // no word next to it: as Join
		{"Temür died", "temur die"},       // Latin words as Join
		{"2011年3月11日", "2011 年 3 月 11 日"}, // runs of one character stay single
		{"議事録 2024", "議事 事録 2024"},        // a separator: the runs do not touch
		{"ｶﾀｶﾅ123", "カタ タカ カナ ナ 123"},     // after NFKC
	} {
		if got := IndexJoin(c.in); got != c.want {
			t.Errorf("IndexJoin(%q) = %q, want %q", c.in, got, c.want)
		}
		if got, want := Edged(c.in), IndexJoin(c.in) != Join(c.in); got != want {
			t.Errorf("Edged(%q) = %v, want %v", c.in, got, want)
		}
	}
}

// The phrase of any piece of a text — cut anywhere inside a CJK run, at
// word boundaries elsewhere — appears contiguously in the text's index
// tokens: what lets a store find a keyword that crosses a CJK/number
// boundary inside a longer run.
func TestIndexTokensSubstringProperty(t *testing.T) {
	for _, doc := range []string{
		"2009年の第45回衆議院議員総選挙で新型SARSコロナの話題",
		"交響曲第2番ハ短調は1894年に完成した",
		"Q3の売上レポート2024年版とFY2025計画",
	} {
		hay := " " + IndexJoin(doc) + " "
		runes := []rune(Normalize(doc))
		cut := func(i int) bool { // a piece may start or end at i
			if i == 0 || i == len(runes) {
				return true
			}
			return classify(runes[i-1]) != word || classify(runes[i]) != word
		}
		for i := 0; i < len(runes); i++ {
			for j := i + 1; j <= len(runes); j++ {
				if !cut(i) || !cut(j) {
					continue
				}
				piece := string(runes[i:j])
				toks := IndexTokens(piece)
				if len(toks) == 0 {
					continue
				}
				if len([]rune(piece)) == 1 && IsCJK(runes[i]) {
					continue // one CJK character: a prefix query in the stores
				}
				p := " " + strings.Join(toks, " ") + " "
				if last := []rune(toks[len(toks)-1]); len(last) == 1 && IsCJK(last[0]) {
					p = strings.TrimSuffix(p, " ") // a closing one-character run: the stores query it as a prefix
				}
				if !strings.Contains(hay, p) {
					t.Errorf("%q: the index tokens of %q (%q) are not contiguous in %q", doc, piece, p, hay)
				}
			}
		}
	}
}

// IndexJoin streams the tokens IndexTokens returns; it must write exactly
// their join, on texts mixing every class of character and the boundaries
// between them (edge characters, separators, NFKC and case folding,
// invalid UTF-8).
func TestIndexJoinIsJoinedTokens(t *testing.T) {
	pieces := []string{
		"a", "Z", "9", "45", "word", "Running", "ﬁle", "Ｆｕｌｌ", "①", "ß", "İ", "é", "e\u0301",
		"第", "回", "議事録", "東京都", "ひらがな", "カタカナ", "ｶﾀｶﾅ", "한국어", "中",
		" ", "  ", "\n", "、", "。", "-", "・", "ー", ".", "'", "\xff", "\u200b", "\t",
	}
	rng := rand.New(rand.NewPCG(31, 5))
	cases := []string{"", " ", "第45回", "の第45回衆議院", "abc", "漢", "a漢", "漢a", "漢字a漢字", "a 漢字 b", "x漢字\xffy"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		if got, want := IndexJoin(s), strings.Join(IndexTokens(s), " "); got != want {
			t.Fatalf("IndexJoin(%q) = %q, want %q", s, got, want)
		}
	}
}
