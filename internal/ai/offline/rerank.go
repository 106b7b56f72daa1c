package offline

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Rerank weights. Each candidate gets eight lexical signals, each scaled
// to the best candidate's (the shares are not scaled), and is ranked by
// their weighted sum:
//
//   - bm25f: a BM25F-like score over the fields (name, keywords, summary,
//     the passage the search matched) with field weights weightName …
//     weightSnippet; word tokens weigh by the index's and the candidates'
//     IDF averaged, CJK bigrams by the candidates' IDF;
//   - coverage: the IDF-weighted share of the query's keywords found as
//     whole phrases (tokenize.IndexJoin: 第45回 is found in の第45回);
//   - pairs: the number of the query's adjacent token pairs found adjacent
//     (three-character substrings in Japanese);
//   - sentence: the best single sentence's IDF weight of query tokens;
//   - answer: the same, counting only sentences that hold an answer of the
//     type the question asks for (rerankType: a year or date for
//     "when"/いつ, a number for "how many"/何人, a capitalised name for "who");
//   - passage: plain BM25 of the passage alone with the whole index's IDF
//     for every token, bigrams too (RerankInput.DocFreq) — the reference
//     ranking of a good keyword search, next to bm25f's mixed weights;
//   - heading: the IDF-weighted share of the query's tokens in the
//     passage's heading line (a document's title, headingLine);
//   - han: the best sentence's candidate-IDF weight of the question's Han
//     characters, so a kanji stem matches across inflections and compounds
//     the bigrams miss (謝った / 謝罪); zero for text without kanji.
//
// English words arrive stemmed from the shared tokenizer (Porter2), in
// the query, the candidates and the index's frequencies alike. The
// embedding cosine is no longer a signal: with these, any share of it
// lowered R@1 on both dev sets. The weights were
// fitted on the dev splits of the retrieval benchmarks (docs/BENCHMARKS.md) by coordinate ascent over a
// round grid and checked by 2-fold cross-validation (docs/BENCHMARKS.md,
// "Search quality").
const (
	weightName     = 3.0
	weightKeywords = 2.0
	weightSummary  = 1.0
	weightSnippet  = 1.0 // the passage the search matched (ai.HitInfo.Snippet)
	bm25K1         = 1.2
	bm25B          = 0.75

	weightBM25F    = 0.25
	weightCoverage = 0.5
	weightPairs    = 0.5
	weightSentence = 0.5
	weightAnswer   = 0.25
	weightPassage  = 1.0
	weightHeading  = 0.5
	weightHan      = 1.0
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

// rerankQueryTokens returns the distinct tokens the reranker weighs: the
// question's and the keywords' with function tokens removed (queryTokens),
// except that a keyword's own tokens always stay (English stop words
// aside). The query analysis chose the keyword as a content word, so a
// hiragana word such as さみだれ (「さみだれ」の漢字表記は？) keeps its bigrams
// here, where the particle filter would drop every one of them.
func rerankQueryTokens(query string, keywords []string) []string {
	out := queryTokens(query + " " + strings.Join(keywords, " "))
	seen := map[string]bool{}
	for _, t := range out {
		seen[t] = true
	}
	for _, k := range keywords {
		for _, t := range tokenize.Tokens(k) {
			if !seen[t] && !rules.EnStop()[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
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
	tf       map[string]float64 // field-weighted term frequencies
	length   float64            // field-weighted length
	joined   string             // " " + tokens of name, summary and passage + " ", for phrase tests
	joinedEx string             // the same as tokenize.IndexJoin's tokens, for phrases across a CJK/number boundary
	pairs    map[[2]string]bool // adjacent token pairs of the name and passage
	sents    []map[string]bool  // the tokens of each sentence of the passage
	sentText []string           // the sentences of the passage
	seq      []string           // the passage's tokens in order
	body     map[string]float64 // term frequencies of the passage alone
	head     map[string]bool    // tokens of the passage's heading line, if any
}

// newRerankDoc tokenises a candidate.
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
	d.joinedEx = " " + tokenize.IndexJoin(c.Name+"\n"+c.Summary+"\n"+c.Snippet) + " "
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
		d.sentText = append(d.sentText, s)
	}
	d.body = map[string]float64{}
	for _, t := range tokenize.Tokens(c.Snippet) {
		d.seq = append(d.seq, t)
		d.body[t]++
	}
	d.head = map[string]bool{}
	if h := headingLine(c.Snippet); h != "" {
		for _, t := range tokenize.Tokens(h) {
			d.head[t] = true
		}
	}
	return d
}

// rerankWeights are the signals' weights in signal order (nsig); a
// variable so the benchmark replay (replay_test.go) can vary them.
var rerankWeights = [nsig]float64{weightBM25F, weightCoverage, weightPairs, weightSentence, weightAnswer, weightPassage, weightHeading, weightHan}

// rerank is TaskRerank: the lexical signals above against each candidate.
// Ties keep the input order.
func rerank(in ai.RerankInput) ai.RerankResult {
	if len(in.Candidates) == 0 {
		return ai.RerankResult{Order: []string{}}
	}
	return combineSignals(in, rerankSignals(in), rerankWeights)
}

// nsig is the number of rerank signals, in the order of rerankWeights.
const nsig = 8

// Signal indexes.
const (
	sigBM25F = iota
	sigCoverage
	sigPairs
	sigSentence
	sigAnswer
	sigPassage
	sigHeading
	sigHan
)

// rerankSignals computes each candidate's signals, each scaled to the
// best candidate's (coverage and heading are shares already).
func rerankSignals(in ai.RerankInput) [nsig][]float64 {
	n := len(in.Candidates)
	qt := rerankQueryTokens(in.Query, in.Keywords)

	docs := make([]rerankDoc, n)
	df := map[string]int{}
	var avg, avgBody float64
	for i, c := range in.Candidates {
		docs[i] = newRerankDoc(c)
		avg += docs[i].length
		avgBody += float64(len(docs[i].seq))
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
	avgBody = max(avgBody/float64(n), 1)
	idfs := make([]float64, len(qt))  // candidates' IDF, averaged with the index's for words
	gidfs := make([]float64, len(qt)) // the index's IDF where known, for every token
	for j, t := range qt {
		w := bm25IDF(n, df[qt[j]])
		gidfs[j] = w
		if cdf, ok := in.DocFreq[t]; ok && in.Docs > 0 {
			gidfs[j] = bm25IDF(in.Docs, cdf)
			if !isCJKToken(t) {
				// The whole index's frequency tells rare from common;
				// the candidates' frequency tells what separates them.
				w = (w + gidfs[j]) / 2
			}
		}
		idfs[j] = w
	}
	qidf := map[string]float64{}
	var qterms []string // distinct query tokens, in query order
	for j, t := range qt {
		if _, ok := qidf[t]; !ok {
			qterms = append(qterms, t)
		}
		qidf[t] = max(qidf[t], idfs[j])
	}
	phrases, phraseW := keywordPhrases(in.Keywords, docs)
	pairs := queryPairs(in.Query)
	want := rerankType(in.Query)
	qset := map[string]bool{}
	for _, t := range tokenize.Tokens(in.Query) {
		qset[t] = true
	}
	qhan, hanIDF := hanWeights(in)

	var signals [nsig][]float64
	for k := range signals {
		signals[k] = make([]float64, n)
	}
	for i := range in.Candidates {
		d := docs[i]
		for j, t := range qt {
			if tf := d.tf[t]; tf > 0 {
				signals[sigBM25F][i] += idfs[j] * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*d.length/avg))
			}
		}
		var got, total float64
		for j, ph := range phrases {
			total += phraseW[j]
			if d.holds(ph) {
				got += phraseW[j]
			}
		}
		if total > 0 {
			signals[sigCoverage][i] = got / total
		}
		for _, pr := range pairs {
			if d.pairs[pr] {
				signals[sigPairs][i]++
			}
		}
		for si, s := range d.sents {
			var w float64
			for _, t := range qterms {
				if s[t] {
					w += qidf[t]
				}
			}
			signals[sigSentence][i] = max(signals[sigSentence][i], w)
			if want != answerNone && sentenceHas(d.sentText[si], want, qset) {
				signals[sigAnswer][i] = max(signals[sigAnswer][i], w)
			}
		}
		var hw, htot float64
		seen := map[string]bool{}
		for j, t := range qt {
			if seen[t] {
				continue
			}
			seen[t] = true
			if tf := d.body[t]; tf > 0 {
				signals[sigPassage][i] += gidfs[j] * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(len(d.seq))/avgBody))
			}
			htot += idfs[j]
			if d.head[t] {
				hw += idfs[j]
			}
		}
		if htot > 0 {
			signals[sigHeading][i] = hw / htot
		}
		for _, st := range d.sentText {
			var w float64
			for _, r := range qhan {
				if strings.ContainsRune(st, r) {
					w += hanIDF[r]
				}
			}
			signals[sigHan][i] = max(signals[sigHan][i], w)
		}
	}
	for k := range signals {
		if k != sigCoverage && k != sigHeading {
			scaleToMax(signals[k])
		}
	}
	return signals
}

