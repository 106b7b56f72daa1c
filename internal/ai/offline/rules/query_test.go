package rules

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai"
)

// testNow is a Saturday: 2026-11-21 10:00 in Japan.
var testNow = time.Date(2026, 11, 21, 10, 0, 0, 0, time.FixedZone("JST", 9*3600))

type queryCase struct {
	query         string
	keywords      []string // exact, in order
	after, before string
	fileType      string
}

func runQueryCases(t *testing.T, cases []queryCase) {
	t.Helper()
	p := Analyzer{}
	for _, c := range cases {
		got, err := ai.AnalyzeQuery(context.Background(), p, ai.QueryInput{Query: c.query, Now: testNow, Lang: "ja"})
		if err != nil {
			t.Fatalf("%q: %v", c.query, err)
		}
		want := ai.Filters{ModifiedAfter: c.after, ModifiedBefore: c.before, FileType: c.fileType}
		if got.Filters != want {
			t.Errorf("%q: filters = %+v, want %+v", c.query, got.Filters, want)
		}
		if !slices.Equal(got.Keywords, c.keywords) {
			t.Errorf("%q: keywords = %q, want %q", c.query, got.Keywords, c.keywords)
		}
	}
}

func TestAnalyzeQueryAcceptance(t *testing.T) {
	runQueryCases(t, []queryCase{
		{"先月の議事録PDF", []string{"議事録"}, "2026-10-01", "2026-11-01", ai.FileTypePDF},
		{"Q3 roadmap slides from 2024", []string{"Q3", "roadmap"}, "2024-01-01", "2025-01-01", ai.FileTypePresentation},
		{"顧客管理システムの移行計画", []string{"顧客管理システム", "移行計画"}, "", "", ""},
		{"プロジェクトアルファの設計書", []string{"プロジェクトアルファ", "設計書"}, "", "", ""},
	})
}

