package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/i18n"
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

// jsonError describes err as the CLI would print it: the same message and
// hint as printError, with a code named after the exit code.
func jsonError(d *app.Deps, err error) render.JSONError {
	msg, hint := errorText(d, err)
	return render.JSONError{Code: errorCode(d, err), Message: msg, Hint: hint}
}

// errorText returns the one-line message and hint printError writes for
// err, so --json and Alfred say exactly what the terminal says.
func errorText(d *app.Deps, err error) (msg, hint string) {
	var buf bytes.Buffer
	dc := *d
	dc.Stderr = &buf
	printError(&dc, err)
	for _, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		if m, ok := strings.CutPrefix(line, d.T(i18n.ErrorPrefix)); ok && msg == "" {
			msg = m
		} else if h, ok := strings.CutPrefix(line, d.T(i18n.HintPrefix)); ok {
			hint = h
		}
	}
	if msg == "" {
		msg = strings.TrimSpace(buf.String())
	}
	return msg, hint
}

// errorCode names the kind of failure for machines.
func errorCode(d *app.Deps, err error) string {
	if isNoIndex(d, err) {
		return "no_index"
	}
	switch exitCode(err) {
	case exitUsage:
		return "usage"
	case exitConfig:
		return "config"
	case exitNotImplemented:
		return "not_implemented"
	case exitIndex:
		return "index"
	case exitAuth:
		return "auth"
	case exitInterrupted:
		return "interrupted"
	}
	return "error"
}

// isNoIndex reports whether err says there is no index to search yet: the
// index file is missing, or newLoop found it empty.
func isNoIndex(d *app.Deps, err error) bool {
	return errors.Is(err, fs.ErrNotExist) || err.Error() == d.T("search.empty_index")
}
