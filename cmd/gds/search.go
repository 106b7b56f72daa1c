package main

import (
	"context"
	"errors"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/search"
)

// searchOptions are the parsed flags and arguments of `gds search`.
type searchOptions struct {
	Query   string // the words after the flags, joined by spaces; "" asks on a terminal
	JSON    bool
	Alfred  bool
	Verbose bool
	Answer  string // answer to a pending clarifying question
	State   string // state token carried between --json/--alfred runs
	Limit   int
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
			&cli.IntFlag{Name: "limit", Value: 10, Usage: d.T("flag.search.limit")},
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
			}
			return runSearch(ctx, d, opts)
		},
	}
}

// runSearch dispatches to the front end the flags choose. Every front end
// runs the same hybrid loop (newLoop); they differ only in how a
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

// runSearchJSON prints one JSON document with the final state (results or
// a pending question with its state token).
func runSearchJSON(ctx context.Context, d *app.Deps, opts searchOptions) error {
	return notImplementedError{command: "gds search --json"}
}

// runSearchAlfred runs the loop and prints Alfred Script Filter JSON.
func runSearchAlfred(ctx context.Context, d *app.Deps, opts searchOptions) error {
	return notImplementedError{command: "gds search --alfred"}
}

// runSearchText is the terminal front end. On a terminal a clarifying
// question is asked at the prompt; without one the no-answer policy applies
// (keep the 100 best keyword hits).
func runSearchText(ctx context.Context, d *app.Deps, opts searchOptions) error {
	if opts.Query == "" {
		return usageError{err: errors.New(d.T("search.no_query"))}
	}
	var asker search.Asker = search.NoAnswer{}
	if isTerminal(d.Stdin) {
		asker = render.NewTextAsker(d.Stdin, d.Stderr, d.Lang)
	}
	sl, err := newLoop(ctx, d, asker)
	if err != nil {
		return err
	}
	defer sl.Close()
	out, err := sl.Loop.Run(ctx, sl.NewState(opts.Query))
	if err != nil {
		return err
	}
	render.SearchText(d.Stdout, out, opts.Verbose, d.StdoutTTY, d.Lang)
	return nil
}
