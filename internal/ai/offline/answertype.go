package offline

import (
	"regexp"
	"strings"

	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/tokenize"
)

// answerType is the kind of answer a question asks for, read from its
// question words (generic QA knowledge, no corpus rule): a time, a
// quantity, a person or a term.
type answerType int

const (
	answerNone answerType = iota
	answerTime
	answerNumber
	answerPerson
	// answerTerm asks what something is called (何という, 名称): a
	// Japanese question, answered by a quoted or named term (the answer
	// composer's type only: rerankType reads it as none).
	answerTerm
)

var (
	reEnTime   = rules.LazyRegexp(`(?i)\b(when|what (year|years|century|decade|date|day|month|era|period)|which (year|century|decade|date|day|month)|in what (year|century|decade))\b`)
	reEnNumber = rules.LazyRegexp(`(?i)\bhow (many|much|long|old|far|large|big|tall|high|deep|wide|fast|often)\b|\bwhat (percentage|percent|proportion|number|amount|size|population)\b`)
	reEnPerson = rules.LazyRegexp(`(?i)\b(who|whom|whose)\b`)
	reJaTime   = rules.LazyRegexp(`いつ|何年|何月|何日|何世紀|何時代|何年代|何時`)
	reJaNumber = rules.LazyRegexp(`いくつ|いくら|どのくらい|どれくらい|どれほど|何(人|個|回|度|倍|本|台|冊|件|歳|才|位|種|匹|頭|羽|つ|階|名|社|か国|カ国|ヶ国|%|％|パーセント|メートル|キロ|トン|万|億|千|百|割|点|番|票|試合|勝|敗|枚|隻|機|両|店|校|部|章|曲|話|作)`)
	reJaPerson = rules.LazyRegexp(`誰|だれ|何者|どなた`)
	reJaTerm   = rules.LazyRegexp(`(何|なん|なに)(と|て)(いう|言う|いい|言い|呼|よ|称)|名前|名称|別名|略称|正式名|通称|愛称`)

	// Answers of each type in a sentence: a year or date; a number; a
	// capitalised word (English) for a person.
	reTimeAns   = rules.LazyRegexp(`(?i)\b(1[0-9]{3}|20[0-9]{2})s?\b|[0-9]+\s*(年|月|日|世紀)|\b[0-9]+(st|nd|rd|th) century\b|\b(january|february|march|april|may|june|july|august|september|october|november|december)\b|(明治|大正|昭和|平成|令和|元禄|江戸|室町|鎌倉|平安|奈良)`)
	reNumberAns = rules.LazyRegexp(`(?i)[0-9]+(?:[.,][0-9]+)*|\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|hundreds|thousand|thousands|million|millions|billion|billions|dozen)\b|[一二三四五六七八九十百千万億]+(人|個|回|度|倍|本|台|冊|件|歳|つ|名|社|か国|カ国|ヶ国|年|種)`)
	rePersonAns = rules.LazyRegexp(`\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*`)
	// A term: quoted (「出梅」, 『資本論』), or named before a verb of
	// naming (送り梅雨（おくりづゆ）と呼ぶ); the term is the group that matched.
	reTermAns = rules.LazyRegexp(`「([^」]{1,40})」|『([^』]{1,40})』|([\p{Han}\p{Katakana}ーA-Za-z0-9・]{2,})(?:（[^）]{1,30}）)?(?:と|とも)(?:いう|いい|言う|言い|呼|よば|よぶ|称|名付)`)
)

