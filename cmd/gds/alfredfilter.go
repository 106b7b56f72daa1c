package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// Result counts of the Alfred front end.
const (
	alfredFastLimit = 9  // index matches under the "Search Drive" item
	alfredLoopLimit = 10 // results of the full loop
)

// alfredFilterOptions are the inputs of the Alfred Script Filter.
type alfredFilterOptions struct {
	Query  string // the text in Alfred's box (see render.ParseAlfredQuery)
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
		return render.WriteAlfred(d.Stdout, render.AlfredMessage(d.T("alfred.err.title"), msg, ""))
	}
	return runAlfredFilter(ctx, d, alfredFilterOptions{Query: opts.Query, State: opts.State, Answer: opts.Answer})
}

// runAlfredFilter prints one Script Filter response. It always prints valid
// Alfred JSON and returns nil, so Alfred shows the items: failures become
// items that say what to do (details go to stderr, which Alfred shows in
// its debugger).
func runAlfredFilter(ctx context.Context, d *app.Deps, opts alfredFilterOptions) (err error) {
	var out render.AlfredOutput
	defer func() {
		if p := recover(); p != nil {
			// A panic value is text gds did not write: strip secrets first.
			msg := redactSecrets(d.Config, fmt.Sprint(p))
			fmt.Fprintf(d.Stderr, "gds alfred: internal error: %s\n", msg)
			out = render.AlfredMessage(d.T("alfred.err.title"), msg, "")
		}
		err = render.WriteAlfred(d.Stdout, out)
	}()
	out, ferr := alfredFilter(ctx, d, opts)
	if ferr != nil {
		fmt.Fprintln(d.Stderr, d.T(i18n.ErrorPrefix)+apperr.Message(ferr, d.Lang))
		out = alfredErrorOutput(d, ferr)
	}
	return nil
}

// alfredFilter answers one request of the query grammar.
func alfredFilter(ctx context.Context, d *app.Deps, opts alfredFilterOptions) (render.AlfredOutput, error) {
	req := render.ParseAlfredQuery(opts.Query)
	if opts.State != "" {
		ans := opts.Answer
		if ans == "" {
			ans = opts.Query
		}
		req = render.AlfredRequest{Kind: render.AlfredAnswer, Token: opts.State, Answer: strings.TrimSpace(ans)}
	}
	ro := render.AlfredOptions{Lang: d.Lang}
	switch req.Kind {
	case render.AlfredTyped:
		if req.Query == "" {
			return render.AlfredKeystroke("", nil, ro), nil
		}
		return alfredFast(ctx, d, req.Query)
	case render.AlfredRun:
		return alfredLoop(ctx, d, nil, search.Answer{}, req.Query)
	case render.AlfredPending:
		s, err := search.DecodeState(req.Token)
		if err != nil || !s.Waiting() {
			return badTokenOutput(d), nil
		}
		return render.AlfredQuestion(*s.Question, req.Token, req.Draft, ro), nil
	case render.AlfredAnswer:
		s, err := search.DecodeState(req.Token)
		if err != nil || !s.Waiting() {
			return badTokenOutput(d), nil
		}
		return alfredLoop(ctx, d, &s, search.ParseAnswer(*s.Question, req.Answer), "")
	}
	return render.AlfredMessage(d.T("alfred.err.title"), d.T("alfred.err.malformed.sub"), ""), nil
}

