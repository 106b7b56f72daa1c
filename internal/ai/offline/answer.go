package offline

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/textseg"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Answer features. A sentence of the passages is scored by the weighted
// sum of
//
//   - coverage: the IDF-weighted share of the question's tokens it holds
//     (IDF over the passages' sentences, mixed with the whole index's
//     when AnswerInput.DocFreq is known), a token only its passage's
//     heading holds counting answerHeadingCredit of its weight (in
//     Japanese, one only the passage's first sentence holds
//     answerLeadCredit);
//   - window: the same share over the sentence and its neighbours;
//   - previous: the same share over the sentence before it alone (a
//     sentence whose subject the sentence before names);
//   - passage: the same share over the sentence's whole passage (a
//     sentence of the passage about the question's subject);
//   - pairs: the share of the question's adjacent token pairs it holds in
//     order;
//   - type: +1 when the question asks for a time, a number, a person or
//     (Japanese) a term (questionType) and the sentence holds one the
//     question does not, −1 when it holds none, 0 for other questions;
//   - rank: the passage's retrieval rank (0 for the first passage);
//   - length: tokens beyond answerLongTokens, per answerLongTokens (at
//     most answerLongCap);
//   - density: matched question tokens per token of the shortest stretch
//     of the sentence that holds them all;
//   - pronoun: 1 for a sentence that starts with a pronoun;
//   - slot: 1 when the question asks "what/which X" (questionFocus) and
//     the sentence names X with a modifier the question lacks ("humid
//     subtropical climate" for "What type of climate …").
//
// The weights were fitted by coordinate ascent on the share of questions
// whose best sentence holds a gold answer, on half of the dev questions
// of the retrieval benchmarks (SQuAD and JSQuAD paragraphs, docs/BENCHMARKS.md), and checked on the other
// half (docs/BENCHMARKS.md, "Question answering").
const (
	featCoverage = iota
	featWindow
	featPrev
	featPassage
	featPairs
	featType
	featRank
	featLength
	featDensity
	featPronoun
	featSlot
	nfeat
)

// answerWeights are the features' weights (a variable for the benchmark
// replay).
var answerWeights = [nfeat]float64{featCoverage: 1, featWindow: 0.15, featPrev: 0.15, featPassage: 1.05, featPairs: 0.1,
	featType: 0.1, featRank: -0.04, featLength: -0.1, featDensity: 0.05, featPronoun: 0.05, featSlot: 0.1}

var (
	// answerMinCoverage is the least coverage of the question's tokens the
	// best sentence must reach for the passages to answer: below it the
	// answer says the passages do not answer.
	answerMinCoverage = 0.2
	// answerSecondGap: another sentence joins the answer when it adds an
	// answer part (question tokens the first lacks, or the asked type the
	// first lacks) and its score is within this gap of the first's — or
	// within answerSecondGapLong once the answer would pass answerBudget
	// characters (Japanese sentences are short: an answer may hold more).
	answerSecondGap     = 0.7
	answerSecondGapLong = 0.3
	answerBudget        = 200
	// answerTieGap: a sentence of another file that scores within this gap
	// of the first is as good an answer there, and joins it.
	answerTieGap = 0.05
	// answerTypeGap: when the best sentence lacks the asked type and a
	// sentence next to it holds one and scores within this gap, that
	// sentence answers and comes first, the best one after it.
	answerTypeGap = 0.5
	// answerGlobalIDF is the share of a question token's weight that comes
	// from its rarity in the whole index (AnswerInput.DocFreq), the rest
	// from its rarity among the passages' sentences.
	answerGlobalIDF = 0.5
	// answerHeadingCredit is the share of a question token's weight a
	// sentence gets when its passage's heading holds the token and the
	// sentence does not: a passage's sentences speak of its heading's
	// subject without naming it ("Tesla attended school" under "Nikola
	// Tesla"; "He studied German" too).
	answerHeadingCredit = 0.75
	// answerLeadCredit is the same for a token the first sentence of a
	// Japanese passage holds: Japanese leaves out a topic once a passage
	// has set it (「ラオスは…。首都はヴィエンチャンである。」), where English
	// says "it" or repeats the name (the credit lost there).
	answerLeadCredit = 0.35
)

// A sentence longer than answerLongTokens is penalised, by at most
// answerLongCap times the length weight: text without sentence
// punctuation (a poem, a table) is one long "sentence" that may still
// answer.
const (
	answerLongTokens = 40
	answerLongCap    = 2
)

