package drivesource

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/api/googleapi"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/i18n"
)

// Options configure New.
type Options struct {
	// FolderIDs are the target folders (GOOGLE_DRIVE_TARGET_FOLDER_IDS).
	FolderIDs []string
	// MaxFileBytes is the largest download or export read
	// (<= 0: extract.DefaultMaxBytes); larger files are skipped.
	MaxFileBytes int64
	// Lang is the language of skip reasons (i18n.En or i18n.Ja).
	Lang string
}

// Source is the Google Drive crawl source: the target folders and their
// subfolders, Shared drives included. It implements crawl.Source.
type Source struct {
	c    *drive.Client
	ids  []string
	max  int64
	lang string
	imgs bool // SetReadImages

	mu    sync.Mutex
	roots []drive.Folder    // resolved target folders, nil until resolved
	md5s  map[string]string // file ID → md5Checksum seen by List
	stats drive.WalkStats   // of the last List
	anc   *ancestry         // folder places of the last Changes
	// onRefused is told each file of a refused type List does not offer
	// (SetOnRefused).
	onRefused func(crawl.Entry)
}

var _ crawl.Source = (*Source)(nil)

// New returns the Drive source over c.
func New(c *drive.Client, o Options) *Source {
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = extract.DefaultMaxBytes
	}
	if o.Lang == "" {
		o.Lang = i18n.En
	}
	return &Source{c: c, ids: slices.Clone(o.FolderIDs), max: o.MaxFileBytes, lang: o.Lang, md5s: map[string]string{}}
}

// SetReadImages makes the source offer the images OCR reads
// (drive.ScanImage: photos and scans of pages) to the crawl instead of
// refusing them: for a crawl whose extractor has an OCR reader. Call it
// before the crawl.
func (s *Source) SetReadImages(on bool) { s.imgs = on }

// Kind implements crawl.Source.
func (s *Source) Kind() string { return "drive" }

