package app

import (
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/rebuild"
	"github.com/gds-cli/gds/internal/schedule"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// RebuildHolderWait is how long `gds db rebuild` waits for other processes
// to close the index (a search finishing, the Alfred keystroke server
// exiting) before it gives up.
const RebuildHolderWait = 10 * time.Second

// RebuildRequest is one `gds db rebuild`.
type RebuildRequest struct {
	// Concurrency is the number of files processed at once; 0 means
	// GDS_CRAWL_CONCURRENCY.
	Concurrency int
	// KeySocket is the Alfred keystroke server's socket ("" when there is
	// none). The server keeps the index open; a rebuild removes the socket,
	// which makes the server exit (the next keystroke starts it again).
	KeySocket string
	// HolderWait bounds the wait for other processes to close the index;
	// 0 means RebuildHolderWait.
	HolderWait time.Duration
	// Progress receives each source's crawl events (as CrawlRequest's);
	// it is told each source when it also implements SourceProgress.
	Progress crawl.Progress
	// Steps is told the rebuild's own steps (may be nil).
	Steps rebuild.Progress
}

// rebuildRefused is the refusal of a rebuild of a Postgres index: gds does
// not own that database (it may hold other applications' data, and uploads
// indexed from other machines, whose files are not here), and damaged
// Postgres pages are repaired by its administrator (REINDEX, a restore).
type rebuildRefused struct{ *apperr.Localized }

func (rebuildRefused) Hint(lang string) string { return i18n.T(lang, "rebuild.postgres_hint") }

// indexInUse is a rebuild that found another process with the index open.
type indexInUse struct{ *apperr.Localized }

func (indexInUse) Hint(lang string) string { return i18n.T(lang, "rebuild.in_use_hint") }

// Rebuild replaces the embedded index with a new one built from what gds
// can read again: it sets the index file aside (renamed, never deleted),
// crawls every configured source into a new index, and indexes the upload
// directory again, with each upload's name, title and tags read back from
// the old index where its records can still be read. It holds the crawl
// lock (an apperr.Busy error when a crawl runs) and does not start while
// another process has the index open. It works whatever state the old
// file is in: it never opens it as an index. A Postgres index is refused
// (apperr.Usage): see rebuildRefused. The report is returned also when a
// source or an upload failed; the first error is returned after
// everything ran.
func (d *Deps) Rebuild(ctx context.Context, req RebuildRequest) (*rebuild.Report, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return nil, err
	}
	if cfg.UsesPostgres() {
		return nil, rebuildRefused{apperr.L(apperr.Usage, "rebuild.postgres", config.MaskURL(cfg.DatabaseURL))}
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create the gds data directory %s: %w", cfg.DataDir, err)
	}
	lock, err := schedule.AcquireCrawlLock(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	// The lock dies with the process: a failed release leaves nothing held.
	defer func() { _ = lock.Release() }()
	path := cfg.IndexPath()
	if err := d.waitForHolders(ctx, path, req); err != nil {
		return nil, err
	}
	rep := &rebuild.Report{Index: path}
	moves := rebuild.Plan(path, d.Now(), rebuild.Exists)
	if err := rebuild.Apply(moves); err != nil {
		return nil, err
	}
	for _, m := range moves {
		rep.SetAside = append(rep.SetAside, m.To)
		if req.Steps != nil {
			req.Steps.SetAside(m.From, m.To)
		}
	}

	var first error
	for i, target := range cfg.Sources {
		if sp, ok := req.Progress.(SourceProgress); ok && len(cfg.Sources) > 1 {
			sp.Source(target.Key(), i+1, len(cfg.Sources))
		}
		sum, started, err := d.crawlOne(ctx, cfg, target, CrawlRequest{Concurrency: req.Concurrency, Progress: req.Progress}, nil)
		rep.Sources = append(rep.Sources, crawl.SourceResult{Source: target.Key(), Summary: sum, Err: err, Started: started})
		if err == nil && len(sum.Failed) > 0 {
			err = apperr.L(apperr.Internal, "crawl.failed_files", len(sum.Failed))
		}
		if err != nil && first == nil {
			first = err
		}
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
	}
	// The index just set aside first, then those of earlier rebuilds (one
	// that was interrupted set aside its own new index, which may not
	// hold the uploads yet).
	asides, _ := rebuild.Asides(path)
	if err := d.reindexUploads(ctx, cfg, asides, req.Steps, &rep.Uploads); err != nil && first == nil {
		first = err
	}
	if ctx.Err() != nil {
		return rep, ctx.Err()
	}
	if err := d.withStore(ctx, func(s store.Store) error {
		st, err := s.Stats(ctx)
		rep.Files = st.Files
		return err
	}); err != nil && first == nil {
		first = err
	}
	d.optimizeText(ctx)
	return rep, first
}

// waitForHolders returns once no other process has the index at path open
// (sqlite.Holder): it asks the keystroke server to exit by removing its
// socket and waits up to the request's HolderWait, then gives up with an
// apperr.Busy error naming the process.
func (d *Deps) waitForHolders(ctx context.Context, path string, req RebuildRequest) error {
	pid, err := sqlite.Holder(path)
	if err != nil || pid == 0 {
		return err
	}
	if req.KeySocket != "" {
		if fi, err := os.Lstat(req.KeySocket); err == nil && fi.Mode()&fs.ModeSocket != 0 {
			_ = os.Remove(req.KeySocket)
		}
	}
	wait := req.HolderWait
	if wait <= 0 {
		wait = RebuildHolderWait
	}
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if pid, err = sqlite.Holder(path); err != nil || pid == 0 {
			return err
		}
	}
	return indexInUse{apperr.L(apperr.Busy, "rebuild.in_use", path, pid)}
}

