package offline

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/textseg"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Limits of the offline graph tasks.
const (
	graphEntitiesPerChunk = 10  // most frequent noun phrases kept per chunk
	graphLinkedPerChunk   = 8   // entities of a chunk linked pairwise by co-occurrence
	graphDescriptionRunes = 400 // an entity's description: its first sentence, cut at a word if longer
	graphMapPoints        = 10
	graphAnswerSentences  = 5
	// graphOverviewSentences: an overview quotes one sentence for each of
	// up to this many documents or communities.
	graphOverviewSentences = 8
)

// Entity types the offline extraction assigns.
const (
	graphTypeProper = "PROPER_NOUN"
	graphTypeNoun   = "NOUN_PHRASE"
)

// extractGraph is TaskGraphExtract offline. Entities: English names
// (englishEntityNames: capitalised runs split at punctuation, common
// words and sentence openers left out, aliases merged, typed by rules);
// Japanese noun compounds from the morphological analyser. Each is
// described by the first sentence it occurs in. Two entities of the chunk
// are related when they share a sentence: the relationship is described
// by that sentence and is stronger the more they share. The gleaning pass
// finds nothing more.
func (p *Provider) extractGraph(in ai.GraphExtractInput) ai.GraphExtraction {
	out := ai.GraphExtraction{Entities: []ai.GraphEntity{}, Relationships: []ai.GraphRelationship{}}
	if in.Previous != nil {
		return out
	}
	text := cleanMarkup(in.Text)
	ja := isJapaneseText(text)
	sents := textseg.Sentences(text)
	type ent struct {
		name, key string
		proper    bool
		types     map[string]int
		tf, first int
		sents     []int
	}
	byKey := map[string]*ent{}
	var order []*ent
	add := func(name, typ string, proper bool, si int) {
		key := strings.ToLower(name)
		e := byKey[key]
		if e == nil {
			e = &ent{name: name, key: key, first: si, types: map[string]int{}}
			byKey[key] = e
			order = append(order, e)
		}
		e.tf++
		e.proper = e.proper || proper
		e.types[typ]++
		if len(e.sents) == 0 || e.sents[len(e.sents)-1] != si {
			e.sents = append(e.sents, si)
		}
	}
	if ja {
		for si, s := range sents {
			for _, t := range p.sentenceTerms(s, true) {
				if graphTermOK(t, true) {
					typ := graphTypeNoun
					if t.proper {
						typ = graphTypeProper
					}
					add(t.text, typ, t.proper, si)
				}
			}
		}
	} else {
		for si, ms := range englishEntityNames(sents) {
			for _, m := range ms {
				add(m.name, m.typ, true, si)
			}
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		wa, wb := graphTermWeight(order[a].tf, order[a].proper), graphTermWeight(order[b].tf, order[b].proper)
		if wa != wb {
			return wa > wb
		}
		return order[a].first < order[b].first
	})
	// Short common Japanese nouns (存在, 影響) name an entity only when the
	// chunk repeats them.
	order = slices.DeleteFunc(order, func(e *ent) bool {
		return ja && !e.proper && utf8.RuneCountInString(e.name) < 3 && e.tf < 2
	})
	if len(order) > graphEntitiesPerChunk {
		order = order[:graphEntitiesPerChunk]
	}
	for _, e := range order {
		// The first sentence that says something of it: not a heading
		// that is only its name.
		desc := sents[e.first]
		for _, si := range e.sents {
			if s := sents[si]; !strings.EqualFold(strings.Trim(s, " .:"), e.name) {
				desc = s
				break
			}
		}
		out.Entities = append(out.Entities, ai.GraphEntity{Name: e.name, Type: mainType(e.types), Description: describe(desc)})
	}
	linked := order[:min(len(order), graphLinkedPerChunk)]
	for i := range linked {
		for j := i + 1; j < len(linked); j++ {
			a, b := linked[i], linked[j]
			shared := -1
			n := 0
			for _, s := range a.sents {
				if slices.Contains(b.sents, s) {
					if shared < 0 {
						shared = s
					}
					n++
				}
			}
			if shared < 0 {
				continue // no sentence joins them: no relationship
			}
			out.Relationships = append(out.Relationships, ai.GraphRelationship{Source: a.name, Target: b.name,
				Description: describe(sents[shared]), Strength: float64(min(10, 1+2*n))})
		}
	}
	return out
}