func TestAnalyzeQueryJapanese(t *testing.T) {
	runQueryCases(t, []queryCase{
		{"今日の日報", []string{"日報"}, "2026-11-21", "2026-11-22", ""},
		{"昨日のメモ", []string{"メモ"}, "2026-11-20", "2026-11-21", ""},
		{"一昨日の議事メモ", []string{"議事メモ"}, "2026-11-19", "2026-11-20", ""},
		{"今週の週報", []string{"週報"}, "2026-11-16", "2026-11-23", ""},
		{"先週の定例の議事録", []string{"定例", "議事録"}, "2026-11-09", "2026-11-16", ""},
		{"今月の請求書", []string{"請求書"}, "2026-11-01", "2026-12-01", ""},
		{"今年の採用計画", []string{"採用計画"}, "2026-01-01", "2027-01-01", ""},
		{"去年の営業スライド", []string{"営業"}, "2025-01-01", "2026-01-01", ai.FileTypePresentation},
		{"昨年の監査報告書", []string{"監査報告書"}, "2025-01-01", "2026-01-01", ""},
		{"一昨年の決算", []string{"決算"}, "2024-01-01", "2025-01-01", ""},
		{"2024年の予算スプレッドシート", []string{"予算"}, "2024-01-01", "2025-01-01", ai.FileTypeSpreadsheet},
		{"2024年3月の請求書", []string{"請求書"}, "2024-03-01", "2024-04-01", ""},
		{"2024/3 請求書", []string{"請求書"}, "2024-03-01", "2024-04-01", ""},
		{"2024-03の経費精算", []string{"経費精算"}, "2024-03-01", "2024-04-01", ""},
		{"2024年度の予算表計算", []string{"予算"}, "2024-04-01", "2025-04-01", ai.FileTypeSpreadsheet},
		{"今年度の事業計画", []string{"事業計画"}, "2026-04-01", "2027-04-01", ""},
		{"2024年3月5日の議事録", []string{"議事録"}, "2024-03-05", "2024-03-06", ""},
		{"最近の提案書", []string{"提案書"}, "2026-10-22", "", ""},
		{"直近7日の障害報告", []string{"障害報告"}, "2026-11-14", "", ""},
		{"最近3ヶ月の見積もり", []string{"見積もり"}, "2026-08-21", "", ""},
		{"過去2週間のログ", []string{"ログ"}, "2026-11-07", "", ""},
		{"3日前の打ち合わせメモ", []string{"打ち合わせメモ"}, "2026-11-18", "2026-11-19", ""},
		{"2ヶ月前の契約書", []string{"契約書"}, "2026-09-01", "2026-10-01", ""},
		{"2023年以降の契約書", []string{"契約書"}, "2023-01-01", "", ""},
		{"2023年から の契約書", []string{"契約書"}, "2023-01-01", "", ""},
		{"2023年以前の契約書", []string{"契約書"}, "", "2024-01-01", ""},
		{"2023年までの契約書", []string{"契約書"}, "", "2024-01-01", ""},
		{"2023年より前の契約書", []string{"契約書"}, "", "2023-01-01", ""},
		{"2022年から2023年までの報告書", []string{"報告書"}, "2022-01-01", "2024-01-01", ""},
		{"2022年〜2023年の報告書", []string{"報告書"}, "2022-01-01", "2024-01-01", ""},
		{"3月の議事録", []string{"議事録"}, "2026-03-01", "2026-04-01", ""},
		{"12月の議事録", []string{"議事録"}, "2025-12-01", "2026-01-01", ""},
		{"２０２４年の議事録", []string{"議事録"}, "2024-01-01", "2025-01-01", ""},
		{"プレゼンテーション資料", nil, "", "", ai.FileTypePresentation},
		{"パワポの提案", []string{"提案"}, "", "", ai.FileTypePresentation},
		{"エクセルの売上表", []string{"売上表"}, "", "", ai.FileTypeSpreadsheet},
		{"ワードの契約書", []string{"契約書"}, "", "", ai.FileTypeDocument},
		{"文書", nil, "", "", ai.FileTypeDocument},
		{"設計ドキュメント", []string{"設計ドキュメント"}, "", "", ""},
		{"キーワード一覧", []string{"キーワード一覧"}, "", "", ""},
		{"営業資料を探して", []string{"営業"}, "", "", ""},
		{"テキストのメモ", []string{"メモ"}, "", "", ai.FileTypeText},
		{"先月の議事録PDFでプロジェクトアルファの設計ドキュメントはどこ？", []string{"プロジェクトアルファ", "議事録", "設計ドキュメント"},
			"2026-10-01", "2026-11-01", ai.FileTypePDF},
		{"AWS移行の見積もりを見せて", []string{"AWS", "移行", "見積もり"}, "", "", ""},
		{"田中さんが作った第3四半期の売上レポート", []string{"田中", "第3四半期", "売上レポート"}, "", "", ""},
		{"株の資料", []string{"株"}, "", "", ""},
	})
}

