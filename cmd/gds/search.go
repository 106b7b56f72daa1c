package main

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/cliflag"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/search"
)

// maxSearchLimit is the largest --limit (the loop keeps at most this many).
const maxSearchLimit = 1000

// searchOptions are the parsed flags and arguments of `gds search`.
type searchOptions struct {
	Query   string // the words after the flags, joined by spaces; "" asks on a terminal
	JSON    bool
	Alfred  bool
	Verbose bool
	Answer  string // answer to a pending clarifying question
	State   string // state token carried between --json/--alfred runs
	Limit   int
	Folder  string   // limit the search to this folder and its subfolders
	Sources []string // --source: limit the search to these sources
	Budget  budget.Policy
}

func newSearchCommand(d *app.Deps) *cli.Command {
	return &cli.Command{
		Name:        "search",
		Usage:       d.T("cmd.search.usage"),
		Description: d.T("cmd.search.desc"),
		ArgsUsage:   "[QUERY]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: d.T("flag.search.verbose")},
			&cli.StringFlag{Name: "answer", Usage: d.T("flag.search.answer"), Aliases: []string{"a"}},
			&cli.StringFlag{Name: "state", Usage: d.T("flag.search.state")},
			cliflag.IntRange(&cli.IntFlag{Name: "limit", Value: 10, Usage: d.T("flag.search.limit")}, 1, maxSearchLimit),
			&cli.StringFlag{Name: "folder", Usage: d.T("flag.search.folder")},
			&cli.StringSliceFlag{Name: "source", Usage: d.T("flag.search.source")},
			&cli.BoolFlag{Name: "local", Usage: d.T("flag.search.local")},
			cliflag.Timeout("timeout", d.T("flag.search.timeout"), budget.DefaultTotal),
			cliflag.Timeout("drive-timeout", d.T("flag.search.drive_timeout"), budget.DefaultDrive),
			cliflag.Timeout("ai-timeout", d.T("flag.search.ai_timeout"), budget.DefaultAI),
			cliflag.Timeout("db-timeout", d.T("flag.search.db_timeout"), budget.DefaultDB),
		},
		// --json and --alfred pick the output format; at most one.
		MutuallyExclusiveFlags: []cli.MutuallyExclusiveFlags{{Flags: [][]cli.Flag{
			{&cli.BoolFlag{Name: "json", Usage: d.T("flag.search.json")}},
			{&cli.BoolFlag{Name: "alfred", Usage: d.T("flag.search.alfred")}},
		}}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			opts := searchOptions{
				Query:   strings.TrimSpace(strings.Join(cmd.Args().Slice(), " ")),
				JSON:    cmd.Bool("json"),
				Alfred:  cmd.Bool("alfred"),
				Verbose: cmd.Bool("verbose"),
				Answer:  cmd.String("answer"),
				State:   cmd.String("state"),
				Limit:   cmd.Int("limit"),
				Folder:  cmd.String("folder"),
				Sources: cmd.StringSlice("source"),
				Budget:  searchBudget(d.Budget, cmd),
			}
			d.Budget = opts.Budget
			return runSearch(ctx, d, opts)
		},
	}
}

// searchBudget is the environment's budget with the flags that were set.
func searchBudget(p budget.Policy, cmd *cli.Command) budget.Policy {
	if cmd.Bool("local") {
		p.Local = true
	}
	for _, f := range []struct {
		name string
		dst  *time.Duration
	}{{"timeout", &p.Total}, {"drive-timeout", &p.Drive}, {"ai-timeout", &p.AI}, {"db-timeout", &p.DB}} {
		if v := cmd.Duration(f.name); v > 0 {
			*f.dst = v
		}
	}
	return p
}

// runSearch dispatches to the front end the flags choose. Every front end
// runs the same hybrid loop (app.SearchSession); they differ only in how a
// clarifying question is asked and how the outcome is rendered.
func runSearch(ctx context.Context, d *app.Deps, opts searchOptions) error {
	switch {
	case opts.JSON:
		return runSearchJSON(ctx, d, opts)
	case opts.Alfred:
		return runSearchAlfred(ctx, d, opts)
	case opts.Answer != "" || opts.State != "":
		return usageError{err: errors.New(d.T("search.state_needs_format"))}
	default:
		return runSearchText(ctx, d, opts)
	}
}

// runSearchText is the terminal front end. With a query it runs one
// search; without one on a terminal it starts the REPL (repl.go). On a
// terminal, spinners name each step on stderr, a clarifying question is
// asked at a prompt, and results are a readable list; without a terminal
// (pipes, scripts) there are no spinners or colours, the no-answer policy
// applies (keep the 100 best keyword hits) and results are plain text.
func runSearchText(ctx context.Context, d *app.Deps, opts searchOptions) error {
	if opts.Query == "" && !d.StdinTTY {
		return usageError{err: errors.New(d.T("search.no_query"))}
	}
	r := render.NewInteractive(d.IOStreams, opts.Verbose)
	var asker search.Asker = search.NoAnswer{}
	if d.StdinTTY {
		asker = r
	}
	ss, err := d.OpenSearch(ctx, asker)
	if err != nil {
		return err
	}
	defer ss.Close()
	if err := ss.SetSources(opts.Sources); err != nil {
		return err
	}
	if err := ss.SetFolder(ctx, opts.Folder); err != nil {
		return err
	}
	if d.StdoutTTY {
		ss.Loop.OnStep = r.Step
	}
	r.Drive = ss.Drive
	if opts.Query == "" {
		return runREPL(ctx, d, ss, r, opts)
	}
	_, err = searchOnce(ctx, d, ss, r, opts.Query, opts)
	return err
}

// searchOnce runs one search and prints its end: the readable list on a
// terminal, render.SearchText's plain form otherwise.
func searchOnce(ctx context.Context, d *app.Deps, ss *app.SearchSession, r *render.Interactive, query string, opts searchOptions) (search.Outcome, error) {
	r.Begin()
	out, err := ss.Run(ctx, query)
	r.Stop()
	render.DegradedText(d.Stderr, out.Degraded, d.Lang)
	if err != nil {
		return out, err
	}
	if d.StdoutTTY {
		r.Finish(out, opts.Limit)
		return out, nil
	}
	if opts.Limit > 0 && len(out.Results) > opts.Limit {
		out.Results = out.Results[:opts.Limit]
	}
	render.SearchText(d.Stdout, out, opts.Verbose, r.Hyperlinks, d.Lang)
	return out, nil
}
