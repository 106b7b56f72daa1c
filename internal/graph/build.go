package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/ratelimit"
	"github.com/gds-cli/gds/internal/store"
)

// ChunkScanner is the part of the index a build reads.
type ChunkScanner interface {
	ScanChunks(ctx context.Context, s store.ChunkScan) (store.ChunkPage, error)
}

// Build phases, reported in Progress.Phase.
const (
	PhaseScan      = "scan"
	PhaseExtract   = "extract"
	PhaseEmbed     = "embed"
	PhaseCommunity = "communities"
	PhaseReport    = "reports"
	PhaseSave      = "save"
)

// Progress is one step of a build.
type Progress struct {
	Phase string
	Done  int
	Total int
}

// DefaultConcurrency is the number of model calls a build or a map step
// keeps in flight when the provider's calls are not paced to rate limits.
const DefaultConcurrency = 4

// embedBatch is the number of texts per Embed call.
const embedBatch = 64

// Builder builds and updates the graph.
type Builder struct {
	Index       ChunkScanner
	Graph       store.GraphStore
	Provider    ai.Provider
	Counter     Counter
	Lang        string
	Concurrency int              // <= 0: the provider's lanes decide (Builder.limit)
	Gleanings   int              // extra extraction passes per chunk; < 0: none (GraphRAG: 1)
	Now         func() time.Time // nil: time.Now
	OnProgress  func(Progress)   // may be nil; called from one goroutine at a time
}

// BuildOptions select what a build covers.
type BuildOptions struct {
	Folder string // only the chunks of files in this folder and below
	Full   bool   // forget every stored extraction and report first
}

// BuildStats says what a build did.
type BuildStats struct {
	Provider            string      `json:"provider"`
	Folder              string      `json:"folder,omitempty"`
	Chunks              int         `json:"chunks"`
	Extracted           int         `json:"chunks_extracted"`
	Reused              int         `json:"chunks_reused"`
	Removed             int         `json:"chunks_removed"`
	Entities            int         `json:"entities"`
	Relationships       int         `json:"relationships"`
	Communities         int         `json:"communities"`
	CommunitiesPerLevel map[int]int `json:"communities_per_level"`
	Reports             int         `json:"reports_written"`
	ReportsReused       int         `json:"reports_reused"`
	ExtractCalls        int         `json:"extract_calls"`
	ReportCalls         int         `json:"report_calls"`
	EmbedCalls          int         `json:"embed_calls"`
	EntitiesEmbedded    int         `json:"entities_embedded"`
}

func (b *Builder) progress(p Progress) {
	if b.OnProgress != nil {
		b.OnProgress(p)
	}
}

// limit is how many model calls a phase keeps in flight: Concurrency when
// set (-j), else what the provider's chat lane advises when its calls are
// paced to the account's rate limits (ratelimit.Lane.Concurrency, asked
// again as calls finish), else DefaultConcurrency.
func (b *Builder) limit() func() int {
	if b.Concurrency > 0 {
		return func() int { return b.Concurrency }
	}
	if p, ok := b.Provider.(ratelimit.Paced); ok {
		return p.Scheduler().Chat().Concurrency
	}
	return func() int { return DefaultConcurrency }
}