// upload is a stored upload with the name it is indexed under: the one it
// was uploaded under when the damaged index still says it, else its
// stored file's.
type upload struct {
	rebuild.Upload
	name string
}

// withSalvaged completes u with what the damaged index still says of it:
// the name it was uploaded under, its title, tags and times (each cleaned
// as an upload's are, since a damaged file may say anything). named and
// described report what was found.
func withSalvaged(u upload, s sqlite.Salvaged, found bool) (out upload, named, described bool) {
	if !found {
		return u, false, false
	}
	if n := cleanName(s.Name); s.Name != "" && n != "upload" {
		u.name, named = n, true
	}
	if s.Meta.FileID == u.ID {
		described = true
		u.Meta.Title = strings.TrimSpace(strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f {
				return -1
			}
			return r
		}, s.Meta.Title))
		if tags, err := cleanTags(s.Meta.Tags); err == nil {
			u.Meta.Tags = tags
		}
		if !s.Meta.CreatedAt.IsZero() {
			u.Meta.CreatedAt = s.Meta.CreatedAt
		}
		if !s.Meta.UpdatedAt.IsZero() {
			u.Meta.UpdatedAt = s.Meta.UpdatedAt
		}
	}
	return u, named, described
}

// reindexUploads indexes every upload of the upload directory into the
// new index, as UploadDocument did, under its old file ID; what the
// set-aside indexes (asides, newest first) still say of each is read back
// first. An upload that cannot be indexed is reported in out.Failed and
// its file kept; the error says how many failed.
func (d *Deps) reindexUploads(ctx context.Context, cfg *config.Config, asides []string, steps rebuild.Progress, out *rebuild.Uploads) error {
	stored, ignored, err := rebuild.ListUploads(cfg.UploadDir, func(ext string) bool { return uploadTypes[ext] })
	ups := make([]upload, len(stored))
	ids := make([]string, len(stored))
	for i, u := range stored {
		ups[i], ids[i] = upload{Upload: u, name: u.Stored}, u.ID
	}
	out.Found, out.Ignored = len(ups), ignored
	if err != nil || len(ups) == 0 {
		return err
	}
	sctx, cancel := context.WithTimeout(ctx, time.Minute)
	salvaged, serr := salvage(sctx, asides, ids)
	cancel()
	if serr != nil {
		out.SalvageErr = apperr.Message(serr, d.Lang)
	}
	for i, u := range ups {
		s, found := salvaged[u.ID]
		var named, described bool
		ups[i], named, described = withSalvaged(u, s, found)
		if named {
			out.Named++
		}
		if described {
			out.Described++
		}
	}
	if steps != nil {
		steps.Uploads(len(ups), len(salvaged), serr)
	}
	prov, err := d.Provider()
	if err != nil {
		return err
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	em := prov.EmbeddingModel(ctx)
	if err := st.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: em.Name, Dim: em.Dim}); err != nil {
		return err
	}
	for i, u := range ups {
		err := d.reindexUpload(ctx, cfg, st, prov, u)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			out.Failed = append(out.Failed, crawl.Problem{Name: u.name, Path: u.Stored, Reason: apperr.Message(err, d.Lang)})
		} else {
			out.Indexed++
		}
		if steps != nil {
			steps.Upload(u.name, i+1, len(ups), err)
		}
	}
	if n := len(out.Failed); n > 0 {
		return apperr.L(apperr.Internal, "rebuild.failed_uploads", n)
	}
	return nil
}

// salvage reads what the set-aside indexes files (newest first) still say
// of the uploads ids: for each, the newest name and the newest metadata
// found. err says why nothing at all could be read from the newest file
// (nil when something was read from any).
func salvage(ctx context.Context, files, ids []string) (map[string]sqlite.Salvaged, error) {
	out := map[string]sqlite.Salvaged{}
	var first error
	for i, f := range files {
		var missing []string
		for _, id := range ids {
			if s := out[id]; s.Name == "" || s.Meta.FileID == "" {
				missing = append(missing, id)
			}
		}
		if len(missing) == 0 {
			break
		}
		got, err := sqlite.Salvage(ctx, f, missing)
		if i == 0 {
			first = err
		}
		for id, g := range got {
			s := out[id]
			if s.Name == "" {
				s.Name = g.Name
			}
			if s.Meta.FileID == "" {
				s.Meta = g.Meta
			}
			out[id] = s
		}
	}
	if len(out) > 0 {
		first = nil
	}
	return out, first
}

// reindexUpload indexes one stored upload and records its metadata.
func (d *Deps) reindexUpload(ctx context.Context, cfg *config.Config, st store.Store, prov ai.Provider, u upload) error {
	p := filepath.Join(cfg.UploadDir, u.Stored)
	fh, err := os.Open(p)
	if err != nil {
		return err
	}
	defer fh.Close()
	entry := crawl.Entry{
		ID: u.ID, Name: u.name, MimeType: extract.MimeTypeByName(u.Stored), ModifiedAt: u.Meta.CreatedAt, Size: u.Size,
		WebLink: (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String(),
	}
	// The file was accepted when it was uploaded, whatever the limit of
	// the server that took it.
	limit := max(int64(DefaultMaxUpload), u.Size)
	created := u.Meta.CreatedAt
	if _, err := crawl.IndexFile(ctx, crawl.FileOptions{
		Index: st, Provider: prov, SummaryMaxLength: cfg.SummaryMaxLength, MaxFileBytes: limit,
		Source: store.SourceUpload, Now: func() time.Time { return created }, Extractor: d.fileReader(cfg, prov),
	}, entry, fh); err != nil {
		return err
	}
	return st.PutDocumentMeta(ctx, u.Meta)
}