// alfredFast is the per-keystroke path: it reads only the local index
// (SQLite opened read-only, or Postgres when configured), parses period and
// type with the offline provider's rules, and lists the best keyword
// matches under the item that runs the full loop. It never builds the
// configured AI provider.
func alfredFast(ctx context.Context, d *app.Deps, query string) (render.AlfredOutput, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return render.AlfredOutput{}, err
	}
	st, err := openIndexForKeystroke(ctx, d, cfg)
	if err != nil {
		return render.AlfredOutput{}, err
	}
	defer st.Close()
	files, err := fastMatches(ctx, st, query, d)
	if err != nil {
		return render.AlfredOutput{}, err
	}
	if len(files) == 0 {
		stats, err := st.Stats(ctx)
		if err != nil {
			return render.AlfredOutput{}, fmt.Errorf("read the index statistics: %w", err)
		}
		if stats.Files == 0 {
			return render.AlfredOutput{}, apperr.L(apperr.NoIndex, "search.empty_index")
		}
	}
	return render.AlfredKeystroke(query, files, render.AlfredOptions{Lang: d.Lang, Limit: alfredFastLimit, LocalPaths: localCopies(files)}), nil
}

// keystrokeIndex is what the fast path reads.
type keystrokeIndex interface {
	search.KeywordIndex
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
	Stats(ctx context.Context) (store.Stats, error)
	Close() error
}

// openIndexForKeystroke opens the SQLite index read-only (no migration,
// no write lock), or the configured Postgres index.
func openIndexForKeystroke(ctx context.Context, d *app.Deps, cfg *config.Config) (keystrokeIndex, error) {
	if cfg.UsesPostgres() {
		return d.OpenStore(ctx)
	}
	st, err := sqlite.Open(ctx, cfg.IndexPath(), sqlite.Options{ReadOnly: true})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, apperr.Mark(err, apperr.NoIndex)
	}
	if err != nil {
		return nil, err
	}
	return st, nil
}