// mainType is the most frequent type of an entity's mentions, a rule's
// type before "other" (ties: alphabetical).
func mainType(types map[string]int) string {
	best, bestN := "", 0
	for t, n := range types {
		if t != entOther && (n > bestN || n == bestN && t < best) {
			best, bestN = t, n
		}
	}
	if best == "" {
		return entOther
	}
	return best
}

// describe is a description from a sentence: whole, or cut at a word end
// when longer than graphDescriptionRunes.
func describe(sent string) string {
	r := []rune(sent)
	if len(r) <= graphDescriptionRunes {
		return sent
	}
	cut := graphDescriptionRunes
	for k := cut; k > graphDescriptionRunes/2; k-- {
		if unicode.IsSpace(r[k]) {
			cut = k
			break
		}
	}
	return strings.TrimSpace(string(r[:cut])) + "…"
}

func graphTermWeight(tf int, proper bool) float64 {
	w := float64(tf)
	if proper {
		w *= 2
	}
	return w
}

// graphTermOK keeps the terms that can name an entity: Japanese compounds
// of two or more characters that are not common nouns, English
// capitalised phrases.
func graphTermOK(t term, ja bool) bool {
	if !ja && (!t.proper || enCalendar()[strings.ToLower(t.text)]) {
		return false
	}
	n := utf8.RuneCountInString(t.text)
	if n < 2 || n > 40 {
		return false
	}
	if ja && !t.proper && (jaCommon()[t.text] || rules.IsAllClass(t.text, rules.ClassHiragana)) {
		return false
	}
	return !rules.IsAllClass(t.text, rules.ClassDigit)
}

// enCalendar are capitalised words that name no entity on their own.
var enCalendar = rules.LazySet("january", "february", "march", "april", "may", "june", "july", "august", "september",
	"october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

// graphReport is TaskGraphReport offline: an extract of the community's
// entity descriptions, rated by the community's size.
func graphReport(in ai.GraphReportInput) ai.GraphReport {
	names := in.Entities
	title := strings.Join(names[:min(3, len(names))], ", ")
	if title == "" {
		title = "(empty community)"
	}
	var summary []string
	seen := map[string]bool{}
	for _, d := range in.Descriptions {
		if d = strings.TrimSpace(d); d != "" && !seen[d] && len(summary) < 2 {
			seen[d] = true
			summary = append(summary, d)
		}
	}
	rating := math.Min(10, math.Round(math.Log2(1+float64(len(names)+in.Relations))*10)/10)
	out := ai.GraphReport{
		Title:   title,
		Summary: strings.Join(summary, "\n"),
		Rating:  rating,
		RatingExplanation: fmt.Sprintf("Offline extract: rated by the community's size (%d entities, %d relationships), not by a model.",
			len(names), in.Relations),
		Findings: []ai.GraphFinding{},
	}
	for i, n := range names {
		if i == 10 {
			break
		}
		d := ""
		if i < len(in.Descriptions) {
			d = in.Descriptions[i]
		}
		out.Findings = append(out.Findings, ai.GraphFinding{Summary: n, Explanation: d})
	}
	return out
}

// graphSent is a sentence of the passages a graph answer may quote.
type graphSent struct {
	text   string
	toks   map[string]bool
	group  string  // what it comes from (ai.GraphPassage.Group)
	source string  // the document it mostly comes from, if known
	cov    float64 // IDF-weighted share of the question's tokens it holds
	pscore float64 // its passage's score
	first  bool    // the first sentence of its passage
	order  int
}

// graphSentences splits the passages into distinct sentences (the same
// sentence from several passages is kept once, from the best one) and
// scores each by its coverage of the question's tokens.
func graphSentences(question string, passages []ai.GraphPassage) []*graphSent {
	var out []*graphSent
	seen := map[string]bool{}
	for _, p := range passages {
		for i, s := range textseg.Sentences(cleanMarkup(p.Text)) {
			key := sentenceKey(s)
			if key == "" || seen[key] {
				continue
			}
			seen[key] = true
			if fragmentSentence(s) {
				continue
			}
			g := &graphSent{text: s, toks: map[string]bool{}, group: p.Group, source: p.Source, pscore: p.Score, first: i == 0, order: len(out)}
			for _, t := range tokenize.Tokens(s) {
				g.toks[t] = true
			}
			out = append(out, g)
		}
	}
	qt := answerTokens(question)
	n := len(out)
	var total float64
	idf := make([]float64, len(qt))
	for j, t := range qt {
		df := 0
		for _, g := range out {
			if g.toks[t] {
				df++
			}
		}
		idf[j] = bm25IDF(n, df)
		total += idf[j]
	}
	if total > 0 {
		for _, g := range out {
			for j, t := range qt {
				if g.toks[t] {
					g.cov += idf[j]
				}
			}
			g.cov /= total
		}
	}
	return out
}

// fragmentSentence reports a piece of a sentence: it starts in lower case
// (a passage cut inside it) or was cut short ("…").
func fragmentSentence(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r) || strings.HasSuffix(s, "…")
}

