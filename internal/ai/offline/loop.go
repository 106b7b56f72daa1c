package offline

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline/rules"
)

// maxChoices is the most choices a clarifying question offers.
const maxChoices = 6

// facet is one way of splitting the hits, with the choices it offers.
type facet struct {
	kind    string // "type", "period", "keyword", "folder"
	values  []facetValue
	covered int     // hits that have one of the values
	bias    float64 // preference among equally discriminating facets
	n       int     // hits the facet was counted over
}

type facetValue struct {
	label  string // language-neutral part of the label
	count  int
	choice ai.Choice
}

// score is how well answering the facet would split the hits: the Gini
// impurity of its value distribution times the share of hits it covers.
func (f facet) score() float64 {
	n := f.n
	if len(f.values) < 2 || n == 0 {
		return 0
	}
	total := 0
	for _, v := range f.values {
		total += v.count
	}
	gini := 1.0
	for _, v := range f.values {
		p := float64(v.count) / float64(total)
		gini -= p * p
	}
	return gini * float64(f.covered) / float64(n) * f.bias
}

// typeLabels are the en and ja labels of each file type.
var typeLabels = sync.OnceValue(func() map[string][2]string {
	return map[string][2]string{
		ai.FileTypePDF:          {"PDF", "PDF"},
		ai.FileTypeDocument:     {"Document", "ドキュメント"},
		ai.FileTypeSpreadsheet:  {"Spreadsheet", "スプレッドシート"},
		ai.FileTypePresentation: {"Slides", "スライド"},
		ai.FileTypeText:         {"Text", "テキスト"},
	}
})

func isJa(lang string) bool { return strings.HasPrefix(strings.ToLower(lang), "ja") }

// counter counts values in first-seen order.
type counter struct {
	order []string
	n     map[string]int
}

func (c *counter) add(v string) { c.addN(v, 1) }

func (c *counter) addN(v string, w int) {
	if c.n == nil {
		c.n = map[string]int{}
	}
	if c.n[v] == 0 {
		c.order = append(c.order, v)
	}
	c.n[v] += w
}

// counted is one hit, or one group of hits of in.Facets, as the file
// type, period and folder facets count them.
type counted struct {
	mime, modified, path string
	n                    int
}

// countedHits returns the index's counts over all the hits when it sent
// them, else the top hits one by one.
func countedHits(in ai.ClarifyInput) []counted {
	var out []counted
	if len(in.Facets) > 0 {
		for _, f := range in.Facets {
			if f.N > 0 {
				out = append(out, counted{f.MimeType, f.Month, f.Path, f.N})
			}
		}
		return out
	}
	for _, h := range in.Hits {
		out = append(out, counted{h.MimeType, h.Modified, h.Path, 1})
	}
	return out
}

// top returns up to k values, most frequent first, ties in first-seen order.
func (c *counter) top(k int) []string {
	vals := append([]string(nil), c.order...)
	sort.SliceStable(vals, func(i, j int) bool { return c.n[vals[i]] > c.n[vals[j]] })
	if len(vals) > k {
		vals = vals[:k]
	}
	return vals
}

func facets(in ai.ClarifyInput) []facet {
	ja := isJa(in.Lang)
	var out []facet
	n := len(in.Hits)
	all := countedHits(in)
	nAll := 0
	for _, h := range all {
		nAll += h.n
	}

	if in.Filters.FileType == "" {
		var c counter
		for _, h := range all {
			if ft := ai.FileTypeOf(h.mime); ft != "" {
				c.addN(ft, h.n)
			}
		}
		f := facet{kind: "type", bias: 1, n: nAll}
		for _, ft := range c.top(maxChoices) {
			l := typeLabels()[ft][0]
			if ja {
				l = typeLabels()[ft][1]
			}
			f.values = append(f.values, facetValue{label: l, count: c.n[ft], choice: ai.Choice{Filters: ai.Filters{FileType: ft}}})
			f.covered += c.n[ft]
		}
		out = append(out, f)
	}

	var years, months counter
	for _, h := range all {
		if len(h.modified) >= 7 {
			years.addN(h.modified[:4], h.n)
			months.addN(h.modified[:7], h.n)
		}
	}
	f := facet{kind: "period", bias: 1, n: nAll}
	if len(years.order) >= 2 {
		for _, y := range years.top(maxChoices) {
			var yi int
			if _, err := fmt.Sscanf(y, "%d", &yi); err != nil {
				continue // not a date: no period to offer
			}
			l := y
			if ja {
				l = y + "年"
			}
			f.values = append(f.values, facetValue{label: l, count: years.n[y], choice: ai.Choice{Filters: ai.Filters{
				ModifiedAfter: fmt.Sprintf("%04d-01-01", yi), ModifiedBefore: fmt.Sprintf("%04d-01-01", yi+1)}}})
			f.covered += years.n[y]
		}
	} else {
		for _, m := range months.top(maxChoices) {
			var yi, mi int
			if _, err := fmt.Sscanf(m, "%d-%d", &yi, &mi); err != nil {
				continue // not a date: no period to offer
			}
			l := m
			if ja {
				l = fmt.Sprintf("%d年%d月", yi, mi)
			}
			ny, nm := yi, mi+1
			if nm == 13 {
				ny, nm = yi+1, 1
			}
			f.values = append(f.values, facetValue{label: l, count: months.n[m], choice: ai.Choice{Filters: ai.Filters{
				ModifiedAfter: fmt.Sprintf("%04d-%02d-01", yi, mi), ModifiedBefore: fmt.Sprintf("%04d-%02d-01", ny, nm)}}})
			f.covered += months.n[m]
		}
	}
	out = append(out, f)

	// Keywords of the hits that the query does not already use, present in
	// at least two hits but not in all of them.
	var kc counter
	for _, h := range in.Hits {
		seen := map[string]bool{}
		for _, k := range h.Keywords {
			k = strings.TrimSpace(k)
			lk := strings.ToLower(k)
			if k == "" || seen[lk] || rules.ContainsFold(in.Keywords, k) || strings.Contains(strings.ToLower(in.Query), lk) {
				continue
			}
			seen[lk] = true
			kc.add(k)
		}
	}
	fk := facet{kind: "keyword", bias: 0.9, n: n}
	var kws []string
	for _, k := range kc.top(len(kc.order)) {
		if kc.n[k] >= 2 && kc.n[k] < n && len(kws) < maxChoices {
			kws = append(kws, k)
		}
	}
	for _, k := range kws {
		fk.values = append(fk.values, facetValue{label: k, count: kc.n[k], choice: ai.Choice{Keyword: k}})
	}
	for _, h := range in.Hits {
		for _, k := range h.Keywords {
			if rules.ContainsFold(kws, k) {
				fk.covered++
				break
			}
		}
	}
	out = append(out, fk)

	out = append(out, folderFacet(all, nAll))
	return out
}

