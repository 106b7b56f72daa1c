package main

import (
	"context"
	"errors"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/search"
)

// runSearchJSON prints one JSON document with the final state: results,
// an end message, or a pending question with its state token. A failure
// is still one JSON document ({"error": …}) on stdout; the error is also
// returned, so stderr gets the usual line and the exit code is the usual one.
func runSearchJSON(ctx context.Context, d *app.Deps, opts searchOptions) error {
	doc, err := searchJSON(ctx, d, opts)
	if err != nil {
		if werr := render.WriteJSON(d.Stdout, render.ErrorDoc{Error: jsonError(d, err)}); werr != nil {
			return errors.Join(err, werr)
		}
		return err
	}
	return render.WriteJSON(d.Stdout, doc)
}

// searchJSON runs or resumes the loop with the deferred asker: a
// clarifying question ends the run and is handed back with a state token.
func searchJSON(ctx context.Context, d *app.Deps, opts searchOptions) (render.SearchDoc, error) {
	var (
		resume *search.State
		ans    search.Answer
	)
	switch {
	case opts.State != "" && opts.Folder != "":
		return render.SearchDoc{}, usageError{err: errors.New(d.T("search.folder_and_state"))}
	case opts.State != "" && opts.Query != "":
		return render.SearchDoc{}, usageError{err: errors.New(d.T("searchjson.state_and_query"))}
	case opts.State != "":
		s, err := decodeWaitingState(d, opts.State)
		if err != nil {
			return render.SearchDoc{}, err
		}
		resume, ans = &s, search.ParseAnswer(*s.Question, opts.Answer)
	case opts.Answer != "":
		return render.SearchDoc{}, usageError{err: errors.New(d.T("searchjson.answer_no_state"))}
	case opts.Query == "":
		return render.SearchDoc{}, usageError{err: errors.New(d.T("search.no_query"))}
	}
	sl, err := newLoop(ctx, d, search.Deferred{})
	if err != nil {
		return render.SearchDoc{}, err
	}
	defer sl.Close()
	sl.Scope = opts.Folder
	var out search.Outcome
	if resume != nil {
		out, err = sl.Loop.Resume(ctx, *resume, ans)
	} else {
		out, err = sl.Loop.Run(ctx, sl.NewState(opts.Query))
	}
	if err != nil {
		return render.SearchDoc{}, err
	}
	tok, err := pendingToken(out)
	if err != nil {
		return render.SearchDoc{}, err
	}
	return render.NewSearchDoc(out, tok, opts.Limit, d.Lang), nil
}

// decodeWaitingState decodes a --state token of a search waiting for an
// answer; a bad token is a usage error.
func decodeWaitingState(d *app.Deps, tok string) (search.State, error) {
	s, err := search.DecodeState(tok)
	if err != nil {
		return s, usageError{err: causeError{msg: d.T("searchjson.bad_state", err), cause: err}}
	}
	if !s.Waiting() {
		return s, usageError{err: errors.New(d.T("searchjson.not_waiting"))}
	}
	return s, nil
}

// causeError is a translated message that still matches its cause with
// errors.Is.
type causeError struct {
	msg   string
	cause error
}

func (e causeError) Error() string { return e.msg }
func (e causeError) Unwrap() error { return e.cause }

// pendingToken is the state token of a paused search, "" otherwise.
func pendingToken(out search.Outcome) (string, error) {
	if out.Pending == nil {
		return "", nil
	}
	return search.EncodeState(out.State)
}

// jsonError describes err as the CLI prints it: the same message and hint
// as printError, with the code of its kind (apperr).
func jsonError(d *app.Deps, err error) render.JSONError {
	r := apperr.Describe(err, d.Lang)
	return render.JSONError{Code: r.Code, Message: r.Message, Hint: r.Hint}
}
