package rules

import (
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/gds-cli/gds/internal/ai"
)

// Query limits: keywords returned, and runes analysed (a query is a line
// typed by a person; the rest of a longer text is ignored).
const (
	MaxKeywords   = 5
	maxQueryRunes = 500
)

// JaGeneric are Japanese words that never make a useful search keyword:
// generic nouns, question words and verbal nouns of searching.
var JaGeneric = LazySet(
	"ファイル", "資料", "書類", "データ", "もの", "物", "件", "内容", "情報", "関連", "関係", "一式", "類", "等", "用",
	"何", "誰", "何処", "何時", "何故", "全部", "全て", "全", "一覧表示", "検索", "表示", "探索", "場所", "方法", "感じ",
	"ファイル名", "版", "最新", "最新版", "新", "旧", "やつ", "奴", "分", "頃", "時", "際", "場合", "中", "前", "後", "以外",
	"作成", "作った", "保存", "共有", "管理者",
)

// jaGenericSuffixes are stripped from the end of a compound (営業資料 → 営業).
var jaGenericSuffixes = []string{"ファイル", "資料", "書類", "関連", "関係", "一式", "データ類", "類"}

// EnStop are English stop words, question words and generic search words.
var EnStop = LazySet(
	"a", "an", "the", "of", "for", "in", "on", "at", "to", "from", "with", "about", "by", "and", "or", "not", "no",
	"my", "our", "your", "their", "his", "her", "its", "me", "i", "we", "you", "they", "it", "us", "them",
	"is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "have", "has", "had",
	"this", "that", "these", "those", "there", "here", "all", "any", "some", "every", "each", "other", "another",
	"what", "which", "who", "whom", "whose", "where", "when", "why", "how",
	"find", "finds", "finding", "show", "shows", "search", "searching", "get", "give", "list", "open", "look",
	"looking", "need", "needs", "want", "wanted", "please", "can", "could", "would", "should", "will", "shall",
	"may", "might", "must", "let", "see", "tell", "send", "sent", "fetch", "locate", "pull", "bring", "up",
	"file", "files", "folder", "folders", "thing", "things", "stuff", "one", "ones", "copy", "version",
	"related", "regarding", "relating", "concerning", "latest", "newest", "new", "old", "recent", "last", "about",
	"made", "make", "created", "written", "wrote", "shared", "saved", "edited", "modified", "updated", "uploaded",
	"drive", "gdrive", "into", "onto", "over", "under", "than", "then", "so", "if", "as", "also",
	"just", "only", "very", "more", "most", "less", "like", "something", "anything", "everything", "somewhere",
	"again", "ago", "around", "between", "during", "since", "after", "before", "until", "till", "through",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// candidate is a keyword under consideration with its importance tier
// (lower is more important) and position.
type candidate struct {
	text string
	tier int
	pos  int
}

// Keyword tiers, most important first.
const (
	tierCode   = iota // alphanumeric codes and acronyms: Q3, v2, AWS
	tierProper        // capitalised words, katakana names: Alpha, プロジェクトアルファ
	tierKanji         // kanji / mixed compounds: 議事録, 顧客管理システム
	tierWord          // other content words: roadmap
	tierSingle        // one-kanji words
)

// extraction is the result of reading keywords and a file type from text
// whose period expressions have been blanked out.
type extraction struct {
	keywords []string
	fileType string
}

// extract reads keywords (ranked) and the first file type named in s, a
// sentence-like query whose first word may be capitalised only as the
// start of a sentence.
func extract(s string) extraction { return extractFrom(s, true) }

// extractFrom is extract; sentenceStart false treats a capital on the
// first word as meaningful (file names).
func extractFrom(s string, sentenceStart bool) extraction {
	ex, cands := candidates(s, sentenceStart)
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].tier != cands[j].tier {
			return cands[i].tier < cands[j].tier
		}
		return cands[i].pos < cands[j].pos
	})
	for _, c := range cands {
		if ContainsFold(ex.keywords, c.text) {
			continue
		}
		ex.keywords = append(ex.keywords, c.text)
		if len(ex.keywords) == MaxKeywords {
			break
		}
	}
	return ex
}