// folderFacet groups the hits by the first folder level at which their
// paths differ ("Reports/2023", "Reports/2024" under a common "Reports");
// a choice is a folder filter (that folder and below). Hits directly in
// the common folder are in no group.
func folderFacet(hits []counted, n int) facet {
	f := facet{kind: "folder", bias: 0.8, n: n}
	segs := make([][]string, len(hits))
	var common []string
	for i, h := range hits {
		if p := strings.Trim(h.path, "/"); p != "" {
			segs[i] = strings.Split(p, "/")
		}
		if i == 0 {
			common = segs[i]
			continue
		}
		n := 0
		for n < len(common) && n < len(segs[i]) && common[n] == segs[i][n] {
			n++
		}
		common = common[:n]
	}
	var fc counter
	for i, sg := range segs {
		if len(sg) > len(common) {
			fc.addN(strings.Join(sg[:len(common)+1], "/"), hits[i].n)
		}
	}
	for _, p := range fc.top(maxChoices) {
		f.values = append(f.values, facetValue{label: p, count: fc.n[p], choice: ai.Choice{Filters: ai.Filters{Folder: p}}})
		f.covered += fc.n[p]
	}
	return f
}

// clarify is TaskClarify: it asks about the facet of the hits (file type,
// period, keyword, folder) that splits them best, offering its most
// frequent values as choices labelled with their counts among the hits.
func clarify(in ai.ClarifyInput) ai.Question {
	ja := isJa(in.Lang)
	total := max(in.Total, len(in.Hits))
	var best *facet
	bestScore := 0.0
	fs := facets(in)
	for i := range fs {
		if s := fs[i].score(); s > bestScore {
			best, bestScore = &fs[i], s
		}
	}
	if best == nil {
		if ja {
			return ai.Question{Question: fmt.Sprintf("%d件のファイルが見つかりました。プロジェクト名や時期など、探しているファイルについてもう少し詳しく教えてください。", total), Choices: []ai.Choice{}}
		}
		return ai.Question{Question: fmt.Sprintf("%d files match. Tell me more about the file you want, such as a project name or when it was written.", total), Choices: []ai.Choice{}}
	}
	q := map[string][2]string{
		"type":    {"%d files match. Which kind of file is it?", "%d件のファイルが見つかりました。どの種類のファイルですか？"},
		"period":  {"%d files match. When was it last changed?", "%d件のファイルが見つかりました。いつ頃のファイルですか？"},
		"keyword": {"%d files match. Which topic is it about?", "%d件のファイルが見つかりました。どの話題に関するファイルですか？"},
		"folder":  {"%d files match. Which folder is it in?", "%d件のファイルが見つかりました。どのフォルダにありますか？"},
	}[best.kind]
	format := q[0]
	if ja {
		format = q[1]
	}
	out := ai.Question{Question: fmt.Sprintf(format, total)}
	for _, v := range best.values {
		c := v.choice
		c.Label = fmt.Sprintf("%s (%d)", v.label, v.count)
		out.Choices = append(out.Choices, c)
	}
	return out
}

// refine is TaskRefine: the answer is read with the query rules, so it may
// set a period and a file type; its most important keyword that is not
// already in use becomes AddKeyword.
func refine(in ai.RefineInput) ai.Refinement {
	an := rules.AnalyzeQuery(ai.QueryInput{Query: stripCount(in.Answer), Now: in.Now, Lang: in.Lang})
	out := ai.Refinement{Filters: an.Filters}
	for _, k := range an.Keywords {
		if !rules.ContainsFold(in.Keywords, k) {
			out.AddKeyword = k
			break
		}
	}
	return out
}

// stripCount removes a trailing " (34)" count, so that a choice label given
// back as a free-text answer reads as its value.
func stripCount(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, ")") {
		if i := strings.LastIndex(s, " ("); i >= 0 && rules.IsAllClass(s[i+2:len(s)-1], rules.ClassDigit) {
			return s[:i]
		}
	}
	return s
}

// relax is TaskRelax: one step of ai.Loosen (the least important keyword
// while there are several, then the period, the file type, the folder);
// with nothing left to drop, the conditions unchanged.
func relax(in ai.RelaxInput) ai.Relaxation {
	kws := ai.Relaxation{Filters: in.Filters}
	for _, k := range in.Keywords {
		if k = strings.TrimSpace(k); k != "" && !rules.ContainsFold(kws.Keywords, k) {
			kws.Keywords = append(kws.Keywords, k)
		}
	}
	kws.Keywords, kws.Filters, _ = ai.Loosen(kws.Keywords, kws.Filters)
	if kws.Keywords == nil {
		kws.Keywords = []string{}
	}
	return kws
}
