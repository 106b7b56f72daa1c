package drive

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	drivev3 "google.golang.org/api/drive/v3"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"

	"github.com/gds-cli/gds/internal/i18n"
)

// MIME types of Google-native items.
const (
	MimeDoc      = "application/vnd.google-apps.document"
	MimeSheet    = "application/vnd.google-apps.spreadsheet"
	MimeSlides   = "application/vnd.google-apps.presentation"
	MimeShortcut = "application/vnd.google-apps.shortcut"
	googleApps   = "application/vnd.google-apps."
)

// Defaults of Options.
const (
	DefaultBatchFolders = 30   // folders per files.list query
	DefaultMaxQueryLen  = 3000 // characters of q, before URL encoding
	PageSize            = 100  // files.list caps pageSize at 100
)

// listFields are the fields a crawl needs from files.list.
const listFields = "nextPageToken,incompleteSearch,files(" + fileFields + ")"

// fileFields are the fields of one file a crawl needs.
const fileFields = "id,name,mimeType,modifiedTime,parents,size,md5Checksum,webViewLink,driveId,shortcutDetails,trashed"

// Options configure New.
type Options struct {
	// Endpoint overrides the Drive API endpoint (e.g. the emulator,
	// "http://127.0.0.1:8088"); "/drive/v3/" is appended when missing.
	// Empty means Google.
	Endpoint string
	// HTTPClient is an authorised client (OAuth). Nil means no
	// authentication, which only an Endpoint override accepts.
	HTTPClient *http.Client
	// Retry is the retry policy of every call (zero value: defaults).
	Retry RetryPolicy
	// BatchFolders is the number of folders listed by one files.list query
	// (<= 0: DefaultBatchFolders); MaxQueryLen bounds the q length
	// (<= 0: DefaultMaxQueryLen).
	BatchFolders int
	MaxQueryLen  int
}

// Client is a Drive v3 client whose every call goes through the retry
// policy.
type Client struct {
	svc      *drivev3.Service
	endpoint string // normalised; "" for Google
	retry    RetryPolicy
	batch    int
	maxQ     int
}

// New returns a client for the Drive API.
func New(ctx context.Context, o Options) (*Client, error) {
	var opts []option.ClientOption
	endpoint := NormalizeEndpoint(o.Endpoint)
	if endpoint != "" {
		opts = append(opts, option.WithEndpoint(endpoint))
	}
	switch {
	case o.HTTPClient != nil:
		opts = append(opts, option.WithHTTPClient(o.HTTPClient))
	case endpoint != "":
		opts = append(opts, option.WithoutAuthentication())
	default:
		return nil, errors.New("drive client: no authorised HTTP client for the Google Drive API")
	}
	svc, err := drivev3.NewService(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("drive client: %w", err)
	}
	c := &Client{svc: svc, endpoint: endpoint, retry: o.Retry.withDefaults(), batch: o.BatchFolders, maxQ: o.MaxQueryLen}
	if c.batch <= 0 {
		c.batch = DefaultBatchFolders
	}
	if c.maxQ <= 0 {
		c.maxQ = DefaultMaxQueryLen
	}
	return c, nil
}

// Endpoint returns the normalised API endpoint the client talks to ("" for
// Google's own).
func (c *Client) Endpoint() string { return c.endpoint }

// NormalizeEndpoint returns endpoint with the "/drive/v3/" path the client
// library needs (it resolves method paths relative to it); "" stays "".
func NormalizeEndpoint(endpoint string) string {
	e := strings.TrimRight(strings.TrimSpace(endpoint), "/")
	if e == "" {
		return ""
	}
	if !strings.HasSuffix(e, "/drive/v3") {
		e += "/drive/v3"
	}
	return e + "/"
}

// Folder is a resolved target folder.
type Folder struct {
	ID      string
	Name    string
	DriveID string // the Shared drive, "" in My Drive
}

// FolderProblem says why a target folder cannot be crawled.
type FolderProblem string

// The folder problems.
const (
	FolderNotFound     FolderProblem = "not_found"     // missing, or invisible to the user
	FolderNotAFolder   FolderProblem = "not_a_folder"  // the ID is a file
	FolderShortcut     FolderProblem = "shortcut"      // the ID is a shortcut to a folder
	FolderTrashed      FolderProblem = "trashed"       // the folder is in the trash
	FolderNoPermission FolderProblem = "no_permission" // Drive refused access
)

// FolderError is returned when a target folder cannot be crawled; it stops
// the crawl before any file is listed.
type FolderError struct {
	ID      string
	Problem FolderProblem
	Detail  string // the MIME type (not a folder) or the shortcut target ID
	Err     error  // the API error, if any
}

