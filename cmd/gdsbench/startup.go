package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// startupFlags are the flags of `gdsbench startup`.
type startupFlags struct {
	gds       string
	core      string
	minimal   string
	sample    string
	runs      int
	warmup    int
	inittrace int
	queries   []string
	asJSON    bool
}

// defaultStartupQueries are typed into the keystroke path in turn: words
// of the sample corpus (testdata/sample), Japanese and English.
var defaultStartupQueries = []string{"梅雨", "steam engine", "Tesla", "ポルトガル", "immune system"}

// runStartupBench times whole processes, interleaved in one run: a minimal
// Go binary (an empty main, the floor of process start on this machine),
// `gds version` and `gds alfred filter QUERY` (the Alfred keystroke path)
// against a small index of --sample built first with `gds crawl` and the
// offline provider, and — given --core — the full CLI's `version` for
// reference. In the installed layout --gds is the front binary
// (cmd/gds-front) with gds-core beside it, so the crawl goes through the
// front's hand-over. It reports medians and the ratio of each to the
// minimal binary, and the package initialisation each runs before main,
// read from GODEBUG=inittrace=1.
func runStartupBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f startupFlags
	fs := flag.NewFlagSet("gdsbench startup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.gds, "gds", "", "the installed gds: the front binary (go build -o bin/gds ./cmd/gds-front, with bin/gds-core beside it) or a full CLI")
	fs.StringVar(&f.core, "core", "", "the full CLI (go build -o bin/gds-core ./cmd/gds), timed for reference; empty: skip it")
	fs.StringVar(&f.minimal, "minimal", "", "a minimal Go binary (package main, empty main) built with the same Go")
	fs.StringVar(&f.sample, "sample", "testdata/sample", "folder indexed (gds crawl --source local:FOLDER, offline provider) for the keystroke path; empty: skip it")
	fs.IntVar(&f.runs, "runs", 50, "timed runs of each command")
	fs.IntVar(&f.warmup, "warmup", 5, "untimed runs of each command first")
	fs.IntVar(&f.inittrace, "inittrace", 10, "runs of gds version with GODEBUG=inittrace=1 (0: skip)")
	fs.Func("query", "a query typed into the keystroke path (repeatable; default: a few words of testdata/sample)", func(s string) error { f.queries = append(f.queries, s); return nil })
	fs.BoolVar(&f.asJSON, "json", false, "print the result as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f.gds == "" || f.minimal == "" {
		return fmt.Errorf("give --gds BINARY and --minimal BINARY")
	}
	if f.runs <= 0 || f.warmup < 0 || f.inittrace < 0 {
		return fmt.Errorf("--runs must be positive, --warmup and --inittrace not negative")
	}
	if len(f.queries) == 0 {
		f.queries = defaultStartupQueries
	}
	home, err := os.MkdirTemp("", "gdsbench-startup-*")
	if err != nil {
		return fmt.Errorf("create a temporary GDS_HOME: %w", err)
	}
	defer os.RemoveAll(home)
	env := append(os.Environ(), "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "LANG=C", "LC_ALL=", "LC_MESSAGES=",
		"GDS_DATABASE_URL=", "DATABASE_URL=", "SUPABASE_DB_URL=", "GDS_SOURCE=", "GODEBUG=")

	res := startupResult{Runs: f.runs, GOMAXPROCS: runtime.GOMAXPROCS(0), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, LoadBefore: loadAverage()}
	if f.sample != "" {
		fmt.Fprintf(stderr, "indexing %s into a temporary GDS_HOME (gds crawl, offline provider)...\n", f.sample)
		if out, err := runGDS(ctx, f.gds, env, []string{"crawl", "--source", "local:" + f.sample}); err != nil {
			return fmt.Errorf("gds crawl --source local:%s: %w\n%s", f.sample, err, out)
		}
		res.Sample = f.sample
	}

	type command struct {
		name string
		bin  string
		args func(i int) []string
		into *stats
	}
	cpu := map[string]*stats{}
	commands := []command{
		{"minimal Go binary", f.minimal, func(int) []string { return nil }, &res.Minimal},
		{"gds version", f.gds, func(int) []string { return []string{"version"} }, &res.Version},
	}
	if f.sample != "" {
		commands = append(commands, command{"gds alfred filter QUERY", f.gds,
			func(i int) []string { return []string{"alfred", "filter", f.queries[i%len(f.queries)]} }, &res.AlfredFilter})
	}
	if f.core != "" {
		res.CoreTimed = true
		commands = append(commands, command{"gds-core version", f.core, func(int) []string { return []string{"version"} }, &res.CoreVersion})
	}
	times := make([][]time.Duration, len(commands))
	cpus := make([][]time.Duration, len(commands))
	for i := range f.warmup + f.runs {
		for c, cmd := range commands { // interleaved, so load changes hit every command alike
			t0 := time.Now()
			out, used, err := runTimed(ctx, cmd.bin, env, cmd.args(i))
			el := time.Since(t0)
			if err != nil {
				return fmt.Errorf("%s: %w\n%s", cmd.name, err, out)
			}
			if i >= f.warmup {
				times[c] = append(times[c], el)
				cpus[c] = append(cpus[c], used)
			}
		}
	}
	for c, cmd := range commands {
		*cmd.into = summarize(times[c])
		st := summarize(cpus[c])
		cpu[cmd.name] = &st
	}
	res.CPU = make([]cpuRow, 0, len(commands))
	for _, cmd := range commands {
		res.CPU = append(res.CPU, cpuRow{Command: cmd.name, P50: cpu[cmd.name].P50, Ratio: cpu[cmd.name].P50 / cpu[commands[0].name].P50})
	}
	res.VersionRatio = res.Version.P50 / res.Minimal.P50
	if f.sample != "" {
		res.AlfredFilterRatio = res.AlfredFilter.P50 / res.Minimal.P50
	}
	if f.core != "" {
		res.CoreVersionRatio = res.CoreVersion.P50 / res.Minimal.P50
	}
	if f.inittrace > 0 {
		if res.Init, err = traceInit(ctx, f.gds, env, f.inittrace); err != nil {
			return err
		}
		if f.core != "" {
			if res.CoreInit, err = traceInit(ctx, f.core, env, f.inittrace); err != nil {
				return err
			}
		}
	}
	res.LoadAfter = loadAverage()

	if f.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	res.print(stdout)
	return nil
}

