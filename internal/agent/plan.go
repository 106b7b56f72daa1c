package agent

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/tokenize"
)

// DocRef names a document a tool returned.
type DocRef struct {
	ID   string
	Name string
}

// Plan is the offline provider's planner: a pure state machine that runs
// the seed's tools in its order — structure documents
// (discover_agenda_documents, with list_meeting_attachments when the folder
// may have attachments), the folder's documents matching the
// question's keywords (list_meeting_documents), an investigation of the top
// few (investigate_document, one turn, in parallel), then the evidence
// search (search_evidence), and, when the listing matched nothing, an
// investigation of the files the evidence came from. Next returns the
// calls of the next turn, nil when it is time to answer; Observe feeds it
// what a call found.
type Plan struct {
	Question string
	Folder   string
	Keywords []string // the question's keywords (ai.AnalyzeQuery), most important first
	MaxDocs  int      // documents to investigate (0: 3)
	TopK     int      // evidence passages to retrieve (0: 5)
	// Attachments: the folder may have attachments (uploads with its tag);
	// the plan lists them with the structure documents and investigates
	// the first one.
	Attachments bool

	stage        planStage
	agenda       []DocRef
	attachments  []DocRef
	listed       []DocRef
	fromEvidence []DocRef
	investigated map[string]bool
	seq          int
}

type planStage int

const (
	stageAgenda planStage = iota
	stageList
	stageInvestigate
	stageEvidence
	stageFollowUp
	stageAnswer
)

func (p *Plan) maxDocs() int {
	if p.MaxDocs <= 0 {
		return 3
	}
	return p.MaxDocs
}

func (p *Plan) call(name string, args any) ai.ToolCall {
	p.seq++
	b, _ := json.Marshal(args)
	return ai.ToolCall{ID: fmt.Sprintf("plan-%d", p.seq), Name: name, Arguments: string(b)}
}

func (p *Plan) investigate(docs []DocRef) []ai.ToolCall {
	if p.investigated == nil {
		p.investigated = map[string]bool{}
	}
	var out []ai.ToolCall
	for _, d := range docs {
		if len(p.investigated) >= p.maxDocs() {
			break
		}
		if p.investigated[d.ID] {
			continue
		}
		p.investigated[d.ID] = true
		out = append(out, p.call(ToolInvestigate, map[string]string{"document_id": d.ID, "investigation_query": p.Question}))
	}
	return out
}

// Next returns the calls of the next turn; nil means answer now.
func (p *Plan) Next() []ai.ToolCall {
	for {
		switch p.stage {
		case stageAgenda:
			p.stage = stageList
			calls := []ai.ToolCall{p.call(ToolDiscoverAgenda, map[string]string{"folder": p.Folder})}
			if p.Attachments {
				calls = append(calls, p.call(ToolListAttachments, map[string]string{"folder": p.Folder}))
			}
			return calls
		case stageList:
			p.stage = stageInvestigate
			return []ai.ToolCall{p.call(ToolListDocuments, map[string]any{
				"folder": p.Folder, "search_text": strings.Join(p.Keywords, " "), "page": 1, "page_size": 50})}
		case stageInvestigate:
			p.stage = stageEvidence
			// The first structure document and attachment, then the best matches.
			var picks []DocRef
			if len(p.agenda) > 0 && len(p.listed) > 0 {
				picks = append(picks, p.agenda[0])
			}
			if len(p.attachments) > 0 {
				picks = append(picks, p.attachments[0])
			}
			picks = append(picks, p.listed...)
			if calls := p.investigate(picks); len(calls) > 0 {
				return calls
			}
		case stageEvidence:
			p.stage = stageFollowUp
			k := p.TopK
			if k <= 0 {
				k = 5
			}
			return []ai.ToolCall{p.call(ToolSearchEvidence, map[string]any{"query": p.Question, "folder": p.Folder, "top_k": k})}
		case stageFollowUp:
			p.stage = stageAnswer
			if len(p.listed) == 0 {
				if calls := p.investigate(p.fromEvidence); len(calls) > 0 {
					return calls
				}
			}
		default:
			return nil
		}
	}
}