// hanWeights returns the question's distinct Han characters and each one's
// IDF among the candidates' passages.
func hanWeights(in ai.RerankInput) ([]rune, map[rune]float64) {
	var qhan []rune
	idf := map[rune]float64{}
	for _, r := range in.Query {
		if _, ok := idf[r]; ok || !unicode.Is(unicode.Han, r) {
			continue
		}
		cdf := 0
		for _, c := range in.Candidates {
			if strings.ContainsRune(c.Snippet, r) {
				cdf++
			}
		}
		idf[r] = bm25IDF(len(in.Candidates), cdf)
		qhan = append(qhan, r)
	}
	return qhan, idf
}

// combineSignals orders the candidates by the weighted sum of their
// signals; ties keep the input order.
func combineSignals(in ai.RerankInput, signals [nsig][]float64, weights [nsig]float64) ai.RerankResult {
	n := len(in.Candidates)
	out := ai.RerankResult{Order: make([]string, 0, n)}
	score := make([]float64, n)
	for i := range score {
		for k, w := range weights {
			score[i] += w * signals[k][i]
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

// bm25IDF is BM25's inverse document frequency of a term found in df of n
// documents (always positive).
func bm25IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// phrase is a keyword as a token phrase (" t1 t2 "); edge marks a
// keyword that crosses a boundary between CJK characters and a number or
// Latin word (第45回, 2名), whose tokens are tokenize.IndexJoin's.
type phrase struct {
	text string
	edge bool
}

// holds reports whether the candidate's text holds the phrase: an edge
// phrase in tokenize.IndexJoin's tokens, where a passage's …の第45回衆議院… keeps
// 第 and 回 as tokens of their own; any other in tokenize.Join's, so a
// one-character keyword (名) is not found in a counter (2名).
func (d rerankDoc) holds(p phrase) bool {
	if p.edge {
		return strings.Contains(d.joinedEx, p.text)
	}
	return strings.Contains(d.joined, p.text)
}

// keywordPhrases returns the query's keywords as token phrases and their
// weights: a keyword few candidates contain separates them more.
func keywordPhrases(keywords []string, docs []rerankDoc) ([]phrase, []float64) {
	var phrases []phrase
	var weights []float64
	seen := map[phrase]bool{}
	for _, k := range keywords {
		p := phrase{text: tokenize.Join(k)}
		if crossesWordBoundary(k) {
			p = phrase{text: tokenize.IndexJoin(k), edge: true}
		}
		if p.text == "" || seen[p] {
			continue
		}
		seen[p] = true
		p.text = " " + p.text + " "
		df := 0
		for _, d := range docs {
			if d.holds(p) {
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
		if seen[p] || isFunctionToken(seq[j]) && isFunctionToken(seq[j+1]) {
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

// headingLine returns the first line of a passage when it reads as a
// heading (a title): short, without a sentence end, followed by more text.
func headingLine(s string) string {
	first, rest, ok := strings.Cut(strings.TrimSpace(s), "\n")
	first = strings.TrimSpace(first)
	if !ok || strings.TrimSpace(rest) == "" || first == "" || len([]rune(first)) > 80 {
		return ""
	}
	if r := []rune(first); strings.ContainsRune(".。!?！？", r[len(r)-1]) {
		return ""
	}
	return first
}