// startupResult is the output of gdsbench startup. Times are milliseconds
// of wall time per whole process (fork, exec, run, exit).
type startupResult struct {
	Runs              int        `json:"runs"`
	GOMAXPROCS        int        `json:"gomaxprocs"`
	GOOS              string     `json:"goos"`
	GOARCH            string     `json:"goarch"`
	LoadBefore        string     `json:"load_average_before,omitempty"`
	LoadAfter         string     `json:"load_average_after,omitempty"`
	Sample            string     `json:"sample,omitempty"`
	Minimal           stats      `json:"minimal"`
	Version           stats      `json:"gds_version"`
	AlfredFilter      stats      `json:"gds_alfred_filter,omitempty"`
	CoreVersion       stats      `json:"gds_core_version,omitempty"`
	VersionRatio      float64    `json:"gds_version_ratio_p50"`
	AlfredFilterRatio float64    `json:"gds_alfred_filter_ratio_p50,omitempty"`
	CoreVersionRatio  float64    `json:"gds_core_version_ratio_p50,omitempty"`
	CoreTimed         bool       `json:"-"`
	CPU               []cpuRow   `json:"cpu"`
	Init              *initTrace `json:"init,omitempty"`
	CoreInit          *initTrace `json:"core_init,omitempty"`
}

// cpuRow is the median CPU time (user + system) of one command's
// processes, less sensitive to the machine's load than wall time.
type cpuRow struct {
	Command string  `json:"command"`
	P50     float64 `json:"p50_ms"`
	Ratio   float64 `json:"p50_ratio_to_minimal"`
}

