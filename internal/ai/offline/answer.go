package offline

import (
	"fmt"
	"math"
	"sort"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/tokenize"
)

// answerSentences is the most sentences an extractive answer quotes.
const answerSentences = 3

// answer is TaskAnswer: the sentences of the passages that best match the
// question, best first, each followed by its [ref] citation. It returns the
// pieces to stream, one per sentence.
func answer(in ai.AnswerInput) []string {
	ja := isJa(in.Lang)
	type sent struct {
		text  string
		ref   int
		score float64
		order int
	}
	var sents []sent
	for _, c := range in.Contexts {
		for _, s := range splitSentences(cleanMarkup(c.Text)) {
			sents = append(sents, sent{text: s, ref: c.Ref, order: len(sents)})
		}
	}
	qt := queryTokens(in.Question)
	df := map[string]int{}
	toks := make([]map[string]bool, len(sents))
	for i, s := range sents {
		toks[i] = map[string]bool{}
		for _, t := range tokenize.Tokens(s.text) {
			toks[i][t] = true
		}
		for _, t := range qt {
			if toks[i][t] {
				df[t]++
			}
		}
	}
	n := float64(len(sents))
	for i := range sents {
		for _, t := range qt {
			if toks[i][t] {
				sents[i].score += math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			}
		}
		// Prefer focused sentences over long ones that match by chance.
		sents[i].score /= math.Sqrt(1 + float64(len(toks[i]))/30)
	}
	sort.SliceStable(sents, func(a, b int) bool { return sents[a].score > sents[b].score })
	var out []string
	for _, s := range sents {
		if s.score <= 0 || len(out) == answerSentences {
			break
		}
		piece := fmt.Sprintf("%s [%d]", s.text, s.ref)
		if len(out) > 0 {
			if ja {
				piece = "\n" + piece
			} else {
				piece = " " + piece
			}
		}
		out = append(out, piece)
	}
	if len(out) == 0 {
		if ja {
			return []string{"提示された資料には、この質問への答えが見つかりませんでした。"}
		}
		return []string{"The passages do not contain an answer to this question."}
	}
	return out
}
