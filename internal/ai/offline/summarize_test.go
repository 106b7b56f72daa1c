package offline

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai"
)

func TestSummarizeRespectsLimitAndLanguage(t *testing.T) {
	p := New()
	for _, lang := range []string{"ja", "en"} {
		c := loadCorpus(t, lang)
		for i, text := range c.texts {
			for _, limit := range []int{40, 120, 400} {
				got, err := ai.Summarize(context.Background(), p, ai.DocInput{Name: c.files[i], Text: text, MaxLength: limit})
				if err != nil {
					t.Fatal(err)
				}
				if n := utf8.RuneCountInString(got.Summary); n == 0 || n > limit {
					t.Errorf("%s/%s limit %d: summary has %d runes", lang, c.files[i], limit, n)
				}
				title, _, _ := strings.Cut(text, "\n")
				if limit >= 120 && !strings.HasPrefix(got.Summary, title) {
					t.Errorf("%s/%s: summary %q does not start with the title %q", lang, c.files[i], got.Summary, title)
				}
				if ja := isJapaneseText(got.Summary); ja != (lang == "ja") {
					t.Errorf("%s/%s: summary %q is not in the document's language", lang, c.files[i], got.Summary)
				}
				if len(got.Keywords) < 1 || len(got.Keywords) > 5 {
					t.Errorf("%s/%s: keywords %q", lang, c.files[i], got.Keywords)
				}
			}
		}
	}
}

func TestSummarizeKeywordsAndMarkup(t *testing.T) {
	p := New()
	doc := ai.DocInput{
		Name: "2024-03_プロジェクトアルファ_議事録.md",
		Text: "# 定例会議 議事録\n\n- 日時: 2024年3月5日\n- 参加者: 田中、佐藤\n\n## 決定事項\n\n" +
			"プロジェクトアルファのリリースを4月に延期する。**顧客管理システム**の移行計画は[こちら](https://example.com/x)を参照。\n\n" +
			"<p>次回は来週。</p>\n\n| 担当 | 期限 |\n|---|---|\n| 田中 | 3月末 |\n",
		MaxLength: 150,
	}
	got, err := ai.Summarize(context.Background(), p, doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, noise := range []string{"#", "**", "](", "https://", "<p>", "|", "---"} {
		if strings.Contains(got.Summary, noise) {
			t.Errorf("summary %q contains markup %q", got.Summary, noise)
		}
	}
	if !strings.HasPrefix(got.Summary, "定例会議 議事録") {
		t.Errorf("summary %q does not start with the title", got.Summary)
	}
	for _, want := range []string{"プロジェクトアルファ", "議事録"} {
		if !slices.Contains(got.Keywords, want) {
			t.Errorf("keywords %q lack %q", got.Keywords, want)
		}
	}
	for _, k := range got.Keywords {
		if k == "議事" || k == "録" || strings.ContainsAny(k, "0123456789") {
			t.Errorf("keyword %q: split compound or date", k)
		}
	}

	en := ai.DocInput{Name: "phoenix-budget.txt", MaxLength: 200,
		Text: "Project Phoenix budget\n\nThe Project Phoenix budget covers cloud migration for Acme Corp. " +
			"The migration moves the billing system to AWS in three phases. Costs are reviewed monthly by the finance team. " +
			"Lunch is served at noon."}
	got, err = ai.Summarize(context.Background(), p, en)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got.Keywords, "Project Phoenix") || !slices.Contains(got.Keywords, "AWS") {
		t.Errorf("keywords %q lack the proper nouns", got.Keywords)
	}
	if !strings.Contains(got.Summary, "migration") || strings.Contains(got.Summary, "Lunch") {
		t.Errorf("summary %q is not the representative sentences", got.Summary)
	}
}

func TestSummarizeEmptyTextUsesName(t *testing.T) {
	got, err := ai.Summarize(context.Background(), New(), ai.DocInput{Name: "Acme_見積書_2024.pdf", MaxLength: 50})
	if err != nil {
		t.Fatal(err)
	}
	if got.Summary != "Acme_見積書_2024" || !slices.Equal(got.Keywords, []string{"Acme", "見積書"}) {
		t.Errorf("got %+v", got)
	}
}

func TestSplitSentences(t *testing.T) {
	got := splitSentences("これは一文目。二文目です！\nThird one. Fourth? 「引用」です。")
	want := []string{"これは一文目。", "二文目です！", "Third one.", "Fourth?", "「引用」です。"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