// sentenceKey is the form under which two sentences are the same: lower
// case, letters and digits only.
func sentenceKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// graphMinCoverage is the least coverage of the question a sentence needs
// to be quoted in a graph answer (below it, the passages do not speak of
// the question).
const graphMinCoverage = 0.2

// reOverview matches a question that asks for an overview (the main
// themes, a summary) rather than a fact: an extract then quotes the most
// important communities' summaries.
var reOverview = rules.LazyRegexp(`(?i)\b(main|key|major|central|common|overall|important)\s+(themes?|topics?|ideas?|subjects?|points?|findings?)\b|\b(themes?|topics?|overview|summar(y|ise|ize))\b|\bwhat\s+(are|is)\s+(these|this|the)\s+(documents?|texts?|files?|articles?|collection)\s+about\b|主な?テーマ|主題|概要|要約|まとめ|全体像|何について`)

// pickGraphSentences picks at most n sentences for an extract: the
// question's best-covered sentences (coverage at least graphMinCoverage
// and half the best's), each from a group not yet quoted while one
// remains; a sentence that repeats most of the words of one already
// picked is left out. For an overview question: the first sentences of
// the passages by their score, from distinct documents first.
func pickGraphSentences(question string, passages []ai.GraphPassage, n int) []*graphSent {
	sents := graphSentences(question, passages)
	overview := reOverview().MatchString(question)
	var cands []*graphSent
	top := 0.0
	for _, g := range sents {
		top = max(top, g.cov)
	}
	for _, g := range sents {
		if !overview && g.cov >= max(graphMinCoverage, top/2) {
			cands = append(cands, g)
		}
	}
	if len(cands) == 0 {
		if !overview {
			return nil
		}
		for _, g := range sents {
			if g.first {
				cands = append(cands, g)
			}
		}
		sort.SliceStable(cands, func(a, b int) bool { return cands[a].pscore > cands[b].pscore })
	} else {
		sort.SliceStable(cands, func(a, b int) bool {
			if cands[a].cov != cands[b].cov {
				return cands[a].cov > cands[b].cov
			}
			return cands[a].pscore > cands[b].pscore
		})
	}
	var out []*graphSent
	usedSource, usedGroup := map[string]bool{}, map[string]bool{}
	picked := map[*graphSent]bool{}
	for pass := 0; pass < 3 && len(out) < n; pass++ {
		for _, g := range cands {
			if len(out) == n {
				break
			}
			if picked[g] || overview && pass == 0 && g.source != "" && usedSource[g.source] || pass <= 1 && usedGroup[g.group] {
				continue
			}
			if slices.ContainsFunc(out, func(o *graphSent) bool { return repeats(g, o) }) {
				continue
			}
			picked[g], usedSource[g.source], usedGroup[g.group] = true, true, true
			out = append(out, g)
		}
	}
	return out
}

// repeats reports whether most of the words of a are in b.
func repeats(a, b *graphSent) bool {
	if len(a.toks) == 0 {
		return true
	}
	n := 0
	for t := range a.toks {
		if b.toks[t] {
			n++
		}
	}
	return float64(n) >= 0.8*float64(len(a.toks))
}

