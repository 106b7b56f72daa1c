package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/counting"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/pricing"
	"github.com/gds-cli/gds/internal/ai/tokens"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/estimate"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/ocr"
	"github.com/gds-cli/gds/internal/store"
)

// estimateMaxAge is how long an estimate is shown beside the run it was
// made for.
const estimateMaxAge = 24 * time.Hour

// estimateFile is where the last estimate of an operation is kept in the
// gds home, until the run it was made for shows it.
func estimateFile(cfg *config.Config, op string) string {
	return filepath.Join(cfg.DataDir, "estimate-"+strings.ReplaceAll(op, " ", "-")+".json")
}

// EstimateCrawl tells what `gds crawl` with req would cost before any
// model call, without one: it runs the crawl (listing, reading, OCR of
// scans) with a provider that counts each call as the real one would send
// it and answers from the offline provider (internal/ai/counting), over
// the index without writing to it or to the OCR cache. The figures are
// kept for the crawl's summary (CrawlReport.Estimated).
func (d *Deps) EstimateCrawl(ctx context.Context, req CrawlRequest) (*estimate.Figures, error) {
	cfg, targets, err := d.crawlSetup(req)
	if err != nil {
		return nil, err
	}
	prov, err := d.Provider()
	if err != nil {
		return nil, err
	}
	scope := crawlScope(targets, req.Full)
	count, models := d.counter(cfg, prov, &counting.Merge{Inputs: crawl.EmbedBatchInputs, Tokens: crawl.EmbedBatchTokens})
	if count == nil {
		return d.offlineFigures(estimate.OpCrawl, prov, scope), nil
	}
	for i, target := range targets {
		if sp, ok := req.Progress.(SourceProgress); ok && len(targets) > 1 {
			sp.Source(target.Key(), i+1, len(targets))
		}
		if _, _, err := d.crawlOne(ctx, cfg, target, req, count); err != nil {
			return nil, err
		}
	}
	f := estimate.Make(estimate.OpCrawl, true, prov.Name(), models, scope, d.now(),
		count.(totaler).Totals(), book(cfg), cfg.AIMaxRPM)
	d.keepEstimate(cfg, f)
	return &f, nil
}

// EstimateGraph tells what `gds graph build` with req would cost, as
// EstimateCrawl does: the build runs with the counting provider over the
// index and the stored graph, writing nothing.
func (d *Deps) EstimateGraph(ctx context.Context, req GraphBuildRequest) (*estimate.Figures, error) {
	d.SetMaxRPM(req.MaxRPM)
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	prov, err := d.Provider()
	if err != nil {
		return nil, err
	}
	scope := graphScope(req.BuildOptions)
	count, models := d.counter(cfg, prov, nil)
	if count == nil {
		return d.offlineFigures(estimate.OpGraphBuild, prov, scope), nil
	}
	st, gs, err := d.graphStore(ctx)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	stats, err := st.Stats(ctx)
	if err != nil {
		return nil, err
	}
	if stats.Files == 0 {
		return nil, d.emptyIndex()
	}
	b := &graph.Builder{Index: st, Graph: newDryGraph(gs), Provider: count, Counter: tokens.O200k, Lang: d.Lang,
		Concurrency: req.Concurrency, Now: d.Now, OnProgress: req.OnProgress}
	if _, err := b.Build(ctx, req.BuildOptions); err != nil {
		return nil, err
	}
	f := estimate.Make(estimate.OpGraphBuild, true, prov.Name(), models, scope, d.now(),
		count.(totaler).Totals(), book(cfg), cfg.AIMaxRPM)
	d.keepEstimate(cfg, f)
	return &f, nil
}

func (d *Deps) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// counter is the counting provider standing for prov, with the models it
// counts for; nil for a provider that makes no model call (offline).
// totaler is the counting provider's count.
type totaler interface {
	Totals() map[ai.CallKind]ai.Tally
}

func (d *Deps) counter(cfg *config.Config, prov ai.Provider, merge *counting.Merge) (ai.Provider, estimate.Models) {
	op, ok := prov.(*openai.Provider)
	if !ok {
		return nil, estimate.Models{}
	}
	em := op.KnownEmbeddingModel()
	c := counting.Config{Name: prov.Name(), ChatModel: op.ChatModel(), Embedding: em, Stand: offline.New(), Merge: merge}
	if t := findOCRTools(); t.reader != nil {
		c.PageText = t.reader.Read
	}
	// The model reads scans only when GDS_OCR lets it (fileReader).
	vision := cfg.OCR == config.OCRAuto || cfg.OCR == config.OCRModel
	return counting.New(c, vision), estimate.Models{Chat: op.ChatModel(), Embedding: em.Name}
}

