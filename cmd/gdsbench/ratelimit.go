package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/ai/tokens"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// rateResult is one run of `gdsbench ratelimit`.
type rateResult struct {
	Job     string  `json:"job"`   // crawl, crawl-unpaced, graph-build
	RPM     int     `json:"rpm"`   // the emulator's chat limit per minute
	Items   int     `json:"items"` // files crawled, or chunks extracted
	Failed  int     `json:"failed"`
	Seconds float64 `json:"seconds"`
	// PerSec is files per second over the whole crawl, or chat calls per
	// second over a graph build's extraction and report phases; Steady
	// (crawls) the files per second between 10 % and 90 % of them.
	PerSec float64 `json:"per_sec"`
	Steady float64 `json:"steady_per_sec"`
	// OfLimit is Steady (crawls) or PerSec (graph build) ÷ (RPM / 60):
	// one chat call per file, or per call, makes RPM/60 the ceiling.
	OfLimit float64 `json:"of_limit"`
	// Chat requests sent, refused with 429 (all, and after the first 10 %
	// of the requests), the most sent in any second, embeddings requests
	// and their mean inputs.
	ChatRequests   int     `json:"chat_requests"`
	Refused        int     `json:"refused_429"`
	RefusedShare   float64 `json:"refused_share"`
	SteadyRefused  float64 `json:"steady_refused_share"`
	MaxPerSecond   int     `json:"max_sent_in_1s"`
	EmbedRequests  int     `json:"embed_requests"`
	InputsPerEmbed float64 `json:"inputs_per_embed_request"`
	ChatCalls      int     `json:"chat_calls,omitempty"` // graph build: extraction + report calls
}

// runRateBench measures crawls and a graph build through the real OpenAI
// client against the emulator enforcing OpenAI's rate limits at each
// --rpm, with --latency on every served request.
func runRateBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ratelimit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	corpus := fs.String("corpus", "", "folder of .txt documents (e.g. a JSQuAD paragraph corpus)")
	files := fs.Int("files", 1000, "number of corpus files to crawl")
	rpms := fs.String("rpm", "600,6000", "comma-separated chat limits (requests per minute) to measure")
	tpm := fs.Int("tpm", 10_000_000, "chat tokens per minute")
	embedRPM := fs.Int("embed-rpm", 3000, "embedding requests per minute")
	embedTPM := fs.Int("embed-tpm", 10_000_000, "embedding tokens per minute")
	latency := fs.String("latency", "1s±300ms", "latency of every served request (a duration or a spread)")
	graphFolder := fs.String("graph-folder", "d00", "folder of the crawled corpus the graph build covers (\"\": no graph build)")
	unpaced := fs.Bool("unpaced", false, "also crawl as before the scheduler: 4 files at a time, one embeddings request per file")
	backend := fs.String("backend", "simple", "what answers the emulator: simple (cheap, deterministic) or offline (gds's offline provider)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *corpus == "" {
		return errors.New("--corpus is required")
	}
	base, jitter, err := openaitest.ParseLatency(*latency)
	if err != nil {
		return err
	}
	var be ai.Provider = openaitest.NewSimpleBackend(openaitest.DefaultSimpleDim)
	if *backend == "offline" {
		be = offline.New()
	}
	dir, err := os.MkdirTemp("", "gdsbench-ratelimit-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := copyCorpus(*corpus, filepath.Join(dir, "corpus"), *files); err != nil {
		return err
	}
	var results []rateResult
	for _, s := range strings.Split(*rpms, ",") {
		rpm, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || rpm < 1 {
			return fmt.Errorf("bad --rpm %q", s)
		}
		emu := func() *openaitest.Server {
			return openaitest.Start(openaitest.WithBackend(be), openaitest.WithLatencyRange(base, jitter),
				openaitest.WithRateLimits(openaitest.RateLimit{RPM: rpm, TPM: *tpm}, openaitest.RateLimit{RPM: *embedRPM, TPM: *embedTPM}))
		}
		jobs := []string{"crawl"}
		if *unpaced {
			jobs = append(jobs, "crawl-unpaced")
		}
		for _, job := range jobs {
			fmt.Fprintf(stderr, "ratelimit: %s of %d files at %d RPM, latency %s...\n", job, *files, rpm, *latency)
			srv := emu()
			r, idx, err := benchCrawl(ctx, srv, filepath.Join(dir, "corpus"), filepath.Join(dir, fmt.Sprintf("%s-%d.db", job, rpm)), job == "crawl-unpaced", be)
			if err != nil {
				srv.Close()
				return err
			}
			r.RPM = rpm
			results = append(results, r)
			if job == "crawl" && *graphFolder != "" {
				fmt.Fprintf(stderr, "ratelimit: graph build of folder %s at %d RPM...\n", *graphFolder, rpm)
				srv.Reset()
				g, err := benchGraph(ctx, srv, idx, *graphFolder, be)
				if err != nil {
					idx.Close()
					srv.Close()
					return err
				}
				g.RPM = rpm
				results = append(results, g)
			}
			idx.Close()
			srv.Close()
		}
	}
	for i := range results {
		r := &results[i]
		rate := r.Steady
		if r.Job == "graph-build" {
			rate = r.PerSec // a small build has no steady state worth the name
		}
		if r.RPM > 0 {
			r.OfLimit = rate / (float64(r.RPM) / 60)
		}
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(results)
	}
	fmt.Fprintf(stdout, "%-14s %6s %6s %6s %8s %8s %8s %9s %9s %10s %9s %8s %8s\n", "job", "RPM", "items", "failed", "seconds", "per s", "steady", "of limit",
		"chat req", "429 share", "steady429", "max/1s", "in/embed")
	for _, r := range results {
		fmt.Fprintf(stdout, "%-14s %6d %6d %6d %8.1f %8.2f %8.2f %8.0f%% %9d %9.2f%% %8.2f%% %8d %8.1f\n", r.Job, r.RPM, r.Items, r.Failed, r.Seconds, r.PerSec,
			r.Steady, 100*r.OfLimit, r.ChatRequests, 100*r.RefusedShare, 100*r.SteadyRefused, r.MaxPerSecond, r.InputsPerEmbed)
	}
	return nil
}

