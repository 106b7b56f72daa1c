package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/store"
)

// Query modes.
const (
	ModeGlobal = ai.GraphModeGlobal
	ModeLocal  = ai.GraphModeLocal
	ModeDrift  = ai.GraphModeDrift
)

// Modes lists the query modes, the default first.
var Modes = []string{ModeGlobal, ModeLocal, ModeDrift}

// DRIFT defaults (GraphRAG's primer folds and depth; follow-ups per depth
// kept small so that a question costs a bounded number of calls).
const (
	DriftTopReports  = 20
	DriftPrimerFolds = 5
	DriftDepth       = 3
	DriftFollowUps   = 3
	localChunkLimit  = 40
	// MinContextTokens is the smallest context budget a query accepts.
	MinContextTokens  = 500
	maxEntityChunkIDs = 50 // reference chain: chunk IDs listed per entity at most
)

// ErrNoGraph is the sentinel of a query before a build (wrapped by a
// localized error naming `gds graph build`).
var ErrNoGraph = errors.New("no graph has been built")

// Index is the part of the index a query reads: the files and chunks the
// references name.
type Index interface {
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
	FileChunks(ctx context.Context, fileID string, limit int) ([]store.Chunk, error)
}

// Searcher answers questions from the graph.
type Searcher struct {
	Graph    store.GraphStore
	Index    Index
	Provider ai.Provider
	Counter  Counter
	// Lang is the language of the answer (en, ja): of its fixed phrases
	// offline, of a model's text.
	Lang        string
	Concurrency int // map calls in flight; <= 0: DefaultConcurrency
}

// Params are a query's parameters (echoed in the JSON output).
type Params struct {
	CommunityLevel   int     `json:"community_level"`
	MinCommunityRank float64 `json:"min_community_rank"`
	MaxContextTokens int     `json:"max_context_tokens"`
	ResponseType     string  `json:"response_type"`
	NormalizeWeight  bool    `json:"normalize_community_weight"`
}

// DefaultParams are GraphRAG's defaults.
func DefaultParams() Params {
	return Params{CommunityLevel: DefaultCommunityLevel, MaxContextTokens: DefaultMaxContextTokens,
		ResponseType: DefaultResponseType, NormalizeWeight: true}
}

// Query is one question.
type Query struct {
	Question string
	Mode     string // "" means global
	Params
	// OnText receives the answer as it is written (may be nil).
	OnText func(string) error
	// NoData is the reply when nothing relevant was found (GraphRAG's
	// "unable to answer"), in the user's language.
	NoData string
}

// Calls counts the model calls of a query and the prompt tokens sent
// (counted with the Counter: an estimate for models of other encodings).
type Calls struct {
	Map              int `json:"map"`
	MapParseFailures int `json:"map_parse_failures"`
	Drift            int `json:"drift"`
	Answer           int `json:"answer"`
	Embed            int `json:"embed"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens,omitempty"` // when the provider reports usage
}

// RefReport, RefEntity, RefChunk and RefDocument are the reference chain:
// report → entities → chunks → documents.
type RefReport struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Level     int      `json:"level"`
	Rank      float64  `json:"rank"`
	Weight    float64  `json:"weight"`
	EntityIDs []string `json:"entity_ids"`
}

type RefEntity struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	ChunkIDs []string `json:"chunk_ids"`
}

type RefChunk struct {
	ID         string `json:"id"`
	DocumentID string `json:"document_id"`
	Ordinal    int    `json:"chunk_index"`
}

type RefDocument struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Link string `json:"link"`
	Path string `json:"path,omitempty"`
}

// References is the full reference chain of an answer.
type References struct {
	Reports       []RefReport   `json:"reports"`
	Entities      []RefEntity   `json:"entities"`
	Relationships []string      `json:"relationship_ids"`
	Chunks        []RefChunk    `json:"chunks"`
	Documents     []RefDocument `json:"documents"`
}

