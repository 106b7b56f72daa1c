package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/eval"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/render/textwidth"
	"github.com/gds-cli/gds/internal/search"
)

// evalOptions are the parsed flags of `gds eval`.
type evalOptions struct {
	Corpus   string
	Queries  string
	JSON     bool
	Baseline string // "" (the hybrid loop) or "bm25"
	Limit    int    // first N queries; 0 = all
	Home     string // where evaluation indexes live; "" = <GDS_HOME>/eval
	Provider string // AI provider of the loop and the index
	Workers  int
	Details  string // write per-query results (JSON Lines) to this file
}

func newEvalCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "eval",
		Usage:       d.T("cmd.eval.usage"),
		Description: d.T("cmd.eval.desc"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "corpus", Usage: d.T("flag.eval.corpus")},
			&cli.StringFlag{Name: "queries", Usage: d.T("flag.eval.queries")},
			jsonFlag(d),
			&cli.StringFlag{Name: "baseline", Usage: d.T("flag.eval.baseline")},
			&cli.IntFlag{Name: "limit", Usage: d.T("flag.eval.limit")},
			&cli.StringFlag{Name: "home", Usage: d.T("flag.eval.home")},
			&cli.StringFlag{Name: "provider", Value: config.ProviderOffline, Usage: d.T("flag.eval.provider")},
			&cli.IntFlag{Name: "workers", Value: 1, Usage: d.T("flag.eval.workers")},
			&cli.StringFlag{Name: "details", Usage: d.T("flag.eval.details")},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := checkNoArgs(d, cmd); err != nil {
				return err
			}
			return runEval(ctx, d, evalOptions{
				Corpus:   cmd.String("corpus"),
				Queries:  cmd.String("queries"),
				JSON:     cmd.Bool("json"),
				Baseline: cmd.String("baseline"),
				Limit:    cmd.Int("limit"),
				Home:     cmd.String("home"),
				Provider: cmd.String("provider"),
				Workers:  cmd.Int("workers"),
				Details:  cmd.String("details"),
			})
		},
	}
}