// Fingerprint implements crawl.Source: the sorted target folder IDs, the
// endpoint, and the version of the walk rules (shortcuts, refused types),
// so that changing any of them makes the next crawl a full scan.
func (s *Source) Fingerprint() string {
	ids := slices.Clone(s.ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	fp := "drive-v1\x00endpoint=" + s.c.Endpoint() + "\x00folders=" + strings.Join(ids, ",")
	if s.imgs {
		// Images start being offered: a full scan finds those listed
		// before, which the changes feed would never report again.
		fp += "\x00images"
	}
	return fp
}

// refused reports whether files of mimeType are never downloaded: what
// drive.Refused says, but for the images OCR reads when s reads images.
func (s *Source) refused(mimeType string) bool {
	return drive.Refused(mimeType) && !(s.imgs && drive.ScanImage(mimeType))
}

// Resolve checks the target folders once (see drive.Client.ResolveFolders); List
// calls it first, so a bad folder stops a crawl before any file is listed.
func (s *Source) Resolve(ctx context.Context) ([]drive.Folder, error) {
	s.mu.Lock()
	roots := s.roots
	s.mu.Unlock()
	if roots != nil {
		return roots, nil
	}
	if len(s.ids) == 0 {
		return nil, errors.New("drive source: no target folders")
	}
	roots, err := s.c.ResolveFolders(ctx, s.ids)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.roots = roots
	s.mu.Unlock()
	return roots, nil
}

// SetOnRefused makes List call fn with each file of a refused type it
// does not offer (gds doctor's coverage check names them). Call it before
// List.
func (s *Source) SetOnRefused(fn func(crawl.Entry)) { s.onRefused = fn }

// Stats returns the request counts of the last List.
func (s *Source) Stats() drive.WalkStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// List implements crawl.Source: the files under the target folders modified
// strictly after since (all when since is zero), with their native MIME
// type, the folder path from the target folder and the Drive link. Files of
// refused types (images, video, audio, archives, Google Forms, Drawings...)
// are not offered at all: they can never be indexed, and a Drive full of
// photos would otherwise flood the crawl summary; Stats counts them.
func (s *Source) List(ctx context.Context, since time.Time, fn func(crawl.Entry) error) error {
	roots, err := s.Resolve(ctx)
	if err != nil {
		return err
	}
	refused := 0
	st, err := s.c.Walk(ctx, roots, since, func(f drive.File) error {
		if s.refused(f.MimeType) {
			refused++
			if s.onRefused != nil {
				s.onRefused(crawl.Entry{ID: f.ID, Name: f.Name, MimeType: f.MimeType, ModifiedAt: f.ModifiedAt, Size: f.Size, Path: f.Path})
			}
			return nil
		}
		if f.MD5 != "" {
			s.mu.Lock()
			s.md5s[f.ID] = f.MD5
			s.mu.Unlock()
		}
		return fn(crawl.Entry{
			ID: f.ID, Name: f.Name, MimeType: f.MimeType, ModifiedAt: f.ModifiedAt, Size: f.Size,
			Path: f.Path, Parents: f.Parents, WebLink: f.WebViewLink,
		})
	})
	st.Refused = refused
	s.mu.Lock()
	s.stats = st
	s.mu.Unlock()
	if errors.Is(err, drive.ErrIncompleteSearch) {
		return fmt.Errorf("%s: %w", i18n.T(s.lang, "drive.incomplete_listing"), err)
	}
	return err
}

// Open implements crawl.Source. Google Docs and Slides are exported as
// text/plain and Sheets as text/csv; other files are downloaded. The whole
// content is read (at most MaxFileBytes) before Open returns, so a dropped
// or truncated transfer is retried here rather than seen by the extractor.
// Refused types, files over the limit, exports over Drive's 10 MB limit and
// files Drive will not serve are skipped (crawl.ErrSkip) with a reason.
func (s *Source) Open(ctx context.Context, e crawl.Entry) (io.ReadCloser, error) {
	if reason := s.skipReason(e); reason != "" {
		return nil, skipError(reason)
	}
	var (
		b   []byte
		err error
	)
	if exp := drive.ExportMimeType(e.MimeType); exp != "" {
		b, err = s.c.Export(ctx, e.ID, exp, s.max)
	} else {
		s.mu.Lock()
		sum := s.md5s[e.ID]
		s.mu.Unlock()
		b, err = s.c.Download(ctx, e.ID, s.max, sum)
	}
	if err != nil {
		var gerr *googleapi.Error
		if errors.As(err, &gerr) && gerr.Code == http.StatusNotFound {
			// Deleted since it was listed: not recorded (the changes
			// feed reports the deletion).
			return nil, goneError(i18n.T(s.lang, "drive.skip.gone"))
		}
		if reason := s.openSkipReason(err); reason != "" {
			return nil, skipError(reason)
		}
		if drive.NeedsSignIn(err) {
			// Every other file would meet the same refusal.
			return nil, crawl.Stop(fmt.Errorf("open %s: %w", e.Name, err))
		}
		return nil, fmt.Errorf("open %s: %w", e.Name, err)
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

// skipReason decides from the metadata alone whether a file is skipped.
func (s *Source) skipReason(e crawl.Entry) string {
	switch {
	case drive.IsNative(e.MimeType) && drive.ExportMimeType(e.MimeType) == "":
		return i18n.T(s.lang, "drive.skip.native", e.MimeType)
	case s.refused(e.MimeType):
		return i18n.T(s.lang, "drive.skip.type", e.MimeType)
	case e.Size > s.max:
		return i18n.T(s.lang, "drive.skip.too_large", formatBytes(s.max))
	}
	return ""
}

// openSkipReason turns final refusals of a download or export into skip
// reasons; other errors fail the file (it is retried by the next crawl).
func (s *Source) openSkipReason(err error) string {
	if errors.Is(err, drive.ErrTooLarge) {
		return i18n.T(s.lang, "drive.skip.too_large", formatBytes(s.max))
	}
	var gerr *googleapi.Error
	if !errors.As(err, &gerr) {
		return ""
	}
	var re *drive.RetryError
	if errors.As(err, &re) {
		return "" // gave up on a retryable error: fail, try again next crawl
	}
	reason := ""
	if len(gerr.Errors) > 0 {
		reason = gerr.Errors[0].Reason
	}
	switch {
	case reason == "exportSizeLimitExceeded":
		return i18n.T(s.lang, "drive.skip.export_limit")
	case gerr.Code == http.StatusNotFound:
		return i18n.T(s.lang, "drive.skip.gone")
	case gerr.Code == http.StatusForbidden:
		if reason == "" {
			reason = gerr.Message
		}
		return i18n.T(s.lang, "drive.skip.not_readable", reason)
	}
	return ""
}

// skipError is a skip reason; it matches crawl.ErrSkip.
type skipError string

func (e skipError) Error() string { return string(e) }

// Unwrap makes errors.Is(err, crawl.ErrSkip) hold.
func (e skipError) Unwrap() error { return crawl.ErrSkip }

// goneError is the skip of a file deleted since it was listed; it matches
// crawl.ErrSkip and crawl.ErrGone.
type goneError string

func (e goneError) Error() string { return string(e) }

// Unwrap makes errors.Is(err, crawl.ErrSkip) and errors.Is(err, crawl.ErrGone) hold.
func (e goneError) Unwrap() []error { return []error{crawl.ErrSkip, crawl.ErrGone} }

// formatBytes renders a size limit for messages: "50 MB", "64 KB", "100 bytes".
func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
