package main

import (
	"context"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/render"
)

// runSearchJSON prints one JSON document with the final state: results,
// an end message, or a pending question with its state token. A failure
// is still one JSON document ({"error": …}) on stdout; the error is also
// returned, so stderr gets the usual line and the exit code is the usual one.
func runSearchJSON(ctx context.Context, d *app.Deps, opts searchOptions) error {
	res, err := d.Search(ctx, app.SearchRequest{Query: opts.Query, State: opts.State, Answer: opts.Answer, Folder: opts.Folder, Sources: opts.Sources})
	if err != nil {
		return render.FailJSON(d.Stdout, err, d.Lang)
	}
	return render.WriteJSON(d.Stdout, render.NewSearchDoc(res.Outcome, res.Token, opts.Limit, d.Lang))
}

// jsonError describes err as printError does, with its kind's code.
func jsonError(d *app.Deps, err error) render.JSONError { return render.NewJSONError(err, d.Lang) }
