// Package keystroke answers the Alfred keystroke path — `gds alfred filter
// QUERY`, which the workflow runs on every key — from the SQLite index: one
// read-only keyword search (search.Keystroke with the dictionary-free query
// rules), rendered as Script Filter items. The full CLI answers a keystroke
// through Alfred; the keystroke server (Serve, run as the hidden
// `gds alfred keyserver`) keeps the index open and answers the front
// binary's keystrokes through Answer, so both print the same bytes.
//
// The server also runs full searches (launcher.Served command lines: `gds
// search WORDS`, Alfred's ⌕ queries) through the full CLI's own run, for
// fronts in its environment, so that they skip the full CLI's start-up.
//
// The front binary (cmd/gds-front, internal/launcher) does not link this
// package: it asks the server over a Unix socket and hands what it cannot
// get answered there to the full CLI.
//
// The server (run by `gds-core alfred keyserver`) keeps the index open
// read-only and reopens it when its file is replaced; an index an older gds
// made is migrated by the server in the background, keystrokes meanwhile
// answered with Updating. It serves one request per connection, loading the
// front's configuration from the environment and directory the front sends
// (cached until they or the .env files change; another index makes it exit,
// Postgres or a configuration that does not load is refused). Once the index
// is open it loads its full text into memory in the background
// (sqlite.Resident, up to ResidentMaxInstances token instances) and answers
// keyword searches, and the files they find, from it while the index
// generation is unchanged, else from SQLite. One server per socket (flock);
// it exits when idle 10 minutes, when its socket is removed, when its
// executable changes, or when a front of another build or index asks; it
// resets GOMAXPROCS to the machine's default, which the Alfred workflow sets
// to 1 for each keystroke process.
package keystroke

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/launcher"
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
	// FolderCounts lists the indexed folders (store.Store.FolderCounts): a
	// keystroke in a folder that finds nothing looks the folder up as it
	// was typed.
	FolderCounts(ctx context.Context) ([]store.FolderCount, error)
	Close() error
}

// folderCounter is an index that lists its folders (store.Store.FolderCounts).
type folderCounter interface {
	FolderCounts(ctx context.Context) ([]store.FolderCount, error)
}

// OpenIndex opens the SQLite index of cfg read-only, without migrating it
// or taking a write lock. A missing index file is an apperr.NoIndex error.
// (A Postgres index is opened by the full CLI's own store.)
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

// ErrUpdating is the error of opening an index an older gds made while it
// is being updated for this one (the keystroke server applies the
// migrations itself; a keystroke handed to the full CLI is answered while
// the server it starts does so). Alfred answers it with the Updating item.
var ErrUpdating = errors.New("the index is being updated for this version of gds")

// Updating is the response to a keystroke while the index is being
// updated for this version of gds.
func Updating(lang string) alfred.Output {
	return alfred.Message(i18n.T(lang, "alfred.updating.title"), i18n.T(lang, "alfred.updating.sub"), "")
}

// Request is one keystroke.
type Request struct {
	Query string
	Lang  string
	Now   time.Time
	Limit int
	Home  string // the user's home directory, where Google Drive for desktop mirrors live
	// Folder limits the keystroke search (and the full search its ⌕ item
	// runs) to a folder and its subfolders: `gds alfred filter --folder`,
	// or the workflow variable launcher.FolderEnv. "" searches everything.
	Folder string
	// Sources limits the matches to these source keys
	// (launcher.AlfredSources); none: every source.
	Sources []string
}

// Files answers one keystroke from the index alone (search.Keystroke with
// the offline query rules — never the configured AI provider). An empty
// index is an apperr.NoIndex error.
func Files(ctx context.Context, ix search.KeystrokeIndex, req Request) (search.KeystrokeResult, error) {
	kreq := search.KeystrokeRequest{Query: req.Query, Lang: req.Lang, Now: req.Now, Limit: req.Limit, Folder: req.Folder, Sources: req.Sources}
	res, err := search.Keystroke(ctx, ix, rules.Analyzer{}, kreq)
	if err != nil {
		return search.KeystrokeResult{}, err
	}
	if fl, ok := ix.(folderCounter); ok && len(res.Files) == 0 && req.Folder != "" {
		// Nothing in the folder as typed: look it up as the user may have
		// typed it (another case, a source's name or local path), and
		// search again there; an unknown folder names the closest ones.
		// Only then, so a keystroke in a folder typed right costs nothing.
		folders, err := fl.FolderCounts(ctx)
		if err != nil {
			return search.KeystrokeResult{}, err
		}
		m := search.ResolveFolder(req.Folder, folders)
		if !m.Found && len(folders) > 0 {
			return search.KeystrokeResult{}, search.UnknownFolder(req.Folder, m, folders)
		}
		if m.Found && (m.Scope.Path != store.CleanFolder(req.Folder) || len(m.Scope.Sources) > 0) {
			kreq.Folder = m.Scope.Path
			if len(m.Scope.Sources) > 0 && len(kreq.Sources) == 0 {
				kreq.Sources = m.Scope.Sources
			}
			if res, err = search.Keystroke(ctx, ix, rules.Analyzer{}, kreq); err != nil {
				return search.KeystrokeResult{}, err
			}
		}
	}
	if !res.Indexed {
		return search.KeystrokeResult{}, apperr.L(apperr.NoIndex, "search.empty_index")
	}
	return res, nil
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
		return launcher.Prompt(req.Lang), nil
	}
	ix, err := open(ctx)
	if errors.Is(err, ErrUpdating) {
		return Updating(req.Lang), nil
	}
	if err != nil {
		return alfred.Output{}, err
	}
	defer ix.Close()
	res, err := Files(ctx, ix, req)
	if err != nil {
		return alfred.Output{}, err
	}
	o := AlfredOptions(req.Lang, req.Limit, res.Files, req.Home)
	o.Folder, o.Loosened, o.FullText, o.Unmatched = req.Folder, res.Loosened, res.FullText, res.Unmatched
	if o.Drive, err = OnDrive(ctx, ix); err != nil {
		return alfred.Output{}, err
	}
	return alfred.Keystroke(req.Query, res.Files, o), nil
}

// AlfredOptions are the render options of files, with their local copies
// (the file of a local source, or its Google Drive for desktop mirror under
// home).
func AlfredOptions(lang string, limit int, files []store.File, home string) alfred.Options {
	return alfred.Options{Lang: lang, Limit: limit, LocalPaths: mirror.LocalCopies(files, home)}
}
