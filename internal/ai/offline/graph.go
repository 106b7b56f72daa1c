package offline

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Limits of the offline graph tasks.
const (
	graphEntitiesPerChunk = 10  // most frequent noun phrases kept per chunk
	graphLinkedPerChunk   = 8   // entities of a chunk linked pairwise by co-occurrence
	graphDescriptionRunes = 240 // an entity's description: its first sentence, cut
	graphMapPoints        = 3
	graphAnswerSentences  = 5
)

// Entity types the offline extraction assigns.
const (
	graphTypeProper = "PROPER_NOUN"
	graphTypeNoun   = "NOUN_PHRASE"
)

// extractGraph is TaskGraphExtract offline: Japanese noun compounds from
// the morphological analyser and English capitalised phrases are the
// entities (each described by the first sentence it occurs in), and
// entities of the same chunk are related by co-occurrence, stronger when
// they share sentences. The gleaning pass finds nothing more.
func (p *Provider) extractGraph(in ai.GraphExtractInput) ai.GraphExtraction {
	out := ai.GraphExtraction{Entities: []ai.GraphEntity{}, Relationships: []ai.GraphRelationship{}}
	if in.Previous != nil {
		return out
	}
	text := cleanMarkup(in.Text)
	ja := isJapaneseText(text)
	sents := splitSentences(text)
	type ent struct {
		name, key string
		proper    bool
		tf, first int
		sents     []int
	}
	byKey := map[string]*ent{}
	var order []*ent
	for si, s := range sents {
		for _, t := range p.sentenceTerms(s, ja) {
			if !graphTermOK(t, ja) {
				continue
			}
			key := strings.ToLower(t.text)
			e := byKey[key]
			if e == nil {
				e = &ent{name: t.text, key: key, first: si}
				byKey[key] = e
				order = append(order, e)
			}
			e.tf++
			e.proper = e.proper || t.proper
			if len(e.sents) == 0 || e.sents[len(e.sents)-1] != si {
				e.sents = append(e.sents, si)
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
		typ := graphTypeNoun
		if e.proper {
			typ = graphTypeProper
		}
		out.Entities = append(out.Entities, ai.GraphEntity{Name: e.name, Type: typ,
			Description: ai.Truncate(sents[e.first], graphDescriptionRunes)})
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
			desc := fmt.Sprintf("%s and %s occur in the same passage.", a.name, b.name)
			if ja {
				desc = fmt.Sprintf("%sと%sが同じ箇所に現れる。", a.name, b.name)
			}
			if shared >= 0 {
				desc = ai.Truncate(sents[shared], graphDescriptionRunes)
			}
			out.Relationships = append(out.Relationships, ai.GraphRelationship{Source: a.name, Target: b.name,
				Description: desc, Strength: float64(min(10, 1+2*n))})
		}
	}
	return out
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
		Summary: strings.Join(summary, " "),
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

var reDataRef = rules.LazyRegexp(`\s*\[Data:[^\]]*\]`)

// overlapSentence is a sentence scored by the share of query tokens it holds.
type overlapSentence struct {
	text  string
	score float64 // 0–1
	order int
}

// rankByOverlap splits texts into sentences and orders them by the share
// of the query's tokens they contain (ties: text order); sentences without
// any are dropped.
func rankByOverlap(query string, texts []string) []overlapSentence {
	qt := queryTokens(query)
	var out []overlapSentence
	seen := map[string]bool{}
	for _, t := range texts {
		for _, s := range splitSentences(cleanMarkup(t)) {
			if seen[s] {
				continue
			}
			seen[s] = true
			toks := map[string]bool{}
			for _, k := range tokenize.Tokens(s) {
				toks[k] = true
			}
			n := 0
			for _, k := range qt {
				if toks[k] {
					n++
				}
			}
			if n > 0 {
				out = append(out, overlapSentence{text: s, score: float64(n) / float64(len(qt)), order: len(out)})
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
	return out
}

// graphMap is TaskGraphMap offline: the report sentences of the batch that
// share most words with the question, scored by that share (0–100), each
// citing its report.
func graphMap(in ai.GraphMapInput) ai.GraphMapResult {
	out := ai.GraphMapResult{Points: []ai.GraphPoint{}}
	type cand struct {
		s    overlapSentence
		id   string
		rank float64
	}
	var cands []cand
	for _, line := range strings.Split(in.Context, "\n") {
		f := strings.Split(line, "|")
		if len(f) < 5 || f[0] == "id" {
			continue
		}
		rank, _ := strconv.ParseFloat(strings.TrimSpace(f[len(f)-1]), 64)
		content := strings.Join(f[3:len(f)-1], " ")
		for _, s := range rankByOverlap(in.Question, []string{strings.ReplaceAll(content, `\n`, "\n")}) {
			cands = append(cands, cand{s: s, id: strings.TrimSpace(f[0]), rank: rank})
		}
	}
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].s.score != cands[b].s.score {
			return cands[a].s.score > cands[b].s.score
		}
		return cands[a].rank > cands[b].rank
	})
	for _, c := range cands {
		if len(out.Points) == graphMapPoints {
			break
		}
		out.Points = append(out.Points, ai.GraphPoint{
			Description: fmt.Sprintf("%s [Data: Reports (%s)]", c.s.text, c.id),
			Score:       math.Round(100 * c.s.score),
		})
	}
	if len(out.Points) == 0 {
		out.Points = append(out.Points, ai.GraphPoint{Description: "No relevant information in these reports.", Score: 0})
	}
	return out
}

// graphDrift is TaskGraphDrift offline: the context sentences that best
// match the query, scored by their overlap with the question, and
// follow-up queries about the context's entities the question does not
// name.
func graphDrift(in ai.GraphDriftInput) ai.GraphDriftResult {
	q := in.Query
	if q == "" {
		q = in.Question
	}
	ranked := rankByOverlap(q, []string{in.Context})
	var resp []string
	for _, s := range ranked[:min(len(ranked), 3)] {
		resp = append(resp, s.text)
	}
	score := 0.0
	if len(ranked) > 0 {
		score = math.Round(100 * ranked[0].score)
	}
	out := ai.GraphDriftResult{Response: strings.Join(resp, " "), Score: score, FollowUpQueries: []string{}}
	ja := isJa(in.Lang)
	for _, e := range in.Entities {
		if len(out.FollowUpQueries) == 2 {
			break
		}
		if strings.Contains(strings.ToLower(in.Question+" "+in.Query), strings.ToLower(e)) {
			continue
		}
		if ja {
			out.FollowUpQueries = append(out.FollowUpQueries, e+"について")
		} else {
			out.FollowUpQueries = append(out.FollowUpQueries, "What about "+e+"?")
		}
	}
	return out
}

// graphAnswer is TaskGraphAnswer offline: the context sentences that best
// match the question (their [Data: …] references kept), one piece each;
// with no overlap, the first sentences of the context.
func graphAnswer(in ai.GraphAnswerInput) []string {
	var lines []string
	for _, l := range strings.Split(in.Context, "\n") {
		if strings.HasPrefix(l, "----") || strings.HasPrefix(l, "Importance Score:") || strings.HasPrefix(l, "id|") {
			continue
		}
		lines = append(lines, strings.ReplaceAll(l, "|", " "))
	}
	ranked := rankByOverlap(in.Question, lines)
	var picked, keys []string
	for _, s := range ranked {
		if len(picked) == graphAnswerSentences {
			break
		}
		// The same sentence may come from several analysts or reports:
		// compare without the [Data: …] references, either way round.
		key := strings.TrimSpace(reDataRef().ReplaceAllString(s.text, ""))
		if slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(k, key) || strings.Contains(key, k) }) {
			continue
		}
		keys = append(keys, key)
		picked = append(picked, s.text)
	}
	if len(picked) == 0 {
		for _, s := range splitSentences(cleanMarkup(strings.Join(lines, "\n"))) {
			if len(picked) == 3 {
				break
			}
			picked = append(picked, s)
		}
	}
	sep := " "
	if isJa(in.Lang) {
		sep = "\n"
	}
	out := make([]string, len(picked))
	for i, s := range picked {
		if i > 0 {
			s = sep + s
		}
		out[i] = s
	}
	return out
}
