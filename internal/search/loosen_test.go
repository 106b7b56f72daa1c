package search

import (
	"reflect"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/store"
)

var (
	time2025 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	time2026 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	year2025 = ai.Filters{ModifiedAfter: "2025-01-01", ModifiedBefore: "2026-01-01"}
	pdf2025  = ai.Filters{ModifiedAfter: "2025-01-01", ModifiedBefore: "2026-01-01", FileType: ai.FileTypePDF}
)

func TestLoosenings(t *testing.T) {
	tests := []struct {
		name string
		a, b Conditions
		want []Loosening
	}{
		{"nothing loosened", Conditions{Keywords: []string{"a"}, Filters: pdf2025}, Conditions{Keywords: []string{"A"}, Filters: pdf2025}, nil},
		{"period dropped, type kept",
			Conditions{Keywords: []string{"a"}, Filters: pdf2025}, Conditions{Keywords: []string{"a"}, Filters: ai.Filters{FileType: "pdf"}},
			[]Loosening{{Kind: LoosenPeriod, From: "2025-01-01..2026-01-01", FileType: "pdf"}}},
		{"period widened",
			Conditions{Filters: ai.Filters{ModifiedAfter: "2025-03-01", ModifiedBefore: "2025-04-01"}}, Conditions{Filters: year2025},
			[]Loosening{{Kind: LoosenPeriod, From: "2025-03-01..2025-04-01", To: "2025-01-01..2026-01-01"}}},
		{"type dropped", Conditions{Filters: ai.Filters{FileType: "spreadsheet"}}, Conditions{},
			[]Loosening{{Kind: LoosenFileType, From: "spreadsheet"}}},
		{"folder dropped", Conditions{Filters: ai.Filters{Folder: "/Sales/2025/"}}, Conditions{},
			[]Loosening{{Kind: LoosenFolder, From: "Sales/2025"}}},
		{"folder widened", Conditions{Filters: ai.Filters{Folder: "Sales/2025"}}, Conditions{Filters: ai.Filters{Folder: "Sales"}},
			[]Loosening{{Kind: LoosenFolder, From: "Sales/2025", To: "Sales"}}},
		{"keyword and required dropped",
			Conditions{Keywords: []string{"budget", "hiring"}, Required: []string{"HR"}}, Conditions{Keywords: []string{"budget"}},
			[]Loosening{{Kind: LoosenKeyword, From: "hiring"}, {Kind: LoosenRequired, From: "HR"}}},
		{"everything at once, in order",
			Conditions{Keywords: []string{"a", "b"}, Filters: ai.Filters{ModifiedAfter: "2025-01-01", FileType: "pdf", Folder: "X"}},
			Conditions{Keywords: []string{"a"}},
			[]Loosening{{Kind: LoosenPeriod, From: "2025-01-01.."}, {Kind: LoosenFileType, From: "pdf"},
				{Kind: LoosenFolder, From: "X"}, {Kind: LoosenKeyword, From: "b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Loosenings(tt.a, tt.b); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Loosenings = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestRelaxationRecordsLoosenings runs the state machine through zero-hit
// rounds and checks that every relaxation it applies is recorded, whether
// the relaxation came from the AI (EvRelaxed) or was forced.
func TestRelaxationRecordsLoosenings(t *testing.T) {
	tests := []struct {
		name    string
		kws     []string
		filters ai.Filters
		relax   []ai.Relaxation // one per zero-hit round
		want    []Loosening
	}{
		{"去年のPDF: the period goes, the type stays", []string{"資料"}, pdf2025,
			[]ai.Relaxation{{Keywords: []string{"資料"}, Filters: ai.Filters{FileType: "pdf"}}},
			[]Loosening{{Kind: LoosenPeriod, From: "2025-01-01..2026-01-01", FileType: "pdf"}}},
		{"no progress forces one: period, then type", []string{"資料"}, pdf2025,
			[]ai.Relaxation{{Keywords: []string{"資料"}, Filters: pdf2025}, {Keywords: []string{"資料", "x"}, Filters: pdf2025}},
			[]Loosening{{Kind: LoosenPeriod, From: "2025-01-01..2026-01-01", FileType: "pdf"}, {Kind: LoosenFileType, From: "pdf"}}},
		{"a keyword dropped", []string{"budget", "hiring"}, ai.Filters{},
			[]ai.Relaxation{{Keywords: []string{"budget"}}},
			[]Loosening{{Kind: LoosenKeyword, From: "hiring"}}},
		{"a relaxation that adds a keyword is replaced by a forced one", []string{"budget", "hiring"}, ai.Filters{},
			[]ai.Relaxation{{Keywords: []string{"budget", "hiring", "extra"}}},
			[]Loosening{{Kind: LoosenKeyword, From: "hiring"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, a := searched(t, 10, tt.kws, tt.filters, 0)
			for i, r := range tt.relax {
				if a.Kind != ActRelax {
					t.Fatalf("round %d: action %v, want relax", i, a.Kind)
				}
				s, a = Next(s, Event{Kind: EvRelaxed, Relaxation: r})
				if a.Kind != ActSearch {
					t.Fatalf("round %d: after relaxing, action %v", i, a.Kind)
				}
				if i < len(tt.relax)-1 {
					s, a = Next(s, Event{Kind: EvSearched})
				}
			}
			s, _ = Next(s, Event{Kind: EvSearched, Hits: []string{"f1"}, Total: 1})
			if s.End != EndResults {
				t.Fatalf("end %q", s.End)
			}
			if !reflect.DeepEqual(s.Loosened, tt.want) {
				t.Errorf("Loosened = %+v, want %+v", s.Loosened, tt.want)
			}
		})
	}
}

func TestNoLooseningWhenNothingWasRelaxed(t *testing.T) {
	s, _ := searched(t, 5, []string{"a"}, pdf2025, 1)
	if s.End != EndResults || len(s.Loosened) != 0 {
		t.Errorf("end %q, loosened %+v", s.End, s.Loosened)
	}
}

func TestFallBackToFullTextRecordsTheFilters(t *testing.T) {
	tests := []struct {
		name  string
		scope string
		cond  ai.Filters
		ids   []string
		want  []Loosening
	}{
		{"no files: nothing changes", "", pdf2025, nil, nil},
		{"no filters left", "", ai.Filters{}, []string{"f1"}, nil},
		{"the filters left are dropped", "", pdf2025, []string{"f1"},
			[]Loosening{{Kind: LoosenPeriod, From: "2025-01-01..2026-01-01"}, {Kind: LoosenFileType, From: "pdf"}}},
		{"the scope stays: a folder inside it widens to it", "Sales", ai.Filters{Folder: "Sales/2025"}, []string{"f1"},
			[]Loosening{{Kind: LoosenFolder, From: "Sales/2025", To: "Sales"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := State{Scope: tt.scope, End: EndNotFound, Cond: Conditions{Keywords: []string{"k"}, Filters: tt.cond}}
			got := s.FallBackToFullText(tt.ids)
			if !reflect.DeepEqual(got.Loosened, tt.want) {
				t.Errorf("Loosened = %+v, want %+v", got.Loosened, tt.want)
			}
			if wantFull := len(tt.ids) > 0; got.FullText != wantFull || (got.End == EndResults) != wantFull {
				t.Errorf("FullText %v end %q", got.FullText, got.End)
			}
		})
	}
}

func TestLooseningText(t *testing.T) {
	tests := []struct {
		l      Loosening
		en, ja string
	}{
		{Loosening{Kind: LoosenPeriod, From: "2025-01-01..2026-01-01", FileType: "pdf"},
			"No PDFs from 2025; showing other years", "2025年のPDFはありません。ほかの年を表示しています"},
		{Loosening{Kind: LoosenPeriod, From: "2025-01-01..2026-01-01"},
			"No files from 2025; showing other years", "2025年のファイルはありません。ほかの年のファイルを表示しています"},
		{Loosening{Kind: LoosenPeriod, From: "2025-03-01..2025-04-01"},
			"No files from 2025-03; showing other months", "2025年03月のファイルはありません。ほかの月のファイルを表示しています"},
		{Loosening{Kind: LoosenPeriod, From: "2025-03-01..2025-03-08", To: "2025-03-01..2025-04-01"},
			"No files from 2025-03-01 to 2025-03-07; showing 2025-03", "2025-03-01〜2025-03-07のファイルはありません。2025年03月に広げて表示しています"},
		{Loosening{Kind: LoosenPeriod, From: "2025-03-01.."},
			"No files from after 2025-03-01; showing other dates", "2025-03-01以降のファイルはありません。ほかの期間のファイルを表示しています"},
		{Loosening{Kind: LoosenFileType, From: "spreadsheet"},
			"No spreadsheets; showing other file types", "スプレッドシートはありません。ほかの種類のファイルを表示しています"},
		{Loosening{Kind: LoosenFolder, From: "Sales/2025"},
			"Nothing in folder Sales/2025; showing other folders", "フォルダ「Sales/2025」にはありません。ほかのフォルダを表示しています"},
		{Loosening{Kind: LoosenKeyword, From: "hiring"},
			"Nothing matched “hiring”; searched without it", "「hiring」に合うファイルはありません。外して検索しました"},
	}
	for _, tt := range tests {
		if got := tt.l.Text("en"); got != tt.en {
			t.Errorf("%+v en = %q, want %q", tt.l, got, tt.en)
		}
		if got := tt.l.Text("ja"); got != tt.ja {
			t.Errorf("%+v ja = %q, want %q", tt.l, got, tt.ja)
		}
	}
}

func TestPlanKeystroke(t *testing.T) {
	tests := []struct {
		name     string
		qa       ai.QueryAnalysis
		folder   string
		first    store.Filter
		looser   *store.Filter
		looserKw []string
		loosened []Loosening
	}{
		{"no filters: one search", ai.QueryAnalysis{Keywords: []string{"a"}}, "", store.Filter{}, nil, nil, nil},
		{"folder only: one search, never loosened", ai.QueryAnalysis{Keywords: []string{"a"}}, "Sales",
			store.Filter{Folder: "Sales"}, nil, nil, nil},
		{"type read from the query: dropped when it matches nothing", ai.QueryAnalysis{Keywords: []string{"a"}, Filters: ai.Filters{FileType: "pdf"}}, "Sales",
			store.Filter{Folder: "Sales", MimeTypes: []string{"application/pdf"}}, &store.Filter{Folder: "Sales"}, []string{"a"},
			[]Loosening{{Kind: LoosenFileType, From: "pdf"}}},
		{"去年のPDF: the PDFs of 2025, else the PDFs of any year", ai.QueryAnalysis{Filters: pdf2025}, "",
			store.Filter{ModifiedAfter: time2025, ModifiedBefore: time2026, MimeTypes: []string{"application/pdf"}},
			&store.Filter{MimeTypes: []string{"application/pdf"}}, nil,
			[]Loosening{{Kind: LoosenPeriod, From: "2025-01-01..2026-01-01", FileType: "pdf"}}},
		{"filter words only, one filter: else the raw text", ai.QueryAnalysis{Filters: ai.Filters{FileType: "pdf"}}, "Sales",
			store.Filter{Folder: "Sales", MimeTypes: []string{"application/pdf"}}, &store.Filter{Folder: "Sales"}, []string{"q"},
			[]Loosening{{Kind: LoosenFileType, From: "pdf"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := PlanKeystroke(tt.qa, KeystrokeRequest{Query: "q", Limit: 9, Folder: tt.folder})
			if !reflect.DeepEqual(p.First.Filter, tt.first) || p.First.Limit != 9 {
				t.Errorf("first %+v, want filter %+v", p.First, tt.first)
			}
			if (p.Looser == nil) != (tt.looser == nil) || (p.Looser != nil && !reflect.DeepEqual(p.Looser.Filter, *tt.looser)) {
				t.Errorf("looser %+v, want %+v", p.Looser, tt.looser)
			}
			if p.Looser != nil && !reflect.DeepEqual(p.Looser.Terms, tt.looserKw) {
				t.Errorf("looser terms %q, want %q", p.Looser.Terms, tt.looserKw)
			}
			if !reflect.DeepEqual(p.Loosened, tt.loosened) {
				t.Errorf("loosened %+v, want %+v", p.Loosened, tt.loosened)
			}
		})
	}
}

// The keystroke's last resort searches the typed text's words within the
// folder, without the filters read from it, unless that is what the first
// or the looser search already did.
func TestPlanKeystrokeWhole(t *testing.T) {
	tests := []struct {
		name, query string
		qa          ai.QueryAnalysis
		folder      string
		want        []string // nil: no last resort
	}{
		{"a compound kept whole", "日本共産党副委員長は誰か", ai.QueryAnalysis{Keywords: []string{"日本共産党副委員長"}}, "Sales",
			QueryTerms("日本共産党副委員長は誰か")},
		{"one word: the same search", "budget", ai.QueryAnalysis{Keywords: []string{"budget"}}, "", nil},
		{"filters dropped too", "budget pdf", ai.QueryAnalysis{Keywords: []string{"budget"}, Filters: ai.Filters{FileType: "pdf"}}, "",
			[]string{"budget", "pdf"}},
		{"no word", "、。", ai.QueryAnalysis{}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := PlanKeystroke(tt.qa, KeystrokeRequest{Query: tt.query, Limit: 9, Folder: tt.folder})
			if tt.want == nil {
				if p.Whole != nil {
					t.Errorf("Whole = %+v, want none", *p.Whole)
				}
				return
			}
			if p.Whole == nil {
				t.Fatal("no last resort")
			}
			want := store.KeywordQuery{Terms: tt.want, Match: store.MatchAny, Filter: store.Filter{Folder: store.CleanFolder(tt.folder)}, Limit: 9, TopOnly: true}
			if !reflect.DeepEqual(*p.Whole, want) {
				t.Errorf("Whole = %+v, want %+v", *p.Whole, want)
			}
		})
	}
}
