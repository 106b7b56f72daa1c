package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/store"
)

// Query defaults (GraphRAG's).
const (
	DefaultMaxContextTokens = 12_000
	DefaultCommunityLevel   = 2
	DefaultResponseType     = "multiple paragraphs"
	ShuffleSeed             = 86
	// MaxReportContextTokens bounds the tables a report is written from.
	MaxReportContextTokens = 8_000
	// Local search shares of the context budget and its entity count.
	LocalTopEntities    = 10
	LocalTextShare      = 0.5
	LocalCommunityShare = 0.15
)

// Report is a community report as stored (store.GraphReport.Data).
type Report struct {
	Title             string            `json:"title"`
	Summary           string            `json:"summary"`
	Rank              float64           `json:"rank"` // the model's rating, 0–10
	RatingExplanation string            `json:"rating_explanation"`
	Findings          []ai.GraphFinding `json:"findings"`
	Provider          string            `json:"provider"`
	Embedding         []float32         `json:"embedding,omitempty"` // of the full content, for DRIFT
}

// FullContent is the report as one Markdown text (the content column of the
// tables the map step reads).
func (r Report) FullContent() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s", r.Title, r.Summary)
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "\n\n## %s\n\n%s", f.Summary, f.Explanation)
	}
	return b.String()
}

// Text is the report as plain sentences, without its title or Markdown:
// the summary, then each finding's explanation (what an extract quotes).
func (r Report) Text() string {
	parts := []string{r.Summary}
	for _, f := range r.Findings {
		parts = append(parts, f.Explanation)
	}
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n\n")
}

// NewReport turns a model's report into the stored one: the rating
// clamped to 0–10 as the rank, at most 10 findings.
func NewReport(r ai.GraphReport, provider string) Report {
	rank := min(max(r.Rating, 0), 10)
	f := r.Findings
	if len(f) > 10 {
		f = f[:10]
	}
	if f == nil {
		f = []ai.GraphFinding{}
	}
	return Report{Title: strings.TrimSpace(r.Title), Summary: strings.TrimSpace(r.Summary), Rank: rank,
		RatingExplanation: strings.TrimSpace(r.RatingExplanation), Findings: f, Provider: provider}
}

// cell makes text safe for one cell of a "|" table: no pipes, newlines
// written as \n.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "/")
	s = strings.ReplaceAll(s, "\r", "")
	return strings.ReplaceAll(s, "\n", `\n`)
}

// ReportContext is the input tables of one community's report: its
// entities (most connected first) and relationships (heaviest first),
// rows added while under maxTokens. It returns the text and the entities
// in table order.
func ReportContext(c store.GraphCommunity, ents map[string]store.GraphEntity, rels map[string]store.GraphRelationship, counter Counter, maxTokens int) (string, []store.GraphEntity) {
	var members []store.GraphEntity
	for _, id := range c.EntityIDs {
		if e, ok := ents[id]; ok {
			members = append(members, e)
		}
	}
	sort.SliceStable(members, func(i, j int) bool {
		if members[i].Degree != members[j].Degree {
			return members[i].Degree > members[j].Degree
		}
		return members[i].ID < members[j].ID
	})
	var rs []store.GraphRelationship
	for _, id := range c.RelationshipIDs {
		if r, ok := rels[id]; ok {
			rs = append(rs, r)
		}
	}
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Weight != rs[j].Weight {
			return rs[i].Weight > rs[j].Weight
		}
		return rs[i].ID < rs[j].ID
	})
	var b strings.Builder
	used := 0
	add := func(line string) bool {
		n := counter.Count(line) + 1
		if used+n > maxTokens {
			return false
		}
		used += n
		b.WriteString(line)
		b.WriteByte('\n')
		return true
	}
	add("-----Entities-----")
	add("id|entity|description|degree")
	var listed []store.GraphEntity
	for _, e := range members {
		if !add(fmt.Sprintf("%s|%s|%s|%d", e.ID, cell(e.Name), cell(e.Description), e.Degree)) {
			break
		}
		listed = append(listed, e)
	}
	name := func(id string) string {
		if e, ok := ents[id]; ok {
			return e.Name
		}
		return id
	}
	if add("\n-----Relationships-----") && add("id|source|target|description|weight") {
		for _, r := range rs {
			if !add(fmt.Sprintf("%s|%s|%s|%s|%g", r.ID, cell(name(r.Source)), cell(name(r.Target)), cell(r.Description), r.Weight)) {
				break
			}
		}
	}
	return b.String(), listed
}