// runEval indexes the corpus (or reuses its index), runs the query set
// through the hybrid loop or the BM25 baseline and prints the metrics.
func runEval(ctx context.Context, d *app.Deps, opts evalOptions) error {
	if opts.Corpus == "" || opts.Queries == "" {
		return usageError{err: errors.New(d.T("eval.need_corpus_queries"))}
	}
	if opts.Baseline != "" && opts.Baseline != "bm25" {
		return usageError{err: errors.New(d.T("eval.bad_baseline", opts.Baseline))}
	}
	if opts.Limit < 0 || opts.Workers < 1 {
		return usageError{err: errors.New(d.T("eval.bad_number"))}
	}
	cfg, err := d.RequireConfig()
	if err != nil {
		return err
	}
	queries, err := readQueryFile(opts.Queries)
	if err != nil {
		return err
	}
	if opts.Limit > 0 && opts.Limit < len(queries) {
		queries = queries[:opts.Limit]
	}
	prov, err := evalProvider(cfg, opts.Provider)
	if err != nil {
		return usageError{err: err}
	}
	home := opts.Home
	if home == "" {
		home = filepath.Join(cfg.DataDir, "eval")
	}
	ix, err := eval.OpenIndex(ctx, eval.IndexOptions{
		Corpus:           opts.Corpus,
		Dir:              home,
		Provider:         prov,
		SummaryMaxLength: cfg.SummaryMaxLength,
		Concurrency:      cfg.CrawlConcurrency,
		Progress:         evalIndexProgress(d),
		Now:              d.Now,
	})
	if err != nil {
		return err
	}
	defer ix.Store.Close()
	stats, err := ix.Store.Stats(ctx)
	if err != nil {
		return err
	}
	if ix.Reused {
		fmt.Fprintln(d.Stderr, d.T("eval.index.reused", stats.Files, ix.Path))
	} else {
		fmt.Fprintln(d.Stderr, d.T("eval.index.built", stats.Files, ix.Path))
	}

	var sys eval.System
	if opts.Baseline == "bm25" {
		sys = eval.BM25System{Index: ix.Store}
	} else {
		sys = eval.LoopSystem{
			Loop:     &search.Loop{Keywords: search.StoreSearcher{Index: ix.Store}, Index: ix.Store, AI: prov, Asker: search.NoAnswer{}},
			Lang:     d.Lang,
			MaxLoops: cfg.SearchMaxLoopCount,
			Now:      d.Now,
		}
	}
	rep, results, err := eval.Run(ctx, sys, queries, eval.Options{
		Workers:  opts.Workers,
		Progress: evalProgress(d.Stderr, isTerminal(d.Stderr), d.Lang),
	})
	if err != nil {
		return err
	}
	if opts.Details != "" {
		if err := writeEvalDetails(opts.Details, results); err != nil {
			return err
		}
	}
	if opts.JSON {
		enc := json.NewEncoder(d.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printEvalReport(d, rep, opts)
	return nil
}

// evalDetail is one line of --details.
type evalDetail struct {
	ID       string   `json:"id"`
	Query    string   `json:"query"`
	Relevant []string `json:"relevant"`
	Rank     int      `json:"rank"` // 0: not returned
	Files    []string `json:"files"`
	Loops    int      `json:"loops"`
	End      string   `json:"end"`
	Trace    []string `json:"trace,omitempty"`
	MS       float64  `json:"ms"`
}

// writeEvalDetails writes every query's result as JSON Lines.
func writeEvalDetails(name string, results []eval.QueryResult) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("write --details: %w", err)
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, r := range results {
		if err := enc.Encode(evalDetail{ID: r.Query.ID, Query: r.Query.Query, Relevant: r.Query.Relevant, Rank: r.Rank,
			Files: r.Ranked.Files, Loops: r.Ranked.Loops, End: r.Ranked.End, Trace: r.Ranked.Trace,
			MS: float64(r.Ranked.Elapsed.Microseconds()) / 1000}); err != nil {
			f.Close()
			return fmt.Errorf("write --details: %w", err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write --details: %w", err)
	}
	return nil
}

func readQueryFile(name string) ([]eval.Query, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("open the query set: %w", err)
	}
	defer f.Close()
	qs, err := eval.ReadQueries(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: no queries", name)
	}
	return qs, nil
}

// evalProvider builds the named provider with the configuration's
// settings (model names, keys) for everything else.
func evalProvider(cfg *config.Config, name string) (ai.Provider, error) {
	switch name {
	case config.ProviderOffline, config.ProviderOpenAI:
	default:
		return nil, fmt.Errorf("--provider %q: want %s or %s", name, config.ProviderOffline, config.ProviderOpenAI)
	}
	c := *cfg
	c.AIProvider = name
	return app.NewProvider(&c)
}

// evalProgress reports query progress: a rewritten line on a terminal,
// else a line at every tenth of the set.
func evalProgress(w io.Writer, tty bool, lang string) func(done, total int) {
	step := 0
	return func(done, total int) {
		switch {
		case tty:
			fmt.Fprintf(w, "\r%s", i18n.T(lang, "eval.progress", done, total))
			if done == total {
				fmt.Fprintln(w)
			}
		default:
			if step == 0 {
				step = max(total/10, 1)
			}
			if done%step == 0 || done == total {
				fmt.Fprintln(w, i18n.T(lang, "eval.progress", done, total))
			}
		}
	}
}

// printEvalReport prints the report as a small table.
func printEvalReport(d *app.Deps, r eval.Report, opts evalOptions) {
	w := d.Stdout
	sys := r.System
	if r.Provider != "" {
		sys += " (" + r.Provider + ")"
	}
	fmt.Fprintln(w, d.T("eval.report.title", sys, r.Queries, filepath.Base(filepath.Clean(opts.Corpus))))
	rows := [][2]string{
		{"Recall@1", fmt.Sprintf("%.3f", r.RecallAt1)},
		{"Recall@10", fmt.Sprintf("%.3f", r.RecallAt10)},
		{"MRR@10", fmt.Sprintf("%.3f", r.MRRAt10)},
		{d.T("eval.report.zero"), fmt.Sprintf("%.3f", r.ZeroResultRate)},
		{d.T("eval.report.loops"), fmt.Sprintf("%.2f", r.MeanLoops)},
		{d.T("eval.report.results"), fmt.Sprintf("%.2f", r.MeanResults)},
		{d.T("eval.report.latency"), fmt.Sprintf("%.1f / %.1f / %.1f ms", r.LatencyMS.P50, r.LatencyMS.P95, r.LatencyMS.Max)},
	}
	if len(r.Ends) > 0 {
		rows = append(rows, [2]string{d.T("eval.report.ends"), counts(r.Ends)})
	}
	if len(r.Branches) > 0 {
		rows = append(rows, [2]string{d.T("eval.report.branches"), counts(r.Branches)})
	}
	width := 0
	for _, row := range rows {
		width = max(width, textwidth.String(row[0]))
	}
	for _, row := range rows {
		fmt.Fprintf(w, "  %s%s  %s\n", row[0], strings.Repeat(" ", width-textwidth.String(row[0])), row[1])
	}
}

// counts formats a count map as "a 3, b 1", largest first.
func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// evalIndexProgress reports the indexing of the corpus: the bar on a terminal,
// otherwise counts and problem files only (a benchmark folder has
// thousands of files; a line each is noise in a log).
func evalIndexProgress(d *app.Deps) crawl.Progress {
	if isTerminal(d.Stderr) {
		return render.CrawlProgress(d.Stderr, true, d.Lang)
	}
	return render.CountProgress(d.Stderr, d.Lang)
}
