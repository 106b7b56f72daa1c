package offline

import (
	"math"
	"sort"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Rerank weights: fields of a candidate for the lexical score, and the
// share of the lexical score in the final one (the rest is cosine).
const (
	weightName     = 3.0
	weightKeywords = 2.0
	weightSummary  = 1.0
	weightSnippet  = 1.0 // the passage the search matched (ai.HitInfo.Snippet)
	lexicalShare   = 0.7
	bm25K1         = 1.2
	bm25B          = 0.75
)

// queryTokens returns the distinct search tokens of a text with stop
// words and hiragana-only bigrams (particles) removed.
func queryTokens(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tokenize.Tokens(text) {
		if seen[t] || enStop[t] || isAllClass(t, rcHiragana) {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

// rerank is TaskRerank: a BM25F-like lexical score of the query and
// keywords against each candidate's name, keywords, summary and snippet, combined
// with the cosine of the offline embeddings. Ties keep the input order.
func rerank(in ai.RerankInput) ai.RerankResult {
	n := len(in.Candidates)
	out := ai.RerankResult{Order: make([]string, 0, n)}
	if n == 0 {
		return out
	}
	qtext := in.Query + " " + strings.Join(in.Keywords, " ")
	qt := queryTokens(qtext)
	qv := Embedding(qtext)

	tfs := make([]map[string]float64, n)
	lens := make([]float64, n)
	df := map[string]int{}
	var avg float64
	for i, c := range in.Candidates {
		tf := map[string]float64{}
		add := func(text string, w float64) {
			for _, t := range tokenize.Tokens(text) {
				tf[t] += w
				lens[i] += w
			}
		}
		add(c.Name, weightName)
		add(strings.Join(c.Keywords, " "), weightKeywords)
		add(c.Summary, weightSummary)
		add(c.Snippet, weightSnippet)
		tfs[i] = tf
		avg += lens[i]
		for _, t := range qt {
			if tf[t] > 0 {
				df[t]++
			}
		}
	}
	avg /= float64(n)
	if avg == 0 {
		avg = 1
	}
	lex := make([]float64, n)
	vec := make([]float64, n)
	var maxLex, maxVec float64
	for i, c := range in.Candidates {
		for _, t := range qt {
			tf := tfs[i][t]
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (float64(n)-float64(df[t])+0.5)/(float64(df[t])+0.5))
			if cdf, ok := in.DocFreq[t]; ok && in.Docs > 0 && !isCJKToken(t) {
				// The whole index's frequency tells rare from common; the
				// candidates' frequency tells what separates them.
				idf = (idf + math.Log(1+(float64(in.Docs)-float64(cdf)+0.5)/(float64(cdf)+0.5))) / 2
			}
			lex[i] += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*lens[i]/avg))
		}
		vec[i] = max(cosine(qv, Embedding(c.Name+"\n"+strings.Join(c.Keywords, " ")+"\n"+c.Summary+"\n"+c.Snippet)), 0)
		maxLex, maxVec = max(maxLex, lex[i]), max(maxVec, vec[i])
	}
	score := make([]float64, n)
	for i := range score {
		if maxLex > 0 {
			score[i] += lexicalShare * lex[i] / maxLex
		}
		if maxVec > 0 {
			score[i] += (1 - lexicalShare) * vec[i] / maxVec
		}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] > score[idx[b]] })
	for _, i := range idx {
		out.Order = append(out.Order, in.Candidates[i].ID)
	}
	return out
}

// isCJKToken reports whether a token is a Japanese/Chinese character
// bigram (or single character): the index's frequency of a bigram says how
// common two adjacent characters are, not how rare a word is, so only
// word tokens get the index-wide weight.
func isCJKToken(t string) bool {
	for _, r := range t {
		if isJaClass(classOf(r)) {
			return true
		}
	}
	return false
}
