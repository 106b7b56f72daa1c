package offline

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
)

func TestAnswerQuotesBestSentencesWithCitations(t *testing.T) {
	in := ai.AnswerInput{
		Question: "When was the Super Bowl 50 game played?",
		Lang:     "en",
		Contexts: []ai.AnswerContext{
			{Ref: 1, Text: "The Rhine is a river. It flows north."},
			{Ref: 2, Text: "Super Bowl 50 was an American football game. The game was played on February 7, 2016, at Levi's Stadium."},
		},
	}
	var pieces []string
	err := ai.Answer(context.Background(), New(), in, func(s string) error { pieces = append(pieces, s); return nil })
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(pieces, "")
	if len(pieces) != 2 || !strings.HasSuffix(pieces[0], " [2]") ||
		!strings.Contains(text, "The game was played on February 7, 2016, at Levi's Stadium. [2]") {
		t.Errorf("answer %q in %d pieces", text, len(pieces))
	}
	if strings.Contains(text, "Rhine") {
		t.Errorf("answer %q quotes an unrelated passage", text)
	}

	in = ai.AnswerInput{Question: "梅雨明けの別名は？", Lang: "ja", Contexts: []ai.AnswerContext{
		{Ref: 3, Text: "梅雨は東アジアの気象現象である。梅雨が明けることを梅雨明けといい、出梅とも呼ぶ。"}}}
	pieces = nil
	if err := ai.Answer(context.Background(), New(), in, func(s string) error { pieces = append(pieces, s); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(pieces) == 0 || pieces[0] != "梅雨が明けることを梅雨明けといい、出梅とも呼ぶ。 [3]" {
		t.Errorf("answer %q", pieces)
	}
}

func answerText(t *testing.T, in ai.AnswerInput) string {
	t.Helper()
	var b strings.Builder
	if err := ai.Answer(context.Background(), New(), in, func(s string) error { b.WriteString(s); return nil }); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestAnswerShape(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   ai.AnswerInput
		want string
	}{
		{"one sentence when one answers", ai.AnswerInput{Question: "When did Levi's Stadium open?", Lang: "en", Contexts: []ai.AnswerContext{
			{Ref: 1, Text: "Levi's Stadium opened in 2014 after two years of work. It seats 68,500 people. Tickets cost a lot."},
			{Ref: 2, Text: "I love fuzzy blankets. Blankets are warm."}}},
			"Levi's Stadium opened in 2014 after two years of work. [1]"},
		{"the same sentence of two copies is said once, citing both", ai.AnswerInput{Question: "How many blankets were donated?", Lang: "en", Contexts: []ai.AnswerContext{
			{Ref: 1, Text: "The charity donated 10,000 blankets to shelters."},
			{Ref: 2, Text: "Unrelated words about cooking."},
			{Ref: 3, Text: "The charity donated 10,000 blankets to shelters."}}},
			"The charity donated 10,000 blankets to shelters. [1][3]"},
		{"a sentence a PDF broke keeps its year", ai.AnswerInput{Question: "When was the report delivered?", Lang: "en", Contexts: []ai.AnswerContext{
			{Ref: 1, Text: "The final report of the commission was delivered on January 23,\n2017. It had 300 pages."}}},
			"The final report of the commission was delivered on January 23, 2017. [1]"},
		{"the asked type decides", ai.AnswerInput{Question: "How many people live in Warsaw?", Lang: "en", Contexts: []ai.AnswerContext{
			{Ref: 1, Text: "Many people live in Warsaw today. About 1.7 million people live in Warsaw."}}},
			"About 1.7 million people live in Warsaw. [1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := answerText(t, tc.in); got != tc.want {
				t.Errorf("answer\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// The no-answer message is in the question's language when it is clear,
// else in the interface language (ai.Answer).
func TestAnswerWithoutMatchSaysSo(t *testing.T) {
	for _, c := range []struct{ q, lang, want string }{
		{"quantum gravity", "ja", "do not answer"},
		{"量子重力とは何か", "en", "見つかりませんでした"},
		{"quantum", "ja", "見つかりませんでした"},
		{"quantum", "en", "do not answer"},
	} {
		var text string
		err := ai.Answer(context.Background(), New(), ai.AnswerInput{Question: c.q, Lang: c.lang,
			Contexts: []ai.AnswerContext{{Ref: 1, Text: "梅雨は雨の季節。"}}}, func(s string) error { text += s; return nil })
		if err != nil || !strings.Contains(text, c.want) {
			t.Errorf("%q (lang %s): %q, %v; want %q", c.q, c.lang, text, err, c.want)
		}
	}
}

func TestAnswerStopsWhenConsumerFails(t *testing.T) {
	boom := errors.New("closed")
	calls := 0
	err := ai.StreamText(context.Background(), New(), ai.Request{Task: ai.TaskAnswer, Input: &ai.AnswerInput{Question: "a b",
		Contexts: []ai.AnswerContext{{Ref: 1, Text: "alpha beta. beta alpha gamma. alpha."}}}},
		func(string) error { calls++; return boom })
	if !errors.Is(err, boom) || calls != 1 {
		t.Errorf("err %v after %d calls", err, calls)
	}
}

func TestAnswerStreamEndsWithStopAndNoToolCalls(t *testing.T) {
	in := ai.AnswerInput{Question: "alpha", Lang: "en",
		Contexts: []ai.AnswerContext{{Ref: 1, Text: "alpha beta. gamma delta. alpha again."}}}
	r, err := ai.Collect(New().Stream(context.Background(), ai.Request{Task: ai.TaskAnswer, Input: in}))
	if err != nil {
		t.Fatal(err)
	}
	if r.FinishReason != ai.FinishStop || len(r.ToolCalls) != 0 || !strings.Contains(r.Text, "[1]") {
		t.Errorf("reply = %+v", r)
	}
}

func TestOfflineDoesNotCallTools(t *testing.T) {
	var p ai.Provider = New()
	if _, ok := p.(ai.ToolCaller); ok {
		t.Fatal("the offline provider claims to call tools")
	}
	req := ai.Request{Task: ai.TaskAnswer, Input: ai.AnswerInput{Question: "q"},
		Tools: []ai.Tool{{Name: "search"}}}
	if _, err := ai.Collect(p.Stream(context.Background(), req)); !errors.Is(err, ai.ErrToolsUnsupported) {
		t.Errorf("a request with tools: %v, want ErrToolsUnsupported", err)
	}
}

func TestAnswerRankingRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   ai.AnswerInput
		want string
	}{
		{"the heading names the subject the sentence and the question leave out", ai.AnswerInput{
			Question: "北は中国、東はベトナム、南はカンボジアと国境を接する国家は", Contexts: []ai.AnswerContext{
				{Ref: 1, Text: "ラオス\n\n国土は南北に細長く、北は中国、東はベトナム、南はカンボジアと国境を接する。首都はヴィエンチャンである。"}}},
			"ラオス：国土は南北に細長く、北は中国、東はベトナム、南はカンボジアと国境を接する。 [1]"},
		{"a sentence that only restates the question answers through its heading", ai.AnswerInput{
			Question: "人権侵害救済機関設置法案に批判的な立場をとっているのはどこか", Contexts: []ai.AnswerContext{
				{Ref: 2, Text: "日本共産党\n\n人権侵害救済機関設置法案に批判的な立場をとっている。同和団体への公金支出も調査している。"}}},
			"日本共産党：人権侵害救済機関設置法案に批判的な立場をとっている。 [2]"},
		{"no heading when the question names it", ai.AnswerInput{
			Question: "ラオスの首都はどこか", Contexts: []ai.AnswerContext{
				{Ref: 1, Text: "ラオス\n\n国土は南北に細長い。ラオスの首都はヴィエンチャンである。"}}},
			"ラオスの首都はヴィエンチャンである。 [1]"},
		{"no heading for a time", ai.AnswerInput{
			Question: "When did the stadium open?", Lang: "en", Contexts: []ai.AnswerContext{
				{Ref: 1, Text: "Levi's Stadium\n\nThe stadium opened in 2014 after two years of work."}}},
			"The stadium opened in 2014 after two years of work. [1]"},
		{"an English heading for a name", ai.AnswerInput{
			Question: "Which city has the busiest port in Europe?", Lang: "en", Contexts: []ai.AnswerContext{
				{Ref: 1, Text: "# Rotterdam\n\nIts harbour is the busiest port in Europe."}}},
			"Rotterdam: Its harbour is the busiest port in Europe. [1]"},
		{"the Japanese neighbour holding the asked person comes first", ai.AnswerInput{
			Question: "空気中に微生物が多数浮遊していることを証明したのは誰ですか", Contexts: []ai.AnswerContext{
				{Ref: 1, Text: "この実験で、空気中には眼には見えない微生物が多数浮遊していることを証明した。パスツールの成果は見事であった。"}}},
			"パスツールの成果は見事であった。 [1]\nこの実験で、空気中には眼には見えない微生物が多数浮遊していることを証明した。 [1]"},
		{"the Japanese neighbour naming the asked term comes first", ai.AnswerInput{
			Question: "梅雨の末期に雷をともなって降る雨を何という？", Contexts: []ai.AnswerContext{
				{Ref: 1, Text: "梅雨の末期には雷をともなった雨が降ることが多い。これを「送り梅雨」と呼ぶ。"}}},
			"これを「送り梅雨」と呼ぶ。 [1]\n梅雨の末期には雷をともなった雨が降ることが多い。 [1]"},
		{"an English best sentence stays first", ai.AnswerInput{
			Question: "Who proved that microbes float in the air?", Lang: "en", Contexts: []ai.AnswerContext{
				{Ref: 1, Text: "An experiment proved that microbes float in the air. In 1859 Louis Pasteur proved that microbes float."}}},
			"An experiment proved that microbes float in the air. [1] In 1859 Louis Pasteur proved that microbes float. [1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := answerText(t, tc.in); got != tc.want {
				t.Errorf("answer\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestAnswerFirstSentenceRules checks the sentence an answer starts with.
func TestAnswerFirstSentenceRules(t *testing.T) {
	other := ai.AnswerContext{Ref: 9, Text: "Rivers\n\nThe Rhine flows north to the sea. Boats carry coal on it."}
	for _, tc := range []struct {
		name string
		in   ai.AnswerInput
		want string
	}{
		{"a sentence speaks of its heading's subject without naming it", ai.AnswerInput{
			Question: "What language did Tesla study at school?", Lang: "en", Contexts: []ai.AnswerContext{
				{Ref: 1, Text: "Schools in Kenya\n\nTesla coils are sold in Kenya. The language of study at private schools is English."},
				{Ref: 2, Text: "Nikola Tesla\n\nIn 1861 he went to school in Smiljan, where the language of study was German."}, other}},
			"In 1861 he went to school in Smiljan, where the language of study was German. [2]"},
		{"the classifier of the wh-phrase is no content word", ai.AnswerInput{
			Question: "What kind of electricity did Tesla investigate?", Lang: "en", Contexts: []ai.AnswerContext{
				{Ref: 1, Text: "Tesla investigated radiant energy of invisible kinds."},
				{Ref: 2, Text: "Tesla investigated electricity in the air with his receivers."}, other}},
			"Tesla investigated electricity in the air with his receivers. [2]"},
		{"a Japanese sentence leaves out the topic its passage's first sentence set", ai.AnswerInput{
			Question: "タイの首都はどこか", Lang: "ja", Contexts: []ai.AnswerContext{
				{Ref: 1, Text: "ヴィエンチャンは大きな町だ。首都の機能はここに集まる。タイの川はメコン川である。"},
				{Ref: 2, Text: "タイは東南アジアの国である。首都はバンコクである。"}, other}},
			"首都はバンコクである。 [2]"},
		{"the asked noun with a modifier the question lacks", ai.AnswerInput{
			Question: "Which climate does Jacksonville have?", Lang: "en", Contexts: []ai.AnswerContext{
				{Ref: 1, Text: "Jacksonville has a climate that suits filmmakers."},
				{Ref: 2, Text: "Jacksonville has a humid subtropical climate."}, other}},
			"Jacksonville has a humid subtropical climate. [2]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first string
			err := ai.Answer(context.Background(), New(), tc.in, func(s string) error {
				if first == "" {
					first = s
				}
				return nil
			})
			if err != nil || first != tc.want {
				t.Errorf("first sentence\n got %q (%v)\nwant %q", first, err, tc.want)
			}
		})
	}
}

func TestQuestionFocus(t *testing.T) {
	for q, want := range map[string]string{
		"Which city has the busiest port?":          "citi",
		"What kind of electricity did Tesla study?": "electr",
		"In what type of climate do palms grow?":    "climat",
		"What is the capital of France?":            "",
		"What did Tesla study?":                     "",
		"Who founded the city?":                     "",
	} {
		qt := answerTokens(q)
		qset := map[string]bool{}
		for _, t := range qt {
			qset[t] = true
		}
		if got := questionFocus(q, qset); got != want {
			t.Errorf("questionFocus(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestPassageHeading(t *testing.T) {
	for text, want := range map[string]string{
		"梅雨\n\n梅雨は雨の季節である。":                       "梅雨",
		"# Super Bowl 50\n\nThe game was played.": "Super Bowl 50",
		"The game was played.\n\nIt rained.":      "",
		"A first line\nright below it.":           "",
		"One line only":                           "",
		"Dr. Smith\n\nHe wrote it.":               "",
	} {
		if got := passageHeading(text); got != want {
			t.Errorf("passageHeading(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestAnswerTypeOfEnglishWhPhrase(t *testing.T) {
	for q, want := range map[string]answerType{
		"Who got a 61-yard return when players thought he called for a fair catch?": answerPerson,
		"How old was Tesla when he wrote the theory?":                               answerNumber,
		"What type of medal did NASA give the astronauts who visited the moon?":     answerNone,
		"What planet is Doctor Who from?":                                           answerNone,
		"In what year did the war end?":                                             answerTime,
		"From whom did the Huguenots buy the land?":                                 answerPerson,
		"The area where Jacksonville sits was inhabited for how many years?":        answerNumber,
		"When did the war end?":                                                     answerTime,
	} {
		if got := questionType(q); got != want {
			t.Errorf("questionType(%q) = %d, want %d", q, got, want)
		}
	}
}

func TestAnswerTypeOfTerm(t *testing.T) {
	for q, want := range map[string]answerType{
		"梅雨明けのことを何という？":      answerTerm,
		"日本共産党の略称は":          answerTerm,
		"この権利をなんと呼ぶか":        answerTerm,
		"梅雨はいつ明けるか":          answerTime,
		"What is it called?": answerNone,
	} {
		if got := questionType(q); got != want {
			t.Errorf("questionType(%q) = %d, want %d", q, got, want)
		}
	}
	for sent, want := range map[string]bool{
		"これを「送り梅雨」と呼ぶ。":       true,
		"梅雨明けを出梅（しゅつばい）ともいう。": true,
		"梅雨明けは7月である。":         false,
		"これを「梅雨明け」と呼ぶ。":       false, // the question's own word
	} {
		if got := hasTerm(sent, map[string]bool{"梅雨": true, "雨明": true, "明け": true}); got != want {
			t.Errorf("hasTerm(%q) = %v, want %v", sent, got, want)
		}
	}
}