// ReportView is one community report as global search uses it.
type ReportView struct {
	CommunityID string
	Level       int
	Title       string
	Content     string
	Rank        float64
	RawWeight   int     // distinct chunks of the community's entities
	Weight      float64 // RawWeight, divided by the largest when normalised
	EntityIDs   []string
}

// SelectReports picks the reports global search reads, as GraphRAG does
// without dynamic selection: for each entity, the deepest community at a
// level <= level that holds it; of those communities, the ones whose
// report has rank >= minRank. Weights are the occurrence weights,
// normalised by the largest selected when normalize. Communities without a
// report are skipped. The result is in community ID order (numeric).
func SelectReports(comms []store.GraphCommunity, reports map[string]Report, level int, minRank float64, normalize bool) []ReportView {
	deepest := map[string]store.GraphCommunity{}
	for _, c := range comms {
		if c.Level > level {
			continue
		}
		for _, e := range c.EntityIDs {
			if d, ok := deepest[e]; !ok || c.Level > d.Level {
				deepest[e] = c
			}
		}
	}
	keep := map[string]store.GraphCommunity{}
	for _, c := range deepest {
		keep[c.ID] = c
	}
	var out []ReportView
	maxW := 0
	for _, c := range keep {
		r, ok := reports[c.Signature]
		if !ok || r.Rank < minRank {
			continue
		}
		out = append(out, ReportView{CommunityID: c.ID, Level: c.Level, Title: r.Title, Content: r.FullContent(),
			Rank: r.Rank, RawWeight: c.Weight, Weight: float64(c.Weight), EntityIDs: c.EntityIDs})
		maxW = max(maxW, c.Weight)
	}
	if normalize && maxW > 0 {
		for i := range out {
			out[i].Weight = float64(out[i].RawWeight) / float64(maxW)
		}
	}
	sort.Slice(out, func(i, j int) bool { return numLess(out[i].CommunityID, out[j].CommunityID) })
	return out
}

func numLess(a, b string) bool {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return x < y
	}
	return a < b
}

// Batch is one map call's reports and their table.
type Batch struct {
	Reports []ReportView // sorted by (weight, rank) descending
	Context string
	Tokens  int
}

const reportHeader = "-----Reports-----\nid|title|occurrence weight|content|rank"

func reportRow(r ReportView) string {
	return fmt.Sprintf("%s|%s|%.4f|%s|%g", r.CommunityID, cell(r.Title), r.Weight, cell(r.Content), r.Rank)
}

// Batches splits the reports into map batches as GraphRAG does: shuffled
// with seed, rows added to the current batch while its table (header
// included) stays within maxTokens, a new batch started otherwise (a
// single row over the budget makes a batch of its own); each batch's rows
// are then sorted by (weight, rank) descending.
func Batches(reports []ReportView, counter Counter, maxTokens int, seed uint64) []Batch {
	shuffled := slices.Clone(reports)
	r := rand.New(rand.NewPCG(seed, seed))
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	header := counter.Count(reportHeader) + 1
	var out []Batch
	var cur []ReportView
	tokens := header
	flush := func() {
		if len(cur) == 0 {
			return
		}
		sort.SliceStable(cur, func(i, j int) bool {
			if cur[i].Weight != cur[j].Weight {
				return cur[i].Weight > cur[j].Weight
			}
			return cur[i].Rank > cur[j].Rank
		})
		var b strings.Builder
		b.WriteString(reportHeader)
		for _, r := range cur {
			b.WriteByte('\n')
			b.WriteString(reportRow(r))
		}
		out = append(out, Batch{Reports: cur, Context: b.String(), Tokens: tokens})
		cur, tokens = nil, header
	}
	for _, rv := range shuffled {
		n := counter.Count(reportRow(rv)) + 1
		if len(cur) > 0 && tokens+n > maxTokens {
			flush()
		}
		cur = append(cur, rv)
		tokens += n
	}
	flush()
	return out
}