func TestAnalyzeQueryEnglish(t *testing.T) {
	runQueryCases(t, []queryCase{
		{"today's standup notes", []string{"standup", "notes"}, "2026-11-21", "2026-11-22", ""},
		{"yesterday invoice", []string{"invoice"}, "2026-11-20", "2026-11-21", ""},
		{"this week status report", []string{"status", "report"}, "2026-11-16", "2026-11-23", ""},
		{"last week meeting notes", []string{"meeting", "notes"}, "2026-11-09", "2026-11-16", ""},
		{"this month expenses", []string{"expenses"}, "2026-11-01", "2026-12-01", ""},
		{"last month expenses", []string{"expenses"}, "2026-10-01", "2026-11-01", ""},
		{"this year OKRs", []string{"OKRs"}, "2026-01-01", "2027-01-01", ""},
		{"last year tax return", []string{"tax", "return"}, "2025-01-01", "2026-01-01", ""},
		{"budget in 2024", []string{"budget"}, "2024-01-01", "2025-01-01", ""},
		{"March 2024 Alpha deck", []string{"Alpha"}, "2024-03-01", "2024-04-01", ai.FileTypePresentation},
		{"2024-03 invoice", []string{"invoice"}, "2024-03-01", "2024-04-01", ""},
		{"invoice 2024-03-15", []string{"invoice"}, "2024-03-15", "2024-03-16", ""},
		{"since 2023 AWS invoices", []string{"AWS", "invoices"}, "2023-01-01", "", ""},
		{"hiring plan after 2023", []string{"hiring", "plan"}, "2024-01-01", "", ""},
		{"contracts before 2020", []string{"contracts"}, "", "2020-01-01", ""},
		{"from 2022 to 2023 budget report", []string{"budget", "report"}, "2022-01-01", "2024-01-01", ""},
		{"tax docs between 2021 and 2022", []string{"tax"}, "2021-01-01", "2023-01-01", ai.FileTypeDocument},
		{"design reviews from the last 30 days", []string{"design", "reviews"}, "2026-10-22", "", ""},
		{"last 2 weeks incident log", []string{"incident", "log"}, "2026-11-07", "", ""},
		{"recent design review", []string{"design", "review"}, "2026-10-22", "", ""},
		{"fy2025 forecast spreadsheet", []string{"forecast"}, "2025-04-01", "2026-04-01", ai.FileTypeSpreadsheet},
		{"find the budget spreadsheet for Project Phoenix", []string{"Project", "Phoenix", "budget"}, "", "", ai.FileTypeSpreadsheet},
		{"Word document about onboarding", []string{"onboarding"}, "", "", ai.FileTypeDocument},
		{"word count guidelines", []string{"word", "count", "guidelines"}, "", "", ""},
		{"v2 API spec pdf", []string{"v2", "API", "spec"}, "", "", ai.FileTypePDF},
		{"Where is the security policy?", []string{"security", "policy"}, "", "", ""},
		{"show me Alice's onboarding checklist xlsx", []string{"Alice", "onboarding", "checklist"}, "", "", ai.FileTypeSpreadsheet},
		{"presentation", nil, "", "", ai.FileTypePresentation},
	})
}

func TestAnalyzeQueryUsesNowsLocation(t *testing.T) {
	// 2026-11-30 23:30 UTC is already December 1 in Tokyo: 先月 is November there.
	utc := time.Date(2026, 11, 30, 23, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		now   time.Time
		after string
	}{
		{utc, "2026-10-01"},
		{utc.In(time.FixedZone("JST", 9*3600)), "2026-11-01"},
	} {
		got := AnalyzeQuery(ai.QueryInput{Query: "先月", Now: c.now})
		if got.Filters.ModifiedAfter != c.after {
			t.Errorf("now %v: after = %s, want %s", c.now, got.Filters.ModifiedAfter, c.after)
		}
	}
}

func TestAnalyzeQueryKeepsAtMostFiveKeywords(t *testing.T) {
	got := AnalyzeQuery(ai.QueryInput{Query: "Alpha Beta Gamma Delta Epsilon Zeta Eta", Now: testNow})
	if len(got.Keywords) != MaxKeywords || got.Keywords[0] != "Beta" {
		// The first word of a query is capitalised anyway, so it ranks after
		// the other capitalised words.
		t.Errorf("keywords = %q", got.Keywords)
	}
}

func FuzzAnalyzeQuery(f *testing.F) {
	for _, s := range []string{"先月の議事録PDF", "Q3 roadmap slides from 2024", "2022年から2023年まで", "between 2024 and 2021",
		"9999年13月", "last 0 days", "2024/02/30", "プロジェクト・アルファ", "", "ー・-_'", "from 2024 to"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got := AnalyzeQuery(ai.QueryInput{Query: q, Now: testNow})
		if len(got.Keywords) > MaxKeywords {
			t.Fatalf("%d keywords", len(got.Keywords))
		}
		for _, k := range got.Keywords {
			if k == "" || !utf8.ValidString(k) && utf8.ValidString(q) {
				t.Fatalf("bad keyword %q", k)
			}
		}
		if got.Filters.FileType != "" && !slices.Contains(ai.FileTypes, got.Filters.FileType) {
			t.Fatalf("file type %q", got.Filters.FileType)
		}
		a, b, err := got.Filters.Range()
		if err != nil {
			t.Fatalf("range: %v", err)
		}
		if !a.IsZero() && !b.IsZero() && !a.Before(b) {
			t.Fatalf("inverted range %+v", got.Filters)
		}
	})
}

