package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// loopFlags are the flags of `gdsbench loop`.
type loopFlags struct {
	gds       string
	home      string
	files     int
	queries   int
	warmup    int
	seed      uint64
	embed     string
	corpus    []string
	questions []string
	fullLoop  bool
	asJSON    bool
	minimal   string
	compare   string
	optimize  bool
	env       []string
	compEnv   []string
}

// runLoopBench times whole gds processes against a synthetic index of
// --files files: `gds alfred filter QUESTION` (the Alfred keystroke path)
// and, with --full-loop, `gds search QUESTION` (the whole hybrid loop with
// the offline provider; stdin is not a terminal, so a clarifying question
// takes the no-answer policy). The baseline is `gds version`, timed in the
// same run, interleaved with the measured commands.
func runLoopBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f loopFlags
	fs := flag.NewFlagSet("gdsbench loop", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.gds, "gds", "", "the gds binary to time (build it with go build -o bin/gds ./cmd/gds)")
	fs.StringVar(&f.home, "home", "", "GDS_HOME holding the index; reused when it holds the same synthetic index (default: a temporary folder, removed afterwards)")
	fs.IntVar(&f.files, "files", 10000, "number of synthetic indexed files")
	fs.IntVar(&f.queries, "queries", 100, "timed runs of each command")
	fs.IntVar(&f.warmup, "warmup", 5, "untimed runs of each command first")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the pseudo-random choices")
	fs.StringVar(&f.embed, "embed", "offline", "how the index is built: offline (crawl with the offline provider: summaries, keywords, chunks, embeddings) or random (UpsertFile with random vectors, no chunks; enough for the keystroke path, much faster)")
	fs.Func("corpus", "directory of .txt files for file text (repeatable)", func(s string) error { f.corpus = append(f.corpus, s); return nil })
	fs.Func("questions", "query set (JSON Lines with \"query\") to draw typed queries from (repeatable)", func(s string) error { f.questions = append(f.questions, s); return nil })
	fs.BoolVar(&f.fullLoop, "full-loop", false, "also time gds search (the full loop; needs --embed offline)")
	fs.BoolVar(&f.asJSON, "json", false, "print the result as JSON")
	fs.StringVar(&f.minimal, "minimal", "", "also time this minimal Go binary (package main, empty main), interleaved, as the floor of process start (scripts/bench-startup.sh builds bin/gds-minimal)")
	fs.StringVar(&f.compare, "compare", "", "also time this other gds front binary's alfred filter QUERY (e.g. main's build), interleaved with the measured one, for a before/after in one run")
	fs.BoolVar(&f.optimize, "optimize", true, "merge the index's file full-text index into one segment before timing when it has more than a few, as a crawl that changed files does at its end (--optimize=false keeps the segments of a new index; a reused index that was merged stays merged)")
	fs.Func("env", "KEY=VALUE added to the environment of every timed command (repeatable), e.g. GOMAXPROCS=1 as the Alfred workflow sets it; the keystroke server the first keystroke starts inherits it", envFlag(&f.env))
	fs.Func("compare-env", "KEY=VALUE added to the environment of the --compare front's keystrokes only (repeatable); without --compare, the measured front is timed a second time, interleaved, with it", envFlag(&f.compEnv))
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f.gds == "" || len(f.corpus) == 0 || len(f.questions) == 0 {
		return fmt.Errorf("give --gds BINARY, at least one --corpus and one --questions file")
	}
	if f.embed != "offline" && f.embed != "random" || f.fullLoop && f.embed != "offline" {
		return fmt.Errorf("--embed is offline or random; --full-loop needs --embed offline")
	}
	if f.compare == "" && len(f.compEnv) > 0 {
		f.compare = f.gds
	}
	if f.files <= 0 || f.queries <= 0 || f.warmup < 0 {
		return fmt.Errorf("--files and --queries must be positive, --warmup not negative")
	}
	docs, err := loadCorpus(f.corpus)
	if err != nil {
		return err
	}
	qs, err := loadQuestions(f.questions)
	if err != nil {
		return err
	}
	if f.home == "" {
		dir, err := os.MkdirTemp("", "gdsbench-loop-*")
		if err != nil {
			return fmt.Errorf("create a temporary GDS_HOME: %w", err)
		}
		defer os.RemoveAll(dir)
		f.home = dir
	}
	if err := os.MkdirAll(f.home, 0o700); err != nil {
		return fmt.Errorf("create GDS_HOME: %w", err)
	}
	res := loopResult{Files: f.files, Embed: f.embed, Queries: f.queries, GOMAXPROCS: runtime.GOMAXPROCS(0), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		Env: f.env, CompareEnv: f.compEnv}
	if res.Reused, res.BuildSeconds, err = ensureLoopIndex(ctx, f, docs, stderr); err != nil {
		return err
	}
	if f.optimize {
		if res.Merged, res.OptimizeSeconds, err = optimizeLoopIndex(ctx, f.home); err != nil {
			return err
		}
	}

	env := append(os.Environ(), "GDS_HOME="+f.home, "GDS_AI_PROVIDER=offline", "LANG=C", "LC_ALL=", "GDS_DATABASE_URL=", "DATABASE_URL=")
	env = append(env, f.env...)
	rng := rand.New(rand.NewPCG(f.seed, 3))
	commands := []struct {
		name string
		args func(q string) []string
		into *stats
	}{
		{"baseline: gds version", func(string) []string { return []string{"version"} }, &res.Version},
		{"gds alfred filter QUERY", func(q string) []string { return []string{"alfred", "filter", q} }, &res.AlfredFilter},
		{"alfred filter, no server (gds-core)", func(q string) []string { return []string{"alfred", "filter", q} }, &res.AlfredDirect},
	}
	// The keystroke server (keystroke.Serve) the first keystroke starts: stopped
	// before timing, so the measured build starts its own, and after.
	stopKeyServer(f.home)
	defer stopKeyServer(f.home)
	off := map[int]bool{2: true}  // commands run with the server off
	compareAt, searchAt := -1, -1 // the --compare command's index, the served search's
	envOf := func(c int) []string {
		switch {
		case off[c]:
			return append(env[:len(env):len(env)], launcher.KeyServerEnv+"=off")
		case c == compareAt:
			return append(env[:len(env):len(env)], f.compEnv...)
		}
		return env
	}
	if f.fullLoop {
		commands = append(commands, struct {
			name string
			args func(q string) []string
			into *stats
		}{"gds search QUERY", func(q string) []string { return []string{"search", q} }, &res.Search},
			struct {
				name string
				args func(q string) []string
				into *stats
			}{"search, no server (gds-core)", func(q string) []string { return []string{"search", q} }, &res.SearchDirect})
		off[len(commands)-1] = true
		searchAt = len(commands) - 2
	}
	bins := make([]string, len(commands))
	for c := range bins {
		bins[c] = f.gds
	}
	if f.compare != "" {
		compareAt = len(commands)
		commands = append(commands, struct {
			name string
			args func(q string) []string
			into *stats
		}{"compare: gds alfred filter QUERY", func(q string) []string { return []string{"alfred", "filter", q} }, &res.Compare})
		bins = append(bins, f.compare)
	}
	if f.minimal != "" {
		commands = append(commands, struct {
			name string
			args func(q string) []string
			into *stats
		}{"minimal Go binary", func(string) []string { return nil }, &res.Minimal})
		bins = append(bins, f.minimal)
	}
	res.LoadBefore = loadAverage()
	times := make([][]time.Duration, len(commands))
	cpus := make([][]time.Duration, len(commands))
	// Two phases, each interleaved — so load changes hit its commands
	// alike — in a new order each round (a command right after another runs
	// on the caches and CPUs that one left): first the served keystrokes and
	// their baselines, as Alfred runs keystroke after keystroke; then the
	// heavy commands (the no-server keystroke, gds-core's 70 ms and more,
	// and the full loop), which would otherwise slow whatever follows them.
	var light, heavy []int
	for c := range commands {
		if off[c] || c == searchAt {
			heavy = append(heavy, c)
		} else {
			light = append(light, c)
		}
	}
	phase := func(group []int) (serverCPU time.Duration, err error) {
		var cpu0 time.Duration
		for i := range f.warmup + f.queries {
			if i == f.warmup {
				// The server the warm-up started holds the index's full text
				// in memory once it has read it: time the steady state.
				if d := settleKeyServer(f.home, 2*time.Minute).Seconds(); res.SettleSeconds == 0 {
					res.SettleSeconds = d
				}
				cpu0 = keyServerCPU(f.home)
			}
			for _, j := range rng.Perm(len(group)) {
				c := group[j]
				cmd := commands[c]
				// Each command its own question: the keystroke server caches a
				// question's ranking, and the two fronts (--compare) share it.
				q := qs[rng.IntN(len(qs))]
				t0 := time.Now()
				out, cpu, err := runTimed(ctx, bins[c], envOf(c), cmd.args(q))
				el := time.Since(t0)
				if err != nil {
					return 0, fmt.Errorf("%s %q: %w\n%s", cmd.name, q, err, out)
				}
				if i >= f.warmup {
					times[c] = append(times[c], el)
					cpus[c] = append(cpus[c], cpu)
				}
			}
		}
		return keyServerCPU(f.home) - cpu0, nil
	}
	keyCPU, err := phase(light)
	if err != nil {
		return err
	}
	searchCPU, err := phase(heavy)
	if err != nil {
		return err
	}
	res.LoadAfter = loadAverage()
	// The server answers the measured front's keystrokes and --compare's
	// when it is the same build (it is not refused); with --full-loop, the
	// served searches of the second phase.
	served := f.queries
	if f.compare != "" {
		served += f.queries
	}
	if keyCPU > 0 {
		res.ServerCPUPerKeystroke = ms(keyCPU) / float64(served)
	}
	if f.fullLoop && searchCPU > 0 {
		res.ServerCPUPerSearch = ms(searchCPU) / float64(f.queries)
	}
	for c, cmd := range commands {
		*cmd.into = summarize(times[c])
		res.CPU = append(res.CPU, cpuRow{Command: cmd.name, P50: summarize(cpus[c]).P50})
	}
	if f.minimal != "" {
		for i := range res.CPU {
			res.CPU[i].Ratio = res.CPU[i].P50 / res.CPU[len(res.CPU)-1].P50
		}
		res.AlfredRatioMinimalP50 = res.AlfredFilter.P50 / res.Minimal.P50
		if f.compare != "" {
			res.CompareRatioMinimalP50 = res.Compare.P50 / res.Minimal.P50
		}
	}
	res.AlfredRatioP95 = res.AlfredFilter.P95 / res.Version.P95
	if f.fullLoop {
		res.SearchRatioP95 = res.Search.P95 / res.Version.P95
	}
	if f.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(stdout, "gdsbench loop: %d files (index: %s, reused %v), %d timed runs per command, whole processes, GOMAXPROCS %d (%s/%s)\n",
		res.Files, res.Embed, res.Reused, res.Queries, res.GOMAXPROCS, res.GOOS, res.GOARCH)
	if len(f.env) > 0 || len(f.compEnv) > 0 {
		fmt.Fprintf(stdout, "environment added: %q; to the compare front's: %q\n", res.Env, res.CompareEnv)
	}
	if res.Merged {
		fmt.Fprintf(stdout, "file full-text index merged into one segment before timing (%.1f s)\n", res.OptimizeSeconds)
	}
	fmt.Fprintf(stdout, "%-26s %8s %8s %8s %8s %12s\n", "command", "p50 ms", "p95 ms", "p99 ms", "max ms", "p95 / base")
	row := func(name string, s stats, ratio float64) {
		fmt.Fprintf(stdout, "%-26s %8.1f %8.1f %8.1f %8.1f %11.2fx\n", name, s.P50, s.P95, s.P99, s.Max, ratio)
	}
	row("gds version (baseline)", res.Version, 1)
	row("gds alfred filter QUERY", res.AlfredFilter, res.AlfredRatioP95)
	row("alfred filter, no server (gds-core)", res.AlfredDirect, res.AlfredDirect.P95/res.Version.P95)
	if f.fullLoop {
		row("gds search QUERY", res.Search, res.SearchRatioP95)
		row("search, no server (gds-core)", res.SearchDirect, res.SearchDirect.P95/res.Version.P95)
	}
	if f.compare != "" {
		row("compare: alfred filter", res.Compare, res.Compare.P95/res.Version.P95)
	}
	if f.minimal != "" {
		row("minimal Go binary", res.Minimal, res.Minimal.P95/res.Version.P95)
		fmt.Fprintf(stdout, "gds alfred filter p50 / minimal Go binary p50: %.2fx (no server: %.2fx)\n", res.AlfredRatioMinimalP50, res.AlfredDirect.P50/res.Minimal.P50)
		if f.compare != "" {
			fmt.Fprintf(stdout, "compare: alfred filter p50 / minimal Go binary p50: %.2fx\n", res.CompareRatioMinimalP50)
		}
	}
	fmt.Fprintf(stdout, "CPU time per process (user + system, p50):")
	for _, c := range res.CPU {
		fmt.Fprintf(stdout, "  %s %.1f ms", c.Command, c.P50)
		if c.Ratio > 0 {
			fmt.Fprintf(stdout, " (%.2fx)", c.Ratio)
		}
	}
	fmt.Fprintf(stdout, "\nkeystroke server settled %.1f s after the warm-up (it reads the index's full text into memory)", res.SettleSeconds)
	if res.ServerCPUPerKeystroke > 0 {
		fmt.Fprintf(stdout, "\nkeystroke server CPU per served keystroke (mean over the timed runs): %.1f ms", res.ServerCPUPerKeystroke)
	}
	if res.ServerCPUPerSearch > 0 {
		fmt.Fprintf(stdout, "\nkeystroke server CPU per served gds search (mean over the timed runs): %.1f ms", res.ServerCPUPerSearch)
	}
	fmt.Fprintf(stdout, "\nload average: %s before, %s after\n", res.LoadBefore, res.LoadAfter)
	return nil
}

