package offline

import (
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline/rules"
)

// Summary limits.
const (
	defaultSummaryLength = 200    // runes, when DocInput.MaxLength is not set
	maxAnalysedRunes     = 30_000 // longer texts are summarised from their start
	maxTitleRunes        = 80
)

var (
	reHTMLTag   = rules.LazyRegexp(`(?s)<!--.*?-->|<script.*?</script>|<style.*?</style>|<[^>]{1,300}>`)
	reEntity    = rules.LazyRegexp(`&(?:nbsp|amp|lt|gt|quot|#39|apos);`)
	reMDImage   = rules.LazyRegexp(`!\[[^\]]*\]\([^)]*\)`)
	reMDLink    = rules.LazyRegexp(`\[([^\]]*)\]\([^)]*\)`)
	reURL       = rules.LazyRegexp(`https?://\S+`)
	reMDPrefix  = rules.LazyRegexp(`(?m)^[ \t]*(?:#{1,6}[ \t]+|>[ \t]*|[-*+][ \t]+|\d{1,3}[.)][ \t]+)`)
	reMDEmph    = rules.LazyRegexp("\\*\\*|__|`+|~~")
	reRuleLine  = rules.LazyRegexp(`(?m)^[ \t]*[-=*_|:#~ \t]{3,}[ \t]*$`)
	reSpaces    = rules.LazyRegexp(`[ \t\f\v\x{3000}]+`)
	reSentEndJa = rules.LazyRegexp(`[^。！？!?]*[。！？!?]+[」』）)]*|[^。！？!?]+$`)
	reSentEndEn = rules.LazyRegexp(`[.!?]["'”’)\]]*\s+`)
)