func BenchmarkAnalyzeQuery(b *testing.B) {
	queries := []string{"先月の議事録PDF", "Q3 roadmap slides from 2024", "顧客管理システムの移行計画について2023年以降のスライド",
		"find the budget spreadsheet for Project Phoenix since 2023"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		AnalyzeQuery(ai.QueryInput{Query: queries[i%len(queries)], Now: testNow})
	}
}

func TestAnalyzeQueryReadsOnlyTheStartOfHugeInput(t *testing.T) {
	q := strings.Repeat("あ", maxQueryRunes) + " 議事録"
	if got := AnalyzeQuery(ai.QueryInput{Query: q, Now: testNow}); len(got.Keywords) != 0 {
		t.Errorf("keywords %q from beyond the limit", got.Keywords)
	}
	if got := AnalyzeQuery(ai.QueryInput{Query: strings.Repeat("あ", maxQueryRunes-10) + " 議事録", Now: testNow}); !slices.Equal(got.Keywords, []string{"議事録"}) {
		t.Errorf("keywords %q within the limit", got.Keywords)
	}
}

// The interrogative 何 is cut out of compounds: the answer's text says
// 東部、西部、中部の3地区, never 何地区.
func TestAnalyzeQueryDropsInterrogative(t *testing.T) {
	runQueryCases(t, []queryCase{
		{"島根県は何地区に分割されているか", []string{"島根県", "地区", "分割"}, "", "", ""},
		{"党員何名の推薦が必要か", []string{"党員", "推薦", "必要"}, "", "", ""},
		{"マーラー夫妻には何人の子供が生まれたか", []string{"マーラー夫妻", "子供"}, "", "", ""},
		{"幾何学の教科書", []string{"幾何学", "教科書"}, "", "", ""},
	})
}

// Japanese words written in hiragana alone are keywords; a
// hiragana run after kanji or katakana (an inflection, a particle) and
// hiragana function words are not; a lone prolonged sound mark is nothing.
func TestAnalyzeQueryKeepsHiraganaWords(t *testing.T) {
	runQueryCases(t, []queryCase{
		{"ほげほげほげー", []string{"ほげほげほげー"}, "", "", ""},
		{"こんにちは 世界", []string{"世界", "こんにちは"}, "", "", ""},
		{"おしらせ PDF", []string{"おしらせ"}, "", "", ai.FileTypePDF},
		{"ふりかえりの資料", []string{"ふりかえり"}, "", "", ""},
		{"さくら、もみじ", []string{"さくら", "もみじ"}, "", "", ""},
		{"この資料はどこ", []string{}, "", "", ""},
		{"すべての議事録", []string{"議事録"}, "", "", ""},
		{"議事録を探してください", []string{"議事録"}, "", "", ""},
		{"ー", []string{}, "", "", ""},
	})
}

