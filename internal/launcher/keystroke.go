package launcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/mirror"
	"github.com/gds-cli/gds/internal/render/alfred"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// AlfredLimit is the number of index matches under the "Search Drive" item
// of the keystroke path.
const AlfredLimit = 9

// Index is what the per-keystroke path reads.
type Index interface {
	search.KeystrokeIndex
	SyncStates(ctx context.Context) ([]store.SyncState, error)
	Close() error
}

// OpenIndex opens the SQLite index of cfg read-only, without migrating it
// or taking a write lock. A missing index file is an apperr.NoIndex error.
// (A Postgres index is opened by the full CLI: the front hands the
// keystroke over when cfg.UsesPostgres.)
func OpenIndex(ctx context.Context, cfg *config.Config) (Index, error) {
	st, err := sqlite.Open(ctx, cfg.IndexPath(), sqlite.Options{ReadOnly: true})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, apperr.Mark(err, apperr.NoIndex)
	}
	if err != nil {
		return nil, err
	}
	return st, nil
}

// Request is one keystroke.
type Request struct {
	Query string
	Lang  string
	Now   time.Time
	Limit int
	Home  string // the user's home directory, where Google Drive for desktop mirrors live
	// Sources limits the matches to these source keys (AlfredSources);
	// none: every source.
	Sources []string
}

// AlfredSourceVar is the Alfred workflow variable (an environment variable
// of the script) that limits Alfred's searches to some sources: source
// specs separated by commas, as GDS_SOURCES ("local:~/Docs,drive").
const AlfredSourceVar = "source"

// AlfredSources reads AlfredSourceVar through lookup and returns the source
// keys it names (none when unset or blank). A bad spec is an apperr.Usage
// error naming it.
func AlfredSources(lookup func(string) (string, bool)) ([]string, error) {
	v, _ := lookup(AlfredSourceVar)
	home, _ := lookup("HOME")
	srcs, err := config.ParseSources(v, "", home)
	if err != nil {
		return nil, apperr.Mark(fmt.Errorf("Alfred variable %s: %w", AlfredSourceVar, err), apperr.Usage)
	}
	var keys []string
	for _, s := range srcs {
		keys = append(keys, s.Key())
	}
	return keys, nil
}

// Files answers one keystroke from the index alone (search.Keystroke with
// the offline query rules — never the configured AI provider). An empty
// index is an apperr.NoIndex error.
func Files(ctx context.Context, ix search.KeystrokeIndex, req Request) ([]store.File, error) {
	files, indexed, err := search.Keystroke(ctx, ix, rules.Analyzer{}, search.KeystrokeRequest{Query: req.Query, Lang: req.Lang, Now: req.Now, Limit: req.Limit, Sources: req.Sources})
	if err != nil {
		return nil, err
	}
	if !indexed {
		return nil, apperr.L(apperr.NoIndex, "search.empty_index")
	}
	return files, nil
}

// OnDrive reports whether any source of the index was crawled from Google
// Drive (the keystroke header says "Search Drive for …" only then).
func OnDrive(ctx context.Context, ix Index) (bool, error) {
	states, err := ix.SyncStates(ctx)
	if err != nil {
		return false, err
	}
	return store.AnyKind(states, config.SourceDrive), nil
}

// Alfred is the Script Filter response to a typed query (the keystroke
// path of `gds alfred filter`): an item that runs the full search, then the
// index's best matches with their local copies. An empty query shows the
// prompt item without opening the index. open is called only for a
// non-empty query; the index is closed before returning.
func Alfred(ctx context.Context, open func(context.Context) (Index, error), req Request) (alfred.Output, error) {
	if req.Query == "" {
		return alfred.Keystroke("", nil, alfred.Options{Lang: req.Lang}), nil
	}
	ix, err := open(ctx)
	if err != nil {
		return alfred.Output{}, err
	}
	defer ix.Close()
	files, err := Files(ctx, ix, req)
	if err != nil {
		return alfred.Output{}, err
	}
	o := AlfredOptions(req.Lang, req.Limit, files, req.Home)
	if o.Drive, err = OnDrive(ctx, ix); err != nil {
		return alfred.Output{}, err
	}
	return alfred.Keystroke(req.Query, files, o), nil
}

// AlfredOptions are the render options of files, with their local copies
// (the file of a local source, or its Google Drive for desktop mirror under
// home).
func AlfredOptions(lang string, limit int, files []store.File, home string) alfred.Options {
	return alfred.Options{Lang: lang, Limit: limit, LocalPaths: mirror.LocalCopies(files, home)}
}

// AlfredError turns a failure into an item that tells the fix.
func AlfredError(err error, lang string) alfred.Output {
	r := apperr.Describe(err, lang)
	switch r.Code {
	case apperr.NoIndex.Code():
		return alfred.Message(i18n.T(lang, "alfred.err.no_index.title"), i18n.T(lang, "alfred.err.no_index.sub"), "")
	case apperr.Auth.Code():
		return alfred.Message(i18n.T(lang, "alfred.err.auth.title"), i18n.T(lang, "alfred.err.auth.sub"), "")
	case apperr.Config.Code():
		return alfred.Message(i18n.T(lang, "alfred.err.config.title"), r.Message, "")
	}
	msg := r.Message
	if r.Hint != "" {
		msg += " — " + r.Hint
	}
	return alfred.Message(i18n.T(lang, "alfred.err.title"), msg, "")
}

// RespondAlfred prints one Script Filter response to stdout: answer's
// output, or — when it fails or panics — an item that says what to do, with
// the details on stderr (Alfred shows stderr in its debugger). It always
// prints valid Alfred JSON; the error is only the write's. cfg (may be nil)
// redacts secrets from a panic's text.
func RespondAlfred(stdout, stderr io.Writer, cfg *config.Config, lang string, answer func() (alfred.Output, error)) (err error) {
	var out alfred.Output
	defer func() {
		if p := recover(); p != nil {
			// A panic value is text gds did not write: strip secrets first.
			msg := config.Redact(cfg, fmt.Sprint(p))
			fmt.Fprintf(stderr, "gds alfred: internal error: %s\n", msg)
			out = alfred.Message(i18n.T(lang, "alfred.err.title"), msg, "")
		}
		err = alfred.Write(stdout, out)
	}()
	out, ferr := answer()
	if ferr != nil {
		fmt.Fprintln(stderr, i18n.T(lang, i18n.ErrorPrefix)+apperr.Message(ferr, lang))
		out = AlfredError(ferr, lang)
	}
	return nil
}