// unpacedProvider hides the provider's lanes from the crawl, which then
// runs as before the scheduler: Options.Concurrency summaries at once and
// one embeddings request per file.
type unpacedProvider struct{ ai.Provider }

// doneTimes records when each item finished.
type doneTimes struct {
	mu sync.Mutex
	t  []time.Time
}

func (d *doneTimes) Begin(int, bool) {}
func (d *doneTimes) File(_ crawl.Entry, s crawl.Status, _ string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s == crawl.StatusNew || s == crawl.StatusUpdated {
		d.t = append(d.t, time.Now())
	}
}

// steady is the rate between the 10 % and 90 % finish times.
func steady(t []time.Time) float64 {
	if len(t) < 10 {
		return 0
	}
	slices.SortFunc(t, func(a, b time.Time) int { return a.Compare(b) })
	lo, hi := len(t)/10, len(t)*9/10
	dt := t[hi].Sub(t[lo]).Seconds()
	if dt <= 0 {
		return 0
	}
	return float64(hi-lo) / dt
}

func newBenchProvider(ctx context.Context, srv *openaitest.Server, be ai.Provider) (*openai.Provider, error) {
	em := be.EmbeddingModel(ctx)
	return openai.New(openai.Config{BaseURL: srv.URL, EmbeddingModel: em.Name, EmbeddingDim: em.Dim,
		Timeout: 2 * time.Minute})
}