var htmlEntities = strings.NewReplacer("&nbsp;", " ", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&apos;", "'")

// cleanMarkup removes HTML tags and entities, Markdown syntax, URLs, table
// pipes and control characters, keeping one sentence-bearing line per line.
func cleanMarkup(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = reHTMLTag().ReplaceAllString(s, " ")
	s = reEntity().ReplaceAllStringFunc(s, htmlEntities.Replace)
	s = reMDImage().ReplaceAllString(s, " ")
	s = reMDLink().ReplaceAllString(s, "$1")
	s = reURL().ReplaceAllString(s, " ")
	s = reRuleLine().ReplaceAllString(s, "")
	s = reMDPrefix().ReplaceAllString(s, "")
	s = reMDEmph().ReplaceAllString(s, "")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return r
		case r == '|' || r == '\t' || r == '\r':
			return ' '
		case unicode.IsControl(r) || r == '\uFEFF':
			return -1
		}
		return r
	}, s)
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(reSpaces().ReplaceAllString(l, " ")); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// splitSentences splits cleaned text into sentences: at line breaks, after
// 。！？ and after . ! ? followed by space.
func splitSentences(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		for _, part := range reSentEndJa().FindAllString(line, -1) {
			rest := part
			for {
				loc := reSentEndEn().FindStringIndex(rest)
				if loc == nil {
					break
				}
				if t := strings.TrimSpace(rest[:loc[1]]); t != "" {
					out = append(out, t)
				}
				rest = rest[loc[1]:]
			}
			if t := strings.TrimSpace(rest); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// isJapaneseText reports whether kana or kanji make up a fifth or more of
// the letters of s and kana occur at all.
func isJapaneseText(s string) bool {
	var cjk, kana, latin int
	for _, r := range s {
		switch rules.ClassOf(r) {
		case rules.ClassHiragana, rules.ClassKatakana:
			kana++
			cjk++
		case rules.ClassKanji:
			cjk++
		case rules.ClassLatin:
			latin++
		}
	}
	return kana > 0 && cjk*5 >= cjk+latin
}

// jaCommon are frequent Japanese nouns with little topical weight.
var jaCommon = rules.LazySet(
	"こと", "もの", "ため", "よう", "場合", "以下", "以上", "今回", "本", "当", "者", "人", "方", "他", "各", "点", "上",
	"下", "中", "後", "前", "的", "化", "性", "等", "一", "二", "三", "年", "月", "日", "時", "分", "回", "件", "名",
	"現在", "一部", "一般", "自分", "それぞれ", "ところ", "とき", "これ", "それ", "あれ", "どれ", "ほか", "まま",
	"予定", "必要", "可能", "対象", "実施", "使用", "利用", "関係", "問題", "内容", "情報", "結果", "方法", "状況",
	"目的", "以外", "全体", "部分", "最初", "最後", "同様", "確認", "対応", "記載", "説明", "世界", "日本",
)

// enCommon are frequent English content words with little topical weight.
var enCommon = rules.LazySet(
	"use", "used", "using", "also", "first", "second", "time", "year", "people", "many", "much", "well",
	"known", "part", "number", "including", "however", "although", "became", "become", "several", "early", "later",
	"large", "small", "high", "low", "long", "often", "include", "includes", "called", "name", "named", "since",
	"during", "following", "based", "such", "both", "between", "among", "within", "without", "while", "way",
	"three", "two", "four", "five", "day", "days", "month", "general", "important", "major", "main", "page",
	"section", "chapter", "table", "figure", "note", "notes", "item", "items", "other", "same", "different",
	"would", "could", "said", "says", "made", "make", "take", "took", "given", "set", "end", "will",
)

// docTerm is a weighted term of a document.
type docTerm struct {
	text   string
	tf     int
	proper bool
	first  int // index of the first sentence it occurs in
}

// summarize is TaskSummarize: an extractive summary of at most
// in.MaxLength runes (title line first, then the most representative
// sentences in document order) and 1–5 keywords.
func (p *Provider) summarize(in ai.DocInput) ai.DocSummary {
	limit := in.MaxLength
	if limit <= 0 {
		limit = defaultSummaryLength
	}
	text := norm.NFKC.String(in.Text)
	if r := []rune(text); len(r) > maxAnalysedRunes {
		text = string(r[:maxAnalysedRunes])
	}
	text = cleanMarkup(text)
	stem := strings.TrimSuffix(path.Base(in.Name), path.Ext(in.Name))
	nameKws := nameKeywords(stem)

	if text == "" {
		kws := nameKws
		if len(kws) == 0 && strings.TrimSpace(stem) != "" {
			kws = []string{strings.TrimSpace(stem)}
		}
		if kws == nil {
			kws = []string{}
		}
		return ai.DocSummary{Summary: ai.Truncate(strings.TrimSpace(stem), limit), Keywords: kws}
	}

	ja := isJapaneseText(text)
	sents := splitSentences(text)
	title := ""
	if len(sents) > 0 && strings.HasPrefix(text, sents[0]+"\n") && rules.RuneLen(sents[0]) <= maxTitleRunes &&
		!strings.ContainsAny(lastRune(sents[0]), "。.!?！？") {
		title, sents = sents[0], sents[1:]
	}

	// Terms per sentence.
	termsOf := make([][]term, len(sents))
	terms := map[string]*docTerm{}
	var order []string
	for i, s := range sents {
		for _, t := range p.sentenceTerms(s, ja) {
			termsOf[i] = append(termsOf[i], t)
			d := terms[t.text]
			if d == nil {
				d = &docTerm{text: t.text, proper: t.proper, first: i}
				terms[t.text] = d
				order = append(order, t.text)
			}
			d.tf++
			d.proper = d.proper || t.proper
		}
	}
	weight := func(d *docTerm) float64 {
		w := 1 + math.Log(float64(d.tf))
		if jaCommon()[d.text] || enCommon()[strings.ToLower(d.text)] {
			w *= 0.2
		}
		if d.proper {
			w *= 1.5
		}
		return w
	}

	// Score sentences, then take the best in document order within the budget.
	type scored struct {
		i     int
		score float64
	}
	var ss []scored
	for i, s := range sents {
		seen := map[string]bool{}
		var sc float64
		for _, t := range termsOf[i] {
			if !seen[t.text] {
				seen[t.text] = true
				sc += weight(terms[t.text])
			}
		}
		sc /= math.Sqrt(math.Max(float64(rules.RuneLen(s))/40, 1))
		if i == 0 {
			sc *= 1.2 // lead sentences describe the document
		}
		ss = append(ss, scored{i, sc})
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].score > ss[b].score })
	budget := limit
	var head string
	if title != "" {
		head = title
		if ja {
			head += "："
		} else {
			head += ": "
		}
		if rules.RuneLen(head) >= limit/2 {
			head = ""
		}
		budget -= rules.RuneLen(head)
	}
	var summary string
	if len(ss) > 0 && rules.RuneLen(sents[ss[0].i]) > budget {
		// The most representative sentence does not fit: cut it rather
		// than fall back to a lesser one that happens to be short.
		summary = head + ai.Truncate(sents[ss[0].i], budget)
	} else {
		var chosen []int
		used := 0
		for _, s := range ss {
			if l := rules.RuneLen(sents[s.i]) + 1; used+l <= budget+1 {
				chosen = append(chosen, s.i)
				used += l
			}
		}
		sort.Ints(chosen)
		var b strings.Builder
		b.WriteString(head)
		for k, i := range chosen {
			if k > 0 && (!ja || !strings.ContainsAny(lastRune(sents[chosen[k-1]]), "。！？!?」）)")) {
				b.WriteString(" ")
			}
			b.WriteString(sents[i])
		}
		summary = b.String()
	}
	if strings.TrimSpace(summary) == "" {
		summary = title
	}
	summary = ai.Truncate(strings.TrimSpace(summary), limit)

	return ai.DocSummary{Summary: summary, Keywords: docKeywords(terms, order, weight, nameKws)}
}