// Unwrap returns the API error.
func (e *FolderError) Unwrap() error { return e.Err }

// Error returns the English message.
func (e *FolderError) Error() string { return e.Message(i18n.En) }

// Message returns the error in lang (i18n.En or i18n.Ja), naming the folder
// ID, the reason and the fix.
func (e *FolderError) Message(lang string) string {
	switch e.Problem {
	case FolderNotAFolder:
		return i18n.T(lang, "drive.folder.not_a_folder", e.ID, e.Detail)
	case FolderShortcut:
		return i18n.T(lang, "drive.folder.shortcut", e.ID, e.Detail)
	case FolderTrashed:
		return i18n.T(lang, "drive.folder.trashed", e.ID)
	case FolderNoPermission:
		return i18n.T(lang, "drive.folder.no_permission", e.ID)
	default:
		return i18n.T(lang, "drive.folder.not_found", e.ID)
	}
}

// ResolveFolders checks every target folder (files.get with Shared drive
// support) and returns them in order. The first that is missing, not a
// folder, trashed or not permitted gives a *FolderError naming it.
func (c *Client) ResolveFolders(ctx context.Context, ids []string) ([]Folder, error) {
	out := make([]Folder, 0, len(ids))
	for _, id := range ids {
		var f *drivev3.File
		err := c.retry.doMeta(ctx, "get folder "+id, func(ctx context.Context) error {
			var err error
			f, err = c.svc.Files.Get(id).SupportsAllDrives(true).
				Fields("id,name,mimeType,trashed,driveId,shortcutDetails").Context(ctx).Do()
			return err
		})
		var (
			gerr *googleapi.Error
			rerr *RetryError
		)
		switch {
		case errors.As(err, &rerr):
			return nil, err // still rate limited or failing after every try: not the folder's fault
		case errors.As(err, &gerr) && gerr.Code == http.StatusNotFound:
			return nil, &FolderError{ID: id, Problem: FolderNotFound, Err: err}
		case errors.As(err, &gerr) && gerr.Code == http.StatusForbidden:
			return nil, &FolderError{ID: id, Problem: FolderNoPermission, Err: err}
		case err != nil: // 401 (token), network, cancellation
			return nil, err
		case f.MimeType == MimeShortcut && f.ShortcutDetails != nil && f.ShortcutDetails.TargetMimeType == FolderMimeType:
			return nil, &FolderError{ID: id, Problem: FolderShortcut, Detail: f.ShortcutDetails.TargetId}
		case f.MimeType != FolderMimeType:
			return nil, &FolderError{ID: id, Problem: FolderNotAFolder, Detail: f.MimeType}
		case f.Trashed:
			return nil, &FolderError{ID: id, Problem: FolderTrashed}
		}
		out = append(out, Folder{ID: f.Id, Name: f.Name, DriveID: f.DriveId})
	}
	return out, nil
}

// File is a file found by Walk.
type File struct {
	ID          string
	Name        string
	MimeType    string
	ModifiedAt  time.Time
	Size        int64
	MD5         string // hex; blobs only
	Parents     []string
	Path        string // folder path from the target folder, starting with its name: "Projects/Alpha"
	WebViewLink string
	DriveID     string
	ViaShortcut string // the shortcut's ID when the file was reached through one
}

// ErrIncompleteSearch means Drive answered a listing with
// incompleteSearch=true: some items may be missing, so the crawl stops
// rather than advance its checkpoint past files it never saw.
var ErrIncompleteSearch = errors.New("drive reported an incomplete listing (incompleteSearch); try again later")

// WalkStats counts the requests of a walk.
type WalkStats struct {
	Folders     int // folders visited, target folders included
	ListCalls   int // files.list pages fetched (retries not counted)
	Shortcuts   int // file shortcuts resolved to their target
	SkippedLink int // shortcuts skipped (to folders, or to missing, trashed or already seen targets)
	Refused     int // files of refused types (images, archives, ...) not offered to the crawl (Source.List)
}

// Walk lists the files (not folders) under the given folders, recursively,
// calling fn once per file. Folders are listed breadth-first, several per
// files.list query. With a non-zero since, only files modified strictly
// after it are reported, but every folder is still walked (a folder's
// modifiedTime does not change when a descendant does) and every shortcut
// is resolved (its target may have changed). Trashed items are excluded.
//
// Shortcuts to files are resolved: the target's metadata is fetched and
// the target is reported once, under its own ID, at the shortcut's folder
// path. Shortcuts to folders are skipped on purpose: they can lead outside
// the target tree or into cycles; add the folder itself as a target.
func (c *Client) Walk(ctx context.Context, roots []Folder, since time.Time, fn func(File) error) (WalkStats, error) {
	var filter Query
	if !since.IsZero() {
		filter = Or(IsFolder(), Compare(FieldMimeType, OpEq, MimeShortcut), ModifiedAfter(since))
	}
	return c.walk(ctx, roots, filter, since, nil, fn)
}

