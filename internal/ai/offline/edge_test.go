package offline

import (
	"slices"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
)

// A keyword that starts or ends with a CJK character next to a number
// (第45回, 2名) is a phrase the passage holds inside a longer CJK run
// (…の第45回衆議院…): plain bigrams turn the passage's edge into の第 and 回衆
// and the coverage test missed it.
func TestRerankCoverageAcrossDigitBoundary(t *testing.T) {
	// A one-character keyword crosses no boundary: 名 is not found in 2名.
	docs := []rerankDoc{newRerankDoc(ai.HitInfo{Snippet: "長女の名はマリア。"}), newRerankDoc(ai.HitInfo{Snippet: "党員2名の推薦が要る。"})}
	phrases, _ := keywordPhrases([]string{"名", "第45回"}, docs)
	if len(phrases) != 2 || phrases[0].edge || !phrases[1].edge {
		t.Fatalf("phrases %+v: want 名 plain, 第45回 across the boundary", phrases)
	}
	if docs[1].holds(phrases[0]) {
		t.Errorf("名 found in 2名")
	}

	in := ai.RerankInput{
		Query:    "第45回衆議院議員総選挙の投開票日はいつか？",
		Keywords: []string{"第45回", "選挙"},
		Candidates: []ai.HitInfo{
			{ID: "47th", Name: "a", Snippet: "第47回衆議院議員総選挙（2014年12月14日投開票）でも活発に活動した。"},
			{ID: "45th", Name: "b", Snippet: "2009年8月30日投開票の第45回衆議院議員総選挙では小選挙区の候補を減らした。"},
		},
	}
	sig := rerankSignals(in)
	if cov := sig[sigCoverage]; cov[1] <= cov[0] {
		t.Errorf("coverage 47th %.2f, 45th %.2f: want the passage holding 第45回 above", cov[0], cov[1])
	}
}

// The query analysis keeps a hiragana word as a keyword (さみだれ); the
// reranker weighs its tokens instead of dropping them as particles.
func TestRerankQueryTokensKeepHiraganaKeywords(t *testing.T) {
	for _, c := range []struct {
		query    string
		keywords []string
		want     []string // tokens that must be there
		not      []string // tokens that must not
	}{
		{"「さみだれ」の漢字表記は？", []string{"漢字表記", "さみだれ"}, []string{"さみ", "みだ", "だれ", "漢字", "表記"}, []string{"は"}},
		{"梅雨の期間は？", []string{"梅雨", "期間"}, []string{"梅雨", "期間"}, []string{"は"}},
		{"Who founded the company?", []string{"the company"}, []string{"compani", "found"}, []string{"the", "who"}},
	} {
		got := rerankQueryTokens(c.query, c.keywords)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("rerankQueryTokens(%q, %q) = %q, missing %q", c.query, c.keywords, got, w)
			}
		}
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("rerankQueryTokens(%q, %q) = %q, holds %q", c.query, c.keywords, got, w)
			}
		}
	}
}