// graphMap is TaskGraphMap offline: for each report of the batch, its
// sentence that best covers the question, scored by that coverage
// (0–100) and citing the report; for an overview question, each report's
// first summary sentence scored by the report's rank and weight. The
// reports come as text (GraphMapInput.Reports), or else are read from the
// table.
func graphMap(in ai.GraphMapInput) ai.GraphMapResult {
	out := ai.GraphMapResult{Points: []ai.GraphPoint{}}
	reports := in.Reports
	if len(reports) == 0 {
		reports = tableReports(in.Context)
	}
	var passages []ai.GraphPassage
	for _, r := range reports {
		text := strings.Join(append([]string{r.Summary}, r.Findings...), "\n\n")
		passages = append(passages, ai.GraphPassage{Text: text, Group: r.ID, Score: r.Rank * max(r.Weight, 0.1), Source: r.Source})
	}
	if reOverview().MatchString(in.Question) {
		// The most important reports' first sentences, from distinct
		// documents first.
		for _, g := range pickGraphSentences(in.Question, passages, graphMapPoints) {
			out.Points = append(out.Points, ai.GraphPoint{Description: fmt.Sprintf("%s [Data: Reports (%s)]", g.text, g.group),
				Score: math.Max(1, math.Round(10*g.pscore))})
		}
		return out
	}
	best := map[string]*graphSent{}
	var order []string
	for _, g := range graphSentences(in.Question, passages) {
		b, ok := best[g.group]
		if !ok {
			order = append(order, g.group)
		}
		if g.cov >= graphMinCoverage && (b == nil || g.cov > b.cov) {
			best[g.group] = g
		}
	}
	for _, id := range order {
		if g := best[id]; g != nil {
			out.Points = append(out.Points, ai.GraphPoint{Description: fmt.Sprintf("%s [Data: Reports (%s)]", g.text, id), Score: math.Round(100 * g.cov)})
		}
	}
	sort.SliceStable(out.Points, func(a, b int) bool { return out.Points[a].Score > out.Points[b].Score })
	if len(out.Points) > graphMapPoints {
		out.Points = out.Points[:graphMapPoints]
	}
	if len(out.Points) == 0 {
		out.Points = append(out.Points, ai.GraphPoint{Description: "No relevant information in these reports.", Score: 0})
	}
	return out
}

// tableReports reads the reports of a map table
// ("id|title|occurrence weight|content|rank"): the content's text without
// its Markdown headings.
func tableReports(table string) []ai.GraphReportText {
	var out []ai.GraphReportText
	for _, line := range strings.Split(table, "\n") {
		f := strings.Split(line, "|")
		if len(f) < 5 || f[0] == "id" {
			continue
		}
		rank, _ := strconv.ParseFloat(strings.TrimSpace(f[len(f)-1]), 64)
		weight, _ := strconv.ParseFloat(strings.TrimSpace(f[2]), 64)
		content := strings.ReplaceAll(strings.Join(f[3:len(f)-1], " "), `\n`, "\n")
		var paras []string
		for _, p := range strings.Split(content, "\n") {
			if p = strings.TrimSpace(p); p != "" && !strings.HasPrefix(p, "#") {
				paras = append(paras, p)
			}
		}
		if len(paras) == 0 {
			continue
		}
		out = append(out, ai.GraphReportText{ID: strings.TrimSpace(f[0]), Title: strings.TrimSpace(f[1]), Summary: paras[0],
			Findings: paras[1:], Rank: rank, Weight: weight})
	}
	return out
}

// graphDriftSentences is how many sentences a DRIFT step's answer holds.
const graphDriftSentences = 3

