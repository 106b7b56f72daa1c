package main

import (
	"context"
	"errors"
	"fmt"
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

// runSearch runs the hybrid search loop over the index and prints the
// results. On a terminal a clarifying question is asked at the prompt;
// without one the no-answer policy applies (keep the 100 best keyword hits).
// The JSON and Alfred formats and the REPL arrive with their front ends.
func runSearch(ctx context.Context, d *app.Deps, opts searchOptions) error {
	switch {
	case opts.JSON:
		return notImplementedError{command: "gds search --json"}
	case opts.Alfred:
		return notImplementedError{command: "gds search --alfred"}
	case opts.Answer != "" || opts.State != "":
		return notImplementedError{command: "gds search --answer/--state"}
	case opts.Query == "":
		return usageError{err: errors.New(d.T("search.no_query"))}
	}
	cfg, err := d.RequireConfig()
	if err != nil {
		return err
	}
	prov, err := d.Provider()
	if err != nil {
		return err
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	stats, err := st.Stats(ctx)
	if err != nil {
		return err
	}
	if stats.Files == 0 {
		return fmt.Errorf("%s", d.T("search.empty_index"))
	}
	var asker search.Asker = search.NoAnswer{}
	if isTerminal(d.Stdin) {
		asker = render.NewTextAsker(d.Stdin, d.Stderr, d.Lang)
	}
	loop := &search.Loop{Keywords: search.StoreSearcher{Index: st}, Index: st, AI: prov, Asker: asker}
	out, err := loop.Run(ctx, search.NewState(opts.Query, d.Lang, d.Now(), cfg.SearchMaxLoopCount))
	if err != nil {
		return err
	}
	render.SearchText(d.Stdout, out, opts.Verbose, d.StdoutTTY, d.Lang)
	return nil
}