// offlineFigures are the figures of a run of the offline provider: no
// model call.
func (d *Deps) offlineFigures(op string, prov ai.Provider, scope string) *estimate.Figures {
	f := estimate.Make(op, true, prov.Name(), estimate.Models{}, scope, d.now(), nil, book(d.Config), 0)
	f.Offline = true
	return &f
}

// book is the configuration's price and limit book, or the embedded
// table's at the default tier when the configuration was not loaded from
// settings (config.Load always sets it).
func book(cfg *config.Config) *pricing.Book {
	if cfg != nil && cfg.Pricing != nil {
		return cfg.Pricing
	}
	b, _ := pricing.New("", "", "")
	return b
}

// crawlScope names the sources of a crawl and whether it is full.
func crawlScope(targets []config.CrawlSource, full bool) string {
	keys := make([]string, len(targets))
	for i, t := range targets {
		keys[i] = t.Key()
	}
	slices.Sort(keys)
	s := strings.Join(keys, ",")
	if full {
		s += " --full"
	}
	return s
}

// graphScope names the folder of a build and whether it is full.
func graphScope(o graph.BuildOptions) string {
	s := "folder:" + store.CleanFolder(o.Folder)
	if o.Full {
		s += " --full"
	}
	return s
}

// keepEstimate saves f for the run it was made for; best effort (a
// read-only home only loses the comparison).
func (d *Deps) keepEstimate(cfg *config.Config, f estimate.Figures) {
	b, err := json.Marshal(f)
	if err != nil {
		return
	}
	_ = os.WriteFile(estimateFile(cfg, f.Operation), b, 0o600)
}

// actualFigures prices what a run's model calls took (the meter's tallies
// since before) and pairs them with the estimate kept for the run, which
// is then forgotten. nil figures for a provider without a meter (offline).
func (d *Deps) actualFigures(cfg *config.Config, op, scope string, prov ai.Provider, before map[ai.CallKind]ai.Tally) (actual, est *estimate.Figures) {
	m, ok := prov.(ai.Metered)
	op2, isOpenAI := prov.(*openai.Provider)
	if !ok || !isOpenAI {
		return nil, nil
	}
	models := estimate.Models{Chat: op2.ChatModel(), Embedding: op2.KnownEmbeddingModel().Name}
	f := estimate.Make(op, false, prov.Name(), models, scope, d.now(), m.Meter().Since(before), book(cfg), cfg.AIMaxRPM)
	actual = &f
	path := estimateFile(cfg, op)
	b, err := os.ReadFile(path)
	if err != nil {
		return actual, nil
	}
	var e estimate.Figures
	if json.Unmarshal(b, &e) != nil || !estimate.Pairs(e, f, estimateMaxAge) {
		return actual, nil
	}
	_ = os.Remove(path)
	return actual, &e
}

// meterTotals is the tallies of prov's meter so far (nil without one).
func meterTotals(prov ai.Provider) map[ai.CallKind]ai.Tally {
	if m, ok := prov.(ai.Metered); ok {
		return m.Meter().Totals()
	}
	return nil
}

// dryIndex is an index an estimate crawls: reads go to the index, writes
// nowhere. After Reset (a full crawl into another embedding space) it
// reads as empty, as the real crawl would find it.
type dryIndex struct {
	crawl.Index
	mu    sync.Mutex
	reset bool
}

func (x *dryIndex) wasReset() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.reset
}

func (x *dryIndex) EnsureEmbeddingSpace(context.Context, store.EmbeddingSpace) error { return nil }
func (x *dryIndex) UpsertFile(context.Context, store.File, []store.Chunk) error      { return nil }
func (x *dryIndex) SetSyncState(context.Context, store.SyncState) error              { return nil }
func (x *dryIndex) DeleteFiles(context.Context, []string) error                      { return nil }
func (x *dryIndex) ClaimFiles(context.Context, string, string, []string) (int, error) {
	return 0, nil
}

func (x *dryIndex) Reset(context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.reset = true
	return nil
}

func (x *dryIndex) ContentHashes(ctx context.Context, ids []string) (map[string]string, error) {
	if x.wasReset() {
		return map[string]string{}, nil
	}
	return x.Index.ContentHashes(ctx, ids)
}

