package search

import (
	"slices"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
)

func TestQueryWords(t *testing.T) {
	for _, c := range []struct {
		query    string
		keywords []string
		want     []string
	}{
		{"steam engine zqxjvw efficiency", []string{"steam", "engine", "zqxjvw", "efficiency"}, []string{"steam", "engine", "zqxjvw", "efficiency"}},
		// Beyond the keyword cap: every content word.
		{"What year did the steam engine zqxjvw first appear in Britain", []string{"Britain", "year", "steam", "engine", "zqxjvw"},
			[]string{"year", "steam", "engine", "zqxjvw", "first", "appear", "Britain"}},
		// A model's keyword that is not a word of the query is checked too.
		{"reports on cars", []string{"automobile"}, []string{"reports", "cars", "automobile"}},
		// Case-insensitive once; punctuation is no word.
		{"Tokyo tokyo", []string{"Tokyo", "…"}, []string{"Tokyo"}},
		{"存在しない単語ほげほげ", []string{"存在", "単語"}, []string{"存在", "単語", "ほげほげ"}},
		{"", nil, nil},
	} {
		if got := QueryWords(c.query, c.keywords); !slices.Equal(got, c.want) {
			t.Errorf("QueryWords(%q, %q) = %q, want %q", c.query, c.keywords, got, c.want)
		}
	}
}

func TestWordTerms(t *testing.T) {
	got := WordTerms([]string{"engine", "東京ズヴォルク大学", "大学", "支部名", "第45回"})
	want := []string{"engine", "東京ズヴォルク大学", "東京", "ズヴォルク", "大学", "支部名", "支部", "部名", "第45回", "第", "回"}
	if !slices.Equal(got, want) {
		t.Errorf("WordTerms = %q, want %q", got, want)
	}
}

func TestUnmatchedWords(t *testing.T) {
	for _, c := range []struct {
		name  string
		words []string
		df    map[string]int
		want  []string
	}{
		{"all found", []string{"steam", "engine"}, map[string]int{"steam": 3, "engine": 9}, nil},
		{"one word no file holds", []string{"steam", "zqxjvw"}, map[string]int{"steam": 3, "zqxjvw": 0}, []string{"zqxjvw"}},
		{"in query order", []string{"b", "a"}, map[string]int{"a": 0, "b": 0}, []string{"b", "a"}},
		{"uncounted is found", []string{"a"}, map[string]int{}, nil},
		// A kanji compound with a two-character word the index holds is
		// searched by its parts: matched (名 alone is no word to name).
		{"compound of found parts", []string{"参院補選"}, map[string]int{"参院補選": 0, "参院": 2, "院補": 0, "補選": 1}, nil},
		{"kanji word with an affix", []string{"支部名"}, map[string]int{"支部名": 0, "支部": 3, "部名": 0}, nil},
		// A compound with a script run no file holds: that run is named.
		{"compound with an unknown part", []string{"東京ズヴォルク大学"},
			map[string]int{"東京ズヴォルク大学": 0, "東京": 4, "ズヴォルク": 0, "大学": 7}, []string{"ズヴォルク"}},
		// A compound none of whose parts is found is named whole.
		{"compound of unknown parts", []string{"参院補選"}, map[string]int{"参院補選": 0, "参院": 0, "院補": 0, "補選": 0}, []string{"参院補選"}},
		{"two kanji", []string{"軟化"}, map[string]int{"軟化": 0}, []string{"軟化"}},
		// A number is no word: the runs around it are judged.
		{"katakana and a number", []string{"アルファベット3"}, map[string]int{"アルファベット3": 0, "アルファベット": 5}, nil},
		{"once", []string{"x", "X"}, map[string]int{"x": 0, "X": 0}, []string{"x"}},
	} {
		if got := UnmatchedWords(c.words, c.df); !slices.Equal(got, c.want) {
			t.Errorf("%s: UnmatchedWords = %q, want %q", c.name, got, c.want)
		}
	}
}

