package main

import (
	"context"
	"fmt"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/sysopen"
)

// runREPL is `gds search` without a query on a terminal (render.REPL).
// After a list of results, a number or "o N" opens result N and "c N"
// copies its link (render.ResultLinks); any other line is a search.
func runREPL(ctx context.Context, d *app.Deps, ss *app.SearchSession, r *render.Interactive, opts searchOptions) error {
	fmt.Fprintln(d.Stderr, d.T("interactive.repl.welcome", ss.Loop.AI.Name()))
	links := &render.ResultLinks{Opener: sysopen.New(d.Stdout), Msgs: d.Stderr, T: d.T}
	hinted := false
	return render.RunREPL(ctx, &render.REPL{
		Lines: r.Lines, Msgs: d.Stderr, T: d.T,
		Run: func(ctx context.Context, q string) error {
			if done, err := links.Handle(ctx, q); done {
				return err
			}
			out, err := searchOnce(ctx, d, ss, r, q, opts)
			links.List(out, opts.Limit)
			if err == nil && len(links.Links) > 0 && !hinted {
				hinted = true // once: how to open a result
				fmt.Fprintln(d.Stderr, d.T("repl.results_hint"))
			}
			return err
		},
		OnError: func(err error) { printError(d, err) },
		Cleanup: r.Stop,
	})
}
