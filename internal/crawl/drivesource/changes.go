package drivesource

import (
	"context"
	"errors"
	"fmt"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/i18n"
)

var _ crawl.ChangeSource = (*Source)(nil)

// StartToken implements crawl.ChangeSource: the changes feed's position
// now (changes.getStartPageToken).
func (s *Source) StartToken(ctx context.Context) (string, error) {
	if _, err := s.Resolve(ctx); err != nil {
		return "", err
	}
	tok, err := s.c.StartPageToken(ctx)
	if err != nil {
		return "", fmt.Errorf("%s: %w", i18n.T(s.lang, "changes.no_position"), err)
	}
	return tok, nil
}

// Changes implements crawl.ChangeSource over changes.list. Each file change
// is placed by its ancestry (its parent folders resolved up to a target
// folder or a drive root, each folder fetched once per crawl):
//
//   - deleted, no longer visible, trashed, or of a refused type: Gone;
//   - inside the targets: its entry with the path from the target folder
//     (a file moved between two target folders is one change, new path);
//   - elsewhere: Outside (moved out, or a file outside that changed);
//   - a shortcut inside the targets: its target file at the shortcut's path.
//
// A folder that was created, moved or renamed changes the path of what it
// holds without a change of its own for each file, so it ends the feed
// with crawl.ErrRescan (the crawl lists the targets); a trashed or deleted
// folder does not, since each file under it is reported. A page token
// Drive refuses also gives crawl.ErrRescan.
func (s *Source) Changes(ctx context.Context, token string, fn func(crawl.Change) error) (string, error) {
	roots, err := s.Resolve(ctx)
	if err != nil {
		return "", err
	}
	anc := s.newAncestry(roots)
	next, err := s.c.Changes(ctx, token, func(ch drive.Change) error {
		if ch.Removed {
			return fn(crawl.Change{ID: ch.FileID, Gone: true})
		}
		it := ch.Item
		switch {
		case it.Folder && it.Trashed:
			return nil // each file under it is reported trashed
		case it.Folder:
			return &rescanError{reason: i18n.T(s.lang, "changes.folder_moved", it.Name)}
		case it.Trashed, s.refused(it.MimeType) && it.MimeType != drive.MimeShortcut:
			return fn(crawl.Change{ID: it.ID, Gone: true})
		}
		in, path, err := anc.locate(ctx, it.Parents)
		if err != nil {
			return err
		}
		if it.MimeType == drive.MimeShortcut {
			if !in {
				return nil
			}
			t, ok, err := s.shortcutTarget(ctx, it)
			if err != nil || !ok {
				return err
			}
			return fn(crawl.Change{ID: t.ID, Entry: s.entry(t.File, path)})
		}
		if !in {
			return fn(crawl.Change{ID: it.ID, Outside: true, Entry: s.entry(it.File, "")})
		}
		return fn(crawl.Change{ID: it.ID, Entry: s.entry(it.File, path)})
	})
	var re *rescanError
	switch {
	case errors.As(err, &re):
		return "", fmt.Errorf("%w: %s", crawl.ErrRescan, re.reason)
	case errors.Is(err, drive.ErrPageTokenInvalid):
		return "", fmt.Errorf("%w: %s (%w)", crawl.ErrRescan, i18n.T(s.lang, "changes.token_refused"), err)
	case err != nil:
		return "", err
	}
	return next, nil
}

// Inside implements crawl.ChangeSource.
func (s *Source) Inside(ctx context.Context, parents []string) (bool, error) {
	roots, err := s.Resolve(ctx)
	if err != nil {
		return false, err
	}
	s.mu.Lock()
	anc := s.anc
	s.mu.Unlock()
	if anc == nil {
		anc = s.newAncestry(roots)
	}
	in, _, err := anc.locate(ctx, parents)
	return in, err
}

// entry is the crawl entry of a Drive file at path; it remembers the
// file's checksum for Download.
func (s *Source) entry(f drive.File, path string) crawl.Entry {
	if f.MD5 != "" {
		s.mu.Lock()
		s.md5s[f.ID] = f.MD5
		s.mu.Unlock()
	}
	return crawl.Entry{ID: f.ID, Name: f.Name, MimeType: f.MimeType, ModifiedAt: f.ModifiedAt, Size: f.Size,
		Path: path, Parents: f.Parents, WebLink: f.WebViewLink}
}

// shortcutTarget fetches the file a shortcut points to; ok is false for a
// shortcut to a folder, a missing, trashed or refused target.
func (s *Source) shortcutTarget(ctx context.Context, sc drive.Item) (drive.Item, bool, error) {
	if sc.ShortcutTargetID == "" || sc.ShortcutTargetMime == drive.FolderMimeType {
		return drive.Item{}, false, nil
	}
	t, err := s.c.Get(ctx, sc.ShortcutTargetID)
	if errors.Is(err, drive.ErrNotFound) {
		return drive.Item{}, false, nil
	}
	if err != nil {
		return drive.Item{}, false, err
	}
	if t.Folder || t.Trashed || t.MimeType == drive.MimeShortcut || s.refused(t.MimeType) {
		return drive.Item{}, false, nil
	}
	return t, true, nil
}

type rescanError struct{ reason string }

func (e *rescanError) Error() string { return e.reason }

// ancestry places folders relative to the target folders: inside (with
// the path from the target folder, as a listing shows it) or not. Each
// folder is fetched once (files.get) and remembered for the crawl.
type ancestry struct {
	c     *drive.Client
	roots map[string]string // target folder ID → name
	known map[string]place
}

type place struct {
	inside bool
	path   string
}

func (s *Source) newAncestry(roots []drive.Folder) *ancestry {
	a := &ancestry{c: s.c, roots: map[string]string{}, known: map[string]place{}}
	for _, r := range roots {
		if _, dup := a.roots[r.ID]; !dup {
			a.roots[r.ID] = r.Name
		}
	}
	s.mu.Lock()
	s.anc = a
	s.mu.Unlock()
	return a
}

// locate places a file by its parents: the first parent inside the
// targets gives the path.
func (a *ancestry) locate(ctx context.Context, parents []string) (bool, string, error) {
	for _, p := range parents {
		pl, err := a.folder(ctx, p, 0)
		if err != nil {
			return false, "", err
		}
		if pl.inside {
			return true, pl.path, nil
		}
	}
	return false, "", nil
}

func (a *ancestry) folder(ctx context.Context, id string, depth int) (place, error) {
	if name, ok := a.roots[id]; ok {
		return place{inside: true, path: name}, nil
	}
	if pl, ok := a.known[id]; ok {
		return pl, nil
	}
	if depth > 64 { // a cycle of parents (which Drive does not allow)
		return place{}, nil
	}
	it, err := a.c.Get(ctx, id)
	if errors.Is(err, drive.ErrNotFound) {
		a.known[id] = place{}
		return place{}, nil
	}
	if err != nil {
		return place{}, err
	}
	pl := place{}
	if it.Folder && !it.Trashed {
		for _, p := range it.Parents {
			pp, err := a.folder(ctx, p, depth+1)
			if err != nil {
				return place{}, err
			}
			if pp.inside {
				pl = place{inside: true, path: pp.path + "/" + it.Name}
				break
			}
		}
	}
	a.known[id] = pl
	return pl, nil
}