// Folders returns every folder of the trees under roots, the roots first,
// each with its path from its root (Folder.Name holds the path). The search
// loop uses it to restrict a Drive keyword search to the target folders.
func (c *Client) Folders(ctx context.Context, roots []Folder) ([]Folder, error) {
	out := make([]Folder, 0, len(roots))
	seen := map[string]bool{}
	for _, r := range roots {
		if !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, r)
		}
	}
	_, err := c.walk(ctx, roots, IsFolder(), time.Time{}, func(f Folder) { out = append(out, f) }, nil)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// walk is the breadth-first batched walk behind Walk and Folders: filter is
// added to every query, onFolder (if set) sees each folder found below the
// roots, fn (if set) each file.
func (c *Client) walk(ctx context.Context, roots []Folder, filter Query, since time.Time, onFolder func(Folder), fn func(File) error) (WalkStats, error) {
	var st WalkStats
	type dir struct{ id, path string }
	queue := make([]dir, 0, len(roots))
	seenDir := map[string]bool{}
	for _, r := range roots {
		if !seenDir[r.ID] {
			seenDir[r.ID] = true
			queue = append(queue, dir{r.ID, r.Name})
		}
	}
	st.Folders = len(queue)
	seenFile := map[string]bool{}
	for len(queue) > 0 {
		// Take as many folders as fit the batch and the query length.
		n, paths := 0, map[string]string{}
		var ids []string
		for n < len(queue) && n < c.batch {
			cand := append(ids, queue[n].id)
			if n > 0 && len(And(InParents(cand...), NotTrashed(), filter).String()) > c.maxQ {
				break
			}
			ids = cand
			paths[queue[n].id] = queue[n].path
			n++
		}
		queue = queue[n:]
		q := And(InParents(ids...), NotTrashed(), filter)
		err := c.list(ctx, q, &st, func(f *drivev3.File) error {
			if f.Trashed {
				return nil
			}
			parentPath := ""
			for _, p := range f.Parents {
				if pp, ok := paths[p]; ok {
					parentPath = pp
					break
				}
			}
			if f.MimeType == FolderMimeType {
				if !seenDir[f.Id] {
					seenDir[f.Id] = true
					st.Folders++
					path := joinPath(parentPath, f.Name)
					queue = append(queue, dir{f.Id, path})
					if onFolder != nil {
						onFolder(Folder{ID: f.Id, Name: path, DriveID: f.DriveId})
					}
				}
				return nil
			}
			if fn == nil {
				return nil
			}
			if f.MimeType == MimeShortcut {
				t, ok, err := c.shortcutTarget(ctx, f, seenFile)
				if err != nil {
					return err
				}
				if !ok {
					st.SkippedLink++
					return nil
				}
				st.Shortcuts++
				seenFile[t.Id] = true
				if !since.IsZero() && !parseTime(t.ModifiedTime).After(since) {
					return nil
				}
				out := fileOf(t, parentPath)
				out.ViaShortcut = f.Id
				return fn(out)
			}
			if seenFile[f.Id] {
				return nil
			}
			seenFile[f.Id] = true
			return fn(fileOf(f, parentPath))
		})
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

// shortcutTarget fetches the target of a file shortcut. ok is false for
// shortcuts that are skipped: to folders, to targets already reported, to
// targets that are missing, not visible or trashed.
func (c *Client) shortcutTarget(ctx context.Context, f *drivev3.File, seen map[string]bool) (*drivev3.File, bool, error) {
	d := f.ShortcutDetails
	if d == nil || d.TargetId == "" || d.TargetMimeType == FolderMimeType || seen[d.TargetId] {
		return nil, false, nil
	}
	var t *drivev3.File
	err := c.retry.doMeta(ctx, "get shortcut target "+d.TargetId, func(ctx context.Context) error {
		var err error
		t, err = c.svc.Files.Get(d.TargetId).SupportsAllDrives(true).Fields(fileFields).Context(ctx).Do()
		return err
	})
	var gerr *googleapi.Error
	if errors.As(err, &gerr) && (gerr.Code == http.StatusNotFound || gerr.Code == http.StatusForbidden) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if t.Trashed || t.MimeType == FolderMimeType || t.MimeType == MimeShortcut {
		return nil, false, nil
	}
	return t, true, nil
}

// Search lists every file matching q across My Drive and Shared drives
// (trashed files only when q allows them), calling fn per file. It is the
// keyword search of the search loop; build q with this package's builder.
func (c *Client) Search(ctx context.Context, q Query, fn func(File) error) error {
	var st WalkStats
	return c.listOp(ctx, "full-text search", q, &st, func(f *drivev3.File) error { return fn(fileOf(f, "")) })
}

// list runs files.list over every page of q.
func (c *Client) list(ctx context.Context, q Query, st *WalkStats, fn func(*drivev3.File) error) error {
	return c.listOp(ctx, "list folder contents", q, st, fn)
}

// listOp is list with op naming the call in errors.
func (c *Client) listOp(ctx context.Context, op string, q Query, st *WalkStats, fn func(*drivev3.File) error) error {
	token := ""
	for {
		var res *drivev3.FileList
		err := c.retry.doMeta(ctx, op, func(ctx context.Context) error {
			call := c.svc.Files.List().Q(q.String()).PageSize(PageSize).Fields(listFields).
				SupportsAllDrives(true).IncludeItemsFromAllDrives(true).Corpora("allDrives")
			if token != "" {
				call = call.PageToken(token)
			}
			var err error
			res, err = call.Context(ctx).Do()
			if err == nil && res.IncompleteSearch {
				return fmt.Errorf("%w (%w)", ErrIncompleteSearch, errTransient)
			}
			return err
		})
		if err != nil {
			return err
		}
		st.ListCalls++
		for _, f := range res.Files {
			if err := fn(f); err != nil {
				return err
			}
		}
		if res.NextPageToken == "" {
			return nil
		}
		token = res.NextPageToken
	}
}

func fileOf(f *drivev3.File, path string) File {
	return File{
		ID: f.Id, Name: f.Name, MimeType: f.MimeType, ModifiedAt: parseTime(f.ModifiedTime),
		Size: f.Size, MD5: f.Md5Checksum, Parents: f.Parents, Path: path, WebViewLink: f.WebViewLink, DriveID: f.DriveId,
	}
}

func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

func joinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "/" + name
}

// ErrChanged means a download's content is not the one that was listed
// (its MD5 checksum differs): the file changed in between.
var ErrChanged = errors.New("file changed since it was listed")

// ErrTooLarge wraps a refusal to read content over the size limit.
var ErrTooLarge = errors.New("file is larger than the size limit")

// Download returns the content of a blob file (alt=media), at most
// maxBytes (ErrTooLarge beyond). When wantMD5 (hex) is given, a body whose
// checksum differs gives ErrChanged.
func (c *Client) Download(ctx context.Context, id string, maxBytes int64, wantMD5 string) ([]byte, error) {
	return c.fetch(ctx, "download "+id, maxBytes, wantMD5, func(ctx context.Context) (*http.Response, error) {
		return c.svc.Files.Get(id).SupportsAllDrives(true).Context(ctx).Download()
	})
}

// Export returns a Google-native file exported as mimeType (files.export),
// at most maxBytes. Drive refuses exports over 10 MB with 403
// exportSizeLimitExceeded.
func (c *Client) Export(ctx context.Context, id, mimeType string, maxBytes int64) ([]byte, error) {
	return c.fetch(ctx, "export "+id, maxBytes, "", func(ctx context.Context) (*http.Response, error) {
		return c.svc.Files.Export(id, mimeType).Context(ctx).Download()
	})
}

func (c *Client) fetch(ctx context.Context, op string, maxBytes int64, wantMD5 string, get func(context.Context) (*http.Response, error)) ([]byte, error) {
	var body []byte
	err := c.retry.do(ctx, op, func(ctx context.Context) error {
		res, err := get(ctx)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if maxBytes > 0 && res.ContentLength > maxBytes {
			return fmt.Errorf("%w (%d bytes, limit %d)", ErrTooLarge, res.ContentLength, maxBytes)
		}
		r := io.Reader(res.Body)
		if maxBytes > 0 {
			r = io.LimitReader(res.Body, maxBytes+1)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			return fmt.Errorf("read body: %w", err)
		}
		if maxBytes > 0 && int64(len(b)) > maxBytes {
			return fmt.Errorf("%w (limit %d bytes)", ErrTooLarge, maxBytes)
		}
		if res.ContentLength >= 0 && int64(len(b)) != res.ContentLength {
			return fmt.Errorf("body of %d bytes, announced %d: %w", len(b), res.ContentLength, errTransient)
		}
		if wantMD5 != "" {
			sum := md5.Sum(b)
			if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, wantMD5) {
				// A damaged body shows up as a length mismatch above; a body
				// of the announced length with another checksum is newer
				// content than was listed. Fail it now: the next crawl lists
				// it again with its new checksum.
				return fmt.Errorf("%w (checksum %s, listed %s)", ErrChanged, got, wantMD5)
			}
		}
		body = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	return body, nil
}