// candidates reads the file type and every keyword candidate of s, in
// text order (extractFrom ranks and caps them).
func candidates(s string, sentenceStart bool) (extraction, []candidate) {
	segs := segmentText(s)
	if !sentenceStart && len(segs) > 0 {
		segs[0].first = false
	}
	var ex extraction
	var cands []candidate
	setType := func(ft string) {
		if ex.fileType == "" {
			ex.fileType = ft
		}
	}
	for i, sg := range segs {
		switch sg.kind {
		case segLatin:
			if name, ft := SplitExtension(sg.text); ft != "" {
				// A file name: its extension is a type, its name a word.
				setType(ft)
				if sg.text = strings.TrimRight(name, "."); sg.text == "" {
					continue
				}
			}
			lower := strings.ToLower(sg.text)
			if ft := typeOfLatin(sg.text); ft != "" {
				setType(ft)
				continue
			}
			// "Google Docs", "Excel file": the brand word goes with the type.
			if (lower == "ms" || lower == "microsoft" || lower == "google") && i+1 < len(segs) && typeOfLatin(segs[i+1].text) != "" {
				continue
			}
			if EnStop()[lower] || IsAllClass(sg.text, ClassDigit) || RuneLen(sg.text) < 2 && !hasDigit(sg.text) {
				continue
			}
			cands = append(cands, candidate{text: sg.text, tier: latinTier(sg), pos: sg.start})
		case segCJK:
			for _, part := range splitInterrogative(sg.text) {
				text := stripGeneric(part)
				ft, rest := typeOfCJK(text)
				if ft != "" {
					setType(ft)
				}
				text = stripGeneric(rest)
				if text == "" || JaGeneric()[text] || IsAllClass(text, ClassDigit) || strings.Trim(text, "ー・") == "" {
					continue
				}
				if RuneLen(text) == 1 && ClassOf([]rune(text)[0]) == ClassKanji && text == sg.text &&
					sg.next != 0 && ClassOf(sg.next) == ClassHiragana && !strings.ContainsRune(particles, sg.next) {
					continue // a verb or adjective stem: 探して, 見せて
				}
				cands = append(cands, candidate{text: text, tier: cjkTier(text), pos: sg.start})
			}
		}
	}
	cands = append(cands, hiraganaWords(s)...)
	return ex, cands
}

// minTailWord is the fewest characters of a hiragana run written right
// after kanji or katakana that ContentWords takes for a word of its own.
const minTailWord = 3

// ContentWords are the words of query the analysis reads as content, in
// query order, each once: every keyword candidate of AnalyzeQuery without
// the MaxKeywords cap (file-type words, stop words, generic words and
// dates left out), and the hiragana runs of three or more characters
// written right after kanji or katakana and ending the segment
// (単語ほげほげ → 単語, ほげほげ), which the analysis takes for inflections.
// They are the words the search checks against the index: a word no file
// contains is named to the user, whether or not it was a keyword.
func ContentWords(query string) []string {
	s := norm.NFKC.String(query)
	if r := []rune(s); len(r) > maxQueryRunes {
		s = string(r[:maxQueryRunes])
	}
	p := parsePeriod(newClock(time.Unix(0, 0).UTC()), s) // only the spans matter
	s = blank(s, p.spans)
	_, cands := candidates(s, true)
	cands = append(cands, tailWords(s)...)
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].pos < cands[j].pos })
	var out []string
	for _, c := range cands {
		if !ContainsFold(out, c.text) {
			out = append(out, c.text)
		}
	}
	return out
}

// tailParticles are the particles that make a hiragana run grammar, not a
// word (されたのはいつ, 作ったのは).
const tailParticles = "はがをにでのともかへや"

// inflectionEnds are the kana a Japanese verb or adjective form ends with
// (した, ている, ない, ます, 行われ…): a hiragana run ending in one is grammar.
const inflectionEnds = "ただてでるいすうくずぬむばれ"

// IsGrammar reports whether a hiragana word reads as grammar rather than a
// word a user means: three or more characters ending in an inflection
// (われていました, くなった), or five or more holding a particle before its
// end (いつはじまったのか). Such a word is never named as one no file holds.
func IsGrammar(w string) bool {
	rs := []rune(w)
	for _, r := range rs {
		if ClassOf(r) != ClassHiragana && r != 'ー' {
			return false
		}
	}
	n := len(rs)
	if n >= 3 && strings.ContainsRune(inflectionEnds, rs[n-1]) {
		return true
	}
	return n >= 5 && strings.ContainsAny(string(rs[:n-1]), caseParticles)
}

// caseParticles are the particles that, inside a long hiragana run, mark it
// as a phrase rather than a word (ふりかえり holds か, a word all the same).
const caseParticles = "はがをの"

