package offline

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
)

func TestRerankPutsTheMatchingFileFirst(t *testing.T) {
	p := New()
	for _, lang := range []string{"ja", "en"} {
		c := loadCorpus(t, lang)
		var cands []ai.HitInfo
		for i, text := range c.texts {
			sum, err := ai.Summarize(context.Background(), p, ai.DocInput{Name: c.files[i], Text: text, MaxLength: 300})
			if err != nil {
				t.Fatal(err)
			}
			cands = append(cands, ai.HitInfo{ID: c.files[i], Name: c.files[i], Summary: sum.Summary, Keywords: sum.Keywords})
		}
		hits := 0
		for i, q := range c.queries {
			an, err := ai.AnalyzeQuery(context.Background(), p, ai.QueryInput{Query: q, Now: testNow})
			if err != nil {
				t.Fatal(err)
			}
			order, err := ai.Rerank(context.Background(), p, ai.RerankInput{Query: q, Keywords: an.Keywords, Candidates: cands})
			if err != nil {
				t.Fatal(err)
			}
			if order[0] == c.files[i] {
				hits++
			} else {
				t.Logf("%s: %q → %s, want %s", lang, q, order[0], c.files[i])
			}
		}
		// Summaries keep only part of each paragraph; most questions still win.
		if hits*4 < len(c.queries)*3 {
			t.Errorf("%s: right file first for %d of %d questions", lang, hits, len(c.queries))
		}
	}
}