// Result is an answer and how it was found.
type Result struct {
	Question   string        `json:"question"`
	Mode       string        `json:"mode"`
	Answer     string        `json:"answer"`
	Parameters Params        `json:"parameters"`
	Provider   string        `json:"provider"`
	Extractive bool          `json:"extractive"` // the offline provider's extract, not a model's text
	NoData     bool          `json:"no_data"`    // nothing relevant: the "unable to answer" reply
	Calls      Calls         `json:"calls"`
	Batches    int           `json:"batches,omitempty"`
	Points     []Point       `json:"map_points,omitempty"`
	Steps      []DriftAnswer `json:"drift_steps,omitempty"`
	References References    `json:"references"`
	// Lang is the language of the answer's phrases (Searcher.Lang: the
	// question's, else the interface's).
	Lang string `json:"lang,omitempty"`
}

// loaded is the stored graph with its reports decoded.
type loaded struct {
	g       store.Graph
	reports map[string]Report // by signature
	ents    map[string]store.GraphEntity
	comms   map[string]store.GraphCommunity
}

func noGraph(reason string) error {
	return apperr.L(apperr.NoIndex, "graph.missing", reason).Wrap(ErrNoGraph)
}

func (s *Searcher) load(ctx context.Context) (*loaded, error) {
	g, err := s.Graph.LoadGraph(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case g.BuiltAt.IsZero():
		return nil, noGraph("no graph")
	case len(g.Entities) == 0:
		return nil, noGraph("no entities")
	case len(g.Communities) == 0:
		return nil, noGraph("no communities")
	}
	for _, c := range g.Communities {
		if c.Weight <= 0 {
			return nil, noGraph("community " + c.ID + " has no occurrence weight")
		}
	}
	stored, err := s.Graph.GraphReports(ctx, nil)
	if err != nil {
		return nil, err
	}
	l := &loaded{g: g, reports: map[string]Report{}, ents: map[string]store.GraphEntity{}, comms: map[string]store.GraphCommunity{}}
	for sig, r := range stored {
		var rep Report
		if err := json.Unmarshal(r.Data, &rep); err != nil {
			return nil, fmt.Errorf("read the report %s: %w", sig, err)
		}
		l.reports[sig] = rep
	}
	if len(l.reports) == 0 {
		return nil, noGraph("no community reports")
	}
	for _, e := range g.Entities {
		l.ents[e.ID] = e
	}
	for _, c := range g.Communities {
		l.comms[c.ID] = c
	}
	return l, nil
}

// Run answers q in its mode.
func (s *Searcher) Run(ctx context.Context, q Query) (Result, error) {
	if q.Mode == "" {
		q.Mode = ModeGlobal
	}
	if !slices.Contains(Modes, q.Mode) {
		return Result{}, apperr.L(apperr.Usage, "graph.bad_mode", q.Mode)
	}
	if strings.TrimSpace(q.Question) == "" {
		return Result{}, apperr.L(apperr.Usage, "ask.no_question")
	}
	if q.MaxContextTokens <= 0 {
		q.MaxContextTokens = DefaultMaxContextTokens
	}
	if q.MaxContextTokens < MinContextTokens {
		return Result{}, apperr.L(apperr.Usage, "graph.bad_tokens", q.MaxContextTokens)
	}
	if q.CommunityLevel < 0 {
		return Result{}, apperr.L(apperr.Usage, "graph.bad_level", q.CommunityLevel)
	}
	if q.ResponseType == "" {
		q.ResponseType = DefaultResponseType
	}
	l, err := s.load(ctx)
	if err != nil {
		return Result{}, err
	}
	res := Result{Question: q.Question, Mode: q.Mode, Parameters: q.Params, Provider: s.Provider.Name(), Extractive: s.Provider.Name() == "offline", Lang: s.Lang}
	switch q.Mode {
	case ModeGlobal:
		err = s.global(ctx, l, q, &res)
	case ModeLocal:
		err = s.local(ctx, l, q, &res)
	case ModeDrift:
		err = s.drift(ctx, l, q, &res)
	}
	if err != nil {
		return res, err
	}
	return res, s.resolveDocuments(ctx, &res)
}