// nameKeywords returns the distinctive parts of a file name: its keywords
// as a query, without dates and file-type words.
func nameKeywords(stem string) []string {
	return rules.TextKeywords(norm.NFKC.String(strings.NewReplacer("_", " ", "-", " ").Replace(stem)))
}

// docKeywords picks 1–5 keywords: proper nouns first, then the distinctive
// parts of the file name, then the heaviest terms (longer compounds count
// more, common words less).
func docKeywords(terms map[string]*docTerm, order []string, weight func(*docTerm) float64, nameKws []string) []string {
	rank := func(d *docTerm) float64 {
		return weight(d) * math.Min(float64(rules.RuneLen(d.text)), 6) / 3
	}
	var proper, other []*docTerm
	for _, t := range order {
		d := terms[t]
		if rules.RuneLen(d.text) < 2 || rules.JaGeneric()[d.text] || jaCommon()[d.text] || enCommon()[strings.ToLower(d.text)] ||
			rules.EnStop()[strings.ToLower(d.text)] {
			continue
		}
		if d.proper {
			proper = append(proper, d)
		} else {
			other = append(other, d)
		}
	}
	byRank := func(ds []*docTerm) {
		sort.SliceStable(ds, func(a, b int) bool { return rank(ds[a]) > rank(ds[b]) })
	}
	byRank(proper)
	byRank(other)
	var out []string
	add := func(s string) {
		if s != "" && len(out) < rules.MaxKeywords && !rules.ContainsFold(out, s) {
			out = append(out, s)
		}
	}
	for i, d := range proper {
		if i == 3 {
			break
		}
		add(d.text)
	}
	for i, k := range nameKws {
		if i == 2 {
			break
		}
		if !slices.ContainsFunc(out, func(o string) bool { return strings.Contains(strings.ToLower(o), strings.ToLower(k)) }) {
			add(k)
		}
	}
	for _, d := range proper {
		if d.tf > 1 {
			add(d.text)
		}
	}
	for _, d := range other {
		add(d.text)
	}
	for _, d := range proper {
		add(d.text)
	}
	if out == nil {
		out = []string{}
	}
	return out
}

func lastRune(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return ""
	}
	return string(r[len(r)-1])
}

// sentenceTerms returns the terms of one sentence: kagome noun compounds
// for Japanese (falling back to the script-run segmenter if the dictionary
// cannot load), capitalised phrases and content words for English.
func (p *Provider) sentenceTerms(s string, ja bool) []term {
	if ja {
		if ts, err := p.ja.nounCompounds(s); err == nil {
			return ts
		}
		var out []term
		for _, w := range rules.Words(s) {
			out = append(out, term{text: w.Text, proper: w.Latin || rules.IsAllClass(w.Text, rules.ClassKatakana)})
		}
		return out
	}
	return englishTerms(s)
}

var reEnWord = rules.LazyRegexp(`[\p{L}\p{N}][\p{L}\p{N}'’-]*`)

// englishTerms returns the capitalised phrases (Super Bowl, Denver
// Broncos; not the sentence's first word alone) as proper terms and the
// other content words (lower-cased) as plain terms.
func englishTerms(s string) []term {
	words := reEnWord().FindAllString(s, -1)
	var out []term
	var phrase []string
	flush := func() {
		if len(phrase) > 0 {
			out = append(out, term{text: strings.Join(phrase, " "), proper: true})
		}
		phrase = phrase[:0]
	}
	for i, w := range words {
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		lower := strings.ToLower(w)
		capital := unicode.IsUpper([]rune(w)[0])
		if capital && !(i == 0 && (rules.EnStop()[lower] || enCommon()[lower])) && !rules.EnStop()[lower] {
			if i == 0 && len(words) > 1 && !unicode.IsUpper([]rune(words[1])[0]) {
				// A lone capital at the start of a sentence is just a capital.
				out = append(out, term{text: lower})
				continue
			}
			phrase = append(phrase, w)
			continue
		}
		flush()
		if rules.EnStop()[lower] || rules.IsAllClass(lower, rules.ClassDigit) || len(lower) < 3 {
			continue
		}
		out = append(out, term{text: lower})
	}
	flush()
	return out
}