// Observe records the documents a call of tool returned, in order.
func (p *Plan) Observe(tool string, docs []DocRef) {
	switch tool {
	case ToolDiscoverAgenda:
		p.agenda = append(p.agenda, docs...)
	case ToolListDocuments:
		p.listed = append(p.listed, docs...)
	case ToolListAttachments:
		p.attachments = append(p.attachments, docs...)
	case ToolSearchEvidence:
		p.fromEvidence = append(p.fromEvidence, docs...)
	}
}

// agendaWords are the file-name parts of structure documents: agendas,
// document lists, indexes, tables of contents, minutes.
var agendaWords = []string{"agenda", "tdoc_list", "tdoc-list", "tdoclist", "tdoc list", "index", "contents", "toc",
	"minutes", "目次", "議事", "議題", "次第", "アジェンダ", "一覧", "索引"}

// IsAgendaName reports whether a file name looks like a structure document
// (seed: names containing agenda or tdoc_list; gds adds indexes, tables of
// contents, minutes and their Japanese names).
func IsAgendaName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range agendaWords {
		if w == "toc" || w == "index" {
			// whole words only: "toc1" and "index" in "reindexed" are not
			if hasWord(n, w) {
				return true
			}
			continue
		}
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// hasWord reports whether w occurs in s bounded by non-letters.
func hasWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isLetter(s[j-1])
		end := j + len(w)
		after := end == len(s) || !isLetter(s[end])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }

// MatchDocuments returns the documents whose name, title, keywords or
// summary hold any of the terms of text, best first (more distinct terms
// matched, then the name's matches, then the input order); every document,
// in order, when text has no term.
func MatchDocuments(docs []Doc, text string) []Doc {
	terms := tokenize.Unique(text)
	if len(terms) == 0 {
		return docs
	}
	type scored struct {
		d           Doc
		all, inName int
		i           int
	}
	var out []scored
	for i, d := range docs {
		name := set(tokenize.Tokens(d.Name + " " + d.Title))
		body := set(tokenize.Tokens(strings.Join(d.Keywords, " ") + " " + d.Summary))
		s := scored{d: d, i: i}
		for _, t := range terms {
			if name[t] {
				s.inName++
			}
			if name[t] || body[t] {
				s.all++
			}
		}
		if s.all > 0 {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].all != out[b].all {
			return out[a].all > out[b].all
		}
		return out[a].inName > out[b].inName
	})
	res := make([]Doc, len(out))
	for i, s := range out {
		res[i] = s.d
	}
	return res
}

func set(ts []string) map[string]bool {
	m := make(map[string]bool, len(ts))
	for _, t := range ts {
		m[t] = true
	}
	return m
}

// RankPassages returns the indexes of the n passages whose distinct tokens
// best match query, each query token weighted by its rarity among the
// passages (inverse document frequency), best first (ties: document order);
// none when no passage shares a token with query.
func RankPassages(query string, texts []string, n int) []int {
	terms := tokenize.Unique(query)
	toks := make([]map[string]bool, len(texts))
	df := map[string]int{}
	for i, t := range texts {
		toks[i] = set(tokenize.Tokens(t))
		for _, q := range terms {
			if toks[i][q] {
				df[q]++
			}
		}
	}
	type scored struct {
		i int
		s float64
	}
	var hits []scored
	for i := range texts {
		s := 0.0
		for _, q := range terms {
			if toks[i][q] {
				s += math.Log(1 + float64(len(texts))/float64(df[q]))
			}
		}
		if s > 0 {
			hits = append(hits, scored{i, s})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].s > hits[b].s })
	var out []int
	for _, h := range hits {
		if len(out) == n {
			break
		}
		out = append(out, h.i)
	}
	return out
}