// forEach runs f on 0..n-1, as many at once as limit says, reporting
// progress after each; the first error cancels the rest and is returned.
// The limit is read again as calls finish (a rate limiter's window grows
// and shrinks), so a window admits the calls instead of errgroup's SetLimit,
// which is fixed for a group's life.
func (b *Builder) forEach(ctx context.Context, phase string, n int, f func(ctx context.Context, i int) error) error {
	g, gctx := errgroup.WithContext(ctx)
	w := newWindow(b.limit())
	var (
		done       atomic.Int64
		progressMu sync.Mutex // progress reports arrive one at a time, in order
	)
	for i := range n {
		if !w.enter(gctx) {
			break
		}
		g.Go(func() error {
			defer w.leave()
			if err := f(gctx, i); err != nil {
				return err
			}
			progressMu.Lock()
			defer progressMu.Unlock()
			b.progress(Progress{Phase: phase, Done: int(done.Add(1)), Total: n})
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// window admits calls while fewer than limit() are in flight.
type window struct {
	limit    func() int
	mu       sync.Mutex
	cond     *sync.Cond
	inFlight int
}

func newWindow(limit func() int) *window {
	w := &window{limit: limit}
	w.cond = sync.NewCond(&w.mu)
	return w
}

// enter waits for room and takes it; false when ctx ended first. A wait
// always ends: a full window has calls in flight, and each leaves.
func (w *window) enter(ctx context.Context) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.inFlight >= max(1, w.limit()) && ctx.Err() == nil {
		w.cond.Wait()
	}
	if ctx.Err() != nil {
		return false
	}
	w.inFlight++
	return true
}

func (w *window) leave() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.inFlight--
	w.cond.Broadcast()
}

// SplitChunkID is the inverse of ChunkID.
func SplitChunkID(id string) (fileID string, ordinal int, ok bool) {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil {
		return "", 0, false
	}
	return id[:i], n, true
}

type pending struct {
	id, fileID, text, hash string
	ordinal                int
}

// Build brings the graph up to date with the index. Only chunks whose text
// changed (or that are new) are extracted; the extractions of chunks gone
// from the index are removed (on a build of the whole index); every
// extraction and report is committed as it is made, so a killed build
// resumes where it stopped. Entities, relationships and communities are
// recomputed from the stored extractions each time (no model call), and
// reports are written only for communities whose content changed.
func (b *Builder) Build(ctx context.Context, opts BuildOptions) (BuildStats, error) {
	st := BuildStats{Provider: b.Provider.Name(), Folder: store.CleanFolder(opts.Folder), CommunitiesPerLevel: map[int]int{}}
	if opts.Full {
		if err := b.Graph.ResetGraph(ctx); err != nil {
			return st, err
		}
	}
	hashes, err := b.Graph.GraphTextHashes(ctx)
	if err != nil {
		return st, err
	}
	b.progress(Progress{Phase: PhaseScan})
	var todo []pending
	var scope []string
	inScope := map[string]bool{}
	scan := store.ChunkScan{Filter: store.Filter{Folder: st.Folder}}
	for {
		page, err := b.Index.ScanChunks(ctx, scan)
		if err != nil {
			return st, fmt.Errorf("read the indexed chunks: %w", err)
		}
		for _, c := range page.Chunks {
			id := store.ChunkID(c.FileID, c.Ordinal)
			scope = append(scope, id)
			inScope[id] = true
			h := TextHash(c.Text)
			if hashes[id] != h {
				todo = append(todo, pending{id: id, fileID: c.FileID, ordinal: c.Ordinal, text: c.Text, hash: h})
			}
		}
		b.progress(Progress{Phase: PhaseScan, Done: len(scope)})
		if page.Done {
			break
		}
		scan.After = page.Next
	}
	st.Chunks = len(scope)
	st.Extracted = len(todo)
	st.Reused = st.Chunks - st.Extracted
	if st.Folder == "" {
		var gone []string
		for id := range hashes {
			if !inScope[id] {
				gone = append(gone, id)
			}
		}
		if len(gone) > 0 {
			if err := b.Graph.DeleteGraphExtractions(ctx, gone); err != nil {
				return st, err
			}
		}
		st.Removed = len(gone)
	}

	var calls sync.Mutex
	err = b.forEach(ctx, PhaseExtract, len(todo), func(ctx context.Context, i int) error {
		p := todo[i]
		in := ai.GraphExtractInput{Text: p.text, EntityTypes: []string{"organization", "person", "geo", "event", "concept"}, Lang: b.Lang}
		ex, err := ai.ExtractGraph(ctx, b.Provider, in)
		n := 1
		if err != nil {
			return fmt.Errorf("extract the graph of chunk %s: %w", p.id, err)
		}
		for g := 0; g < b.gleanings(); g++ {
			prev := ex
			in.Previous = &prev
			more, err := ai.ExtractGraph(ctx, b.Provider, in)
			n++
			if err != nil {
				return fmt.Errorf("extract the graph of chunk %s (gleaning): %w", p.id, err)
			}
			if len(more.Entities) == 0 && len(more.Relationships) == 0 {
				break
			}
			ex.Entities = append(ex.Entities, more.Entities...)
			ex.Relationships = append(ex.Relationships, more.Relationships...)
		}
		calls.Lock()
		st.ExtractCalls += n
		calls.Unlock()
		data, err := json.Marshal(ex)
		if err != nil {
			return err
		}
		return b.Graph.PutGraphExtraction(ctx, store.GraphExtraction{FileID: p.fileID, Ordinal: p.ordinal, TextHash: p.hash, Data: data})
	})
	if err != nil {
		return st, err
	}
	todo = nil

	ids := scope
	if st.Folder == "" {
		ids = nil
	}
	stored, err := b.Graph.GraphExtractions(ctx, ids)
	if err != nil {
		return st, err
	}
	exs := make([]ChunkExtraction, 0, len(stored))
	for _, s := range stored {
		id := store.ChunkID(s.FileID, s.Ordinal)
		if !inScope[id] {
			continue
		}
		var ex ai.GraphExtraction
		if err := json.Unmarshal(s.Data, &ex); err != nil {
			return st, fmt.Errorf("read the stored extraction of chunk %s: %w", id, err)
		}
		exs = append(exs, ChunkExtraction{ChunkID: id, GraphExtraction: ex})
	}
	ents, rels := Merge(exs)
	st.Entities, st.Relationships = len(ents), len(rels)

	if err := b.embedEntities(ctx, ents, &st); err != nil {
		return st, err
	}

	b.progress(Progress{Phase: PhaseCommunity})
	comms := Communities(ents, rels, MaxClusterSize, Seed)
	st.Communities = len(comms)
	for _, c := range comms {
		st.CommunitiesPerLevel[c.Level]++
	}
	if err := b.writeReports(ctx, comms, ents, rels, &st); err != nil {
		return st, err
	}
	b.progress(Progress{Phase: PhaseSave})
	now := time.Now
	if b.Now != nil {
		now = b.Now
	}
	g := store.Graph{Entities: ents, Relationships: rels, Communities: comms, BuiltAt: now().UTC(), Provider: b.Provider.Name(), Folder: st.Folder}
	if err := b.Graph.ReplaceGraph(ctx, g); err != nil {
		return st, err
	}
	return st, nil
}

func (b *Builder) gleanings() int {
	if b.Gleanings < 0 {
		return 0
	}
	if b.Gleanings == 0 {
		return 1
	}
	return b.Gleanings
}

// entityText is what an entity's embedding is computed from.
func entityText(e store.GraphEntity) string { return e.Name + ": " + e.Description }

// embedEntities embeds the entities' descriptions, reusing the stored
// embeddings of entities whose text is unchanged.
func (b *Builder) embedEntities(ctx context.Context, ents []store.GraphEntity, st *BuildStats) error {
	old, err := b.Graph.LoadGraph(ctx)
	if err != nil {
		return err
	}
	dim := b.Provider.EmbeddingModel(ctx).Dim
	prev := map[string]store.GraphEntity{}
	for _, e := range old.Entities {
		prev[e.ID] = e
	}
	var need []int
	for i := range ents {
		if o, ok := prev[ents[i].ID]; ok && entityText(o) == entityText(ents[i]) && len(o.Embedding) == dim {
			ents[i].Embedding = o.Embedding
			continue
		}
		need = append(need, i)
	}
	for start := 0; start < len(need); start += embedBatch {
		batch := need[start:min(start+embedBatch, len(need))]
		texts := make([]string, len(batch))
		for j, i := range batch {
			texts[j] = entityText(ents[i])
		}
		vecs, err := b.Provider.Embed(ctx, texts)
		st.EmbedCalls++
		if err != nil {
			return fmt.Errorf("embed the entity descriptions: %w", err)
		}
		if len(vecs) != len(batch) {
			return fmt.Errorf("embed the entity descriptions: %d embeddings for %d texts", len(vecs), len(batch))
		}
		for j, i := range batch {
			ents[i].Embedding = vecs[j]
		}
		st.EntitiesEmbedded += len(batch)
		b.progress(Progress{Phase: PhaseEmbed, Done: min(start+embedBatch, len(need)), Total: len(need)})
	}
	return nil
}

// writeReports writes the reports of the communities that have none for
// their signature, committing each.
func (b *Builder) writeReports(ctx context.Context, comms []store.GraphCommunity, ents []store.GraphEntity, rels []store.GraphRelationship, st *BuildStats) error {
	sigs := make([]string, len(comms))
	for i, c := range comms {
		sigs[i] = c.Signature
	}
	have, err := b.Graph.GraphReports(ctx, sigs)
	if err != nil {
		return err
	}
	var todo []store.GraphCommunity
	seen := map[string]bool{}
	for _, c := range comms {
		if _, ok := have[c.Signature]; !ok && !seen[c.Signature] {
			seen[c.Signature] = true
			todo = append(todo, c)
		}
	}
	st.ReportsReused = len(comms) - len(todo)
	entByID := make(map[string]store.GraphEntity, len(ents))
	for _, e := range ents {
		entByID[e.ID] = e
	}
	relByID := make(map[string]store.GraphRelationship, len(rels))
	for _, r := range rels {
		relByID[r.ID] = r
	}
	var mu sync.Mutex
	err = b.forEach(ctx, PhaseReport, len(todo), func(ctx context.Context, i int) error {
		c := todo[i]
		text, listed := ReportContext(c, entByID, relByID, b.Counter, MaxReportContextTokens)
		in := ai.GraphReportInput{Context: text, Lang: b.Lang, Relations: len(c.RelationshipIDs)}
		for _, e := range listed {
			in.Entities = append(in.Entities, e.Name)
			in.Descriptions = append(in.Descriptions, e.Description)
		}
		out, err := ai.WriteGraphReport(ctx, b.Provider, in)
		if err != nil {
			return fmt.Errorf("write the report of community %s: %w", c.ID, err)
		}
		r := NewReport(out, b.Provider.Name())
		vecs, err := b.Provider.Embed(ctx, []string{r.FullContent()})
		if err != nil {
			return fmt.Errorf("embed the report of community %s: %w", c.ID, err)
		}
		if len(vecs) == 1 {
			r.Embedding = vecs[0]
		}
		mu.Lock()
		st.ReportCalls++
		st.EmbedCalls++
		st.Reports++
		mu.Unlock()
		data, err := json.Marshal(r)
		if err != nil {
			return err
		}
		return b.Graph.PutGraphReport(ctx, store.GraphReport{Signature: c.Signature, Data: data})
	})
	if errors.Is(err, context.Canceled) && ctx.Err() == nil {
		return fmt.Errorf("write reports: %w", err)
	}
	return err
}
