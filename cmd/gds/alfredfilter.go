package main

import (
	"context"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/keystroke"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/render/alfred"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// alfredLoopLimit is the number of results of the full loop in Alfred (the
// keystroke path shows keystroke.AlfredLimit).
const alfredLoopLimit = 10

// alfredFilterOptions are the inputs of the Alfred Script Filter.
type alfredFilterOptions struct {
	Query  string // the text in Alfred's box (see alfred.ParseQuery)
	State  string // --state: a token; the answer is Answer, else Query
	Answer string
	// Sources: --source, else the Alfred variable (keystroke.AlfredSources).
	Sources []string
	// Folder limits a new search (keystroke or full) to a folder:
	// --folder, or the workflow variable launcher.FolderEnv. A token
	// carries its own.
	Folder string
}

// alfredFilterAction is the Action of `gds alfred filter [--state T] QUERY`.
func alfredFilterAction(d *app.Deps) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		return runAlfredFilter(ctx, d, alfredFilterOptions{
			Query:  strings.Join(cmd.Args().Slice(), " "),
			State:  cmd.String("state"),
			Folder: cmd.String("folder"),
		})
	}
}

// runSearchAlfred is `gds search --alfred`: the same output as
// `gds alfred filter` (the folder from --folder, else the workflow
// variable).
func runSearchAlfred(ctx context.Context, d *app.Deps, opts searchOptions) error {
	folder := opts.Folder
	if folder == "" {
		folder = os.Getenv(launcher.FolderEnv)
	}
	return runAlfredFilter(ctx, d, alfredFilterOptions{Query: opts.Query, State: opts.State, Answer: opts.Answer, Sources: opts.Sources, Folder: folder})
}

// runAlfredFilter prints one Script Filter response. It always prints valid
// Alfred JSON and returns nil, so Alfred shows the items: failures become
// items that say what to do (details go to stderr, which Alfred shows in
// its debugger).
func runAlfredFilter(ctx context.Context, d *app.Deps, opts alfredFilterOptions) error {
	err := launcher.RespondAlfred(d.Stdout, d.Stderr, func(s string) string { return config.Redact(d.Config, s) }, d.Lang, func() (alfred.Output, error) {
		return alfredFilter(ctx, d, opts)
	})
	if opts.State == "" && alfred.ParseQuery(opts.Query).Kind == alfred.Typed {
		d.StartKeyServer() // a keystroke the front handed over: serve the next ones
	}
	return err
}

// alfredFilter answers one request of the query grammar.
func alfredFilter(ctx context.Context, d *app.Deps, opts alfredFilterOptions) (alfred.Output, error) {
	sources, err := app.SourceKeys(opts.Sources)
	if len(opts.Sources) == 0 {
		sources, err = keystroke.AlfredSources(os.LookupEnv)
	}
	if err != nil {
		return alfred.Output{}, err
	}
	req := alfred.ParseQuery(opts.Query)
	if opts.State != "" {
		ans := opts.Answer
		if ans == "" {
			ans = opts.Query
		}
		req = alfred.Request{Kind: alfred.Answer, Token: opts.State, Answer: strings.TrimSpace(ans)}
	}
	ro := alfred.Options{Lang: d.Lang}
	switch req.Kind {
	case alfred.Typed:
		// The keystroke path: the keystroke server answers it with the same call.
		return keystroke.Alfred(ctx, d.OpenKeystrokeIndex, keystroke.Request{
			Query: req.Query, Lang: d.Lang, Now: d.Now(), Limit: keystroke.AlfredLimit, Home: os.Getenv("HOME"), Sources: sources, Folder: opts.Folder})
	case alfred.Run:
		return alfredLoop(ctx, d, nil, "", req.Query, sources, opts.Folder)
	case alfred.Pending:
		s, err := search.DecodeState(req.Token)
		if err != nil || !s.Waiting() {
			return badTokenOutput(d), nil
		}
		return alfred.Question(*s.Question, req.Token, req.Draft, ro), nil
	case alfred.Answer:
		s, err := search.DecodeState(req.Token)
		if err != nil || !s.Waiting() {
			return badTokenOutput(d), nil
		}
		return alfredLoop(ctx, d, &s, req.Answer, "", nil, "")
	}
	return alfred.Message(d.T("alfred.err.title"), d.T("alfred.err.malformed.sub"), ""), nil
}

// alfredLoop runs the full hybrid loop for query within sources and
// folder, or resumes s (which carries its folder) with the answer, with
// the deferred asker: a question becomes items carrying the state.
func alfredLoop(ctx context.Context, d *app.Deps, s *search.State, answer, query string, sources []string, folder string) (alfred.Output, error) {
	ss, err := d.OpenSearch(ctx, search.Deferred{})
	if err != nil {
		return alfred.Output{}, err
	}
	defer ss.Close()
	if err := ss.SetSources(sources); err != nil {
		return alfred.Output{}, err
	}
	if err := ss.SetFolder(ctx, folder); err != nil {
		return alfred.Output{}, err
	}
	var out search.Outcome
	if s != nil {
		out, err = ss.Resume(ctx, *s, answer)
	} else {
		out, err = ss.Run(ctx, query)
	}
	if err != nil {
		render.DegradedText(d.Stderr, out.Degraded, d.Lang)
		return alfred.Output{}, err
	}
	tok, err := app.PendingToken(out)
	if err != nil {
		return alfred.Output{}, err
	}
	files := make([]store.File, len(out.Results))
	for i, r := range out.Results {
		files[i] = r.File
	}
	return alfred.Outcome(out, tok, keystroke.AlfredOptions(d.Lang, alfredLoopLimit, files, os.Getenv("HOME"))), nil
}

func badTokenOutput(d *app.Deps) alfred.Output {
	return alfred.Message(d.T("alfred.err.bad_token.title"), d.T("alfred.err.bad_token.sub"), "")
}