// tailWords are the hiragana runs of at least minTailWord characters that
// follow kanji or katakana directly and end at a separator or the end of
// s, hold no particle (tailParticles) and are no hiragana function word:
// 単語ほげほげ → ほげほげ. An
// inflection (亡くなった → くなった) is one too; a search checks such a word
// against the index only to name it when no file holds it.
func tailWords(s string) []candidate {
	rs := []rune(s)
	var out []candidate
	off := 0
	for i := 0; i < len(rs); {
		if ClassOf(rs[i]) != ClassHiragana || i == 0 || (ClassOf(rs[i-1]) != ClassKanji && ClassOf(rs[i-1]) != ClassKatakana) {
			off += utf8.RuneLen(rs[i])
			i++
			continue
		}
		j, start := i, off
		for j < len(rs) && (ClassOf(rs[j]) == ClassHiragana || rs[j] == 'ー') {
			off += utf8.RuneLen(rs[j])
			j++
		}
		w := string(rs[i:j])
		if j-i >= minTailWord && (j == len(rs) || ClassOf(rs[j]) == ClassSep) && !strings.ContainsAny(w, tailParticles) &&
			!IsGrammar(w) && !jaHiraganaStop()[w] && !JaGeneric()[w] {
			out = append(out, candidate{text: w, tier: tierWord, pos: start})
		}
		i = j
	}
	return out
}

// jaHiraganaStop are hiragana words that are never a search keyword:
// demonstratives, question words, pronouns and function words.
var jaHiraganaStop = LazySet(
	"これ", "それ", "あれ", "どれ", "ここ", "そこ", "あそこ", "どこ", "こちら", "そちら", "あちら", "どちら",
	"この", "その", "あの", "どの", "こんな", "そんな", "あんな", "どんな", "いつ", "なに", "なん", "だれ", "どう",
	"なぜ", "どうして", "わたし", "わたくし", "ぼく", "おれ", "あなた", "かれ", "かのじょ", "みんな",
	"すべて", "ぜんぶ", "いろいろ", "など", "なに", "もの", "こと", "とき", "ところ", "ため", "よう", "ほう",
	"ください", "ほしい", "ある", "いる", "ない", "です", "ます", "でした", "ました", "する", "した", "して",
	"について", "として", "による", "における", "から", "まで", "より", "また", "および", "または", "そして",
	"ので", "けど", "けれど", "でも", "だけ", "ばかり", "ぐらい", "くらい", "ちょっと", "もう", "まだ",
)

// hiraganaWords are the words of s written in hiragana alone (おしらせ,
// こんにちは, ふりかえり, ほげほげほげー): a hiragana run that stands on its own —
// at the start or after a space or punctuation, and before the end, a space
// or punctuation — or, followed directly by another word, ends in a
// particle (ふりかえりの資料 → ふりかえり). A run right after kanji or katakana
// is an inflection or a particle (亡くなった, 資料の), never a word. Runs of
// one character and hiragana function words (jaHiraganaStop) are left out.
func hiraganaWords(s string) []candidate {
	const maxHiraganaWord = 16
	rs := []rune(s)
	offs := make([]int, len(rs)+1)
	off := 0
	for i, r := range rs {
		offs[i] = off
		off += utf8.RuneLen(r)
	}
	offs[len(rs)] = off
	isHira := func(i int) bool {
		return ClassOf(rs[i]) == ClassHiragana || rs[i] == 'ー' && i > 0 && ClassOf(rs[i-1]) == ClassHiragana
	}
	var out []candidate
	for i := 0; i < len(rs); {
		if !isHira(i) {
			i++
			continue
		}
		j := i
		for j < len(rs) && (isHira(j) || rs[j] == 'ー' && j > i) {
			j++
		}
		start, end := i, j
		i = j
		if start > 0 && ClassOf(rs[start-1]) != ClassSep {
			continue // after a word: an inflection or particle
		}
		word := rs[start:end]
		if end < len(rs) && ClassOf(rs[end]) != ClassSep {
			// Directly before another word: only a word ending in a particle.
			if len(word) < 2 || !strings.ContainsRune(particles, word[len(word)-1]) {
				continue
			}
			word = word[:len(word)-1]
		}
		w := string(word)
		if len(word) < 2 || len(word) > maxHiraganaWord || jaHiraganaStop()[w] || JaGeneric()[w] {
			continue
		}
		out = append(out, candidate{text: w, tier: tierWord, pos: offs[start]})
	}
	return out
}