func benchCrawl(ctx context.Context, srv *openaitest.Server, corpus, dbPath string, unpaced bool, be ai.Provider) (rateResult, *sqlite.Store, error) {
	r := rateResult{Job: "crawl"}
	p, err := newBenchProvider(ctx, srv, be)
	if err != nil {
		return r, nil, err
	}
	var prov ai.Provider = p
	if unpaced {
		r.Job, prov = "crawl-unpaced", unpacedProvider{p}
	}
	src, err := crawl.NewLocalSource(corpus)
	if err != nil {
		return r, nil, err
	}
	idx, err := sqlite.Open(ctx, dbPath, sqlite.Options{})
	if err != nil {
		return r, nil, err
	}
	done := &doneTimes{}
	start := time.Now()
	sum, err := crawl.Run(ctx, crawl.Options{Source: src, Index: idx, Provider: prov, SummaryMaxLength: 200, Progress: done})
	if err != nil {
		idx.Close()
		return r, nil, err
	}
	r.Seconds = time.Since(start).Seconds()
	r.Items, r.Failed = sum.New+sum.Updated, len(sum.Failed)
	r.PerSec = float64(r.Items) / r.Seconds
	r.Steady = steady(done.t)
	requestStats(srv, &r)
	return r, idx, nil
}

// requestStats fills the request figures from what the emulator saw.
func requestStats(srv *openaitest.Server, r *rateResult) {
	chat := srv.RequestsTo(openaitest.PathChat)
	r.ChatRequests = len(chat)
	steadyFrom := len(chat) / 10
	steadyRefused := 0
	for i, q := range chat {
		if q.Status == http.StatusTooManyRequests {
			r.Refused++
			if i >= steadyFrom {
				steadyRefused++
			}
		}
	}
	if len(chat) > 0 {
		r.RefusedShare = float64(r.Refused) / float64(len(chat))
		r.SteadyRefused = float64(steadyRefused) / float64(len(chat)-steadyFrom)
	}
	for i := range chat {
		n := 0
		for j := i; j < len(chat) && chat[j].Time.Sub(chat[i].Time) < time.Second; j++ {
			n++
		}
		r.MaxPerSecond = max(r.MaxPerSecond, n)
	}
	inputs := 0
	for _, q := range srv.RequestsTo(openaitest.PathEmbeddings) {
		if q.Status == http.StatusOK {
			r.EmbedRequests++
			inputs += q.BatchSize
		}
	}
	if r.EmbedRequests > 0 {
		r.InputsPerEmbed = float64(inputs) / float64(r.EmbedRequests)
	}
}

// benchGraph builds the graph of folder with a fresh provider (its lanes
// learn the limits again) and measures the chat calls per second of the
// model-bound phases (extraction and reports).
func benchGraph(ctx context.Context, srv *openaitest.Server, idx *sqlite.Store, folder string, be ai.Provider) (rateResult, error) {
	r := rateResult{Job: "graph-build"}
	p, err := newBenchProvider(ctx, srv, be)
	if err != nil {
		return r, err
	}
	var (
		mu    sync.Mutex
		phase = map[string][2]time.Time{}
	)
	b := &graph.Builder{Index: idx, Graph: idx, Provider: p, Counter: tokens.O200k, Lang: "ja",
		OnProgress: func(pr graph.Progress) {
			mu.Lock()
			defer mu.Unlock()
			now := time.Now()
			ph := phase[pr.Phase]
			if ph[0].IsZero() {
				ph[0] = now
			}
			ph[1] = now
			phase[pr.Phase] = ph
		}}
	start := time.Now()
	st, err := b.Build(ctx, graph.BuildOptions{Folder: folder})
	if err != nil {
		return r, err
	}
	r.Seconds = time.Since(start).Seconds()
	r.Items = st.Extracted
	r.ChatCalls = st.ExtractCalls + st.ReportCalls
	var modelTime float64
	for _, name := range []string{graph.PhaseExtract, graph.PhaseReport} {
		if ph, ok := phase[name]; ok {
			modelTime += ph[1].Sub(ph[0]).Seconds()
		}
	}
	if modelTime > 0 {
		r.PerSec = float64(r.ChatCalls) / modelTime
	}
	requestStats(srv, &r)
	return r, nil
}