func (x *dryIndex) GetFiles(ctx context.Context, ids []string) ([]store.File, error) {
	if x.wasReset() {
		return nil, nil
	}
	return x.Index.GetFiles(ctx, ids)
}

func (x *dryIndex) SyncState(ctx context.Context, source string) (store.SyncState, error) {
	if x.wasReset() {
		return store.SyncState{Source: source}, nil
	}
	return x.Index.SyncState(ctx, source)
}

func (x *dryIndex) SourceIDs(ctx context.Context, source string) ([]string, error) {
	if x.wasReset() {
		return nil, nil
	}
	return x.Index.SourceIDs(ctx, source)
}

// readOnlyCache makes the OCR cache of x (an extractor fileReader made
// for this crawl) read-only: an estimate finds the text read before (no
// call) and keeps nothing it reads.
func readOnlyCache(x crawl.Extractor) crawl.Extractor {
	if o, ok := x.(*ocr.Extractor); ok && o.Cache != nil {
		o.Cache = noPut{o.Cache}
	}
	return x
}

type noPut struct{ ocr.Cache }

func (noPut) Put(string, extract.Doc) error { return nil }

// dryGraph is the graph store an estimate builds into: reads see the
// stored graph with what the build put since, in memory; nothing is
// written.
type dryGraph struct {
	store.GraphStore
	mu      sync.Mutex
	reset   bool
	ex      map[string]store.GraphExtraction // by chunk ID
	deleted map[string]bool
	reports map[string]store.GraphReport
	graph   *store.Graph
}

func newDryGraph(g store.GraphStore) *dryGraph {
	return &dryGraph{GraphStore: g, ex: map[string]store.GraphExtraction{}, deleted: map[string]bool{}, reports: map[string]store.GraphReport{}}
}

func (g *dryGraph) ResetGraph(context.Context) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reset = true
	return nil
}

func (g *dryGraph) GraphTextHashes(ctx context.Context) (map[string]string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := map[string]string{}
	if !g.reset {
		h, err := g.GraphStore.GraphTextHashes(ctx)
		if err != nil {
			return nil, err
		}
		out = h
	}
	for id := range g.deleted {
		delete(out, id)
	}
	for id, e := range g.ex {
		out[id] = e.TextHash
	}
	return out, nil
}

func (g *dryGraph) PutGraphExtraction(_ context.Context, e store.GraphExtraction) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	id := store.ChunkID(e.FileID, e.Ordinal)
	g.ex[id] = e
	delete(g.deleted, id)
	return nil
}

func (g *dryGraph) DeleteGraphExtractions(_ context.Context, ids []string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, id := range ids {
		g.deleted[id] = true
		delete(g.ex, id)
	}
	return nil
}

func (g *dryGraph) GraphExtractions(ctx context.Context, ids []string) ([]store.GraphExtraction, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var stored []store.GraphExtraction
	if !g.reset {
		var err error
		if stored, err = g.GraphStore.GraphExtractions(ctx, ids); err != nil {
			return nil, err
		}
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	var out []store.GraphExtraction
	for _, e := range stored {
		id := store.ChunkID(e.FileID, e.Ordinal)
		if _, put := g.ex[id]; !put && !g.deleted[id] {
			out = append(out, e)
		}
	}
	for id, e := range g.ex {
		if ids == nil || want[id] {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b store.GraphExtraction) int {
		if c := strings.Compare(a.FileID, b.FileID); c != 0 {
			return c
		}
		return a.Ordinal - b.Ordinal
	})
	return out, nil
}

func (g *dryGraph) GraphReports(ctx context.Context, sigs []string) (map[string]store.GraphReport, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := map[string]store.GraphReport{}
	if !g.reset {
		r, err := g.GraphStore.GraphReports(ctx, sigs)
		if err != nil {
			return nil, err
		}
		out = r
	}
	for _, s := range sigs {
		if r, ok := g.reports[s]; ok {
			out[s] = r
		}
	}
	return out, nil
}

func (g *dryGraph) PutGraphReport(_ context.Context, r store.GraphReport) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reports[r.Signature] = r
	return nil
}

func (g *dryGraph) ReplaceGraph(_ context.Context, gr store.Graph) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.graph = &gr
	return nil
}

func (g *dryGraph) LoadGraph(ctx context.Context) (store.Graph, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.graph != nil:
		return *g.graph, nil
	case g.reset:
		return store.Graph{}, nil
	}
	return g.GraphStore.LoadGraph(ctx)
}