func TestRerankIsStableForTies(t *testing.T) {
	var cands []ai.HitInfo
	for i := range 5 {
		cands = append(cands, ai.HitInfo{ID: fmt.Sprint(i), Name: "same name", Summary: "same"})
	}
	cands = append(cands, ai.HitInfo{ID: "x", Name: "budget 2025", Summary: "the budget"})
	got := rerank(ai.RerankInput{Query: "budget", Candidates: cands}).Order
	if want := []string{"x", "0", "1", "2", "3", "4"}; !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

func BenchmarkRerank10(b *testing.B) {
	c := loadCorpus(b, "en")
	var cands []ai.HitInfo
	for i, text := range c.texts {
		cands = append(cands, ai.HitInfo{ID: c.files[i], Name: c.files[i], Summary: text})
	}
	cands = append(cands, cands[:2]...)
	b.ReportAllocs()
	for b.Loop() {
		rerank(ai.RerankInput{Query: c.queries[0], Keywords: []string{"AFC"}, Candidates: cands})
	}
}

// The index's document frequencies, when given, make a word that is rare in
// the whole index count for more than one that is common, even when the
// few candidates cannot tell them apart.
func TestRerankUsesIndexDocumentFrequencies(t *testing.T) {
	in := ai.RerankInput{
		Query: "alpha zeta",
		Candidates: []ai.HitInfo{
			{ID: "common", Name: "notes one", Summary: "alpha alpha alpha report"},
			{ID: "rare", Name: "notes two", Summary: "zeta report"},
		},
	}
	if got := rerank(in).Order[0]; got != "common" {
		t.Fatalf("without index frequencies the first is %q; the test premise fails", got)
	}
	in.Docs = 10000
	in.DocFreq = map[string]int{"alpha": 9000, "zeta": 3, "report": 5000}
	if got := rerank(in).Order[0]; got != "rare" {
		t.Errorf("with index frequencies the first is %q, want rare", got)
	}
}

// In the field-weighted BM25F, character bigrams keep the candidates' own
// weights: the index's frequency of a bigram is not a word's rarity. (The
// passage signal reads the index's frequencies for every token, but these
// candidates have no passage.)
func TestRerankIgnoresIndexFrequenciesOfBigrams(t *testing.T) {
	in := ai.RerankInput{
		Query: "梅雨 出梅",
		Candidates: []ai.HitInfo{
			{ID: "a", Name: "メモ一", Summary: "梅雨 梅雨 梅雨 の話"},
			{ID: "b", Name: "メモ二", Summary: "出梅 の話"},
		},
	}
	want := rerank(in).Order
	in.Docs = 10000
	in.DocFreq = map[string]int{"梅雨": 9000, "出梅": 2}
	if got := rerank(in).Order; !slices.Equal(got, want) {
		t.Errorf("order %v with bigram frequencies, %v without", got, want)
	}
}

// A keyword found as a whole phrase, and the query's words found together,
// count for more than the same words scattered over a passage that repeats
// them: term frequencies alone prefer "scattered".
func TestRerankPrefersPhrasesAndWordsTogether(t *testing.T) {
	checkLeads(t, []leadCase{
		{
			name: "keyword phrase",
			in: ai.RerankInput{
				Query:    "what did project alpha deliver",
				Keywords: []string{"project alpha"},
				Candidates: []ai.HitInfo{
					{ID: "scattered", Name: "notes", Snippet: "Alpha testers joined. The project grew. Alpha builds shipped weekly while the project hired. Alpha is a phase of every project."},
					{ID: "phrase", Name: "report", Snippet: "Project Alpha delivered the new billing system to the finance team in March, two weeks ahead of plan."},
				},
			},
			wantLead: "phrase",
		},
		{
			name: "Japanese compound",
			in: ai.RerankInput{
				Query:    "ポルトガルの鉱業資源は？",
				Keywords: []string{"ポルトガル", "鉱業資源"},
				Candidates: []ai.HitInfo{
					{ID: "other", Name: "メモ1", Snippet: "ラオスの鉱業資源は未開発な段階にある。鉱業資源として岩塩の鉱床がある。鉱業資源の開発とポルトの港湾が課題である。"},
					{ID: "both", Name: "メモ2", Snippet: "ポルトガルは鉱業資源には恵まれていないが、鉄、銅、錫、銀などを産する。世界有数のタングステン鉱山があり、食品工業、繊維工業などが盛んである。"},
				},
			},
			wantLead: "both",
		},
		{
			name: "words in one sentence",
			in: ai.RerankInput{
				Query:    "which treaty ended the thirty years war",
				Keywords: []string{"treaty", "thirty", "war"},
				Candidates: []ai.HitInfo{
					{ID: "spread", Name: "history", Snippet: "A treaty was signed with Spain. Trade ended after thirty years. The war at sea went on. Another treaty followed, and a war of succession began. The war ended with a treaty."},
					{ID: "together", Name: "history", Snippet: "The Peace of Westphalia was the treaty that ended the Thirty Years' War in 1648. Envoys met in two cities."},
				},
			},
			wantLead: "together",
		},
	})
}

// The lexical signals: each case is a pair of candidates where
// the older signals alone (term frequencies, phrases, one sentence) would
// tie or prefer the wrong one.
func TestRerankAnswerTypeStemsHeadingsAndKanji(t *testing.T) {
	checkLeads(t, []leadCase{
		{
			name: "when: a year near the question's words",
			in: ai.RerankInput{
				Query:    "When did the company open its first factory?",
				Keywords: []string{"company", "factory"},
				Candidates: []ai.HitInfo{
					{ID: "no-date", Name: "a", Snippet: "The company opened its first factory near the river, with a large hall."},
					{ID: "dated", Name: "b", Snippet: "The company opened its first factory near the river in 1921, a large hall."},
				},
			},
			wantLead: "dated",
		},
		{
			name: "how many: a number that is not the question's own",
			in: ai.RerankInput{
				Query:    "How many members did the 1990 council have?",
				Keywords: []string{"council", "members"},
				Candidates: []ai.HitInfo{
					{ID: "own-number", Name: "a", Snippet: "The 1990 council had members from every district of the old city."},
					{ID: "count", Name: "b", Snippet: "The 1990 council had 45 members from every district of the city."},
				},
			},
			wantLead: "count",
		},
		{
			name: "English plural matches the singular",
			in: ai.RerankInput{
				Query:    "Which cities are in the league?",
				Keywords: []string{"cities", "league"},
				Candidates: []ai.HitInfo{
					{ID: "league-only", Name: "a", Snippet: "The league was founded after the war and the league grew."},
					{ID: "city", Name: "b", Snippet: "Each city in the league sent a delegate to the council."},
				},
			},
			wantLead: "city",
		},
		{
			name: "heading line holds the subject",
			in: ai.RerankInput{
				Query:    "What is rhythm?",
				Keywords: []string{"rhythm"},
				Candidates: []ai.HitInfo{
					{ID: "mention", Name: "a", Snippet: "Music\n\nThe rhythm of a song. The rhythm of a poem."},
					{ID: "title", Name: "b", Snippet: "Rhythm\n\nA pattern of sounds in time."},
				},
			},
			wantLead: "title",
		},
		{
			name: "a kanji stem across inflections",
			in: ai.RerankInput{
				Query:    "シェーンベルクが謝ったのはいつ？",
				Keywords: []string{"シェーンベルク"},
				Candidates: []ai.HitInfo{
					{ID: "quarrel", Name: "a", Snippet: "シェーンベルクは激しく反発し、口論の末に家を出て行った。"},
					{ID: "apology", Name: "b", Snippet: "シェーンベルクは反発していたことを謝罪し、手紙を送った。"},
				},
			},
			wantLead: "apology",
		},
	})
}

// TestRerankType checks the reranker reads the question's type as the
// composer does (questionType): from the asking wh-phrase, a term as none.
func TestRerankType(t *testing.T) {
	tests := []struct {
		q    string
		want answerType
	}{
		{"When did the war end?", answerTime},
		{"In what year was the treaty signed?", answerTime},
		{"How many people live in Warsaw?", answerNumber},
		{"What percentage of the vote did they win?", answerNumber},
		{"Who designed the bridge?", answerPerson},
		{"What is the capital of Poland?", answerNone},
		{"ペレストロイカはいつの出来事か？", answerTime},
		{"第45回総選挙は何年に行われたか", answerTime},
		{"入党には党員何人の推薦が必要か", answerNumber},
		{"日本共産党を結成したのは誰か？", answerPerson},
		{"マーラーの氏名は", answerNone},
		{"何という名前か", answerNone}, // a term: the composer's type only
		// A relative who/when, or the show's name, asks nothing.
		{"Who got a 61-yard return when players thought he called for a fair catch?", answerPerson},
		{"What type of medal did NASA give the astronauts who visited the moon?", answerNone},
		{"What planet is Doctor Who from?", answerNone},
		{"How old was Tesla when he wrote the theory?", answerNumber},
		{"What was the name of the ship when it sank?", answerNone},
		{"From whom did the Huguenots buy the land?", answerPerson},
		{"The area where Jacksonville sits was inhabited for how many years?", answerNumber},
		{"Name the king who signed the treaty.", answerPerson},
	}
	for _, tt := range tests {
		if got := rerankType(tt.q); got != tt.want {
			t.Errorf("rerankType(%q) = %d, want %d", tt.q, got, tt.want)
		}
	}
}

func TestSentenceHasAnswer(t *testing.T) {
	q := map[string]bool{}
	for _, tok := range []string{"super", "bowl", "50", "1990"} {
		q[tok] = true
	}
	tests := []struct {
		sent string
		t    answerType
		want bool
	}{
		{"The game was played in 2016 at Levi's Stadium.", answerTime, true},
		{"Super Bowl 50 was played at Levi's Stadium.", answerTime, false},
		{"It was held in February.", answerTime, true},
		{"1946年6月に草案を発表した。", answerTime, true},
		{"Super Bowl 50 drew a big crowd.", answerNumber, false}, // 50 is the question's own
		{"About 1.5 million people watched.", answerNumber, true},
		{"三人の党員が推薦する。", answerNumber, true},
		{"It was designed by Joseph Strauss.", answerPerson, true},
		{"Bridges are designed by engineers.", answerPerson, false}, // a sentence's first word
	}
	for _, tt := range tests {
		if got := sentenceHas(tt.sent, tt.t, q); got != tt.want {
			t.Errorf("sentenceHas(%q, %d) = %v, want %v", tt.sent, tt.t, got, tt.want)
		}
	}
}

func TestHeadingLine(t *testing.T) {
	for in, want := range map[string]string{
		"Super Bowl 50\n\nSuper Bowl 50 was a game.": "Super Bowl 50",
		"リズム\n\n周期的な動き。":                             "リズム",
		"A full sentence ends here.\nMore text.":     "",
		"Only one line":                              "",
		"":                                           "",
	} {
		if got := headingLine(in); got != want {
			t.Errorf("headingLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// Whatever the query and texts, the reranker returns a permutation of the
// candidates' IDs (the loop relies on it to keep every candidate).
func FuzzRerank(f *testing.F) {
	f.Add("ポルトガルの鉱業資源は？", "ポルトガル 鉱業資源", "鉱業資源には恵まれていない。鉄を産する。", "Treaty of Westphalia. The war ended.", 3)
	f.Add("the of and", "", "", "", 1)
	f.Add("a\x00b \u3099が", "が", "\u3099\u3099", "。。。...!!!", 4)
	f.Fuzz(func(t *testing.T, query, keywords, textA, textB string, n int) {
		n = 1 + (n%8+8)%8
		var cands []ai.HitInfo
		for i := range n {
			text := textA
			if i%2 == 1 {
				text = textB
			}
			cands = append(cands, ai.HitInfo{ID: fmt.Sprint(i), Name: text[:len(text)/2], Summary: text, Snippet: text + " " + query})
		}
		in := ai.RerankInput{Query: query, Keywords: strings.Fields(keywords), Candidates: cands,
			DocFreq: map[string]int{}, Docs: 100}
		for _, tok := range strings.Fields(query) {
			in.DocFreq[tok] = len(tok) % 101
		}
		got := rerank(in).Order
		want := make([]string, n)
		for i := range want {
			want[i] = fmt.Sprint(i)
		}
		sorted := slices.Clone(got)
		slices.Sort(sorted)
		slices.Sort(want)
		if !slices.Equal(sorted, want) {
			t.Fatalf("order %v is not a permutation of %v", got, want)
		}
	})
}

// leadCase is a rerank input and the candidate that must come first.
type leadCase struct {
	name     string
	in       ai.RerankInput
	wantLead string
}

func checkLeads(t *testing.T, tests []leadCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rerank(tt.in).Order[0]; got != tt.wantLead {
				t.Errorf("first %q, want %q", got, tt.wantLead)
			}
		})
	}
}