// questionType reads the answer type a question asks for — the one
// reading the reranker (rerankType) and the answer composer share. An
// English question's type is read from its asking wh-phrase only
// (englishQuestionPhrase: a relative who/when and the show Doctor Who do
// not set it); a question without one (Japanese, "Name the …") is read
// whole, and a Japanese question for a name is answerTerm.
func questionType(q string) answerType {
	if wh := englishQuestionPhrase(q); wh != "" {
		for _, c := range []struct {
			re *regexp.Regexp
			t  answerType
		}{{reEnTime(), answerTime}, {reEnNumber(), answerNumber}, {reEnPerson(), answerPerson}} {
			if loc := c.re.FindStringIndex(wh); loc != nil && loc[0] == 0 {
				return c.t
			}
		}
		return answerNone
	}
	switch {
	case reEnTime().MatchString(q) || reJaTime().MatchString(q):
		return answerTime
	case reEnNumber().MatchString(q) || reJaNumber().MatchString(q):
		return answerNumber
	case reEnPerson().MatchString(q) || reJaPerson().MatchString(q):
		return answerPerson
	case reJaTerm().MatchString(q):
		return answerTerm
	}
	return answerNone
}

// rerankType is the question's type as the reranker weighs it: a term
// (answerTerm) counts as none — a name's type did not move the ranking.
func rerankType(q string) answerType {
	if t := questionType(q); t != answerTerm {
		return t
	}
	return answerNone
}

// reWordBefore matches the word right before a position (no punctuation
// between).
var reWordBefore = rules.LazyRegexp(`([A-Za-z]+)\s+$`)

// whLead are the words after which a wh-word still asks ("from whom",
// "where and when").
var whLead = rules.LazySet("in", "on", "at", "from", "by", "for", "with", "to", "of", "under", "during", "after", "before",
	"since", "about", "into", "through", "and", "or", "but", "than")

// reEnWh matches an English wh-word.
var reEnWh = rules.LazyRegexp(`(?i)\b(what|which|who|whom|whose|when|where|why|how)\b`)

// englishQuestionPhrase is the question's wh-phrase and what follows it:
// the question from its asking wh-word on, so that a wh-word further on
// does not set the type ("What did the astronauts who … receive?" asks
// for no person, "How old was he when …" for a number). A capitalised
// "Who" inside the question is a name (Doctor Who), and a where, when or
// who right after a word is a relative clause ("the city where …"): the
// asking word is the next one. "" when the question has none (its type
// is then read from the whole question).
func englishQuestionPhrase(q string) string {
	for _, m := range reEnWh().FindAllStringIndex(q, -1) {
		w := q[m[0]:m[1]]
		if m[0] > 0 && w == "Who" {
			continue // a name
		}
		if before := reWordBefore().FindStringSubmatch(q[:m[0]]); before != nil && !strings.EqualFold(w, "what") &&
			!whLead()[strings.ToLower(before[1])] {
			continue // a relative clause
		}
		return q[m[0]:]
	}
	return ""
}

// sentenceHas reports whether a sentence holds a candidate answer of type
// t that is not one of the question's own tokens (qset).
func sentenceHas(sent string, t answerType, qset map[string]bool) bool {
	var re *regexp.Regexp
	switch t {
	case answerTerm:
		return hasTerm(sent, qset)
	case answerTime:
		re = reTimeAns()
	case answerNumber:
		re = reNumberAns()
	case answerPerson:
		re = rePersonAns()
	default:
		return false
	}
	for _, m := range re.FindAllStringIndex(sent, -1) {
		span := sent[m[0]:m[1]]
		if t == answerPerson && m[0] == 0 {
			continue // a sentence's first word is capitalised anyway
		}
		fresh := false
		for _, tok := range tokenize.Tokens(span) {
			if !qset[tok] {
				fresh = true
				break
			}
		}
		if fresh {
			return true
		}
	}
	return false
}

// hasTerm reports whether a sentence names a term (reTermAns) that is not
// one of the question's own tokens (qset).
func hasTerm(sent string, qset map[string]bool) bool {
	for _, m := range reTermAns().FindAllStringSubmatch(sent, -1) {
		term := m[1] + m[2] + m[3]
		for _, tok := range tokenize.Tokens(term) {
			if !qset[tok] {
				return true
			}
		}
	}
	return false
}
