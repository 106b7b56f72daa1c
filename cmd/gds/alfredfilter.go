package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/mirror"
	"github.com/gds-cli/gds/internal/render/alfred"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// Result counts of the Alfred front end.
const (
	alfredFastLimit = 9  // index matches under the "Search Drive" item
	alfredLoopLimit = 10 // results of the full loop
)

// alfredFilterOptions are the inputs of the Alfred Script Filter.
type alfredFilterOptions struct {
	Query  string // the text in Alfred's box (see alfred.ParseQuery)
	State  string // --state: a token; the answer is Answer, else Query
	Answer string
}

// alfredFilterAction is the Action of `gds alfred filter [--state T] QUERY`.
func alfredFilterAction(d *app.Deps) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		return runAlfredFilter(ctx, d, alfredFilterOptions{
			Query: strings.Join(cmd.Args().Slice(), " "),
			State: cmd.String("state"),
		})
	}
}

// runSearchAlfred is `gds search --alfred`: the same output as
// `gds alfred filter`.
func runSearchAlfred(ctx context.Context, d *app.Deps, opts searchOptions) error {
	if opts.Folder != "" {
		// Script Filter output stays valid Alfred JSON: the refusal is an item.
		msg := d.T("search.folder_alfred")
		fmt.Fprintln(d.Stderr, d.T(i18n.ErrorPrefix)+msg)
		return alfred.Write(d.Stdout, alfred.Message(d.T("alfred.err.title"), msg, ""))
	}
	return runAlfredFilter(ctx, d, alfredFilterOptions{Query: opts.Query, State: opts.State, Answer: opts.Answer})
}

// runAlfredFilter prints one Script Filter response. It always prints valid
// Alfred JSON and returns nil, so Alfred shows the items: failures become
// items that say what to do (details go to stderr, which Alfred shows in
// its debugger).
func runAlfredFilter(ctx context.Context, d *app.Deps, opts alfredFilterOptions) (err error) {
	var out alfred.Output
	defer func() {
		if p := recover(); p != nil {
			// A panic value is text gds did not write: strip secrets first.
			msg := config.Redact(d.Config, fmt.Sprint(p))
			fmt.Fprintf(d.Stderr, "gds alfred: internal error: %s\n", msg)
			out = alfred.Message(d.T("alfred.err.title"), msg, "")
		}
		err = alfred.Write(d.Stdout, out)
	}()
	out, ferr := alfredFilter(ctx, d, opts)
	if ferr != nil {
		fmt.Fprintln(d.Stderr, d.T(i18n.ErrorPrefix)+apperr.Message(ferr, d.Lang))
		out = alfredErrorOutput(d, ferr)
	}
	return nil
}

// alfredFilter answers one request of the query grammar.
func alfredFilter(ctx context.Context, d *app.Deps, opts alfredFilterOptions) (alfred.Output, error) {
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
		if req.Query == "" {
			return alfred.Keystroke("", nil, ro), nil
		}
		return alfredFast(ctx, d, req.Query)
	case alfred.Run:
		return alfredLoop(ctx, d, nil, "", req.Query)
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
		return alfredLoop(ctx, d, &s, req.Answer, "")
	}
	return alfred.Message(d.T("alfred.err.title"), d.T("alfred.err.malformed.sub"), ""), nil
}

// alfredFast is the per-keystroke path (app.Keystroke): the best keyword
// matches in the index, under the item that runs the full loop.
func alfredFast(ctx context.Context, d *app.Deps, query string) (alfred.Output, error) {
	files, err := d.Keystroke(ctx, query, alfredFastLimit)
	if err != nil {
		return alfred.Output{}, err
	}
	return alfred.Keystroke(query, files, alfredOptions(d, alfredFastLimit, files)), nil
}

// alfredLoop runs the full hybrid loop for query, or resumes s with the
// answer, with the deferred asker: a question becomes items carrying the
// state.
func alfredLoop(ctx context.Context, d *app.Deps, s *search.State, answer, query string) (alfred.Output, error) {
	ss, err := d.OpenSearch(ctx, search.Deferred{})
	if err != nil {
		return alfred.Output{}, err
	}
	defer ss.Close()
	var out search.Outcome
	if s != nil {
		out, err = ss.Resume(ctx, *s, answer)
	} else {
		out, err = ss.Run(ctx, query)
	}
	if err != nil {
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
	return alfred.Outcome(out, tok, alfredOptions(d, alfredLoopLimit, files)), nil
}

// alfredOptions are the render options, with the local copies of files.
func alfredOptions(d *app.Deps, limit int, files []store.File) alfred.Options {
	return alfred.Options{Lang: d.Lang, Limit: limit, LocalPaths: mirror.LocalCopies(files, os.Getenv("HOME"))}
}

// alfredErrorOutput turns a failure into an item that tells the fix.
func alfredErrorOutput(d *app.Deps, err error) alfred.Output {
	r := apperr.Describe(err, d.Lang)
	switch r.Code {
	case apperr.NoIndex.Code():
		return alfred.Message(d.T("alfred.err.no_index.title"), d.T("alfred.err.no_index.sub"), "")
	case apperr.Auth.Code():
		return alfred.Message(d.T("alfred.err.auth.title"), d.T("alfred.err.auth.sub"), "")
	case apperr.Config.Code():
		return alfred.Message(d.T("alfred.err.config.title"), r.Message, "")
	}
	msg := r.Message
	if r.Hint != "" {
		msg += " — " + r.Hint
	}
	return alfred.Message(d.T("alfred.err.title"), msg, "")
}

func badTokenOutput(d *app.Deps) alfred.Output {
	return alfred.Message(d.T("alfred.err.bad_token.title"), d.T("alfred.err.bad_token.sub"), "")
}