// An explicit year or month in the question's content (a
// sentence about 1910) stays a keyword; it becomes a file-date filter only
// with file-date wording (作成, 更新, created, modified, …), a file type,
// or, in Japanese, qualifying the document noun that ends the query (2024年
// の資料); a keyword-style English query keeps reading it as a filter.
// Relative periods (去年, last week) are always the files' dates.
func TestAnalyzeQueryDateInContentPosition(t *testing.T) {
	runQueryCases(t, []queryCase{
		{"1910年に亡くなったのは誰", []string{"1910"}, "", "", ""},
		{"1910年8月に謝罪をしたのは誰か", []string{"謝罪", "1910"}, "", "", ""},
		{"8月に開かれた会議の名前は？", []string{"会議", "名前", "開", "8月"}, "", "", ""},
		{"what happened in Vienna in 1910?", []string{"Vienna", "happened", "1910"}, "", "", ""},
		{"Who was born in August 1910", []string{"born", "1910"}, "", "", ""},
		{"2024年に作成した資料", []string{}, "2024-01-01", "2025-01-01", ""},
		{"2024年に作成された議事録", []string{"議事録"}, "2024-01-01", "2025-01-01", ""},
		{"2024年の資料", []string{}, "2024-01-01", "2025-01-01", ""},
		{"2024年3月の請求書を探して", []string{"請求書"}, "2024-03-01", "2024-04-01", ""},
		{"1910年の新聞PDF", []string{"新聞"}, "1910-01-01", "1911-01-01", ai.FileTypePDF},
		{"which notes were modified in 2024?", []string{"notes"}, "2024-01-01", "2025-01-01", ""},
		{"budget in 2024", []string{"budget"}, "2024-01-01", "2025-01-01", ""},
		{"去年に亡くなったのは誰", []string{}, "2025-01-01", "2026-01-01", ""},
	})
}

func TestContentWords(t *testing.T) {
	for _, c := range []struct {
		query string
		want  []string
	}{
		// Every candidate, in query order, beyond the keyword cap.
		{"What year did the steam engine zqxjvw first appear in Britain", []string{"year", "steam", "engine", "zqxjvw", "first", "appear", "Britain"}},
		// File types, periods and stop words are not content.
		{"Q3 roadmap slides from 2024", []string{"Q3", "roadmap"}},
		{"last month's minutes", []string{"minutes"}},
		{"先月の議事録PDF", []string{"議事録"}},
		// A hiragana run right after kanji that is no inflection or particle.
		{"存在しない単語ほげほげ", []string{"存在", "単語", "ほげほげ"}},
		{"存在しない単語ほげほげ 東京", []string{"存在", "単語", "ほげほげ", "東京"}},
		// Runs holding a particle, or too short, are grammar.
		{"東京大学が設立されたのはいつ", []string{"東京大学", "設立"}},
		{"猫がいる", []string{"猫"}},
		{"ほげほげの資料", []string{"ほげほげ"}},
		{"", nil},
	} {
		if got := ContentWords(c.query); !slices.Equal(got, c.want) {
			t.Errorf("ContentWords(%q) = %q, want %q", c.query, got, c.want)
		}
	}
}

// A file name in a query is its name as a keyword and its extension as a
// file type, never the extension as a word.
func TestAnalyzeQueryFileNames(t *testing.T) {
	runQueryCases(t, []queryCase{
		{"zero.txt", []string{"zero"}, "", "", ai.FileTypeText},
		{"budget.XLSX from Tanaka", []string{"Tanaka", "budget"}, "", "", ai.FileTypeSpreadsheet},
		{"議事録.pdf", []string{"議事録"}, "", "", ai.FileTypePDF},
		{".pdf", []string{}, "", "", ai.FileTypePDF},
		{"node.js tutorial", []string{"node.js", "tutorial"}, "", "", ""},
	})
}

func TestStripExtensions(t *testing.T) {
	for in, want := range map[string]string{
		"zero.txt":              "zero",
		"where is plan.PDF?":    "where is plan?",
		"node.js and e.g. this": "node.js and e.g. this",
		"no dots":               "no dots",
		"議事録.pdf　2024":          "議事録 2024",
	} {
		if got := StripExtensions(in); got != want {
			t.Errorf("StripExtensions(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsGrammar(t *testing.T) {
	for w, want := range map[string]bool{
		"われていました":   true,
		"くなった":      true,
		"いつはじまったのか": true,
		"ほげほげ":      false,
		"ふりかえり":     false,
		"こんにちは":     false,
		"おしらせ":      false,
		"どっち":       false,
		"東京":        false,
		"された":       true,
	} {
		if got := IsGrammar(w); got != want {
			t.Errorf("IsGrammar(%q) = %v, want %v", w, got, want)
		}
	}
}