// The state machine applies the word check of EvAnalyzed: unmatched words
// are recorded, unmatched keywords dropped or replaced by their
// corrections, the matched words beyond the cap stand in when no keyword
// is left, and a query none of whose words is indexed ends not found.
func TestAnalyzedWithWordCheck(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	pdf := ai.Filters{FileType: ai.FileTypePDF}
	for _, c := range []struct {
		name      string
		keywords  []string
		filters   ai.Filters
		check     WordCheck
		action    ActionKind
		end       End
		searched  []string
		unmatched []Unmatched
	}{
		{"nothing unmatched", []string{"steam", "engine"}, ai.Filters{},
			WordCheck{Words: []string{"steam", "engine"}, DocFreq: map[string]int{"steam": 1, "engine": 2}},
			ActSearch, EndNone, []string{"steam", "engine"}, nil},
		{"an unmatched keyword is dropped and named", []string{"steam", "zqxjvw"}, ai.Filters{},
			WordCheck{Words: []string{"steam", "zqxjvw"}, DocFreq: map[string]int{"steam": 1, "zqxjvw": 0}},
			ActSearch, EndNone, []string{"steam"}, []Unmatched{{Word: "zqxjvw"}}},
		{"a corrected keyword is replaced", []string{"reciprocating", "engnie"}, ai.Filters{},
			WordCheck{Words: []string{"reciprocating", "engnie"}, DocFreq: map[string]int{"reciprocating": 1, "engnie": 0},
				Corrections: map[string]string{"engnie": "engine"}},
			ActSearch, EndNone, []string{"reciprocating", "engine"}, []Unmatched{{Word: "engnie", Suggestion: "engine"}}},
		{"matched words beyond the cap stand in", []string{"zqxjvw"}, ai.Filters{},
			WordCheck{Words: []string{"zqxjvw", "appear"}, DocFreq: map[string]int{"zqxjvw": 0, "appear": 5}},
			ActSearch, EndNone, []string{"appear"}, []Unmatched{{Word: "zqxjvw"}}},
		{"nothing matched: not found", []string{"zqxjvw"}, pdf,
			WordCheck{Words: []string{"zqxjvw"}, DocFreq: map[string]int{"zqxjvw": 0}},
			ActStop, EndNotFound, nil, []Unmatched{{Word: "zqxjvw"}}},
		{"a compound with one unknown part still searches", []string{"東京ズヴォルク大学"}, ai.Filters{},
			WordCheck{Words: []string{"東京ズヴォルク大学"}, DocFreq: map[string]int{"東京ズヴォルク大学": 0, "東京": 3, "ズヴォルク": 0, "大学": 9}},
			ActSearch, EndNone, []string{"東京ズヴォルク大学"}, []Unmatched{{Word: "ズヴォルク"}}},
		{"uncounted: searched as analysed", []string{"a", "b"}, ai.Filters{},
			WordCheck{Words: []string{"a", "b"}},
			ActSearch, EndNone, []string{"a", "b"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := Next(NewState("q", "en", now, 5), Event{Kind: EvStart})
			check := c.check
			s, a := Next(s, Event{Kind: EvAnalyzed, Analysis: ai.QueryAnalysis{Keywords: c.keywords, Filters: c.filters}, Check: &check})
			if a.Kind != c.action || s.End != c.end {
				t.Fatalf("action %v end %q, want %v %q", a.Kind, s.End, c.action, c.end)
			}
			if a.Kind == ActSearch && !slices.Equal(a.Cond.Keywords, c.searched) {
				t.Errorf("searched %q, want %q", a.Cond.Keywords, c.searched)
			}
			if !slices.Equal(s.Unmatched, c.unmatched) {
				t.Errorf("unmatched %v, want %v", s.Unmatched, c.unmatched)
			}
		})
	}
}

func TestUnmatchedText(t *testing.T) {
	us := []Unmatched{{Word: "zqxjvw"}, {Word: "engnie", Suggestion: "engine"}, {Word: "ほげ"}}
	if got := UnmatchedText(us, "en"); got != "No file contains ‘zqxjvw’, ‘ほげ’" {
		t.Errorf("en: %q", got)
	}
	if got := UnmatchedText(us, "ja"); got != "「zqxjvw」、「ほげ」を含むファイルはありません" {
		t.Errorf("ja: %q", got)
	}
	if got := UnmatchedText(us[1:2], "en"); got != "" {
		t.Errorf("only corrected: %q", got)
	}
}

func TestTypedWords(t *testing.T) {
	for _, c := range []struct {
		query string
		words []string
		want  []string
	}{
		{"steam eng", []string{"steam", "eng"}, []string{"steam"}},
		{"steam eng ", []string{"steam", "eng"}, []string{"steam", "eng"}},
		{"steam eng?", []string{"steam", "eng"}, []string{"steam", "eng"}},
		{"Steam ＥＮＧ", []string{"Steam", "ＥＮＧ"}, []string{"Steam"}},
		// The last word is not at the end: a stop word is being typed.
		{"zqxjvw th", []string{"zqxjvw"}, []string{"zqxjvw"}},
		{"東京ズヴォルク", []string{"東京ズヴォルク"}, []string{}},
		{"", nil, nil},
	} {
		if got := TypedWords(c.query, c.words); !slices.Equal(got, c.want) {
			t.Errorf("TypedWords(%q, %q) = %q, want %q", c.query, c.words, got, c.want)
		}
	}
}