// splitInterrogative cuts a compound at the interrogative 何 ("what",
// "how many"): 何地区 → 地区, 党員何名 → 党員, 何議席獲得 → 議席獲得. The
// question word is not in the answer's text, so a keyword that keeps it
// finds nothing. Parts of one character (counters: 何年, 何人) are
// dropped; words in which 何 is not a question (幾何, 如何) stay whole.
func splitInterrogative(s string) []string {
	if !strings.Contains(s, "何") || strings.Contains(s, "幾何") || strings.Contains(s, "如何") || JaGeneric()[s] {
		return []string{s}
	}
	var out []string
	for _, p := range strings.Split(s, "何") {
		if RuneLen(p) >= 2 {
			out = append(out, p)
		}
	}
	return out
}

func stripGeneric(s string) string {
	for _, suf := range jaGenericSuffixes {
		if strings.HasSuffix(s, suf) && RuneLen(s)-RuneLen(suf) >= 2 {
			return strings.TrimSuffix(s, suf)
		}
	}
	return s
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

func latinTier(sg segment) int {
	upper, lower := 0, 0
	for _, r := range sg.text {
		if unicode.IsUpper(r) {
			upper++
		} else if unicode.IsLower(r) {
			lower++
		}
	}
	switch {
	case hasDigit(sg.text) && upper+lower > 0:
		return tierCode
	case upper >= 2 && lower == 0:
		return tierCode
	case upper > 0 && (!sg.first || upper >= 2):
		return tierProper // a capital at the start of a query proves nothing
	}
	return tierWord
}

func cjkTier(s string) int {
	switch {
	case IsAllClass(s, ClassKatakana):
		return tierProper
	case RuneLen(s) == 1:
		return tierSingle
	}
	return tierKanji
}

func ContainsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// blank replaces the bytes of the given spans with spaces.
func blank(s string, spans []span) string {
	b := []byte(s)
	for _, sp := range spans {
		for i := sp.start; i < sp.end && i < len(b); i++ {
			b[i] = ' '
		}
	}
	return string(b)
}

// AnalyzeQuery is TaskAnalyzeQuery: period and file-type filters and 1–5
// ranked keywords, by rules only (no dictionary is loaded).
func AnalyzeQuery(in ai.QueryInput) ai.QueryAnalysis {
	s := norm.NFKC.String(in.Query)
	if r := []rune(s); len(r) > maxQueryRunes {
		s = string(r[:maxQueryRunes])
	}
	c := newClock(in.Now)
	p := parsePeriod(c, s)
	ex := extract(blank(s, p.spans))
	if p.found && p.explicit && !dateIsFileDate(s, p, ex.fileType) {
		// A date in content position (1910年に亡くなったのは誰): searched as
		// a word, not taken for the files' dates.
		p.found = false
		ex.keywords = addDateKeywords(ex.keywords, dateKeywords(s, p.spans))
	}
	out := ai.QueryAnalysis{Keywords: ex.keywords, Filters: ai.Filters{FileType: ex.fileType}}
	if out.Keywords == nil {
		out.Keywords = []string{}
	}
	if p.found {
		out.Filters.ModifiedAfter, out.Filters.ModifiedBefore = formatDate(p.from), formatDate(p.to)
		if !p.from.IsZero() && !p.to.IsZero() && !p.from.Before(p.to) {
			out.Filters.ModifiedAfter, out.Filters.ModifiedBefore = "", ""
		}
	}
	return out
}

// addDateKeywords appends the date words to kws, keeping at most
// MaxKeywords: a date the question names is kept even when that drops the
// least important keyword.
func addDateKeywords(kws, dates []string) []string {
	for _, d := range dates {
		if ContainsFold(kws, d) {
			continue
		}
		if len(kws) >= MaxKeywords {
			kws = kws[:MaxKeywords-1]
		}
		kws = append(kws, d)
	}
	return kws
}

// TextKeywords are the keywords of s read as a name, not a query: its
// dates are left out and its first word is not taken for a sentence start.
// The offline summariser reads a file name's distinctive parts with it.
func TextKeywords(s string) []string {
	p := parsePeriod(newClock(time.Unix(0, 0).UTC()), s) // only the spans matter
	return extractFrom(blank(s, p.spans), false).keywords
}