// answerMaxSentences is the most sentences an answer has.
var answerMaxSentences = 3

// answerSent is one distinct sentence of the passages.
type answerSent struct {
	text  string
	refs  []int           // the passages it occurs in (the same sentence of duplicate files)
	ctx   int             // index of the first passage it occurs in (retrieval order)
	file  string          // that passage's file
	ptoks map[string]bool // the tokens of that passage
	head  string          // that passage's heading, if it starts with one
	htoks map[string]bool // the heading's tokens
	ltoks map[string]bool // the tokens of its passage's first sentence (nil for that sentence)
	toks  map[string]bool
	seq   []string
	ntoks int
	win   map[string]bool // tokens of the sentence and its neighbours
	prev  *answerSent     // the sentence before it in its passage, if any
	f     [nfeat]float64
	score float64
	has   bool // holds an answer of the asked type
}

// answer is TaskAnswer: the sentence of the passages that answers the
// question, cited [n] (each passage holding the same sentence cited), and
// a second one only when it adds an answer part. When no sentence covers
// enough of the question, the answer says the passages do not answer and
// cites nothing. It returns the pieces to stream, one per sentence.
func answer(in ai.AnswerInput) []string {
	ja := isJa(in.Lang)
	qt := answerTokens(in.Question)
	sents := answerSentences(in.Contexts)
	picked := pickAnswer(in, qt, sents)
	if len(picked) == 0 {
		if ja {
			return []string{"提示された資料には、この質問に答える箇所が見つかりませんでした。"}
		}
		return []string{"The passages do not answer this question."}
	}
	want := questionType(in.Question)
	qset := map[string]bool{}
	for _, t := range qt {
		qset[t] = true
	}
	out := make([]string, len(picked))
	for i, s := range picked {
		var b strings.Builder
		if i > 0 {
			if ja {
				b.WriteString("\n")
			} else {
				b.WriteString(" ")
			}
		}
		if i == 0 {
			if h := subjectHeading(s, qset, want); h != "" {
				b.WriteString(h)
				if isJapaneseText(s.text) {
					b.WriteString("：")
				} else {
					b.WriteString(": ")
				}
			}
		}
		b.WriteString(s.text)
		b.WriteString(" ")
		for _, r := range s.refs {
			b.WriteString("[" + strconv.Itoa(r) + "]")
		}
		out[i] = b.String()
	}
	return out
}

// answerStop are the English function words a question's tokens drop
// (stemmed as tokenize.Tokens stems them). It is shorter than the search
// stop list (rules.EnStop): a question's verbs and qualifiers (open,
// wrote, last, before) help find the sentence that answers.
var answerStop = rules.LazySet(
	"a", "an", "the", "of", "for", "in", "on", "at", "to", "from", "with", "by", "and", "or", "not", "no",
	"my", "our", "your", "their", "his", "her", "its", "me", "i", "we", "you", "they", "it", "us", "them", "he", "she",
	"is", "are", "was", "were", "be", "been", "am", "do", "doe", "did", "have", "has", "had",
	"this", "that", "these", "those", "there", "what", "which", "who", "whom", "whose", "where", "when", "why", "how",
	"can", "could", "would", "should", "will", "shall", "may", "might", "must", "as", "if", "so", "than", "then",
	"mani", "many", "much", // how many, how much
)