// loopResult is the output of gdsbench loop.
type loopResult struct {
	Files      int    `json:"files"`
	Embed      string `json:"embed"`
	Queries    int    `json:"queries"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	Reused     bool   `json:"index_reused"`
	// Env is --env (every timed command's), CompareEnv --compare-env.
	Env        []string `json:"env,omitempty"`
	CompareEnv []string `json:"compare_env,omitempty"`
	// Merged: the file full-text index was merged into one segment
	// (--optimize, more than a few segments), in OptimizeSeconds.
	Merged          bool    `json:"fts_merged,omitempty"`
	OptimizeSeconds float64 `json:"optimize_seconds,omitempty"`
	BuildSeconds    float64 `json:"build_seconds,omitempty"`
	Version         stats   `json:"gds_version_baseline"`
	AlfredFilter    stats   `json:"gds_alfred_filter"`
	// AlfredDirect is the keystroke answered by the front itself
	// (GDS_KEYSTROKE_SERVER=off), interleaved with the served one.
	AlfredDirect stats `json:"gds_alfred_filter_no_server"`
	// ServerCPUPerKeystroke is the keystroke server's CPU time (ms) over
	// the timed runs divided by the keystrokes it served (both fronts' with
	// --compare; 0 where it cannot be read).
	ServerCPUPerKeystroke float64 `json:"server_cpu_ms_per_keystroke,omitempty"`
	// ServerCPUPerSearch is, with --full-loop, its CPU time over the timed
	// runs of the second phase divided by the searches it served.
	ServerCPUPerSearch float64 `json:"server_cpu_ms_per_search,omitempty"`
	// SettleSeconds is how long the keystroke server started by the
	// warm-up took to settle (to read the index's full text into memory)
	// before the timed runs.
	SettleSeconds float64 `json:"server_settle_seconds"`
	Search        stats   `json:"gds_search,omitempty"`
	// SearchDirect is gds search with the keystroke server off: gds-core
	// runs the loop (the served run is Search).
	SearchDirect   stats   `json:"gds_search_no_server,omitempty"`
	AlfredRatioP95 float64 `json:"alfred_filter_ratio_p95"`
	SearchRatioP95 float64 `json:"search_ratio_p95,omitempty"`
	// With --minimal: the minimal Go binary timed in the same run, and the
	// keystroke's p50 as a multiple of its p50 (the target: ≤ 3×).
	Minimal               stats   `json:"minimal_go_binary,omitempty"`
	AlfredRatioMinimalP50 float64 `json:"alfred_filter_ratio_minimal_p50,omitempty"`
	// With --compare: the other front binary's keystroke, interleaved.
	Compare                stats   `json:"compare_alfred_filter,omitempty"`
	CompareRatioMinimalP50 float64 `json:"compare_alfred_filter_ratio_minimal_p50,omitempty"`
	// CPU is each command's median CPU time (ratios to the minimal
	// binary's with --minimal), less sensitive to load than wall time.
	CPU        []cpuRow `json:"cpu"`
	LoadBefore string   `json:"load_average_before,omitempty"`
	LoadAfter  string   `json:"load_average_after,omitempty"`
}

// envFlag is a flag.Func that appends a KEY=VALUE to *list.
func envFlag(list *[]string) func(string) error {
	return func(s string) error {
		if k, _, ok := strings.Cut(s, "="); !ok || k == "" {
			return fmt.Errorf("want KEY=VALUE, not %q", s)
		}
		*list = append(*list, s)
		return nil
	}
}

func runGDS(ctx context.Context, bin string, env, args []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	cmd.Stdin = nil
	return cmd.CombinedOutput()
}

// loadQuestions reads the "query" of every line of JSON Lines files.
func loadQuestions(files []string) ([]string, error) {
	var out []string
	for _, name := range files {
		fh, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("open questions: %w", err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			var q struct {
				Query string `json:"query"`
			}
			if json.Unmarshal(sc.Bytes(), &q) == nil && strings.TrimSpace(q.Query) != "" {
				out = append(out, strings.TrimSpace(q.Query))
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no questions in %s", strings.Join(files, ", "))
	}
	return out, nil
}

// optimizeLoopIndex merges the index's file full-text index into one
// segment when it has more than a few, as app.Crawl does after a crawl
// that changed files.
func optimizeLoopIndex(ctx context.Context, home string) (merged bool, seconds float64, err error) {
	s, err := sqlite.Open(ctx, filepath.Join(home, "index.db"), sqlite.Options{})
	if err != nil {
		return false, 0, err
	}
	defer s.Close()
	start := time.Now()
	if merged, err = s.OptimizeText(ctx); err != nil {
		return false, 0, err
	}
	return merged, time.Since(start).Seconds(), nil
}

// ensureLoopIndex builds GDS_HOME/index.db unless it already holds the
// same synthetic index (recorded in the sync state's fingerprint).
func ensureLoopIndex(ctx context.Context, f loopFlags, docs []doc, progress io.Writer) (reused bool, seconds float64, err error) {
	sf := storeFlags{files: f.files, dim: 256, seed: f.seed}
	fp := fingerprint(sf, docs) + " loop-embed=" + f.embed
	path := filepath.Join(f.home, "index.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		return false, 0, err
	}
	defer s.Close()
	st, err := s.Stats(ctx)
	if err != nil {
		return false, 0, fmt.Errorf("read index stats: %w", err)
	}
	src := &syntheticSource{f: sf, docs: docs, fp: fp}
	if st.Files == f.files && st.Sync.Fingerprint == fp {
		return true, 0, nil
	}
	fmt.Fprintf(progress, "building a synthetic index of %d files (%s) in %s...\n", f.files, f.embed, path)
	start := time.Now()
	if f.embed == "random" {
		if err := buildIndex(ctx, s, sf, docs, fp, progress); err != nil {
			return false, 0, err
		}
		return false, time.Since(start).Seconds(), nil
	}
	if err := s.Reset(ctx); err != nil {
		return false, 0, fmt.Errorf("reset the index: %w", err)
	}
	sum, err := crawl.Run(ctx, crawl.Options{Source: src, Index: s, Provider: offline.New(), SummaryMaxLength: 200, Concurrency: runtime.GOMAXPROCS(0), Full: true})
	if err != nil {
		return false, 0, fmt.Errorf("crawl the synthetic files: %w", err)
	}
	if len(sum.Failed) > 0 {
		return false, 0, fmt.Errorf("%d synthetic files failed: %v", len(sum.Failed), sum.Failed[0])
	}
	// Record the benchmark's fingerprint next to the crawl's checkpoint.
	states, err := s.SyncStates(ctx)
	if err != nil {
		return false, 0, err
	}
	cur := store.LatestSync(states)
	cur.Fingerprint = fp
	if err := s.SetSyncState(ctx, cur); err != nil {
		return false, 0, err
	}
	return false, time.Since(start).Seconds(), nil
}

// syntheticSource serves the synthetic files to the crawler from memory,
// as plain-text files named after their article.
type syntheticSource struct {
	f    storeFlags
	docs []doc
	fp   string
}

func (s *syntheticSource) Kind() string        { return "local" }
func (s *syntheticSource) Fingerprint() string { return "gdsbench:" + s.fp }

func (s *syntheticSource) List(ctx context.Context, since time.Time, fn func(crawl.Entry) error) error {
	for i := range s.f.files {
		if err := ctx.Err(); err != nil {
			return err
		}
		sf := syntheticFile(i, s.f, s.docs)
		if err := fn(crawl.Entry{ID: sf.ID, Name: sf.Name + ".txt", MimeType: "text/plain", ModifiedAt: sf.ModifiedAt,
			Size: sf.Size, Path: sf.Path, Parents: sf.Parents, WebLink: sf.WebLink}); err != nil {
			return err
		}
	}
	return nil
}

func (s *syntheticSource) Open(_ context.Context, e crawl.Entry) (io.ReadCloser, error) {
	var i int
	if _, err := fmt.Sscanf(e.ID, "bench-%06d", &i); err != nil {
		return nil, fmt.Errorf("synthetic file %q: %w", e.ID, err)
	}
	return io.NopCloser(strings.NewReader(syntheticFile(i, s.f, s.docs).Text)), nil
}