// runTimed runs bin and returns its output and the CPU time (user + system)
// the process used.
func runTimed(ctx context.Context, bin string, env, args []string) ([]byte, time.Duration, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	var used time.Duration
	if cmd.ProcessState != nil {
		used = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return out, used, err
}

func (r startupResult) print(w io.Writer) {
	fmt.Fprintf(w, "gdsbench startup: %d timed runs per command, interleaved; whole processes; GOMAXPROCS %d (%s/%s)",
		r.Runs, r.GOMAXPROCS, r.GOOS, r.GOARCH)
	if r.LoadBefore != "" {
		fmt.Fprintf(w, "; load average %s before, %s after", r.LoadBefore, r.LoadAfter)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-26s %8s %8s %8s %8s %16s\n", "command", "p50 ms", "p95 ms", "mean ms", "max ms", "p50 / minimal")
	row := func(name string, s stats, ratio float64) {
		fmt.Fprintf(w, "%-26s %8.1f %8.1f %8.1f %8.1f %15.2fx\n", name, s.P50, s.P95, s.Mean, s.Max, ratio)
	}
	row("minimal Go binary", r.Minimal, 1)
	row("gds version", r.Version, r.VersionRatio)
	if r.Sample != "" {
		row("gds alfred filter QUERY", r.AlfredFilter, r.AlfredFilterRatio)
	}
	if r.CoreTimed {
		row("gds-core version", r.CoreVersion, r.CoreVersionRatio)
	}
	if len(r.CPU) > 0 {
		fmt.Fprintf(w, "CPU time per process (user + system, p50):")
		for _, c := range r.CPU {
			fmt.Fprintf(w, "  %s %.1f ms (%.2fx)", c.Command, c.P50, c.Ratio)
		}
		fmt.Fprintln(w)
	}
	if r.Init != nil {
		t := r.Init
		fmt.Fprintf(w, "package init before main (gds version, GODEBUG=inittrace=1, mean of %d runs): %.2f ms clock, %.0f KB allocated, %d packages; gds's own: %.2f ms, %.0f KB\n",
			t.Runs, t.TotalMS, t.TotalKB, t.Packages, t.OwnMS, t.OwnKB)
		for _, p := range t.Top {
			fmt.Fprintf(w, "  %7.2f ms %8.1f KB  %s\n", p.MS, p.KB, p.Package)
		}
	}
	if t := r.CoreInit; t != nil {
		fmt.Fprintf(w, "for reference, gds-core version: %.2f ms clock, %.0f KB allocated, %d packages in package init\n", t.TotalMS, t.TotalKB, t.Packages)
	}
}

// initTrace sums the GODEBUG=inittrace=1 lines of several runs.
type initTrace struct {
	Runs     int          `json:"runs"`
	Packages int          `json:"packages"`
	TotalMS  float64      `json:"total_ms"`
	TotalKB  float64      `json:"total_kb"`
	OwnMS    float64      `json:"gds_packages_ms"` // packages of module github.com/gds-cli/gds
	OwnKB    float64      `json:"gds_packages_kb"`
	Top      []initRecord `json:"top"` // the 15 costliest, by mean clock time
}

// initRecord is one package's mean initialisation cost.
type initRecord struct {
	Package string  `json:"package"`
	MS      float64 `json:"ms"`
	KB      float64 `json:"kb"`
}

// gdsModule prefixes the import paths of gds's own packages ("main" is
// cmd/gds).
const gdsModule = "github.com/gds-cli/gds/"

func traceInit(ctx context.Context, bin string, env []string, runs int) (*initTrace, error) {
	sum := map[string]*initRecord{}
	for range runs {
		cmd := exec.CommandContext(ctx, bin, "version")
		cmd.Env = append(slices.Clone(env), "GODEBUG=inittrace=1")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("GODEBUG=inittrace=1 gds version: %w\n%s", err, errb.String())
		}
		for _, r := range parseInitTrace(errb.Bytes()) {
			s := sum[r.Package]
			if s == nil {
				s = &initRecord{Package: r.Package}
				sum[r.Package] = s
			}
			s.MS += r.MS
			s.KB += r.KB
		}
	}
	t := &initTrace{Runs: runs, Packages: len(sum)}
	all := make([]initRecord, 0, len(sum))
	for _, s := range sum {
		r := initRecord{Package: s.Package, MS: s.MS / float64(runs), KB: s.KB / float64(runs)}
		all = append(all, r)
		t.TotalMS += r.MS
		t.TotalKB += r.KB
		if r.Package == "main" || strings.HasPrefix(r.Package, gdsModule) {
			t.OwnMS += r.MS
			t.OwnKB += r.KB
		}
	}
	slices.SortFunc(all, func(a, b initRecord) int {
		if a.MS != b.MS {
			if a.MS > b.MS {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Package, b.Package)
	})
	t.Top = all[:min(15, len(all))]
	return t, nil
}

// parseInitTrace reads the runtime's inittrace lines:
//
//	init internal/bytealg @0.008 ms, 0 ms clock, 0 bytes, 0 allocs
func parseInitTrace(b []byte) []initRecord {
	var out []initRecord
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 9 || f[0] != "init" || f[3] != "ms," || f[5] != "ms" || f[6] != "clock," || f[8] != "bytes," {
			continue
		}
		msClock, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			continue
		}
		bytesN, err := strconv.ParseFloat(f[7], 64)
		if err != nil {
			continue
		}
		out = append(out, initRecord{Package: f[1], MS: msClock, KB: bytesN / 1024})
	}
	return out
}

// loadAverage is the 1-, 5- and 15-minute load average (Linux), or "".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