// graphDrift is TaskGraphDrift offline: the sentences of the step's
// passages that best cover its query (the intermediate answer), scored by
// the best one's coverage of the user's question (0–100), and follow-up
// queries about the entities those sentences name that the question does
// not: they stay on what the question is about.
func graphDrift(in ai.GraphDriftInput) ai.GraphDriftResult {
	q := in.Query
	if q == "" {
		q = in.Question
	}
	passages := in.Passages
	if len(passages) == 0 {
		passages = contextPassages(in.Context)
	}
	picked := pickGraphSentences(q, passages, graphDriftSentences)
	out := ai.GraphDriftResult{FollowUpQueries: []string{}}
	if len(picked) == 0 {
		return out
	}
	texts := make([]string, len(picked))
	for i, g := range picked {
		texts[i] = g.text
	}
	out.Response = joinGraph(texts, in.Lang)
	// The score is the coverage of the user's question, not the step's
	// query: a follow-up that drifts away scores low. An overview's
	// sentences cover no particular words: they score half.
	for _, g := range graphSentences(in.Question, passages) {
		if slices.ContainsFunc(picked, func(p *graphSent) bool { return p.text == g.text }) {
			out.Score = math.Max(out.Score, math.Round(100*g.cov))
		}
	}
	if reOverview().MatchString(in.Question) {
		out.Score = math.Max(out.Score, 50)
	}
	if out.Score < 100*graphMinCoverage {
		return out // off the question: no follow-ups from here
	}
	asked := strings.ToLower(in.Question + " " + in.Query)
	subject := questionSubject(in.Question)
	ja := isJa(in.Lang)
	for _, e := range in.Entities {
		if len(out.FollowUpQueries) == 2 {
			break
		}
		le := strings.ToLower(e)
		if strings.Contains(asked, le) || !strings.Contains(strings.ToLower(out.Response), le) {
			continue
		}
		switch {
		case ja && subject != "":
			out.FollowUpQueries = append(out.FollowUpQueries, subject+"と"+e+"の関係は？")
		case ja:
			out.FollowUpQueries = append(out.FollowUpQueries, e+"について")
		case subject != "":
			out.FollowUpQueries = append(out.FollowUpQueries, "How are "+e+" and "+subject+" related?")
		default:
			out.FollowUpQueries = append(out.FollowUpQueries, "What about "+e+"?")
		}
	}
	return out
}

// questionSubject is what a question is about, for a follow-up: its
// first capitalised phrase (not its first word), or else its longest
// content word; "" when it has none.
func questionSubject(q string) string {
	for _, m := range rePersonAns().FindAllStringIndex(q, -1) {
		if m[0] > 0 {
			return q[m[0]:m[1]]
		}
	}
	best := ""
	for _, w := range strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !answerStop()[strings.ToLower(w)] && !rules.EnStop()[strings.ToLower(w)] && len([]rune(w)) > len([]rune(best)) {
			best = w
		}
	}
	return best
}

// contextPassages reads the passages of a model's context when the
// caller gave none: every table cell longer than a few words (IDs,
// numbers and headers left out), its escaped line breaks restored, and
// every other line that is not markup.
func contextPassages(context string) []ai.GraphPassage {
	var out []ai.GraphPassage
	for i, line := range strings.Split(context, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "--") || strings.HasPrefix(line, "Importance Score:") || strings.HasPrefix(line, "id|") {
			continue
		}
		cells := []string{line}
		if strings.Contains(line, "|") {
			cells = strings.Split(line, "|")
		}
		for _, c := range cells {
			c = strings.ReplaceAll(c, `\n`, "\n")
			var keep []string
			for _, p := range strings.Split(c, "\n") {
				if p = strings.TrimSpace(p); p != "" && !strings.HasPrefix(p, "#") {
					keep = append(keep, p)
				}
			}
			if t := strings.Join(keep, "\n"); len(strings.Fields(t)) >= 4 || utf8.RuneCountInString(t) >= 12 && isJapaneseText(t) {
				out = append(out, ai.GraphPassage{Text: t, Group: strconv.Itoa(i)})
			}
		}
	}
	return out
}

// joinGraph joins the sentences of a graph extract: with spaces, or line
// breaks in Japanese.
func joinGraph(texts []string, lang string) string {
	if isJa(lang) {
		return strings.Join(texts, "\n")
	}
	return strings.Join(texts, " ")
}

// graphAnswer is TaskGraphAnswer offline: an extract of the passages
// (GraphAnswerInput.Passages; else the context's text without its IDs and
// markup) — the sentences that best cover the question, from distinct
// documents and groups first, none repeated; for an overview, the most
// important groups' first sentences. One piece per sentence.
func graphAnswer(in ai.GraphAnswerInput) []string {
	passages := in.Passages
	if len(passages) == 0 {
		passages = contextPassages(in.Context)
	}
	n := graphAnswerSentences
	if reOverview().MatchString(in.Question) {
		n = graphOverviewSentences
	}
	picked := pickGraphSentences(in.Question, passages, n)
	if len(picked) == 0 {
		if isJa(in.Lang) {
			return []string{"グラフの情報には、この質問に答える箇所が見つかりませんでした。"}
		}
		return []string{"The graph holds nothing that answers this question."}
	}
	sep := " "
	if isJa(in.Lang) {
		sep = "\n"
	}
	out := make([]string, len(picked))
	for i, g := range picked {
		out[i] = g.text
		if i > 0 {
			out[i] = sep + g.text
		}
	}
	return out
}