// answer streams the final answer from the context a model reads and the
// same texts without IDs and markup (passages) the offline extract quotes.
func (s *Searcher) answer(ctx context.Context, q Query, mode, modelContext string, passages []ai.GraphPassage, res *Result) error {
	req, err := ai.GraphAnswerRequest(ai.GraphAnswerInput{Mode: mode, Question: q.Question, Context: modelContext, ResponseType: q.ResponseType,
		Lang: s.Lang, Passages: passages})
	if err != nil {
		return err
	}
	res.Calls.Answer++
	res.Calls.PromptTokens += s.promptTokens(req)
	var b strings.Builder
	for ev, err := range s.Provider.Stream(ctx, req) {
		if err != nil {
			res.Answer = b.String()
			return fmt.Errorf("%s (%s): %w", ai.TaskGraphAnswer, s.Provider.Name(), err)
		}
		switch ev.Kind {
		case ai.EventText:
			b.WriteString(ev.Text)
			if q.OnText != nil && ev.Text != "" {
				if err := q.OnText(ev.Text); err != nil {
					res.Answer = b.String()
					return err
				}
			}
		case ai.EventUsage:
			res.Calls.CompletionTokens += ev.Usage.CompletionTokens
		}
	}
	res.Answer = b.String()
	return nil
}

func (s *Searcher) promptTokens(req ai.Request) int {
	n := s.Counter.Count(req.System)
	for _, m := range req.Messages {
		n += s.Counter.Count(m.Content)
	}
	return n
}

func (s *Searcher) noData(q Query, res *Result) error {
	res.NoData, res.Extractive = true, false
	res.Answer = q.NoData
	if q.OnText != nil {
		return q.OnText(q.NoData)
	}
	return nil
}