// fastMatches runs one keyword search for the typed query: the offline
// analysis's keywords (or the raw query) with its period/type filters;
// when the filters leave nothing, the keywords alone.
func fastMatches(ctx context.Context, st keystrokeIndex, query string, d *app.Deps) ([]store.File, error) {
	qa, err := ai.AnalyzeQuery(ctx, offline.New(), ai.QueryInput{Query: query, Now: d.Now(), Lang: d.Lang})
	if err != nil {
		return nil, fmt.Errorf("analyse the query: %w", err)
	}
	terms := qa.Keywords
	if len(terms) == 0 {
		terms = []string{query}
	}
	f, err := search.Filter(qa.Filters)
	if err != nil {
		f = store.Filter{}
	}
	res, err := st.KeywordSearch(ctx, store.KeywordQuery{Terms: terms, Match: store.MatchAny, Filter: f, Limit: alfredFastLimit})
	if err == nil && len(res.Hits) == 0 && !qa.Filters.IsZero() {
		res, err = st.KeywordSearch(ctx, store.KeywordQuery{Terms: terms, Match: store.MatchAny, Limit: alfredFastLimit})
	}
	if err != nil {
		return nil, fmt.Errorf("keyword search of the index: %w", err)
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	files, err := st.GetFiles(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load the matches: %w", err)
	}
	return files, nil
}

// alfredLoop runs the full hybrid loop for query, or resumes s with ans,
// with the deferred asker: a question becomes items carrying the state.
func alfredLoop(ctx context.Context, d *app.Deps, s *search.State, ans search.Answer, query string) (render.AlfredOutput, error) {
	sl, err := newLoop(ctx, d, search.Deferred{})
	if err != nil {
		return render.AlfredOutput{}, err
	}
	defer sl.Close()
	var out search.Outcome
	if s != nil {
		out, err = sl.Loop.Resume(ctx, *s, ans)
	} else {
		out, err = sl.Loop.Run(ctx, sl.NewState(query))
	}
	if err != nil {
		return render.AlfredOutput{}, err
	}
	tok, err := pendingToken(out)
	if err != nil {
		return render.AlfredOutput{}, err
	}
	files := make([]store.File, len(out.Results))
	for i, r := range out.Results {
		files[i] = r.File
	}
	return render.AlfredOutcome(out, tok, render.AlfredOptions{Lang: d.Lang, Limit: alfredLoopLimit, LocalPaths: localCopies(files)}), nil
}

// alfredErrorOutput turns a failure into an item that tells the fix.
func alfredErrorOutput(d *app.Deps, err error) render.AlfredOutput {
	r := apperr.Describe(err, d.Lang)
	switch r.Code {
	case apperr.NoIndex.Code():
		return render.AlfredMessage(d.T("alfred.err.no_index.title"), d.T("alfred.err.no_index.sub"), "")
	case apperr.Auth.Code():
		return render.AlfredMessage(d.T("alfred.err.auth.title"), d.T("alfred.err.auth.sub"), "")
	case apperr.Config.Code():
		return render.AlfredMessage(d.T("alfred.err.config.title"), r.Message, "")
	}
	msg := r.Message
	if r.Hint != "" {
		msg += " — " + r.Hint
	}
	return render.AlfredMessage(d.T("alfred.err.title"), msg, "")
}

func badTokenOutput(d *app.Deps) render.AlfredOutput {
	return render.AlfredMessage(d.T("alfred.err.bad_token.title"), d.T("alfred.err.bad_token.sub"), "")
}

// ---- local copies ----

// localCopies maps the files that have a local copy to its path: the file
// itself for a local source, or the file inside a Google Drive for desktop
// mirror (macOS: ~/Library/CloudStorage/GoogleDrive-*/).
func localCopies(files []store.File) map[string]string {
	out := map[string]string{}
	var roots []string
	rootsDone := false
	for _, f := range files {
		if p := localSourcePath(f); p != "" {
			out[f.ID] = p
			continue
		}
		if !rootsDone {
			roots, rootsDone = mirrorRoots(os.Getenv("HOME")), true
		}
		for _, c := range mirrorCandidates(roots, f) {
			if _, err := os.Stat(c); err == nil {
				out[f.ID] = c
				break
			}
		}
	}
	return out
}

// localSourcePath is the path of a file:// link, "" for other links.
func localSourcePath(f store.File) string {
	if !strings.HasPrefix(f.WebLink, "file://") {
		return ""
	}
	u, err := url.Parse(f.WebLink)
	if err != nil || u.Path == "" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// mirrorRoots lists the folders under which a Drive file's folder path
// (which starts with the target folder's name) may appear in a Google Drive
// for desktop mirror: My Drive, its direct subfolders, and each Shared
// drive. Deeper target folders are not searched (it would cost a walk).
func mirrorRoots(home string) []string {
	if home == "" {
		return nil
	}
	var roots []string
	for _, pat := range []string{
		filepath.Join(home, "Library", "CloudStorage", "GoogleDrive-*", "My Drive"),
		filepath.Join(home, "Library", "CloudStorage", "GoogleDrive-*", "My Drive", "*"),
		filepath.Join(home, "Library", "CloudStorage", "GoogleDrive-*", "Shared drives", "*"),
		filepath.Join(home, "Google Drive", "My Drive"),
	} {
		m, _ := filepath.Glob(pat)
		roots = append(roots, m...)
	}
	return roots
}

// googleNativeExt is the extension Google Drive for desktop gives the
// placeholder files of Google-native documents.
var googleNativeExt = map[string]string{
	"application/vnd.google-apps.document":     ".gdoc",
	"application/vnd.google-apps.spreadsheet":  ".gsheet",
	"application/vnd.google-apps.presentation": ".gslides",
	"application/vnd.google-apps.drawing":      ".gdraw",
	"application/vnd.google-apps.form":         ".gform",
}

// mirrorCandidates are the paths a Drive file may have in the mirrors.
func mirrorCandidates(roots []string, f store.File) []string {
	if f.Name == "" || strings.ContainsAny(f.Name, "/\x00") || strings.Contains(f.Path, "..") {
		return nil
	}
	name := f.Name + googleNativeExt[f.MimeType]
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		out = append(out, filepath.Join(r, filepath.FromSlash(f.Path), name))
	}
	return out
}
