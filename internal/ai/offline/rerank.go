package offline

import (
	"math"
	"sort"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Rerank weights. The lexical score combines four signals: a BM25F-like
// score over the fields (name, keywords, summary, the passage the search
// matched), the share of the query's keywords found as whole phrases, the
// query's adjacent token pairs found adjacent, and the best single
// sentence's weight of query tokens. Coverage is a share already; the
// others are scaled to the best candidate's. The final score is
// lexicalShare of that and the rest cosine. The weights were chosen on the
// dev splits of ../shared/bench (see docs/BENCHMARKS.md, "Search quality").
const (
	weightName     = 3.0
	weightKeywords = 2.0
	weightSummary  = 1.0
	weightSnippet  = 1.0 // the passage the search matched (ai.HitInfo.Snippet)
	bm25K1         = 1.2
	bm25B          = 0.75

	weightCoverage  = 1.0
	weightProximity = 0.5
	weightSentence  = 1.0
	lexicalShare    = 0.9
)

// queryTokens returns the distinct search tokens of a text with stop
// words and hiragana-only bigrams (particles) removed.
func queryTokens(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tokenize.Tokens(text) {
		if seen[t] || isFunctionToken(t) {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

// isFunctionToken reports an English stop word or a hiragana-only token
// (mostly particles and endings).
func isFunctionToken(t string) bool {
	return rules.EnStop()[t] || rules.IsAllClass(t, rules.ClassHiragana)
}

// rerankDoc is one rerank candidate's text, tokenised once.
type rerankDoc struct {
	tf     map[string]float64 // field-weighted term frequencies
	length float64            // field-weighted length
	joined string             // " " + tokens of name, summary and passage + " ", for phrase tests
	pairs  map[[2]string]bool // adjacent token pairs of the name and passage
	sents  []map[string]bool  // the tokens of each sentence of the passage
}

func newRerankDoc(c ai.HitInfo) rerankDoc {
	d := rerankDoc{tf: map[string]float64{}, pairs: map[[2]string]bool{}}
	add := func(text string, w float64) {
		for _, t := range tokenize.Tokens(text) {
			d.tf[t] += w
			d.length += w
		}
	}
	add(c.Name, weightName)
	add(strings.Join(c.Keywords, " "), weightKeywords)
	add(c.Summary, weightSummary)
	add(c.Snippet, weightSnippet)
	d.joined = " " + tokenize.Join(c.Name+"\n"+c.Summary+"\n"+c.Snippet) + " "
	seq := tokenize.Tokens(c.Name + "\n" + c.Snippet)
	for j := 0; j+1 < len(seq); j++ {
		d.pairs[[2]string{seq[j], seq[j+1]}] = true
	}
	for _, s := range splitSentences(c.Snippet) {
		set := map[string]bool{}
		for _, t := range tokenize.Tokens(s) {
			set[t] = true
		}
		d.sents = append(d.sents, set)
	}
	return d
}

// rerank is TaskRerank: the lexical signals above against each candidate,
// combined with the cosine of the offline embeddings. Ties keep the input
// order.
func rerank(in ai.RerankInput) ai.RerankResult {
	n := len(in.Candidates)
	out := ai.RerankResult{Order: make([]string, 0, n)}
	if n == 0 {
		return out
	}
	qtext := in.Query + " " + strings.Join(in.Keywords, " ")
	qt := queryTokens(qtext)
	qv := Embedding(qtext)

	docs := make([]rerankDoc, n)
	df := map[string]int{}
	var avg float64
	for i, c := range in.Candidates {
		docs[i] = newRerankDoc(c)
		avg += docs[i].length
		for _, t := range qt {
			if docs[i].tf[t] > 0 {
				df[t]++
			}
		}
	}
	avg /= float64(n)
	if avg == 0 {
		avg = 1
	}
	idf := func(t string) float64 {
		w := bm25IDF(n, df[t])
		if cdf, ok := in.DocFreq[t]; ok && in.Docs > 0 && !isCJKToken(t) {
			// The whole index's frequency tells rare from common; the
			// candidates' frequency tells what separates them.
			w = (w + bm25IDF(in.Docs, cdf)) / 2
		}
		return w
	}
	phrases, phraseW := keywordPhrases(in.Keywords, docs)
	pairs := queryPairs(in.Query)

	signals := [5][]float64{} // bm25f, coverage, proximity, sentence, cosine
	for k := range signals {
		signals[k] = make([]float64, n)
	}
	for i, c := range in.Candidates {
		d := docs[i]
		for _, t := range qt {
			if tf := d.tf[t]; tf > 0 {
				signals[0][i] += idf(t) * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*d.length/avg))
			}
		}
		var got, total float64
		for j, p := range phrases {
			total += phraseW[j]
			if strings.Contains(d.joined, p) {
				got += phraseW[j]
			}
		}
		if total > 0 {
			signals[1][i] = got / total
		}
		for _, p := range pairs {
			if d.pairs[p] {
				signals[2][i]++
			}
		}
		for _, s := range d.sents {
			var w float64
			for _, t := range qt {
				if s[t] {
					w += idf(t)
				}
			}
			signals[3][i] = max(signals[3][i], w)
		}
		signals[4][i] = max(cosine(qv, Embedding(c.Name+"\n"+strings.Join(c.Keywords, " ")+"\n"+c.Summary+"\n"+c.Snippet)), 0)
	}
	for k := range signals {
		if k != 1 { // coverage is already a share of the keywords
			scaleToMax(signals[k])
		}
	}
	weights := [4]float64{1, weightCoverage, weightProximity, weightSentence}
	var wsum float64
	for _, w := range weights {
		wsum += w
	}
	score := make([]float64, n)
	for i := range score {
		var lex float64
		for k, w := range weights {
			lex += w * signals[k][i]
		}
		score[i] = lexicalShare*lex/wsum + (1-lexicalShare)*signals[4][i]
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

// bm25IDF is BM25's inverse document frequency of a term found in df of n
// documents (always positive).
func bm25IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// keywordPhrases returns the query's keywords as token phrases (" t1 t2 ",
// matched against rerankDoc.joined) and their weights: a keyword few
// candidates contain separates them more.
func keywordPhrases(keywords []string, docs []rerankDoc) ([]string, []float64) {
	var phrases []string
	var weights []float64
	seen := map[string]bool{}
	for _, k := range keywords {
		j := tokenize.Join(k)
		if j == "" || seen[j] {
			continue
		}
		seen[j] = true
		p := " " + j + " "
		df := 0
		for _, d := range docs {
			if strings.Contains(d.joined, p) {
				df++
			}
		}
		phrases = append(phrases, p)
		weights = append(weights, bm25IDF(len(docs), df))
	}
	return phrases, weights
}

// queryPairs returns the distinct adjacent token pairs of the query except
// pairs of two function tokens ("of the", "のは"). For Japanese, two
// adjacent bigrams are a three-character substring.
func queryPairs(query string) [][2]string {
	seq := tokenize.Tokens(query)
	var out [][2]string
	seen := map[[2]string]bool{}
	for j := 0; j+1 < len(seq); j++ {
		p := [2]string{seq[j], seq[j+1]}
		if seen[p] || isFunctionToken(p[0]) && isFunctionToken(p[1]) {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// scaleToMax divides every value by the largest (no-op when all are 0).
func scaleToMax(v []float64) {
	var m float64
	for _, x := range v {
		m = max(m, x)
	}
	if m <= 0 {
		return
	}
	for i := range v {
		v[i] /= m
	}
}

// isCJKToken reports whether a token is a Japanese/Chinese character
// bigram (or single character): the index's frequency of a bigram says how
// common two adjacent characters are, not how rare a word is, so only
// word tokens get the index-wide weight.
func isCJKToken(t string) bool {
	for _, r := range t {
		if isJaClass(rules.ClassOf(r)) {
			return true
		}
	}
	return false
}