// global is the map-reduce over community reports.
func (s *Searcher) global(ctx context.Context, l *loaded, q Query, res *Result) error {
	views := SelectReports(l.g.Communities, l.reports, q.CommunityLevel, q.MinCommunityRank, q.NormalizeWeight)
	if len(views) == 0 {
		return s.noData(q, res)
	}
	batches := Batches(views, s.Counter, q.MaxContextTokens, ShuffleSeed)
	res.Batches = len(batches)
	points := make([][]Point, len(batches))
	var mu sync.Mutex
	workers := s.Concurrency
	if workers <= 0 {
		workers = DefaultConcurrency
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i, b := range batches {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if gctx.Err() != nil {
				return nil // stopped while waiting for a worker
			}
			in := ai.GraphMapInput{Question: q.Question, Context: b.Context, Lang: s.Lang, Reports: l.reportTexts(b.Reports)}
			user, _ := json.Marshal(in)
			raw, err := ai.GraphMapRaw(gctx, s.Provider, in)
			mu.Lock()
			defer mu.Unlock()
			res.Calls.Map++
			res.Calls.PromptTokens += s.Counter.Count(ai.PromptGraphMap) + s.Counter.Count(string(user))
			if errors.Is(err, ai.ErrMalformedOutput) {
				raw, err = nil, nil // parsed below as a failure: one point scored 0
			}
			if err != nil {
				return err
			}
			ps, ok := ParseMapPoints(raw, i+1)
			if !ok {
				res.Calls.MapParseFailures++
			}
			points[i] = ps
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var all []Point
	for _, ps := range points {
		all = append(all, ps...)
	}
	text, used := PackPoints(all, s.Counter, q.MaxContextTokens)
	res.Points = all
	if len(used) == 0 {
		return s.noData(q, res)
	}
	// References: the reports the kept points cite; without citations, the
	// reports of the batches those points came from.
	var ids []string
	for _, p := range used {
		for _, id := range p.ReportIDs {
			if _, ok := l.comms[id]; ok && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		for _, p := range used {
			for _, r := range batches[p.Analyst-1].Reports {
				if !slices.Contains(ids, r.CommunityID) {
					ids = append(ids, r.CommunityID)
				}
			}
		}
	}
	weights := map[string]float64{}
	for _, v := range views {
		weights[v.CommunityID] = v.Weight
	}
	s.addReports(l, ids, weights, res)
	return s.answer(ctx, q, ModeGlobal, text, l.pointPassages(used), res)
}

// reportTexts are the reports of a map batch as text.
func (l *loaded) reportTexts(views []ReportView) []ai.GraphReportText {
	out := make([]ai.GraphReportText, 0, len(views))
	for _, v := range views {
		r := l.reports[l.comms[v.CommunityID].Signature]
		t := ai.GraphReportText{ID: v.CommunityID, Title: r.Title, Summary: r.Summary, Rank: v.Rank, Weight: v.Weight,
			Source: l.mainDocument(v.CommunityID)}
		for _, f := range r.Findings {
			t.Findings = append(t.Findings, f.Explanation)
		}
		out = append(out, t)
	}
	return out
}

// pointPassages are the reduce step's points as passages: their text
// without the [Data: …] references, grouped by the first report each
// cites (else by analyst), scored by importance.
func (l *loaded) pointPassages(points []Point) []ai.GraphPassage {
	out := make([]ai.GraphPassage, 0, len(points))
	for _, p := range points {
		ps := ai.GraphPassage{Text: StripRefs(p.Description), Group: fmt.Sprintf("analyst:%d", p.Analyst), Score: p.Score}
		if len(p.ReportIDs) > 0 {
			ps.Group, ps.Source = "community:"+p.ReportIDs[0], l.mainDocument(p.ReportIDs[0])
		}
		out = append(out, ps)
	}
	return out
}

// mainDocument is the document that most mentions of a community's
// entities come from ("" when unknown).
func (l *loaded) mainDocument(communityID string) string {
	count := map[string]int{}
	best := ""
	for _, id := range l.comms[communityID].EntityIDs {
		for _, c := range l.ents[id].ChunkIDs {
			f, _, ok := SplitChunkID(c)
			if !ok {
				continue
			}
			count[f]++
			if count[f] > count[best] || count[f] == count[best] && f < best {
				best = f
			}
		}
	}
	return best
}

// addReports adds reports, their entities and the entities' chunks to the
// reference chain.
func (s *Searcher) addReports(l *loaded, ids []string, weights map[string]float64, res *Result) {
	var ents []string
	for _, id := range ids {
		c := l.comms[id]
		r := l.reports[c.Signature]
		res.References.Reports = append(res.References.Reports, RefReport{ID: id, Title: r.Title, Level: c.Level, Rank: r.Rank, Weight: weights[id], EntityIDs: c.EntityIDs})
		ents = append(ents, c.EntityIDs...)
	}
	s.addEntities(l, ents, res)
}

func (s *Searcher) addEntities(l *loaded, ids []string, res *Result) {
	have := map[string]bool{}
	for _, e := range res.References.Entities {
		have[e.ID] = true
	}
	for _, id := range ids {
		e, ok := l.ents[id]
		if !ok || have[id] {
			continue
		}
		have[id] = true
		chunks := e.ChunkIDs
		if len(chunks) > maxEntityChunkIDs {
			chunks = chunks[:maxEntityChunkIDs]
		}
		res.References.Entities = append(res.References.Entities, RefEntity{ID: id, Name: e.Name, Type: e.Type, ChunkIDs: chunks})
		s.addChunks(chunks, res)
	}
}

func (s *Searcher) addChunks(ids []string, res *Result) {
	for _, id := range ids {
		if slices.ContainsFunc(res.References.Chunks, func(c RefChunk) bool { return c.ID == id }) {
			continue
		}
		f, n, ok := SplitChunkID(id)
		if !ok {
			continue
		}
		res.References.Chunks = append(res.References.Chunks, RefChunk{ID: id, DocumentID: f, Ordinal: n})
	}
}

// resolveDocuments fills the documents of the chunks of the reference chain.
func (s *Searcher) resolveDocuments(ctx context.Context, res *Result) error {
	var ids []string
	for _, c := range res.References.Chunks {
		if !slices.Contains(ids, c.DocumentID) {
			ids = append(ids, c.DocumentID)
		}
	}
	sort.Strings(ids)
	files, err := s.Index.GetFiles(ctx, ids)
	if err != nil {
		return fmt.Errorf("load the documents of the references: %w", err)
	}
	res.References.Documents = []RefDocument{}
	for _, f := range files {
		res.References.Documents = append(res.References.Documents, RefDocument{ID: f.ID, Name: f.Name, Link: f.WebLink, Path: f.Path})
	}
	if res.References.Reports == nil {
		res.References.Reports = []RefReport{}
	}
	if res.References.Entities == nil {
		res.References.Entities = []RefEntity{}
	}
	if res.References.Chunks == nil {
		res.References.Chunks = []RefChunk{}
	}
	if res.References.Relationships == nil {
		res.References.Relationships = []string{}
	}
	return nil
}

// embedQuery embeds a query for entity or report similarity.
func (s *Searcher) embedQuery(ctx context.Context, text string, res *Result) ([]float32, error) {
	vecs, err := s.Provider.Embed(ctx, []string{text})
	res.Calls.Embed++
	if err != nil {
		return nil, fmt.Errorf("embed the question: %w", err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("embed the question: %d embeddings for 1 text", len(vecs))
	}
	return vecs[0], nil
}

// localContext builds the local search context of a query text.
func (s *Searcher) localContext(ctx context.Context, l *loaded, text string, maxTokens int, res *Result) (LocalContext, []ScoredEntity, error) {
	vec, err := s.embedQuery(ctx, text, res)
	if err != nil {
		return LocalContext{}, nil, err
	}
	for _, e := range l.g.Entities {
		if len(e.Embedding) > 0 && len(e.Embedding) != len(vec) {
			return LocalContext{}, nil, apperr.L(apperr.Index, "graph.embedding_mismatch", len(e.Embedding), len(vec))
		}
	}
	sel := TopEntities(l.g.Entities, vec, LocalTopEntities)
	order := CandidateChunks(sel, localChunkLimit)
	texts, err := s.chunkTexts(ctx, order)
	if err != nil {
		return LocalContext{}, nil, err
	}
	lc := BuildLocalContext(LocalInput{Selected: sel, Entities: l.ents, Relationships: l.g.Relationships, Chunks: texts,
		ChunkOrder: order, Communities: l.g.Communities, Reports: l.reports, MaxTokens: maxTokens}, s.Counter)
	return lc, sel, nil
}

// chunkTexts reads the texts of chunk IDs from the index.
func (s *Searcher) chunkTexts(ctx context.Context, ids []string) (map[string]string, error) {
	need := map[string]int{} // file → highest ordinal wanted
	for _, id := range ids {
		f, n, ok := SplitChunkID(id)
		if ok {
			need[f] = max(need[f], n)
		}
	}
	out := map[string]string{}
	files := make([]string, 0, len(need))
	for f := range need {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		chunks, err := s.Index.FileChunks(ctx, f, need[f]+1)
		if errors.Is(err, store.ErrNotFound) {
			continue // removed since the build
		}
		if err != nil {
			return nil, fmt.Errorf("read the chunks of %s: %w", f, err)
		}
		for _, c := range chunks {
			out[store.ChunkID(f, c.Ordinal)] = c.Text
		}
	}
	return out, nil
}

// addLocal adds a local context's records to the reference chain.
func (s *Searcher) addLocal(l *loaded, lc LocalContext, res *Result) {
	for _, id := range lc.CommunityIDs {
		if !slices.ContainsFunc(res.References.Reports, func(r RefReport) bool { return r.ID == id }) {
			c := l.comms[id]
			r := l.reports[c.Signature]
			res.References.Reports = append(res.References.Reports, RefReport{ID: id, Title: r.Title, Level: c.Level, Rank: r.Rank, EntityIDs: c.EntityIDs})
		}
	}
	have := map[string]bool{}
	for _, e := range res.References.Entities {
		have[e.ID] = true
	}
	for _, id := range lc.EntityIDs {
		e := l.ents[id]
		if have[id] {
			continue
		}
		// Only the chunks the context quoted, plus the entity's own list.
		var chunks []string
		for _, c := range e.ChunkIDs {
			if slices.Contains(lc.ChunkIDs, c) {
				chunks = append(chunks, c)
			}
		}
		if len(chunks) == 0 && len(e.ChunkIDs) > 0 {
			chunks = e.ChunkIDs[:1]
		}
		res.References.Entities = append(res.References.Entities, RefEntity{ID: id, Name: e.Name, Type: e.Type, ChunkIDs: chunks})
		s.addChunks(chunks, res)
	}
	for _, id := range lc.RelationshipIDs {
		if !slices.Contains(res.References.Relationships, id) {
			res.References.Relationships = append(res.References.Relationships, id)
		}
	}
	s.addChunks(lc.ChunkIDs, res)
}

// local answers from the entities nearest the question.
func (s *Searcher) local(ctx context.Context, l *loaded, q Query, res *Result) error {
	lc, _, err := s.localContext(ctx, l, q.Question, q.MaxContextTokens, res)
	if err != nil {
		return err
	}
	if lc.Text == "" {
		return s.noData(q, res)
	}
	s.addLocal(l, lc, res)
	return s.answer(ctx, q, ModeLocal, lc.Text, lc.Passages, res)
}

// drift runs the primer over the top reports, then follow-up local
// searches to DriftDepth, then the final reduce.
func (s *Searcher) drift(ctx context.Context, l *loaded, q Query, res *Result) error {
	vec, err := s.embedQuery(ctx, q.Question, res)
	if err != nil {
		return err
	}
	views := SelectReports(l.g.Communities, l.reports, q.CommunityLevel, q.MinCommunityRank, q.NormalizeWeight)
	type scored struct {
		v ReportView
		s float64
	}
	var ranked []scored
	for _, v := range views {
		r := l.reports[l.comms[v.CommunityID].Signature]
		ranked = append(ranked, scored{v, Cosine(r.Embedding, vec)})
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].s > ranked[j].s })
	var top []ReportView
	for _, r := range ranked[:min(len(ranked), DriftTopReports)] {
		top = append(top, r.v)
	}
	if len(top) == 0 {
		return s.noData(q, res)
	}
	var answers []DriftAnswer
	var asked []string
	var refIDs []string
	for _, fold := range DriftFolds(top, DriftPrimerFolds) {
		var b strings.Builder
		b.WriteString(reportHeader)
		var names []string
		var passages []ai.GraphPassage
		for _, v := range fold {
			b.WriteString("\n" + reportRow(v))
			refIDs = append(refIDs, v.CommunityID)
			for _, id := range v.EntityIDs {
				if len(names) < 10 {
					names = append(names, l.ents[id].Name)
				}
			}
			r := l.reports[l.comms[v.CommunityID].Signature]
			passages = append(passages, ai.GraphPassage{Text: r.Text(), Group: "community:" + v.CommunityID, Score: v.Rank})
		}
		a, err := s.driftStep(ctx, q, q.Question, b.String(), names, passages, 0, res)
		if err != nil {
			return err
		}
		answers = append(answers, a)
	}
	asked = append(asked, q.Question)
	weights := map[string]float64{}
	for _, v := range views {
		weights[v.CommunityID] = v.Weight
	}
	s.addReports(l, refIDs, weights, res)
	for depth := 1; depth <= DriftDepth; depth++ {
		next := NextFollowUps(answers, asked, DriftFollowUps)
		if len(next) == 0 {
			break
		}
		for _, fq := range next {
			asked = append(asked, fq)
			lc, sel, err := s.localContext(ctx, l, fq, q.MaxContextTokens, res)
			if err != nil {
				return err
			}
			if lc.Text == "" {
				continue
			}
			s.addLocal(l, lc, res)
			var names []string
			for _, e := range sel {
				names = append(names, e.Name)
			}
			a, err := s.driftStep(ctx, q, fq, lc.Text, names, lc.Passages, depth, res)
			if err != nil {
				return err
			}
			answers = append(answers, a)
		}
	}
	res.Steps = answers
	var b strings.Builder
	var passages []ai.GraphPassage
	n := 0
	for _, a := range answers {
		if a.Score <= 0 || strings.TrimSpace(a.Response) == "" {
			continue
		}
		n++
		fmt.Fprintf(&b, "----Answer %d (query: %s)----\nImportance Score: %g\n%s\n\n", n, a.Query, a.Score, a.Response)
		passages = append(passages, ai.GraphPassage{Text: a.Response, Group: fmt.Sprintf("step:%d", n), Score: a.Score})
	}
	if n == 0 {
		return s.noData(q, res)
	}
	return s.answer(ctx, q, ModeDrift, b.String(), passages, res)
}

func (s *Searcher) driftStep(ctx context.Context, q Query, query, modelContext string, names []string, passages []ai.GraphPassage, depth int, res *Result) (DriftAnswer, error) {
	in := ai.GraphDriftInput{Question: q.Question, Query: query, Context: modelContext, Lang: s.Lang, Entities: names, Passages: passages}
	user, _ := json.Marshal(in)
	res.Calls.Drift++
	res.Calls.PromptTokens += s.Counter.Count(ai.PromptGraphDrift) + s.Counter.Count(string(user))
	out, err := ai.GraphDrift(ctx, s.Provider, in)
	if err != nil {
		return DriftAnswer{}, err
	}
	return DriftAnswer{Depth: depth, Query: query, Response: strings.TrimSpace(out.Response), Score: min(max(out.Score, 0), 100), FollowUps: out.FollowUpQueries}, nil
}