// Point is one key point of a map answer.
type Point struct {
	Description string   `json:"description"`
	Score       float64  `json:"score"`
	Analyst     int      `json:"analyst"` // 1-based batch number
	ReportIDs   []string `json:"report_ids"`
}

var reDataReports = regexp.MustCompile(`(?i)\[Data:\s*Reports\s*\(([^)]*)\)`)

// reDataRef matches a [Data: …] reference with the space before it
// (compiled on first use).
var reDataRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*\[Data:[^\]]*\]`) })

// StripRefs removes the [Data: …] references from a text.
func StripRefs(text string) string {
	return strings.TrimSpace(reDataRef().ReplaceAllString(text, ""))
}

// ReportRefs returns the report IDs a text cites as [Data: Reports (…)],
// in order, without duplicates or "+more".
func ReportRefs(text string) []string {
	var out []string
	for _, m := range reDataReports.FindAllStringSubmatch(text, -1) {
		for _, id := range strings.Split(m[1], ",") {
			id = strings.TrimSpace(id)
			if id != "" && !strings.EqualFold(id, "+more") && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// ParseMapPoints reads a map answer {"points":[{"description","score"}]}
// (a Markdown code fence or text around the object is tolerated). A
// document that does not parse yields one point with score 0 and ok
// false, as GraphRAG does; scores are clamped to 0–100.
func ParseMapPoints(raw []byte, analyst int) (points []Point, ok bool) {
	s := bytes.TrimSpace(raw)
	if i, j := bytes.IndexByte(s, '{'), bytes.LastIndexByte(s, '}'); i >= 0 && j > i {
		s = s[i : j+1]
	}
	var doc struct {
		Points []struct {
			Description string   `json:"description"`
			Score       *float64 `json:"score"`
		} `json:"points"`
	}
	if err := json.Unmarshal(s, &doc); err != nil || doc.Points == nil {
		return []Point{{Analyst: analyst}}, false
	}
	for _, p := range doc.Points {
		score := 0.0
		if p.Score != nil {
			score = min(max(*p.Score, 0), 100)
		}
		d := strings.TrimSpace(p.Description)
		points = append(points, Point{Description: d, Score: score, Analyst: analyst, ReportIDs: ReportRefs(d)})
	}
	return points, true
}

// PackPoints is the reduce step's input: the points with score > 0, best
// first (ties in analyst order), each as "----Analyst i----\nImportance
// Score: s\n<description>", added while the text stays within maxTokens.
// It returns the text and the points packed; no point left means "no
// data" (the caller answers that it cannot answer).
func PackPoints(points []Point, counter Counter, maxTokens int) (string, []Point) {
	var kept []Point
	for _, p := range points {
		if p.Score > 0 && p.Description != "" {
			kept = append(kept, p)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Score > kept[j].Score })
	var b strings.Builder
	var used []Point
	tokens := 0
	for _, p := range kept {
		block := fmt.Sprintf("----Analyst %d----\nImportance Score: %g\n%s", p.Analyst, p.Score, p.Description)
		n := counter.Count(block) + 2
		if tokens+n > maxTokens {
			break
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(block)
		tokens += n
		used = append(used, p)
	}
	return b.String(), used
}