// answerTokens are the distinct tokens of a question the answer weighs:
// its tokens without English function words (answerStop) and
// hiragana-only tokens (particles and endings).
func answerTokens(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tokenize.Tokens(reWhClassifier().ReplaceAllString(q, "$1 of")) {
		if seen[t] || answerStop()[t] || rules.EnStop()[t] && len(t) <= 2 || rules.IsAllClass(t, rules.ClassHiragana) {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

// reWhClassifier matches the classifier noun of a question's wh-phrase
// ("what kind of", "which type of"): it names no content of the answer,
// and a sentence that says "types" or "kinds" does not answer for it.
var reWhClassifier = rules.LazyRegexp(`(?i)\b(what|which)\s+(?:kinds?|types?|sorts?|forms?|varieties|variety|manner)\s+of\b`)

// answerSentences splits the passages into sentences (textseg.Sentences:
// lines a PDF broke inside a sentence joined), merging a sentence that
// occurs in several passages into one that cites each.
func answerSentences(ctxs []ai.AnswerContext) []*answerSent {
	var out []*answerSent
	byText := map[string]*answerSent{}
	for ci, c := range ctxs {
		var inCtx []*answerSent
		ptoks := map[string]bool{}
		for _, t := range tokenize.Tokens(c.Text) {
			ptoks[t] = true
		}
		head := passageHeading(c.Text)
		htoks := map[string]bool{}
		for _, t := range tokenize.Tokens(head) {
			htoks[t] = true
		}
		for _, s := range textseg.Sentences(cleanMarkup(reIdeoSpace().ReplaceAllString(c.Text, "$1\n\n"))) {
			key := strings.ToLower(s)
			if e := byText[key]; e != nil {
				if e.refs[len(e.refs)-1] != c.Ref {
					e.refs = append(e.refs, c.Ref)
				}
				continue
			}
			e := &answerSent{text: s, refs: []int{c.Ref}, ctx: ci, file: c.FileName, ptoks: ptoks, head: head, htoks: htoks, toks: map[string]bool{}}
			e.seq = tokenize.Tokens(s)
			for _, t := range e.seq {
				e.toks[t] = true
			}
			e.ntoks = len(e.seq)
			byText[key] = e
			out = append(out, e)
			inCtx = append(inCtx, e)
		}
		var lead *answerSent
		for _, e := range inCtx {
			if e.text != e.head {
				lead = e
				break
			}
		}
		for i, e := range inCtx {
			if i > 0 {
				e.prev = inCtx[i-1]
			}
			if lead != nil && lead != e {
				e.ltoks = lead.toks
			}
			e.win = map[string]bool{}
			for j := max(0, i-1); j <= min(len(inCtx)-1, i+1); j++ {
				for t := range inCtx[j].toks {
					e.win[t] = true
				}
			}
		}
	}
	return out
}

// pickAnswer scores the sentences and returns the answer's: the best,
// and a second when it adds an answer part; none when the best covers
// less than answerMinCoverage of the question.
func pickAnswer(in ai.AnswerInput, qt []string, sents []*answerSent) []*answerSent {
	want, cands := answerCandidates(in, qt, sents)
	for _, s := range cands {
		s.score = 0
		for k, w := range answerWeights {
			s.score += w * s.f[k]
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].score > cands[b].score })
	covered := 0.0
	for _, c := range cands {
		covered = max(covered, c.f[featCoverage])
	}
	if len(cands) == 0 || covered < answerMinCoverage {
		return nil
	}
	best := cands[0]
	// The sentence that restates the question often lacks the answer,
	// which the sentence next to it holds: when the best lacks the asked
	// type and a neighbour close behind holds it, the neighbour answers
	// first. Japanese only: its type evidence is specific (dates in 年月日,
	// counters, katakana names, quoted terms); in English any number or
	// capitalised word counts, and the move lost more than it gained on
	// the tuning half (docs/BENCHMARKS.md).
	if want != answerNone && !best.has && isJapaneseText(in.Question) {
		for _, c := range cands[1:] {
			if c.score < best.score-answerTypeGap {
				break
			}
			if c.has && (c.prev == best || best.prev == c) {
				return []*answerSent{c, best}
			}
		}
	}
	out := []*answerSent{best}
	runes := utf8.RuneCountInString(best.text)
	for _, c := range cands {
		if len(out) == answerMaxSentences || c.score < best.score-answerSecondGap {
			break
		}
		n := utf8.RuneCountInString(c.text)
		if runes+n > answerBudget && c.score < best.score-answerSecondGapLong {
			continue // a long answer takes only sentences close to the first
		}
		if c != best && (addsPart(best, c, qt, want) || c.file != best.file && c.score >= best.score-answerTieGap) {
			out = append(out, c)
			runes += n
		}
	}
	return out
}

// answerCandidates computes the features of the sentences that can
// answer (answerable) and returns them with the asked answer type.
func answerCandidates(in ai.AnswerInput, qt []string, sents []*answerSent) (answerType, []*answerSent) {
	question := in.Question
	want := questionType(question)
	if len(qt) == 0 || len(sents) == 0 {
		return want, nil
	}
	n := float64(len(sents))
	idf := make([]float64, len(qt))
	var total float64
	for j, t := range qt {
		df := 0
		for _, s := range sents {
			if s.toks[t] {
				df++
			}
		}
		idf[j] = bm25IDF(int(n), df)
		if gdf, ok := in.DocFreq[t]; ok && in.Docs > 0 {
			idf[j] = (1-answerGlobalIDF)*idf[j] + answerGlobalIDF*bm25IDF(in.Docs, gdf)
		}
		total += idf[j]
	}
	qset := map[string]bool{}
	for _, t := range qt {
		qset[t] = true
	}
	pairs := adjacentPairs(tokenize.Tokens(question), qset)
	focus := questionFocus(question, qset)
	jaQ := isJapaneseText(question)
	var cands []*answerSent
	for _, s := range sents {
		if !answerable(s, qset) && (want == answerTime || want == answerNumber || !headingAnswers(s, qset)) {
			continue
		}
		var cov, win, pcov, pc float64
		for j, t := range qt {
			if s.prev != nil && s.prev.toks[t] {
				pc += idf[j]
			}
			if s.toks[t] {
				cov += idf[j]
			} else if s.htoks[t] {
				cov += answerHeadingCredit * idf[j]
			} else if s.ltoks[t] && jaQ {
				cov += answerLeadCredit * idf[j]
			}
			if s.win[t] {
				win += idf[j]
			}
			if s.ptoks[t] {
				pcov += idf[j]
			}
		}
		s.f = [nfeat]float64{}
		s.f[featCoverage], s.f[featWindow], s.f[featPassage], s.f[featPrev] = cov/total, win/total, pcov/total, pc/total
		if rePronounStart().MatchString(s.text) {
			s.f[featPronoun] = 1
		}

		s.f[featRank] = float64(s.ctx)
		if len(pairs) > 0 {
			s.f[featPairs] = pairShare(s.seq, pairs)
		}
		if want != answerNone {
			s.has = sentenceHas(s.text, want, qset) || want == answerPerson && jaName(s.text, question)
			s.f[featType] = -1
			if s.has {
				s.f[featType] = 1
			}
		}
		if s.ntoks > answerLongTokens {
			s.f[featLength] = min(answerLongCap, float64(s.ntoks-answerLongTokens)/answerLongTokens)
		}
		s.f[featDensity] = density(s.seq, qset)
		if focus != "" && modifiesFocus(s.seq, focus, qset) {
			s.f[featSlot] = 1
		}
		cands = append(cands, s)
	}
	return want, cands
}

// density is the number of distinct question tokens of seq per token of
// the shortest stretch of seq that holds all of them (0 without any).
func density(seq []string, qset map[string]bool) float64 {
	need := map[string]bool{}
	for _, t := range seq {
		if qset[t] {
			need[t] = true
		}
	}
	if len(need) == 0 {
		return 0
	}
	best := len(seq)
	have := map[string]int{}
	got, lo := 0, 0
	for hi, t := range seq {
		if !need[t] {
			continue
		}
		if have[t] == 0 {
			got++
		}
		have[t]++
		for got == len(need) {
			best = min(best, hi-lo+1)
			if u := seq[lo]; need[u] {
				have[u]--
				if have[u] == 0 {
					got--
				}
			}
			lo++
		}
	}
	return float64(len(need)) / float64(best)
}

// jaName reports a katakana name (three characters or more, ・ allowed)
// in a sentence that the question does not hold: who a Japanese sentence
// names (ジョン・ニーダム, パスツール).
func jaName(sent, question string) bool {
	for _, m := range reKatakanaName().FindAllString(sent, -1) {
		if !strings.Contains(question, m) {
			return true
		}
	}
	return false
}

// reIdeoSpace matches ideographic spaces after a character: in Japanese
// text without sentence punctuation (a poem, a PDF's columns) they set
// lines apart, and cleanMarkup would make them plain spaces.
var reIdeoSpace = rules.LazyRegexp(`(\S)\x{3000}+`)

// rePronounStart matches a sentence that starts with a pronoun: its
// subject is named in the sentence before.
var rePronounStart = rules.LazyRegexp(`^(He|She|It|They|This|These|Those|His|Her|Its|Their|The (?:team|city|company|game|event|group))\b|^(彼|彼女|これ|それ|同|この|その)`)

var reKatakanaName = rules.LazyRegexp(`[\p{Katakana}ー]{2,}(?:・[\p{Katakana}ー]{2,})*`)

// answerable reports whether a sentence can answer: it says something
// beyond the question's own words (a heading that repeats the question
// does not).
func answerable(s *answerSent, qset map[string]bool) bool {
	for t := range s.toks {
		if !qset[t] && !isFunctionToken(t) {
			return true
		}
	}
	return false
}

// headingAnswers reports whether a sentence that only repeats the
// question's words still answers through its passage's heading: the
// subject the sentence leaves out, which the question does not name.
func headingAnswers(s *answerSent, qset map[string]bool) bool {
	if s.head == "" {
		return false
	}
	for _, t := range answerTokens(s.head) {
		if qset[t] {
			return false
		}
	}
	return true
}

// addsPart reports whether c adds an answer part to best: the asked type
// best lacks, or question tokens best does not hold.
func addsPart(best, c *answerSent, qt []string, want answerType) bool {
	if want != answerNone && !best.has && c.has {
		return true
	}
	for _, t := range qt {
		if c.toks[t] && !best.toks[t] {
			return true
		}
	}
	return false
}

// adjacentPairs are the adjacent pairs of the question's content tokens.
func adjacentPairs(seq []string, qset map[string]bool) [][2]string {
	var out [][2]string
	for i := 0; i+1 < len(seq); i++ {
		if qset[seq[i]] && qset[seq[i+1]] {
			out = append(out, [2]string{seq[i], seq[i+1]})
		}
	}
	return out
}

// pairShare is the share of pairs found adjacent in seq.
func pairShare(seq []string, pairs [][2]string) float64 {
	have := map[[2]string]bool{}
	for i := 0; i+1 < len(seq); i++ {
		have[[2]string{seq[i], seq[i+1]}] = true
	}
	n := 0
	for _, p := range pairs {
		if have[p] {
			n++
		}
	}
	return float64(n) / float64(len(pairs))
}

// passageHeading is the heading a passage starts with: a first line of at
// most headingMaxRunes characters, without sentence punctuation, followed
// by a blank line ("" when it has none; a Markdown heading's # dropped).
func passageHeading(text string) string {
	line, rest, ok := strings.Cut(strings.TrimLeft(text, " \t\r\n"), "\n")
	line = strings.TrimSpace(strings.TrimLeft(line, "# "))
	if !ok || line == "" || utf8.RuneCountInString(line) > headingMaxRunes || !strings.HasPrefix(strings.TrimLeft(rest, " \t\r"), "\n") {
		return ""
	}
	if strings.ContainsAny(line, ".!?。！？") {
		return ""
	}
	return line
}

const headingMaxRunes = 60

// subjectHeading is the heading the answer's first sentence is said
// under. A quoted sentence leaves out its passage's subject ("It borders
// China …", "国土は…国境を接する。"); when the question does not name
// that subject either, the subject is what the question asks for, or the
// reader could not tell what the sentence is about. It is the sentence's
// passage heading when the question asks for a thing, a person or a
// place (not a time or a number), names none of the heading's words, and
// the sentence does not hold the heading ("" otherwise).
func subjectHeading(s *answerSent, qset map[string]bool, want answerType) string {
	if want == answerTime || want == answerNumber || strings.Contains(s.text, s.head) || !headingAnswers(s, qset) {
		return ""
	}
	return s.head
}

// whClassifiers are the (stemmed) classifier nouns of a wh-phrase ("what
// kind of X"): the phrase's focus is the noun after them.
var whClassifiers = rules.LazySet("kind", "type", "sort", "form", "varieti", "manner", "of")

// questionFocus is the focus noun of an English wh-phrase: the content
// token right after "what"/"which" ("Which city …" → city, "What kind of
// electricity …" → electr); "" when the wh-word is followed by a verb or
// function word ("What is …", "What did …").
func questionFocus(q string, qset map[string]bool) string {
	seq := tokenize.Tokens(q)
	for i, t := range seq {
		if t != "what" && t != "which" {
			continue
		}
		for j := i + 1; j < len(seq); j++ {
			u := seq[j]
			if whClassifiers()[u] {
				continue
			}
			if qset[u] && !isFunctionToken(u) {
				return u
			}
			break
		}
		return ""
	}
	return ""
}

// modifiesFocus reports whether a sentence names the focus noun with a
// modifier the question lacks ("humid subtropical climate" for "What type
// of climate …"): the modifier sits where the wh-word does.
func modifiesFocus(seq []string, focus string, qset map[string]bool) bool {
	for i := 1; i < len(seq); i++ {
		if seq[i] == focus && !qset[seq[i-1]] && !isFunctionToken(seq[i-1]) {
			return true
		}
	}
	return false
}
