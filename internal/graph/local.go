package graph

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/store"
)

// Cosine is the cosine similarity of two vectors (0 when either is zero or
// their lengths differ).
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// ScoredEntity is an entity with its similarity to the query.
type ScoredEntity struct {
	store.GraphEntity
	Score float64
}

// TopEntities returns the k entities whose embeddings are most similar to
// vec (ties by ID); entities without an embedding are skipped.
func TopEntities(ents []store.GraphEntity, vec []float32, k int) []ScoredEntity {
	var out []ScoredEntity
	for _, e := range ents {
		if len(e.Embedding) == 0 {
			continue
		}
		out = append(out, ScoredEntity{GraphEntity: e, Score: Cosine(e.Embedding, vec)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// CandidateChunks are the chunks of the selected entities in the order a
// local context adds them: by the best-ranked entity that cites them, then
// by how many selected entities cite them; at most limit.
func CandidateChunks(sel []ScoredEntity, limit int) []string {
	first := map[string]int{}
	count := map[string]int{}
	var ids []string
	for i, e := range sel {
		for _, c := range e.ChunkIDs {
			if _, ok := first[c]; !ok {
				first[c] = i
				ids = append(ids, c)
			}
			count[c]++
		}
	}
	sort.SliceStable(ids, func(a, b int) bool {
		if first[ids[a]] != first[ids[b]] {
			return first[ids[a]] < first[ids[b]]
		}
		return count[ids[a]] > count[ids[b]]
	})
	if len(ids) > limit {
		ids = ids[:limit]
	}
	return ids
}

// LocalInput is what a local context is built from.
type LocalInput struct {
	Selected      []ScoredEntity
	Entities      map[string]store.GraphEntity
	Relationships []store.GraphRelationship
	Chunks        map[string]string // chunk ID → text, for CandidateChunks
	ChunkOrder    []string          // CandidateChunks
	Communities   []store.GraphCommunity
	Reports       map[string]Report // by signature
	MaxTokens     int
}

// LocalContext is a local search's context and what it holds.
type LocalContext struct {
	Text            string
	EntityIDs       []string
	RelationshipIDs []string
	ChunkIDs        []string
	CommunityIDs    []string
	// Passages are the texts of the rows kept, without their IDs: the
	// source chunks, then the reports, the entities' and the
	// relationships' descriptions (ai.GraphAnswerInput.Passages).
	Passages []ai.GraphPassage
}

// BuildLocalContext writes the local search context as GraphRAG does:
// community reports of the selected entities (those holding most of them,
// then by rank) in LocalCommunityShare of the budget; the entities and
// their relationships (both ends selected first, then by weight) in what
// the other two shares leave; source chunks in LocalTextShare. A row that
// does not fit its share is skipped and later, shorter ones still added.
func BuildLocalContext(in LocalInput, counter Counter) LocalContext {
	var out LocalContext
	var b strings.Builder
	section := func(budget int, title, header string, rows []string, ids []string) []string {
		used := counter.Count(title+"\n"+header) + 2
		if used > budget || len(rows) == 0 {
			return nil
		}
		var kept []string
		var sb strings.Builder
		for i, r := range rows {
			n := counter.Count(r) + 1
			if used+n > budget {
				continue // a long row is skipped; shorter ones may still fit
			}
			used += n
			sb.WriteString(r)
			sb.WriteByte('\n')
			kept = append(kept, ids[i])
		}
		if len(kept) > 0 {
			fmt.Fprintf(&b, "%s\n%s\n%s\n", title, header, sb.String())
		}
		return kept
	}
	total := in.MaxTokens
	selected := map[string]bool{}
	for _, e := range in.Selected {
		selected[e.ID] = true
	}

	// Community reports.
	type cs struct {
		c    store.GraphCommunity
		n    int
		rank float64
	}
	var cands []cs
	for _, c := range in.Communities {
		r, ok := in.Reports[c.Signature]
		if !ok {
			continue
		}
		n := 0
		for _, e := range c.EntityIDs {
			if selected[e] {
				n++
			}
		}
		if n > 0 {
			cands = append(cands, cs{c, n, r.Rank})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].n != cands[j].n {
			return cands[i].n > cands[j].n
		}
		if cands[i].rank != cands[j].rank {
			return cands[i].rank > cands[j].rank
		}
		return numLess(cands[i].c.ID, cands[j].c.ID)
	})
	var rows, ids []string
	for _, c := range cands {
		r := in.Reports[c.c.Signature]
		rows = append(rows, fmt.Sprintf("%s|%s|%s", c.c.ID, cell(r.Title), cell(r.FullContent())))
		ids = append(ids, c.c.ID)
	}
	out.CommunityIDs = section(int(float64(total)*LocalCommunityShare), "-----Reports-----", "id|title|content", rows, ids)

	// Entities and relationships.
	budget := int(float64(total) * (1 - LocalTextShare - LocalCommunityShare))
	rows, ids = nil, nil
	for _, e := range in.Selected {
		rows = append(rows, fmt.Sprintf("%s|%s|%s|%d", e.ID, cell(e.Name), cell(e.Description), e.Degree))
		ids = append(ids, e.ID)
	}
	before := counter.Count(b.String())
	out.EntityIDs = section(budget, "-----Entities-----", "id|entity|description|number of relationships", rows, ids)
	budget -= counter.Count(b.String()) - before
	var rels []store.GraphRelationship
	for _, r := range in.Relationships {
		if selected[r.Source] || selected[r.Target] {
			rels = append(rels, r)
		}
	}
	sort.SliceStable(rels, func(i, j int) bool {
		bi := selected[rels[i].Source] && selected[rels[i].Target]
		bj := selected[rels[j].Source] && selected[rels[j].Target]
		if bi != bj {
			return bi
		}
		if rels[i].Weight != rels[j].Weight {
			return rels[i].Weight > rels[j].Weight
		}
		return rels[i].ID < rels[j].ID
	})
	name := func(id string) string {
		if e, ok := in.Entities[id]; ok {
			return e.Name
		}
		return id
	}
	rows, ids = nil, nil
	for _, r := range rels {
		rows = append(rows, fmt.Sprintf("%s|%s|%s|%s|%g", r.ID, cell(name(r.Source)), cell(name(r.Target)), cell(r.Description), r.Weight))
		ids = append(ids, r.ID)
	}
	out.RelationshipIDs = section(budget, "-----Relationships-----", "id|source|target|description|weight", rows, ids)

	// Source chunks.
	rows, ids = nil, nil
	for _, c := range in.ChunkOrder {
		if t, ok := in.Chunks[c]; ok {
			rows = append(rows, fmt.Sprintf("%s|%s", c, cell(t)))
			ids = append(ids, c)
		}
	}
	out.ChunkIDs = section(int(float64(total)*LocalTextShare), "-----Sources-----", "id|text", rows, ids)
	out.Text = b.String()
	out.Passages = localPassages(in, out)
	return out
}

// localPassages are the texts of a local context's kept rows, best first
// in each kind: source chunks, reports, entity and relationship
// descriptions.
func localPassages(in LocalInput, lc LocalContext) []ai.GraphPassage {
	var out []ai.GraphPassage
	add := func(text, group string, score float64) {
		if strings.TrimSpace(text) != "" {
			out = append(out, ai.GraphPassage{Text: text, Group: group, Score: score})
		}
	}
	for i, id := range lc.ChunkIDs {
		add(in.Chunks[id], "chunk:"+id, 4-float64(i)/float64(len(lc.ChunkIDs)+1))
	}
	comm := map[string]store.GraphCommunity{}
	for _, c := range in.Communities {
		comm[c.ID] = c
	}
	for i, id := range lc.CommunityIDs {
		r := in.Reports[comm[id].Signature]
		add(r.Text(), "community:"+id, 3-float64(i)/float64(len(lc.CommunityIDs)+1))
	}
	for i, id := range lc.EntityIDs {
		add(in.Entities[id].Description, "entity:"+id, 2-float64(i)/float64(len(lc.EntityIDs)+1))
	}
	rels := map[string]store.GraphRelationship{}
	for _, r := range in.Relationships {
		rels[r.ID] = r
	}
	for i, id := range lc.RelationshipIDs {
		add(rels[id].Description, "relationship:"+id, 1-float64(i)/float64(len(lc.RelationshipIDs)+1))
	}
	return out
}

// DriftFolds splits the top reports into at most n folds of consecutive
// reports (the DRIFT primer asks one question per fold).
func DriftFolds(reports []ReportView, n int) [][]ReportView {
	if n <= 0 || len(reports) == 0 {
		return nil
	}
	n = min(n, len(reports))
	size := (len(reports) + n - 1) / n
	var out [][]ReportView
	for i := 0; i < len(reports); i += size {
		out = append(out, reports[i:min(i+size, len(reports))])
	}
	return out
}

// NextFollowUps picks the follow-up queries of the next DRIFT depth: the
// queries of the best-scored answers first, new ones only (compared
// case-insensitively), at most k.
func NextFollowUps(answers []DriftAnswer, asked []string, k int) []string {
	sorted := slices.Clone(answers)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Score > sorted[j].Score })
	seen := map[string]bool{}
	for _, q := range asked {
		seen[strings.ToLower(strings.TrimSpace(q))] = true
	}
	var out []string
	for _, a := range sorted {
		for _, q := range a.FollowUps {
			key := strings.ToLower(strings.TrimSpace(q))
			if key == "" || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, strings.TrimSpace(q))
			if len(out) == k {
				return out
			}
		}
	}
	return out
}

// DriftAnswer is one intermediate DRIFT answer.
type DriftAnswer struct {
	Depth     int      `json:"depth"` // 0: the primer
	Query     string   `json:"query"`
	Response  string   `json:"response"`
	Score     float64  `json:"score"`
	FollowUps []string `json:"follow_up_queries"`
}
